#!/bin/sh
# SPDX-License-Identifier: MIT
# Makes DIR hold SONiC's own YANG models for the lossless-RoCE config_db
# tables, the set the tests validate against (docs/testing.md): 19 models and
# LICENSE as they are in sonic-net/sonic-buildimage at one commit, and the two
# that SONiC's build renders from Jinja2 templates (sonic-types,
# sonic-extension), rendered as src/sonic-yang-models/setup.py does it for
# the "py" flavour. Every file is checked against its git blob id; nothing is
# left in DIR unless all 22 match. They are SONiC's code (Apache-2.0, LICENSE),
# which is why the repository does not carry them. Then:
#   SONIC_YANG_DIR=DIR make test
# Usage: get-sonic-yang.sh DIR [SOURCE]
#   SOURCE: a git repository (a clone, or a bare copy) of sonic-buildimage
#   that holds the commit; by default the commit alone is fetched from
#   https://github.com/sonic-net/sonic-buildimage (git, a network).
# Needs git and python3 with Jinja2 (Debian: python3-jinja2).
set -u
commit=086b03bd70f9e211aaaf5f6aefe0790b508d2a94
url=https://github.com/sonic-net/sonic-buildimage
fail() {
	echo "get-sonic-yang: $*" >&2
	exit 1
}
[ $# -ge 1 ] && [ $# -le 2 ] || {
	echo "usage: get-sonic-yang.sh DIR [SONIC_BUILDIMAGE_GIT_REPOSITORY]" >&2
	exit 2
}
dir=$1
command -v git >/dev/null || fail "git is missing (apt-get install git)"
python3 -c 'import jinja2' 2>/dev/null || fail "python3's Jinja2 is missing (apt-get install python3-jinja2)"
tmp=$(mktemp -d) || exit 3
trap 'rm -rf "$tmp"' EXIT INT TERM
if [ $# -eq 2 ]; then
	git_dir=$2
else
	# The one commit, its trees only; the blobs below come on demand.
	git_dir=$tmp/repo
	git init -q --bare "$git_dir" &&
		git -C "$git_dir" fetch -q --depth 1 --filter=blob:none "$url" "$commit" ||
		fail "cannot fetch $commit from $url"
fi
git -C "$git_dir" cat-file -e "$commit^{commit}" 2>/dev/null || fail "$git_dir has no commit $commit"

# NAME BLOB: the file's git blob id in SONiC's tree (or, for the two rendered
# ones, of the rendered file); from the commit above.
cat >"$tmp/manifest" <<'EOF'
LICENSE cf593b111eabc1998bd3fd0b9b09ab684012154e
sonic-buffer-pg.yang 6e6c328e65d92d9e72c78c10823442bdd90bc9e4
sonic-buffer-pool.yang 82ffe6eed4a550eed721f71a18e10e3fdc50b4f3
sonic-buffer-profile.yang eda75d62533d8b64be313f34161d00a0e210be11
sonic-buffer-queue.yang ce9a8dfecaf94de1da4da2d73308911498c47532
sonic-cable-length.yang c61c57736cd4a8bf1c888b7decd37ad2023fc194
sonic-device_metadata.yang d886e5832c355bd3c5638d0a05c901408ce6c8f6
sonic-dot1p-tc-map.yang cb0d92bd0c43bbbbe750a6078159553832c25312
sonic-dscp-tc-map.yang c3afd4b29ce0d92bd5606a3e3c25817dc02e35b7
sonic-macsec.yang aeef8c1282bebda0df3afb4403e9352bbb5f43ba
sonic-pfc-priority-priority-group-map.yang 2ffacf17b21713c421183b3ca80f20a1e267a084
sonic-pfc-priority-queue-map.yang 0d4794a3a4db22c1dd96d55ea7b9353ddb11ed5c
sonic-port-qos-map.yang 2c8180a7a2b0aa81f90e9baf88aef4ea278eaaed
sonic-port.yang d6277b46186b6a23fd194d2996c8df606fc57baa
sonic-queue.yang 5f4db152c0271c7e612db8de9b5fa6aa993ec695
sonic-scheduler.yang ff30fbc7681ea5ae5381d7cbf19c39c03b8ae331
sonic-tc-dscp-map.yang 7e40e7100757c2f04386c8206a6954e002191e3a
sonic-tc-priority-group-map.yang eb986e8fdfcfba4464c3b550d7d2f6640bb408e1
sonic-tc-queue-map.yang 57c452cbea6e00181561e1d18a3fecef29340067
sonic-wred-profile.yang b524a206a2ddbb684d71b85826ff61fb822e6ab3
sonic-extension.yang 48cac8925e920103141188a3495afdc021da131b
sonic-types.yang 92e3cc501c5661c65f2707ec19b3d4f7d678e704
EOF
mkdir -p "$tmp/out" "$tmp/templates"
src=src/sonic-yang-models
while read -r name blob; do
	case $name in
	LICENSE) path=$src/LICENSE ;;
	sonic-extension.yang | sonic-types.yang) path=$src/yang-templates/$name.j2 ;;
	*) path=$src/yang-models/$name ;;
	esac
	case $path in
	*.j2) out=$tmp/templates/$name.j2 ;;
	*) out=$tmp/out/$name ;;
	esac
	git -C "$git_dir" show "$commit:$path" >"$out" || fail "no $path at $commit"
done <"$tmp/manifest"
# setup.py's my_build_py: Environment(loader=FileSystemLoader, trim_blocks=True),
# render(yang_model_type="py"), written with open(..., 'w').
python3 - "$tmp/templates" "$tmp/out" <<'PY' || fail "rendering the templates failed"
import glob, os, sys
import jinja2
env = jinja2.Environment(loader=jinja2.FileSystemLoader(sys.argv[1]), trim_blocks=True)
for path in sorted(glob.glob(os.path.join(sys.argv[1], "*.yang.j2"))):
    name = os.path.basename(path)[: -len(".j2")]
    with open(os.path.join(sys.argv[2], name), "w") as f:
        f.write(env.get_template(os.path.basename(path)).render(yang_model_type="py"))
PY
bad=
while read -r name blob; do
	got=$(git hash-object "$tmp/out/$name")
	[ "$got" = "$blob" ] || bad="$bad $name($got)"
done <"$tmp/manifest"
[ -z "$bad" ] || fail "not the expected bytes:$bad"
mkdir -p "$dir" || fail "cannot make $dir"
cp "$tmp"/out/* "$dir/" || fail "cannot write into $dir"
echo "get-sonic-yang: $(wc -l <"$tmp/manifest") files of sonic-buildimage ${commit%"${commit#???????????}"} in $dir; now: SONIC_YANG_DIR=$(cd "$dir" && pwd) make test"
