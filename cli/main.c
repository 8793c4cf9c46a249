/* SPDX-License-Identifier: MIT */
/*
 * qosgen's command line: one row per command, git-style; only main() exits.
 * Exit codes (docs/qosgen.1): 0 ok, 1 invalid intent or `--check` found
 * differences (or no output tree to compare), 2 usage, 3 I/O or system error.
 * The commands themselves live in cli/cmd_*.c, what they share in cli/cli.c.
 */
#include "cli.h"
#include "cmd_build.h"
#include "cmd_push.h"
#include "cmd_verify.h"

#include "../model/names.h"
#include "../lib/version.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *usage;
	const char *help;
};

static const struct command *find_command(const char *name);

const char *cli_usage(const char *cmd)
{
	return find_command(cmd)->usage;
}

static bool wants_help(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return true;
	return false;
}

static int print_help(const char *cmd)
{
	const struct command *c = find_command(cmd);
	printf("usage: %s\n\n%s", c->usage, c->help);
	return EXIT_OK;
}

static int cmd_help(int argc, char **argv);

static const struct command commands[] = {
    {"build", cmd_build, "qosgen build INTENT [-o DIR] [--check] [--templates DIR] [--strict]",
     "Compile INTENT into every device's settings under DIR (default: out):\n"
     "  onyx/<switch>.cli          an Onyx switch's commands\n"
     "  nvue/<switch>.yaml, .json, .nv\n"
     "                             a Cumulus switch: NVUE startup fragment, REST API body,\n"
     "                             nv set commands\n"
     "  sonic/<switch>.json        a SONiC switch's config_db tables\n"
     "  host/lib/<platform>.sh, host/hosts/<platform>.sh, host/groups/<group>.sh\n"
     "                             the host scripts (below)\n"
     "  host/persist/<netdev>/<rdma>.service, .rules\n"
     "                             a Linux host's systemd unit and udev rule (persist)\n"
     "  dvs/<dvs>.xml, dvs/<dvs>.govc.sh\n"
     "                             a DVS's vSphere request body and govc script\n"
     "  ansible/inventory.yml, ansible/site.yml\n"
     "                             the Ansible hand-off (docs/ansible.md)\n"
     "  plan.json                  every device's settings and files, the hosts' groups\n"
     "A host's script is host/lib/<platform>.sh, its line of host/hosts/<platform>.sh and\n"
     "host/groups/<group>.sh run as one (host/hosts/<platform>.sh shows the command).\n"
     "The directory is replaced as a whole, atomically; on any error nothing is written.\n\n"
     "  -o, --output DIR   where to write (an existing DIR must be empty or hold a plan.json)\n"
     "  --check            write nothing; exit 1 with a unified diff if DIR differs, or\n"
     "                     with one line if DIR holds no output tree (no plan.json)\n"
     "  --templates DIR    use DIR/<name>.in instead of the built-in templates\n"
     "  --strict           treat warnings as errors (not those the intent acknowledges)\n"},
    {"check", cmd_check, "qosgen check INTENT [--strict]",
     "Validate INTENT and report every problem in compiler form; write nothing.\n\n"
     "  --strict           treat warnings as errors (not those the intent acknowledges)\n"},
    {"explain", cmd_explain, "qosgen explain INTENT [--host NAME | --switch NAME] [--json]",
     "Print the normalised intent: every value with its source (given, default, derived)\n"
     "and the reason for each default and derived value, then what each device gets.\n"
     "Alike hosts (one group of the build) print once per group, with a table of their\n"
     "names and addresses.\n\n"
     "  --host NAME        only that host's rows, its group's name among them\n"
     "  --switch NAME      only that switch's rows\n"
     "  --json             the same rows as JSON, every host's, and the groups\n"},
    {"diff", cmd_diff,
     "qosgen diff INTENT (--switch NAME [--running-config FILE] | --host NAME | --dvs NAME |\n"
     "       --all) [--exit-code] [--json]\n"
     "       [--known-hosts FILE] [--accept-new] [--identity FILE] [--ssh-config FILE]\n"
     "       [--timeout S] [--accept-hostname] [--ca-file FILE] [--insecure] [--allow-http]\n"
     "       [--templates DIR] [--ask-password]",
     "Print what differs between the devices and the intent, reading them over SSH: for a\n"
     "switch the fewest commands, ranges compressed as Onyx prints them; for a host the\n"
     "settings that would change. Nothing is printed when in sync, and nothing is changed.\n"
     "With --running-config FILE, compare a saved 'show running-config' instead ('-' or\n"
     "/dev/stdin: standard input). A read-back that is not a running-config (empty, binary,\n"
     "UTF-16) or that holds what qosgen cannot judge (advanced buffer mode, a split the\n"
     "intent's ports disagree with, a QoS line qosgen does not model on an intent port,\n"
     "another lossless priority) is refused with its line: exit 3, nothing proposed.\n\n"
     "  --exit-code        exit 1 when there are differences (as git diff --exit-code)\n"
     "  --json             the differences as JSON on stdout (docs/json.md)\n"
     "  the other options: as for push\n"},
    {"push", cmd_push,
     "qosgen push INTENT (--switch NAME | --host NAME | --dvs NAME | --all) [-j N] [--dry-run]\n"
     "       [--json] [--ca-file FILE] [--insecure] [--allow-http]\n"
     "       [--known-hosts FILE]"
     " [--accept-new] [--identity FILE] [--ssh-config FILE] [--timeout S] [--templates DIR]\n"
     "       [--accept-hostname] [--uninstall] [--ask-password] [--batch N] [--verify]\n"
     "       [--verify-port N]",
     "Bring the devices to the intent over SSH, sending only what differs: a second push of an\n"
     "unchanged intent sends nothing. Before changing a switch it saves a named copy of its\n"
     "configuration on the switch; if a line is refused or the session drops, it rolls back\n"
     "what it applied (reconnecting if needed) and says in which state the switch is left.\n"
     "A host gets its script (its three files as one) over the session, run by sh, which\n"
     "changes only what differs and reports each setting; a missing tool or knob is\n"
     "reported, not fatal to the rest. A Linux host with persist: true (the default) also\n"
     "gets the script, a systemd unit and a udev rule installed\n"
     "(/usr/local/lib/qosgen/roce-qos-NETDEV.sh,\n"
     "/etc/systemd/system/qosgen-roce-qos-NETDEV@.service,\n"
     "/etc/udev/rules.d/90-qosgen-roce-qos-NETDEV.rules), so that its settings come back\n"
     "when the NIC does (boot, driver reload, reset); 'persist' is then one of its settings.\n"
     "A DVS goes through the vSphere API (HTTPS to vCenter): its maxMtu with the\n"
     "configVersion just read (retried if someone changed the switch meanwhile), and on its\n"
     "hosts Net.PVRDMAVmknic and the pvrdma firewall ruleset. vCenter and credentials as\n"
     "govc takes them: $GOVC_URL (else the intent's vcenter), $GOVC_USERNAME,\n"
     "$GOVC_PASSWORD, $GOVC_INSECURE, $GOVC_TLS_CA_CERTS; never on the command line.\n"
     "A Cumulus switch goes through the NVUE REST API (HTTPS, port 8765 unless the intent\n"
     "says): a revision, a merge patch, apply, read back, save; rolled back with the inverse\n"
     "patch. The user is the intent's, else $QOSGEN_NVUE_USER; the password\n"
     "$QOSGEN_NVUE_PASSWORD or --ask-password. --ca-file and --insecure apply to it too.\n\n"
     "  --switch NAME      one switch; --host NAME: one host; --dvs NAME: one distributed\n"
     "                     switch; --all: every device\n"
     "  --ca-file FILE     the CA of vCenter's or NVUE's certificate (default: the\n"
     "                     system's CAs)\n"
     "  --insecure         do not check vCenter's or NVUE's certificate (loudly; not\n"
     "                     recommended)\n"
     "  --allow-http       accept an http:// GOVC_URL: the vSphere password then crosses\n"
     "                     the network in clear text (loudly; without it, refused)\n"
     "  -j, --jobs N       devices in parallel (default 4)\n"
     "  --batch N          with --all: in waves of N devices, switches first, then DVSes,\n"
     "                     then hosts, each in the intent's order; the first wave with a\n"
     "                     device not in sync or converged stops the push, the later\n"
     "                     waves untouched (docs/ansible.md: which order keeps traffic\n"
     "                     lossless)\n"
     "  --verify           with --all: after each wave that converged, run the intent's\n"
     "                     verify pairs whose two hosts are now pushed, each once, as\n"
     "                     qosgen verify does (without --batch: once, after the push); a\n"
     "                     pair with a FATAL check or that cannot run stops the push, the\n"
     "                     later waves untouched, and the exit is verify's (1 or 3)\n"
     "  --verify-port N    the traffic test's TCP port for its out-of-band exchange, as\n"
     "                     verify takes it (18515)\n"
     "  --dry-run          read back and print what would be sent; send nothing\n"
     "  --json             results as JSON on stdout (docs/json.md)\n"
     "  --known-hosts FILE host keys (default ~/.ssh/known_hosts); unknown keys are refused\n"
     "  --accept-new       record an unknown host key on first use (a changed key is always\n"
     "                     refused)\n"
     "  --identity FILE    private key; default ssh-agent and ~/.ssh/config's IdentityFile\n"
     "  --ssh-config FILE  instead of ~/.ssh/config (HostName, User, Port, IdentityFile)\n"
     "  --timeout S        connect, handshake and each command or request (default 120)\n"
     "  --templates DIR    host script templates, as for build\n"
     "  --accept-hostname  go on when a switch's running-config names another hostname\n"
     "                     (default: that switch is refused, nothing sent)\n"
     "  --ask-password     ask for the password on the terminal (SSH, or NVUE's)\n"
     "  --uninstall        hosts only: remove exactly those installed files (and their\n"
     "                     directory when empty), change no setting\n"
     "A password comes only from that prompt, $QOSGEN_SSH_PASSWORD or $QOSGEN_NVUE_PASSWORD,\n"
     "never from the command line, and is never written anywhere.\n"
     "Exit 3 when any device failed.\n"},
    {"probe", cmd_probe,
     "qosgen probe -d DEV (--server | SERVER_ADDRESS) [--tclass N] [-s SIZE] [-n ITERS]\n"
     "       [-x GID_INDEX] [--ib-port P] [-p TCP_PORT] [--default-path [--source ADDR]]",
     "An RC RDMA WRITE bandwidth test that speaks perftest 4.5's out-of-band protocol:\n"
     "either side may be an unmodified ib_write_bw (same -s on both). --tclass sets the\n"
     "GRH traffic class (106 = DSCP 26 with ECT(0)). Prints the result as JSON.\n"
     "--default-path: the path of a job that sets no traffic class: -n UD datagrams\n"
     "(default 50) through rdma_cm with no ToS set; the server prints the ToS each\n"
     "arrived with, read from its IP header (verify runs it on every pair). --source:\n"
     "the client's own address, so the route leaves through that NIC.\n"},
    {"verify", cmd_verify,
     "qosgen verify INTENT [--pair CLIENT:SERVER] [--json] [-p TCP_PORT]\n"
     "       [--known-hosts FILE] [--accept-new] [--identity FILE] [--ssh-config FILE]\n"
     "       [--timeout S] [--ask-password]",
     "Prove the QoS path with RDMA traffic: for every pair of the intent's verify.pairs,\n"
     "over SSH, run an RC RDMA WRITE test (qosgen probe on the hosts, else ib_write_bw)\n"
     "with the traffic class the client host really applies (rdma_cm's default_roce_tos,\n"
     "read back), and judge it against the intent, one line per check:\n"
     "  bandwidth >= min_gbps; path MTU (both hosts' active MTU and netdev MTU);\n"
     "  RoCE marking on each host (ToS = DSCP << 2 | ECT(0)); loss and retransmission\n"
     "  counters that rose during the run; ECN and CNP counters (reported); the default\n"
     "  path: datagrams that set no traffic class (the probe's default-path mode), judged\n"
     "  by the ToS the receiver saw, as a job that sets none (NCCL without NCCL_IB_TC)\n"
     "  sends.\n"
     "Each check is PASS, MARGINAL or FATAL; a summary follows each pair.\n\n"
     "  --pair C:S         one pair, by host names\n"
     "  --json             the results as JSON on stdout (docs/json.md)\n"
     "  -p, --port N       the test's TCP port for the out-of-band exchange (18515)\n"
     "  --known-hosts, --accept-new, --identity, --ssh-config, --timeout, --ask-password:\n"
     "                     as for push; hosts are reached at their intent address.\n"
     "Exit 0 when nothing is FATAL, 1 when a check is FATAL, 3 when a host could not be\n"
     "reached or the test could not run.\n"},
    {"help", cmd_help, "qosgen help [COMMAND]", "Show help for qosgen or one COMMAND.\n"},
    {NULL, NULL, NULL, NULL},
};

static const struct command *find_command(const char *name)
{
	for (const struct command *c = commands; c->name; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

static int main_help(FILE *f)
{
	fprintf(
	    f,
	    "usage: qosgen COMMAND [ARGS]\n\n"
	    "qosgen compiles one lossless-RoCE intent into switch, host and vSphere settings.\n\n"
	    "commands:\n");
	for (const struct command *c = commands; c->name; c++)
		fprintf(f, "  %s\n", c->usage);
	fprintf(f, "\n'qosgen COMMAND --help' for one command; 'qosgen --version'.\n"
		   "exit codes: 0 ok, 1 invalid intent or differences, 2 usage, 3 I/O or system "
		   "error\n");
	return EXIT_OK;
}

static int cmd_help(int argc, char **argv)
{
	if (argc < 2)
		return main_help(stdout);
	if (!find_command(argv[1])) {
		fprintf(stderr, "qosgen help: '%s' is not a qosgen command\n", argv[1]);
		return EXIT_USAGE;
	}
	return print_help(argv[1]);
}

int main(int argc, char **argv)
{
	opterr = 0;
	if (argc < 2) {
		main_help(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("%s\n", QG_GENERATOR);
		return EXIT_OK;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
		return main_help(stdout);
	const struct command *c = find_command(argv[1]);
	if (!c) {
		const char *near = NULL;
		size_t best = 3;
		for (const struct command *k = commands; k->name; k++) {
			size_t d = qg_edit_distance(argv[1], k->name);
			if (d < best) {
				best = d;
				near = k->name;
			}
		}
		fprintf(stderr, "qosgen: '%s' is not a qosgen command%s%s%s; see 'qosgen --help'\n",
			argv[1], near ? " (did you mean '" : "", near ? near : "",
			near ? "'?)" : "");
		return EXIT_USAGE;
	}
	if (wants_help(argc - 1, argv + 1))
		return print_help(c->name);
	return c->run(argc - 1, argv + 1);
}
