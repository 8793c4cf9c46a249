# SPDX-License-Identifier: MIT
"""One cause, one message (issue 37), as a property: take valid intents (the
goldens `qosgen check` accepts), make one mistake of each kind the checker
knows, and require exactly one `error:` line, at the mistake's line.

Usage: one_cause.py QOSGEN TOP. Prints FAIL lines, then "N one-cause cases
passed, M failed (K kinds)"; exit 1 on a failure, or when fewer than ten kinds
found an intent to apply to (the test would no longer test much).
"""
import os
import re
import subprocess
import sys
import tempfile

# The goldens, and gpu-8nic whose pair is verified on two rails: a refused NIC
# range must not be judged again by the rails (issue 37's first cascade).
INTENTS = [("gpu-8nic", None), ("gpu-8nic", ("min_gbps: 90}", "min_gbps: 90, rails: [0, 7]}")),
           ("sonic-roles", None), ("cumulus-roles", None), ("onyx-roles", None),
           ("mixed-onyx-cumulus", None), ("rdg-vsphere", None), ("sonic-fabric", None),
           ("cumulus-fabric", None)]


def sub(pattern, repl, flags=0):
    """A mistake made by replacing pattern's first match; it lies on the line of
    the group `at` when the pattern has one, else of the match."""
    rx = re.compile(pattern, flags)

    def mutate(text):
        m = rx.search(text)
        if not m:
            return None
        at = m.start("at") if "at" in rx.groupindex else m.start()
        return text[:m.start()] + m.expand(repl) + text[m.end():], text.count("\n", 0, at) + 1
    return mutate


def first_of(*mutations):
    """The first of mutations that applies."""
    def mutate(text):
        for f in mutations:
            r = f(text)
            if r:
                return r
        return None
    return mutate


def only_if(needle, mutation):
    """mutation, for intents that hold needle (a platform the mistake needs)."""
    return lambda text: mutation(text) if re.search(needle, text) else None


def same_name():
    """The second switch named as the first."""
    rx = re.compile(r"(?s)^switches:\n.*?name: ([\w-]+).*?\n  - (?:\{name|name): (?P<at>[\w-]+)",
                    re.M)

    def mutate(text):
        m = rx.search(text)
        if not m:
            return None
        return (text[:m.start("at")] + m.group(1) + text[m.end("at"):],
                text.count("\n", 0, m.start("at")) + 1)
    return mutate


def switch_key(key_value):
    """key_value given to the first switch, flow or block style."""
    return first_of(
        sub(r"(?m)^(?P<at>  - \{name: [\w-]+, platform: \w+,)", r"\g<at> " + key_value + ","),
        sub(r"(?m)^(    platform: (?:onyx|cumulus|sonic)\n)(?P<at>)", r"\1    " + key_value + "\n"))


KINDS = {
    # Ranges a switch OS cannot read: SONiC's without its step, others backwards.
    "bad-port-range": first_of(sub(r"(?P<at>Ethernet0-60/4)", "Ethernet0-60"),
                               sub(r"(?P<at>swp1-32)", "swp1-32-"),
                               sub(r"(?P<at>1/1-1/32)", "1/1-1/")),
    "bad-host-range": sub(r"(?P<at>gpu-\[001-004\])", "gpu-[004-001]"),
    "unequal-nic-ranges": sub(r'(?P<at>"mlx5_\[0-7\]")', '"mlx5_[0-2]"'),
    "ets-weight-too-big": sub(r"(?P<at>ets: \{mode: wrr, weight: )50\}", r"\g<at>97}"),
    "ets-sum-over-100": only_if(r"(?m)^  lossless:\n(?:    (?!ets).*\n)+  cnp",
                                sub(r"(?P<at>cnp: \{priority: 6, dscp: 48, ets: )strict\}",
                                    r"\g<at>{mode: wrr, weight: 60}}")),
    "dscp-out-of-range": sub(r"(?P<at>dscp: \[)26\]", r"\g<at>64]"),
    "dscp-not-on-priority": only_if(r"platform: (onyx|esxi)",
                                    sub(r"(?P<at>dscp: \[)26\]", r"\g<at>34]")),
    "priority-out-of-range": sub(r"(?m)^(?P<at>    priority: )3$", r"\g<at>8"),
    "role-key-misspelt": sub(r"(?P<at>\{ports: [^\n]*?)cable_length_m", r"\g<at>cable_lenght_m"),
    "role-port-not-on-switch": first_of(sub(r"(?P<at>\{ports: \[)Ethernet0-28/4", r"\g<at>Ethernet400"),
                                        sub(r"(?P<at>\{ports: )swp1-16,", r"\g<at>swp60,"),
                                        sub(r"(?P<at>\{ports: )1/1-1/16,", r"\g<at>1/60,")),
    "duplicate-switch-name": same_name(),
    "bad-os-version": switch_key('os_version: "0.1"'),
    "bad-model": switch_key("model: SN9999"),
    "mtu-out-of-range": sub(r"(?m)^(?P<at>  mtu: )9000$", r"\g<at>99999"),
    "rail-beyond-nics": sub(r"(?P<at>min_gbps: 90)\}", r"\g<at>, rails: [8]}"),
    "unknown-platform": sub(r"(?P<at>platform: )cumulus", r"\g<at>cumulux"),
    "qos-key-misspelt": sub(r"(?m)^(?P<at>  )cnp:", r"\g<at>cpn:"),
}


def main():
    qosgen, top = sys.argv[1], sys.argv[2]
    passed = failed = 0
    used = set()
    with tempfile.TemporaryDirectory() as tmp:
        for name, tweak in INTENTS:
            with open(os.path.join(top, "tests/golden", name, "intent.yaml")) as f:
                base = f.read()
            if tweak:
                assert tweak[0] in base, tweak
                base = base.replace(tweak[0], tweak[1], 1)
                name += "+rails"
            for kind, mutate in KINDS.items():
                r = mutate(base)
                if not r:
                    continue
                text, line = r
                used.add(kind)
                path = os.path.join(tmp, "intent.yaml")
                with open(path, "w") as f:
                    f.write(text)
                p = subprocess.run([qosgen, "check", path], capture_output=True, text=True)
                errors = [e for e in p.stderr.splitlines() if ": error: " in e]
                at = [e for e in errors if e.startswith("%s:%d:" % (path, line))]
                if p.returncode == 1 and len(errors) == 1 and len(at) == 1:
                    passed += 1
                    continue
                failed += 1
                print("FAIL one-cause %s/%s: exit %d, %d errors, wanted one at line %d:"
                      % (name, kind, p.returncode, len(errors), line))
                for e in errors or p.stderr.splitlines()[:3]:
                    print("    " + e.replace(path, "intent.yaml"))
    missing = sorted(set(KINDS) - used)
    if missing:
        failed += 1
        print("FAIL one-cause: no intent took the mistakes " + ", ".join(missing))
    print("%d one-cause cases passed, %d failed (%d kinds)" % (passed, failed, len(used)))
    return 0 if failed == 0 and len(used) >= 10 else 1


if __name__ == "__main__":
    sys.exit(main())
