/* SPDX-License-Identifier: MIT */
/*
 * onyx-sim: an Onyx (MLNX-OS) CLI simulator, a test tool. A real OpenSSH sshd
 * runs it as ForceCommand; clients (qosgen, Ansible's mellanox.onyx) drive it
 * over a PTY exactly as they drive a switch. Tests also pipe lines into it:
 *   printf 'enable\nconfigure terminal\n...\nexit\nshow running-config\n' |
 *       onyx-sim --state DIR
 *
 * Faithful to what shared/notes/onyx-cli-protocol.md records of the real CLI:
 *  - prompts "HOST [standalone: master] > ", "... # ", "... (config) # ",
 *    "... (config interface ethernet 1/1) # ", written after all output;
 *  - modes user / enable / config / interface, `enable`, `disable`,
 *    `configure terminal`, `exit`;
 *  - errors are lines starting with "% ": `% Unrecognized command "foo".` and
 *    `Type "?" for help.` (the Samara CLI that MLNX-OS is built on);
 *  - `show running-config` in the shape of the RDG's reference configuration
 *    (shared/seeds/000), ranges compressed; `| json-print` shows pretty-printed
 *    with 4-space indent in the shapes of shared/fixtures/onyx.
 *
 * Also modelled (sources below):
 *  - split ports: `interface ethernet 1/N module-type qsfp-split-2|qsfp-split-4
 *    [force]` (also in interface mode, and on ranges). Without `force` the CLI
 *    lists the ports to unmap and asks "Type 'yes' to confirm split: ", reading
 *    the answer as the next line. A split port 1/N no longer exists (commands
 *    naming it, or a range covering it, are refused); 1/N/1..1/N/K exist
 *    instead. Splitting resets the port's settings. `module-type qsfp [force]`
 *    on the first subport 1/N/1 unsplits. After a module-type change made in
 *    interface mode the CLI is back in config mode, as the real one is.
 *    running-config prints "interface ethernet 1/N module-type qsfp-split-K
 *    force" first in the Ethernet section (the subport lines after it need the
 *    split to exist when the file is replayed) and subports as runs
 *    "interface ethernet 1/16/1-1/16/4 ...". Not modelled: admin state
 *    (shutdown), and the platform rule that a 4-way split also unmaps a
 *    neighbour port (SN2700 1/N+1): the simulator has no platform.
 *  - traffic pools (basic buffer mode), up to 8: a switch-priority belongs to
 *    at most one pool (mapping one that another pool holds is refused, naming
 *    it); the memory percents of all pools add up to at most 100;
 *    `no traffic pool NAME map switch-priority P [P...]` (the flat form of the
 *    pool context's `no map switch-priority`) needs an existing pool that maps
 *    every P; `no traffic pool NAME [force]` deletes the pool and frees its
 *    priorities (back to the switch's default lossy pool, which is not printed).
 *  - advanced buffer mode: `advanced buffer management force` (and `no ...` to
 *    return to basic mode; the sources show only the force form, the bare
 *    form is taken the same way). Entering either mode drops the other mode's buffer
 *    configuration. In advanced mode `traffic pool ...` is refused, `pool NAME
 *    ...` and `interface ethernet R ingress-buffer|egress-buffer ...` lines are
 *    kept verbatim (one per pool, and one per port range, buffer and verb) and
 *    printed back under "advanced buffer management force"; in basic mode they
 *    are refused.
 *
 * Sources: NVIDIA Onyx User Manual v3.10.4606 LTS (and 3.10.4206, 4504, 4706,
 * same text), pages "Ethernet Interface Commands" (interface ethernet
 * <slot>/<port>[/<subport>]: "subport ... to be used if a port is split";
 * module-type) and "Shared Buffer Commands" (traffic pool <name> [force], no
 * traffic pool, type, map / no map switch-priority <list>, pools created
 * implicitly); MLNX-OS User Manual 3.11 "InfiniBand Interface" (a split port
 * x/y becomes x/y/z, each subport handled as an individual port). Public
 * switch transcripts: "module-type qsfp-split-4", "the following interfaces
 * will be unmapped: 1/33 1/36", "Type 'yes' to confirm split: yes", the
 * prompt back at "(config) #" after the split, `module-type qsfp` run on
 * 1/1/1 to unsplit. Mellanox community DOC-2884 (lossless RoCE, advanced
 * mode), as reproduced in public notes: "advanced buffer management force",
 * "pool iPool1 size 5242880 type dynamic", "interface ethernet 1/13-1/16
 * ingress-buffer iPort.pg3 bind switch-priority 3"; a public switch client
 * sends "no advanced buffer management force" to return to basic mode.
 * Wording of errors for bad arguments is not in any source we hold; those
 * messages are marked "inferred" below and keep the "% " shape clients rely on.
 * The section a real running-config prints module-type lines in is not in any
 * capture we hold either (tests/onyx/real/ may have one later): placed where
 * replaying the file needs it.
 *
 * The release and the operational state (issue 34):
 *  - `show version` prints the release --version or $ONYX_SIM_VERSION gives
 *    (default 3.10.4606), text and json-print, in the shapes of mellanox.onyx's
 *    and napalm-onyx's captures (tests/fixtures/onyx/);
 *  - `show traffic pool NAME` prints "Memory actual" computed from the pool's
 *    percent of the simulated buffer (50.00 % prints the capture's "5.9M");
 *  - `show dcb priority-flow-control`: PFC is on for the switch-priorities of
 *    the lossless pools (Onyx User Manual 3.10.2202, Shared Buffers: the
 *    lossless type "enables a flow control mechanism for the mapped
 *    priority"), so an interface reads "PFC admin Auto, PFC oper Enabled" (the
 *    text capture show_dcb_priority_flow_control.txt; "on" with `dcb
 *    priority-flow-control mode on force`); json-print in the list shape
 *    mellanox.onyx's onyx_pfc_interface reads from 3.6.6000 (interfaces in the
 *    third element), text as the capture. Not modelled: PFC on a priority by
 *    `dcb priority-flow-control priority P enable` alone;
 *  - operational faults in DIR/faults (below), where the switch's own state
 *    differs from its configuration.
 *
 * Its model and printer are its own (not qosgen's), so a qosgen bug cannot
 * hide behind a shared one.
 *
 * Usage: onyx-sim --state DIR [--ports N] [--version RELEASE]
 *   DIR/state     the switch's running state (created on first use; a file
 *                 written before splits and advanced mode existed loads as
 *                 all ports unsplit, basic mode)
 *   DIR/faults    optional: "cut_after K" (drop the session right after the
 *                 K-th configuration command took effect; once, then the file
 *                 is renamed faults.done), "reject TEXT" (refuse commands
 *                 containing TEXT), "latency_ms N" (before every reply);
 *                 operational: "pool_unsized" (every pool's "Memory actual"
 *                 0: the ASIC could not size it), "pfc_oper_disabled PORT"
 *                 (1/5: that interface's "PFC oper" Disabled), "ets_default"
 *                 (`show dcb ets` shows the default scheduler, WRR 12, whatever
 *                 is configured)
 *   DIR/trace     every line received, appended
 *   DIR/saved/    configuration files written with `configuration write to`
 * With SSH_ORIGINAL_COMMAND set (ssh host CMD), runs that one command in
 * enable mode and exits.
 * tests/sim/selftest.sh drives the split, pool and buffer-mode behaviour.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MAX_PORTS 64
#define SPLITS 4
#define MAX_POOLS 8
#define MAX_ADV 64 /* advanced-mode lines kept verbatim */
#define ADV_LEN 240

enum cc { CC_NONE, CC_ECN, CC_RED, CC_BOTH };
enum ets { ETS_DEFAULT, ETS_STRICT, ETS_WRR };

struct tc {
	enum cc cc;
	bool relative;
	int min, max;
	enum ets ets;
	int weight;
};

struct port {
	int mtu; /* 1500 default */
	char trust[8];
	struct tc tc[8];
	bool pfc_on;
	bool rewrite_pcp, rewrite_dscp;
};

struct pool {
	char name[24];
	char type[12];
	int percent_centi;
	unsigned prio_mask;
};

struct sw {
	char hostname[64];
	int n_ports;
	struct port port[MAX_PORTS + 1][SPLITS + 1]; /* [port][split], split 0 = whole */
	int split[MAX_PORTS + 1]; /* 0 = not split, else 2 or 4 subports */
	struct pool pool[MAX_POOLS];
	int n_pools;
	bool pfc_global;
	bool advanced; /* advanced buffer management: adv[] replaces pool[] */
	char adv[MAX_ADV][ADV_LEN];
	int n_adv;
};

enum mode { M_USER, M_ENABLE, M_CONFIG, M_IF };

static struct sw sw;
static enum mode mode = M_USER;
static char if_range[64];
static char dir[4096];
static int cut_after = -1, latency_ms;
static char reject[256];
/* The release `show version` prints: --version, else $ONYX_SIM_VERSION, else this. */
static char version[32] = "3.10.4606";
/*
 * Operational faults (DIR/faults): the switch's own state differs from its
 * configuration, as a real ASIC's can. pool_unsized: every pool's "Memory
 * actual" is 0 (the ASIC could not size it); pfc_oper_disabled PORT: that
 * interface's "PFC oper" is Disabled; ets_default: `show dcb ets` shows the
 * default scheduler whatever is configured.
 */
static bool pool_unsized, ets_default;
static char pfc_oper_disabled[32];
static int changes; /* configuration commands applied in this session */

/* ---- output ---- */

static void out(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void out(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}

static void prompt(void)
{
	switch (mode) {
	case M_USER:
		out("%s [standalone: master] > ", sw.hostname);
		break;
	case M_ENABLE:
		out("%s [standalone: master] # ", sw.hostname);
		break;
	case M_CONFIG:
		out("%s [standalone: master] (config) # ", sw.hostname);
		break;
	case M_IF:
		out("%s [standalone: master] (config interface ethernet %s) # ", sw.hostname,
		    if_range);
		break;
	}
	fflush(stdout);
}

/* The Samara CLI's error for a word it does not know (sourced). */
static void unrecognized(const char *word)
{
	out("%% Unrecognized command \"%s\".\nType \"?\" for help.\n", word);
}

/* Inferred wording: the shape "% ..." is what clients rely on. */
static void incomplete(void)
{
	out("%% Incomplete command.\nType \"?\" for help.\n");
}

static void bad_value(const char *value, const char *what)
{
	out("%% Invalid value \"%s\": %s\n", value, what);
}

/* ---- state file ---- */

static void port_default(struct port *p)
{
	memset(p, 0, sizeof(*p));
	p->mtu = 1500;
	strcpy(p->trust, "L2");
}

static void state_default(int n_ports)
{
	memset(&sw, 0, sizeof(sw));
	strcpy(sw.hostname, "switch");
	sw.n_ports = n_ports;
	for (int p = 0; p <= MAX_PORTS; p++)
		for (int s = 0; s <= SPLITS; s++)
			port_default(&sw.port[p][s]);
}

static void state_path(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", dir, name);
}

static void state_save(void)
{
	char path[4200], tmp[4300];
	state_path(path, sizeof(path), "state");
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	FILE *f = fopen(tmp, "w");
	if (!f)
		return;
	fprintf(f, "hostname %s\nports %d\npfc %d\n", sw.hostname, sw.n_ports, sw.pfc_global);
	/* Lines an older simulator does not know are skipped by it, and a file
	 * without them reads as unsplit ports in basic mode. */
	for (int p = 1; p <= sw.n_ports; p++)
		if (sw.split[p])
			fprintf(f, "split %d %d\n", p, sw.split[p]);
	if (sw.advanced)
		fprintf(f, "advanced 1\n");
	for (int i = 0; i < sw.n_adv; i++)
		fprintf(f, "adv %s\n", sw.adv[i]);
	for (int i = 0; i < sw.n_pools; i++)
		fprintf(f, "pool %s %s %d %u\n", sw.pool[i].name, sw.pool[i].type[0] ? sw.pool[i].type : "-",
			sw.pool[i].percent_centi, sw.pool[i].prio_mask);
	for (int p = 1; p <= sw.n_ports; p++)
		for (int s = 0; s <= SPLITS; s++) {
			struct port *x = &sw.port[p][s];
			fprintf(f, "port %d %d %d %s %d %d %d", p, s, x->mtu, x->trust, x->pfc_on,
				x->rewrite_pcp, x->rewrite_dscp);
			for (int t = 0; t < 8; t++)
				fprintf(f, " %d,%d,%d,%d,%d,%d", x->tc[t].cc, x->tc[t].relative,
					x->tc[t].min, x->tc[t].max, x->tc[t].ets, x->tc[t].weight);
			fprintf(f, "\n");
		}
	/* Written whole, then renamed: a cut session never leaves half a file. */
	fflush(f);
	fsync(fileno(f));
	fclose(f);
	rename(tmp, path);
}

static void state_load(int n_ports)
{
	char path[4200], line[1024];
	state_default(n_ports);
	state_path(path, sizeof(path), "state");
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		int p, s, mtu, pfc, n, rw_pcp, rw_dscp;
		char trust[8], name[24], type[12];
		if (sscanf(line, "hostname %63s", sw.hostname) == 1)
			continue;
		if (sscanf(line, "ports %d", &sw.n_ports) == 1)
			continue;
		if (sscanf(line, "pfc %d", &pfc) == 1) {
			sw.pfc_global = pfc;
			continue;
		}
		if (sscanf(line, "split %d %d", &p, &s) == 2) {
			if (p >= 1 && p <= MAX_PORTS && (s == 2 || s == SPLITS))
				sw.split[p] = s;
			continue;
		}
		if (sscanf(line, "advanced %d", &pfc) == 1) {
			sw.advanced = pfc;
			continue;
		}
		if (!strncmp(line, "adv ", 4) && sw.n_adv < MAX_ADV) {
			line[strcspn(line, "\n")] = '\0';
			/* Precision-bounded: a longer line is cut, as adv_set refuses it. */
			snprintf(sw.adv[sw.n_adv++], ADV_LEN, "%.*s", ADV_LEN - 1, line + 4);
			continue;
		}
		unsigned mask;
		int pct;
		if (sscanf(line, "pool %23s %11s %d %u", name, type, &pct, &mask) == 4 &&
		    sw.n_pools < MAX_POOLS) {
			struct pool *x = &sw.pool[sw.n_pools++];
			snprintf(x->name, sizeof(x->name), "%s", name);
			snprintf(x->type, sizeof(x->type), "%s", strcmp(type, "-") ? type : "");
			x->percent_centi = pct;
			x->prio_mask = mask;
			continue;
		}
		if (sscanf(line, "port %d %d %d %7s %d %d %d%n", &p, &s, &mtu, trust, &pfc, &rw_pcp,
			   &rw_dscp, &n) == 7 &&
		    p >= 1 && p <= MAX_PORTS && s >= 0 && s <= SPLITS) {
			struct port *x = &sw.port[p][s];
			x->mtu = mtu;
			x->rewrite_pcp = rw_pcp;
			x->rewrite_dscp = rw_dscp;
			snprintf(x->trust, sizeof(x->trust), "%s", trust);
			x->pfc_on = pfc;
			char *c = line + n;
			for (int t = 0; t < 8; t++) {
				int cc, rel, mn, mx, ets, w, used;
				if (sscanf(c, " %d,%d,%d,%d,%d,%d%n", &cc, &rel, &mn, &mx, &ets, &w,
					   &used) != 6)
					break;
				x->tc[t] = (struct tc){(enum cc)cc, rel, mn, mx, (enum ets)ets, w};
				c += used;
			}
		}
	}
	fclose(f);
}

static void faults_load(void)
{
	char path[4200], line[512];
	state_path(path, sizeof(path), "faults");
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (sscanf(line, "cut_after %d", &cut_after) == 1)
			continue;
		if (sscanf(line, "latency_ms %d", &latency_ms) == 1)
			continue;
		if (!strncmp(line, "reject ", 7))
			snprintf(reject, sizeof(reject), "%.*s", (int)sizeof(reject) - 1, line + 7);
		if (!strcmp(line, "pool_unsized"))
			pool_unsized = true;
		if (!strcmp(line, "ets_default"))
			ets_default = true;
		if (sscanf(line, "pfc_oper_disabled %31s", pfc_oper_disabled) == 1)
			continue;
	}
	fclose(f);
}

static void trace(const char *line)
{
	char path[4200];
	state_path(path, sizeof(path), "trace");
	FILE *f = fopen(path, "a");
	if (f) {
		fprintf(f, "%s\n", line);
		fclose(f);
	}
}

/* ---- ports and ranges ---- */

struct pid {
	int port, split; /* split 0 = whole port */
};

/* "1/5", "1/1-1/32", "1/3/1-1/3/4" into ids; false with a message printed. */
static int parse_range(const char *text, struct pid *ids, int max)
{
	int a1, a2, a3 = 0, b1, b2, b3 = 0, n = 0, used = 0;
	int fa = sscanf(text, "%d/%d%n/%d%n", &a1, &a2, &used, &a3, &used);
	const char *rest = text + used;
	int fb = 0;
	if (fa < 2) {
		unrecognized(text);
		return -1;
	}
	if (*rest == '-') {
		fb = sscanf(rest + 1, "%d/%d/%d", &b1, &b2, &b3);
		if (fb < 2 || fb != fa) {
			unrecognized(text);
			return -1;
		}
	} else if (*rest) {
		unrecognized(text);
		return -1;
	} else {
		b1 = a1, b2 = a2, b3 = a3;
	}
	if (a1 != 1 || b1 != 1 || a2 < 1 || b2 > sw.n_ports || a2 > b2 ||
	    (fa == 3 && (a2 != b2 || a3 < 1 || b3 > SPLITS || a3 > b3))) {
		/* inferred wording */
		out("%% Interface ethernet %s does not exist\n", text);
		return -1;
	}
	/*
	 * A split port 1/N is gone as a whole and 1/N/1..K exist instead (manual,
	 * interface ethernet: subport "to be used if a port is split"), so a range
	 * covering it names a port that does not exist. Same inferred wording,
	 * naming the first missing interface.
	 */
	for (int p = a2; fa == 2 && p <= b2; p++)
		if (sw.split[p]) {
			out("%% Interface ethernet 1/%d does not exist\n", p);
			return -1;
		}
	if (fa == 3 && b3 > sw.split[a2]) {
		out("%% Interface ethernet 1/%d/%d does not exist\n", a2,
		    sw.split[a2] ? b3 : a3);
		return -1;
	}
	for (int p = a2; p <= b2; p++)
		for (int s = (fa == 3 ? a3 : 0); s <= (fa == 3 ? b3 : 0) && n < max; s++)
			ids[n++] = (struct pid){p, s};
	return n;
}

/* ---- show running-config: one line per run of ports with the same setting ---- */

typedef bool (*port_line_fn)(const struct port *p, int tc, char *buf, size_t len);

/* "interface ethernet 1/1-1/4 WHAT", or "1/5" alone; split ports as 1/3/1-1/3/4. */
static void print_run(int start_p, int start_s, int last_p, int last_s, const char *what)
{
	if (start_s)
		out("interface ethernet 1/%d/%d", start_p, start_s);
	else
		out("interface ethernet 1/%d", start_p);
	if (last_p != start_p || last_s != start_s) {
		if (last_s)
			out("-1/%d/%d", last_p, last_s);
		else
			out("-1/%d", last_p);
	}
	out(" %s\n", what);
}

static void print_runs(port_line_fn fn, int tc)
{
	char prev[160] = "", cur[160];
	int start_p = 0, start_s = 0, last_p = 0, last_s = 0;
	bool open = false;
	/* Whole ports first, then subports, as only the existing ones. */
	for (int s_kind = 0; s_kind < 2; s_kind++)
		for (int p = 1; p <= sw.n_ports; p++)
			for (int s = s_kind ? 1 : 0; s <= (s_kind ? sw.split[p] : 0); s++) {
				if (!s_kind && sw.split[p])
					continue;
				bool has = fn(&sw.port[p][s], tc, cur, sizeof(cur));
				bool follows = open && has && !strcmp(cur, prev) &&
					       ((s == 0 && last_s == 0 && p == last_p + 1) ||
						(s > 0 && p == last_p && s == last_s + 1));
				if (open && !follows) {
					print_run(start_p, start_s, last_p, last_s, prev);
					open = false;
				}
				if (has && !open) {
					open = true;
					start_p = p, start_s = s;
					snprintf(prev, sizeof(prev), "%s", cur);
				}
				if (has)
					last_p = p, last_s = s;
			}
	if (open)
		print_run(start_p, start_s, last_p, last_s, prev);
}

static bool line_mtu(const struct port *p, int tc, char *b, size_t n)
{
	(void)tc;
	snprintf(b, n, "mtu %d force", p->mtu);
	return p->mtu != 1500;
}

static bool line_trust(const struct port *p, int tc, char *b, size_t n)
{
	(void)tc;
	snprintf(b, n, "qos trust %s", p->trust);
	return strcmp(p->trust, "L2") != 0;
}

static bool line_cc(const struct port *p, int tc, char *b, size_t n)
{
	static const char *const m[] = {"", "ecn", "red", "both"};
	const struct tc *t = &p->tc[tc];
	const char *k = t->relative ? "relative" : "absolute";
	snprintf(b, n, "traffic-class %d congestion-control %s minimum-%s %d maximum-%s %d", tc,
		 m[t->cc], k, t->min, k, t->max);
	return t->cc != CC_NONE;
}

static bool line_ets(const struct port *p, int tc, char *b, size_t n)
{
	const struct tc *t = &p->tc[tc];
	if (t->ets == ETS_STRICT)
		snprintf(b, n, "traffic-class %d dcb ets strict", tc);
	else
		snprintf(b, n, "traffic-class %d dcb ets wrr %d", tc, t->weight);
	return t->ets != ETS_DEFAULT;
}

static bool line_pfc(const struct port *p, int tc, char *b, size_t n)
{
	(void)tc;
	snprintf(b, n, "dcb priority-flow-control mode on force");
	return p->pfc_on;
}

static void show_running_config(void)
{
	time_t now = time(NULL);
	struct tm tm;
	gmtime_r(&now, &tm);
	char when[64];
	strftime(when, sizeof(when), "%Y/%m/%d %H:%M:%S", &tm);
	out("## Running database \"initial\"\n## Generated at %s +0000\n## Hostname: %s\n",
	    when, sw.hostname);
	out("## Running-config temporary prefix mode setting\nno cli default prefix-modes enable\n\n");
	out("## Interface Ethernet configuration\n");
	/* First: replaying the file must split a port before naming its subports. */
	for (int p = 1; p <= sw.n_ports; p++)
		if (sw.split[p])
			out("interface ethernet 1/%d module-type qsfp-split-%d force\n", p,
			    sw.split[p]);
	print_runs(line_mtu, 0);
	out("\n## Interface Ethernet buffer configuration\n");
	if (sw.advanced)
		out("advanced buffer management force\n");
	for (int i = 0; i < sw.n_adv; i++)
		out("%s\n", sw.adv[i]);
	for (int i = 0; i < sw.n_pools; i++) {
		struct pool *x = &sw.pool[i];
		if (x->type[0])
			out("traffic pool %s type %s\n", x->name, x->type);
		if (x->percent_centi >= 0)
			out("traffic pool %s memory percent %d.%02d\n", x->name,
			    x->percent_centi / 100, x->percent_centi % 100);
		if (x->prio_mask) {
			out("traffic pool %s map switch-priority", x->name);
			for (int p = 0; p < 8; p++)
				if (x->prio_mask & (1u << p))
					out(" %d", p);
			out("\n");
		}
	}
	out("\n## LLDP configuration\n## QoS switch configuration\n");
	print_runs(line_trust, 0);
	for (int tc = 0; tc < 8; tc++)
		print_runs(line_cc, tc);
	out("\n## DCBX ETS configuration\n");
	for (int tc = 0; tc < 8; tc++)
		print_runs(line_ets, tc);
	if (sw.pfc_global) {
		out("\n## DCBX PFC configuration\ndcb priority-flow-control enable force\n");
		print_runs(line_pfc, 0);
	}
	out("\n## Other IP configuration\nhostname %s\n", sw.hostname);
	out("\n## Persistent prefix mode setting\ncli default prefix-modes enable\n");
}

/* ---- json-print shows, in the shapes of shared/fixtures/onyx ---- */

/*
 * `show version`, in the shape of the captures (tests/fixtures/onyx/:
 * onyx_command_show_version.txt, onyx_facts_show_version.cfg from
 * mellanox.onyx, napalm-onyx_show_version.txt): "Product release" is the
 * simulated release.
 */
static void show_version(bool json)
{
	if (json) {
		out("{\n    \"Product name\": \"Onyx\",\n    \"Product release\": \"%s\",\n"
		    "    \"Version summary\": \"X86_64 %s 2023-08-08 07:41:09 x86_64\",\n"
		    "    \"Product model\": \"x86onie\",\n    \"Target arch\": \"x86_64\"\n}\n",
		    version, version);
		return;
	}
	out("Product name:      Onyx\nProduct release:   %s\nBuild ID:          #1-dev\n"
	    "Target arch:       x86_64\nTarget hw:         x86_64\n"
	    "Version summary:   X86_64 %s 2023-08-08 07:41:09 x86_64\n\n"
	    "Product model:     x86onie\n",
	    version, version);
}

/*
 * The simulated ASIC's buffer for traffic pools: 50.00 % of it prints the
 * capture's "Memory actual": "5.9M" (onyx_buffer_pool.cfg). The simulator
 * has no platform; a real switch's figure depends on its ASIC.
 */
#define SIM_POOL_BUFFER_KB (118 * 1024 / 10)

/* "Memory actual" of a pool of percent_centi: "5.9M", "512.0K"; "0" when unsized. */
static void pool_actual(int percent_centi, char *buf, size_t len)
{
	long kb = percent_centi <= 0 ? 0 : (long)SIM_POOL_BUFFER_KB * percent_centi / 10000;
	if (pool_unsized || kb == 0)
		snprintf(buf, len, "0");
	else if (kb >= 1024)
		snprintf(buf, len, "%ld.%ldM", (kb * 10 + 512) / 1024 / 10,
			 (kb * 10 + 512) / 1024 % 10);
	else
		snprintf(buf, len, "%ld.0K", kb);
}

static void show_pool(const char *name)
{
	for (int i = 0; i < sw.n_pools; i++) {
		struct pool *x = &sw.pool[i];
		if (strcmp(x->name, name))
			continue;
		char prios[32] = "", actual[24];
		pool_actual(x->percent_centi, actual, sizeof(actual));
		for (int p = 0; p < 8; p++)
			if (x->prio_mask & (1u << p))
				snprintf(prios + strlen(prios), sizeof(prios) - strlen(prios), "%s%d",
					 prios[0] ? " " : "", p);
		out("{\n    \"%s\": [\n        {\n            \"Type\": \"%s\",\n"
		    "            \"Switch Priorities\": \"%s\",\n            \"Max Usage\": \"0\",\n"
		    "            \"Usage\": \"0\",\n            \"Memory actual\": \"%s\",\n"
		    "            \"Memory [%%]\": \"%d.%02d\"\n        }\n    ],\n"
		    "    \"Exception list\": {\n        \"message\": \"N/A\"\n    }\n}\n",
		    x->name, x->type[0] ? x->type : "lossy", prios, actual,
		    x->percent_centi < 0 ? 0 : x->percent_centi / 100,
		    x->percent_centi < 0 ? 0 : x->percent_centi % 100);
		return;
	}
	out("%% Traffic pool %s does not exist\n", name); /* inferred wording */
}

static void show_qos_interface(const char *ifname, const struct port *p)
{
	out("[\n    {\n        \"Eth%s\": [\n            {\n"
	    "                \"PCP,DEI rewrite\": \"%s\",\n"
	    "                \"Default switch-priority\": \"0\",\n"
	    "                \"IP PCP;DEI rewrite\": \"enable\",\n"
	    "                \"Default DEI\": \"0\",\n                \"Default PCP\": \"0\",\n"
	    "                \"Trust mode\": \"%s\",\n"
	    "                \"DSCP rewrite\": \"%s\"\n            },\n",
	    ifname, p->rewrite_pcp ? "enabled" : "disabled", p->trust,
	    p->rewrite_dscp ? "enabled" : "disabled");
	/* The default maps of the capture: DSCP/8 to switch-priority, identity to TC. */
	out("            {\n                \"PCP(DEI); DSCP to switch-priority mapping\": [\n"
	    "                    {\n");
	for (int sp = 0; sp < 8; sp++)
		out("                        \"%d(0) %d(1)\": [\n                            {\n"
		    "                                \"switch-priority\": \"%d\",\n"
		    "                                \"DSCP\": \"%d %d %d %d %d %d %d %d\"\n"
		    "                            }\n                        ]%s\n",
		    sp, sp, sp, sp * 8, sp * 8 + 1, sp * 8 + 2, sp * 8 + 3, sp * 8 + 4, sp * 8 + 5,
		    sp * 8 + 6, sp * 8 + 7, sp < 7 ? "," : "");
	out("                    }\n                ]\n            },\n"
	    "            {\n                \"PCP(DEI); DSCP rewrite mapping (switch-priority to "
	    "PCP(DEI); DSCP; traffic-class)\": [\n"
	    "                    {\n                        \"Egress Interface\": \"Eth%s\"\n"
	    "                    },\n                    {\n",
	    ifname);
	for (int sp = 0; sp < 8; sp++)
		out("                        \"%d\": [\n                            {\n"
		    "                                \"PCP(DEI)\": \"%d(0)\",\n"
		    "                                \"TC\": \"%d\",\n"
		    "                                \"DSCP\": \"%d\"\n"
		    "                            }\n                        ]%s\n",
		    sp, sp, sp, sp * 8, sp < 7 ? "," : "");
	out("                    }\n                ]\n            }\n        ]\n    }\n]\n");
}

static void show_congestion(const char *ifname, const struct port *p)
{
	out("[\n    {\n        \"Interface ethernet\": \"%s\",\n        \"ECN marked packets\": \"0\"\n    }",
	    ifname);
	for (int tc = 0; tc < 8; tc++) {
		const struct tc *t = &p->tc[tc];
		if (t->cc == CC_NONE) {
			out(",\n    {\n        \"header\": \"TC-%d\",\n        \"Mode\": \"none\"\n    }", tc);
			continue;
		}
		static const char *const m[] = {"none", "ECN", "RED", "both"};
		const char *unit = t->relative ? "%" : " KB";
		out(",\n    {\n        \"Threshold mode\": \"%s\",\n        \"RED dropped packets\": \"0\",\n"
		    "        \"header\": \"TC-%d\",\n        \"Mode\": \"%s\",\n"
		    "        \"Maximum threshold\": \"%d%s\",\n        \"Minimum threshold\": \"%d%s\"\n    }",
		    t->relative ? "relative" : "absolute", tc, m[t->cc], t->max, unit, t->min, unit);
	}
	out("\n]\n");
}

static void show_ets(const char *ifname, const struct port *p)
{
	out("[\n    {\n        \"Eth%s\": [\n            {\n"
	    "                \"Multicast unaware mapping\": \"disabled\",\n"
	    "                \"Interface Bandwidth Shape [Mbps]\": \"N/A\"\n            },\n"
	    "            {\n                \"Flags\": [\n                    {\n"
	    "                        \"S.Mode\": \"Scheduling Mode [Strict/WRR]\",\n"
	    "                        \"Bw.Sh\": \"Bandwidth Shaper\",\n"
	    "                        \"D\": \"-\",\n"
	    "                        \"W\": \"Weight\",\n"
	    "                        \"Bw.Gr\": \"Bandwidth Guaranteed\"\n"
	    "                    }\n                ]\n            },\n"
	    "            {\n                \"ETS per TC\": [\n                    {\n",
	    ifname);
	for (int tc = 0; tc < 8; tc++) {
		static const struct tc unset;
		const struct tc *t = ets_default ? &unset : &p->tc[tc];
		bool strict = t->ets == ETS_STRICT;
		int w = t->ets == ETS_WRR ? t->weight : (strict ? 0 : 12);
		out("                        \"%d\": [\n                            {\n"
		    "                                \"S.Mode\": \"%s\",\n"
		    "                                \"BW Sh.(Mbps)\": \"N/A\",\n"
		    "                                \"W(%%)\": \"%d\",\n"
		    "                                \"BW Gr.(Mbps)\": \"0\",\n"
		    "                                \"W\": \"%d\"\n                            }\n"
		    "                        ]%s\n",
		    tc, strict ? "Strict" : "WRR", strict ? 0 : w, w, tc < 7 ? "," : "");
	}
	out("                    }\n                ]\n            }\n        ]\n    }\n]\n");
}

/*
 * The switch-priorities PFC is on for: those of the lossless traffic pools
 * (Onyx User Manual 3.10.2202, Shared Buffers: the lossless type "enables a
 * flow control mechanism for the mapped priority"), in basic buffer mode.
 */
static unsigned pfc_priorities(void)
{
	unsigned mask = 0;
	for (int i = 0; !sw.advanced && i < sw.n_pools; i++)
		if (!strcmp(sw.pool[i].type, "lossless"))
			mask |= sw.pool[i].prio_mask;
	return mask;
}

/* One interface's PFC: admin "on" with mode on force, else "Auto"; oper Enabled when PFC is on. */
static void pfc_state(int p, int s, const char **admin, const char **oper)
{
	char name[24];
	if (s)
		snprintf(name, sizeof(name), "1/%d/%d", p, s);
	else
		snprintf(name, sizeof(name), "1/%d", p);
	bool on = sw.port[p][s].pfc_on || pfc_priorities();
	*admin = sw.port[p][s].pfc_on ? "on" : "Auto";
	*oper = on && strcmp(pfc_oper_disabled, name) ? "Enabled" : "Disabled";
}

static void pfc_list(unsigned mask, bool enabled, char *buf, size_t len)
{
	buf[0] = '\0';
	for (int p = 0; p < 8; p++)
		if (!!(mask & (1u << p)) == enabled)
			snprintf(buf + strlen(buf), len - strlen(buf), "%s%d", buf[0] ? " " : "", p);
}

/*
 * `show dcb priority-flow-control`: with json-print, the shape
 * mellanox.onyx's onyx_pfc_interface reads from 3.6.6000 (a list, the
 * interfaces its third element; onyx_pfc_interface_enabled.cfg); as text,
 * the capture show_dcb_priority_flow_control.txt.
 */
static void show_pfc(bool json)
{
	unsigned mask = pfc_priorities();
	char on[32], off[32];
	pfc_list(mask, true, on, sizeof(on));
	pfc_list(mask, false, off, sizeof(off));
	bool global = sw.pfc_global || mask;
	if (!json) {
		out("PFC: %s\nPriority Enabled List: %s\nPriority Disabled List: %s\n"
		    "-------------------------------------------------\n"
		    "Interface        PFC admin        PFC oper\n"
		    "-------------------------------------------------\n",
		    global ? "enabled" : "disabled", on, off);
	} else {
		out("[\n    {\n        \"PFC\": \"%s\"\n    },\n    {\n"
		    "        \"Priority Enabled List\": \"%s\",\n"
		    "        \"Priority Disabled List\": \"%s\"\n    },\n    {\n",
		    global ? "enabled" : "disabled", on, off);
	}
	/* Existing interfaces only: the subports of a split port, not the port. */
	for (int p = 1; p <= sw.n_ports; p++)
		for (int s = sw.split[p] ? 1 : 0; s <= sw.split[p]; s++) {
			char name[24];
			const char *admin, *oper;
			if (s)
				snprintf(name, sizeof(name), "Eth1/%d/%d", p, s);
			else
				snprintf(name, sizeof(name), "Eth1/%d", p);
			pfc_state(p, s, &admin, &oper);
			bool last = p == sw.n_ports && s == sw.split[p];
			if (!json)
				out("%-17s%-17s%s\n", name, admin, oper);
			else
				out("        \"%s\": [\n            {\n                \"PFC admin\": \"%s\",\n"
				    "                \"PFC oper\": \"%s\"\n            }\n        ]%s\n",
				    name, admin, oper, last ? "" : ",");
		}
	if (json)
		out("    }\n]\n");
}

static void do_show(char **w, int n, bool json, const char *include)
{
	struct pid ids[1];
	if (n >= 2 && !strcmp(w[1], "running-config") && n == 2) {
		show_running_config();
	} else if (n == 2 && !strcmp(w[1], "version")) {
		show_version(json);
	} else if (n == 2 && !strcmp(w[1], "hosts")) {
		if (!include || strstr("Hostname", include))
			out("Hostname: %s\n", sw.hostname);
	} else if (n == 4 && !strcmp(w[1], "traffic") && !strcmp(w[2], "pool")) {
		show_pool(w[3]);
	} else if (n == 5 && !strcmp(w[1], "qos") && !strcmp(w[2], "interface") &&
		   !strcmp(w[3], "ethernet")) {
		if (parse_range(w[4], ids, 1) == 1)
			show_qos_interface(w[4], &sw.port[ids[0].port][ids[0].split]);
	} else if (n == 5 && !strcmp(w[1], "interfaces") && !strcmp(w[2], "ethernet") &&
		   !strcmp(w[4], "congestion-control")) {
		if (parse_range(w[3], ids, 1) == 1)
			show_congestion(w[3], &sw.port[ids[0].port][ids[0].split]);
	} else if (n == 6 && !strcmp(w[1], "dcb") && !strcmp(w[2], "ets") &&
		   !strcmp(w[3], "interface") && !strcmp(w[4], "ethernet")) {
		if (parse_range(w[5], ids, 1) == 1)
			show_ets(w[5], &sw.port[ids[0].port][ids[0].split]);
	} else if (n == 3 && !strcmp(w[1], "dcb") && !strcmp(w[2], "priority-flow-control")) {
		show_pfc(json);
	} else {
		unrecognized(n > 1 ? w[n - 1] : "show");
	}
}

/* ---- configuration ---- */

static bool int_arg(const char *s, int lo, int hi, int *v, const char *what)
{
	char *end;
	long x = strtol(s, &end, 10);
	if (*s == '\0' || *end || x < lo || x > hi) {
		char range[64];
		snprintf(range, sizeof(range), "%s must be %d-%d", what, lo, hi);
		bad_value(s, range);
		return false;
	}
	*v = (int)x;
	return true;
}

static struct pool *pool_find(const char *name)
{
	for (int i = 0; i < sw.n_pools; i++)
		if (!strcmp(sw.pool[i].name, name))
			return &sw.pool[i];
	return NULL;
}

/* The manual: "if the traffic pool does not exist then it is created". */
static struct pool *pool_get(const char *name)
{
	struct pool *p = pool_find(name);
	if (p)
		return p;
	if (sw.n_pools == MAX_POOLS) {
		/* inferred wording */
		out("%% Cannot create traffic pool %s: at most %d traffic pools\n", name, MAX_POOLS);
		return NULL;
	}
	p = &sw.pool[sw.n_pools++];
	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", name);
	p->percent_centi = -1;
	return p;
}

static void no_such_pool(const char *name)
{
	out("%% Traffic pool %s does not exist\n", name); /* inferred wording */
}

/* The lowest switch-priority in a non-empty mask, to name in a message. */
static int lowest_prio(unsigned mask)
{
	int prio = 0;
	while (!(mask & (1u << prio)))
		prio++;
	return prio;
}

/*
 * Switch-priorities w[0..n-1] into a mask; for a map, none may belong to a
 * pool other than NAME. The manual documents no move between pools, so a
 * priority belongs to one pool at a time and the simulator refuses rather
 * than moves: a client that relies on a silent move fails here first.
 */
static bool prio_list(char **w, int n, const char *name, bool mapping, unsigned *mask)
{
	*mask = 0;
	for (int k = 0; k < n; k++) {
		int prio;
		if (!int_arg(w[k], 0, 7, &prio, "switch-priority"))
			return false;
		*mask |= 1u << prio;
	}
	for (int i = 0; mapping && i < sw.n_pools; i++) {
		unsigned taken = sw.pool[i].prio_mask & *mask;
		if (taken && strcmp(sw.pool[i].name, name)) {
			/* inferred wording */
			out("%% Switch-priority %d is already mapped to traffic pool %s\n",
			    lowest_prio(taken), sw.pool[i].name);
			return false;
		}
	}
	return true;
}

static bool pool_map(char **w, int n, const char *name, bool no)
{
	unsigned mask;
	if (!prio_list(w, n, name, !no, &mask))
		return false;
	if (no) {
		/*
		 * The flat "no traffic pool NAME map switch-priority P..." of the
		 * pool context's "no map switch-priority". It names an existing pool
		 * (no creation by a no-form) and only priorities that pool maps:
		 * refused otherwise, so a client cannot pass here by unmapping what
		 * the switch never had (inferred: the manual is silent).
		 */
		struct pool *p = pool_find(name);
		if (!p) {
			no_such_pool(name);
			return false;
		}
		unsigned missing = mask & ~p->prio_mask;
		if (missing) {
			/* inferred wording */
			out("%% Switch-priority %d is not mapped to traffic pool %s\n",
			    lowest_prio(missing), name);
			return false;
		}
		p->prio_mask &= ~mask;
		return true;
	}
	struct pool *p = pool_get(name);
	if (!p)
		return false;
	p->prio_mask |= mask;
	return true;
}

static bool do_pool(char **w, int n, bool no)
{
	if (sw.advanced) {
		/* inferred wording: advanced mode has pools of its own ("pool ...") */
		out("%% Traffic pools cannot be configured in advanced buffer management mode\n");
		return false;
	}
	if (n < 3) {
		incomplete();
		return false;
	}
	if (strlen(w[2]) > 20) {
		bad_value(w[2], "a pool name is a string up to 20 characters");
		return false;
	}
	/* "no traffic pool <name> [force]" deletes the pool; its priorities go
	 * back to the switch's default lossy pool, which is not printed. */
	if (no && (n == 3 || (n == 4 && !strcmp(w[3], "force")))) {
		struct pool *p = pool_find(w[2]);
		if (!p) {
			no_such_pool(w[2]);
			return false;
		}
		/* Keep the others in order: running-config prints creation order. */
		int i = (int)(p - sw.pool);
		memmove(&sw.pool[i], &sw.pool[i + 1], (size_t)(sw.n_pools - i - 1) * sizeof(*p));
		sw.n_pools--;
		return true;
	}
	/* Prefix form of the pool context's "no map ...": "traffic pool NAME no map ...". */
	char *shifted[32];
	if (n >= 5 && !strcmp(w[3], "no") && !no) {
		int k = 0;
		for (int i = 0; i < n && k < 31; i++)
			if (i != 3)
				shifted[k++] = w[i];
		w = shifted;
		n = k;
		no = true;
	}
	if (n < 5) {
		incomplete();
		return false;
	}
	if (no && !pool_find(w[2])) {
		no_such_pool(w[2]);
		return false;
	}
	if (!strcmp(w[3], "type")) {
		if (strcmp(w[4], "lossless") && strcmp(w[4], "lossy") && strcmp(w[4], "lossy-mc")) {
			unrecognized(w[4]);
			return false;
		}
		/* The manual's "type {lossless | lossy | lossy-mc} map switch-priority
		 * <priority>": both or neither take effect. */
		unsigned mask = 0;
		bool map = n == 8 && !strcmp(w[5], "map") && !strcmp(w[6], "switch-priority");
		if (n > 5 && !map) {
			unrecognized(w[5]);
			return false;
		}
		if (map && !prio_list(w + 7, 1, w[2], !no, &mask))
			return false;
		if (map && no && !pool_map(w + 7, 1, w[2], true))
			return false;
		struct pool *p = pool_get(w[2]);
		if (!p)
			return false;
		snprintf(p->type, sizeof(p->type), "%s", no ? "lossy" : w[4]);
		if (!no)
			p->prio_mask |= mask;
		return true;
	}
	if (!strcmp(w[3], "memory") && n == 6 && !strcmp(w[4], "percent")) {
		/* Accepts 50, 50.0, 50.00 (Ansible sends Python's float repr). */
		double v;
		char *end;
		v = strtod(w[5], &end);
		if (*end || v <= 0 || v > 100) {
			bad_value(w[5], "memory percent must be 0-100");
			return false;
		}
		int centi = (int)(v * 100 + 0.5);
		/* The pools share one buffer: their percents cannot add up past it. */
		int total = centi;
		for (int i = 0; i < sw.n_pools; i++)
			if (strcmp(sw.pool[i].name, w[2]) && sw.pool[i].percent_centi > 0)
				total += sw.pool[i].percent_centi;
		if (total > 10000) {
			/* inferred wording */
			out("%% Total memory of all traffic pools would be %d.%02d%%, above 100%%\n",
			    total / 100, total % 100);
			return false;
		}
		struct pool *p = pool_get(w[2]);
		if (!p)
			return false;
		p->percent_centi = centi;
		return true;
	}
	if (!strcmp(w[3], "map") && n >= 6 && !strcmp(w[4], "switch-priority"))
		return pool_map(w + 5, n - 5, w[2], no);
	unrecognized(w[3]);
	return false;
}

/* ---- advanced buffer mode: lines kept verbatim ---- */

/* Same first `key` words: the later line replaces the earlier one. */
static bool same_key(const char *a, const char *b, int key)
{
	int words = 0;
	for (; *a && *a == *b; a++, b++)
		if (*a == ' ' && ++words == key)
			return true;
	/* Both texts end a word here, and it was the key's last. */
	return (*a == '\0' || *a == ' ') && (*b == '\0' || *b == ' ') && words + 1 >= key;
}

static bool adv_set(const char *text, int key)
{
	for (int i = 0; i < sw.n_adv; i++)
		if (same_key(sw.adv[i], text, key)) {
			snprintf(sw.adv[i], ADV_LEN, "%s", text);
			return true;
		}
	if (sw.n_adv == MAX_ADV || strlen(text) >= ADV_LEN) {
		/* inferred wording */
		out("%% Failed to apply configuration: %s\n", text);
		return false;
	}
	snprintf(sw.adv[sw.n_adv++], ADV_LEN, "%s", text);
	return true;
}

/* "no ..." of a kept line: removes the lines that begin with text. */
static bool adv_remove(const char *text)
{
	size_t len = strlen(text);
	int kept = 0;
	for (int i = 0; i < sw.n_adv; i++)
		if (strncmp(sw.adv[i], text, len) || (sw.adv[i][len] && sw.adv[i][len] != ' '))
			memmove(sw.adv[kept++], sw.adv[i], ADV_LEN);
	if (kept == sw.n_adv) {
		/* inferred wording */
		out("%% No such buffer configuration: %s\n", text);
		return false;
	}
	sw.n_adv = kept;
	return true;
}

static void basic_mode_only(const char *what)
{
	/* inferred wording */
	out("%% Command \"%s\" is available in advanced buffer management mode only\n", what);
}

/* "[no] pool NAME ..." (w[0] = "pool"). */
static bool do_adv_pool(char **w, int n, bool no)
{
	if (!sw.advanced) {
		basic_mode_only("pool");
		return false;
	}
	if (n < (no ? 2 : 3)) {
		incomplete();
		return false;
	}
	char text[ADV_LEN] = "";
	for (int i = 0; i < n; i++)
		snprintf(text + strlen(text), sizeof(text) - strlen(text), "%s%s", i ? " " : "", w[i]);
	return no ? adv_remove(text) : adv_set(text, 2);
}

/* "advanced buffer management [force]" and its no form. */
static bool do_buffer_mode(bool no)
{
	/*
	 * One mode's buffer configuration means nothing in the other: entering
	 * either drops it (inferred: the sources show the commands, not what
	 * becomes of the pools), so no basic pool survives into advanced mode.
	 */
	if (sw.advanced != !no) {
		sw.n_pools = 0;
		sw.n_adv = 0;
	}
	sw.advanced = !no;
	return true;
}

/*
 * "module-type qsfp|qsfp-split-2|qsfp-split-4 [force]" (w[0] = "module-type")
 * on the ports ids. A whole port splits; the first subport 1/N/1 changes the
 * split of its port, "qsfp" unsplitting it. Without force the CLI names the
 * interfaces it unmaps and reads a confirmation, as the real one does.
 */
static bool do_module_type(const struct pid *ids, int nid, char **w, int n)
{
	if (n < 2) {
		incomplete();
		return false;
	}
	int ways = !strcmp(w[1], "qsfp")	   ? 0
		   : !strcmp(w[1], "qsfp-split-2") ? 2
		   : !strcmp(w[1], "qsfp-split-4") ? SPLITS
						   : -1;
	if (ways < 0 || n > 3 || (n == 3 && strcmp(w[2], "force"))) {
		unrecognized(ways < 0 ? w[1] : w[n - 1]);
		return false;
	}
	bool force = n == 3;
	char unmapped[1024] = "";
	int change[MAX_PORTS + 1] = {0}, n_change = 0;
	for (int i = 0; i < nid; i++) {
		int p = ids[i].port;
		if (ids[i].split > 1) {
			/* inferred wording; the public transcripts unsplit from 1/N/1 */
			out("%% Module type of port 1/%d can be changed only on interface 1/%d/1\n", p,
			    p);
			return false;
		}
		if (sw.split[p] == ways || change[p])
			continue;
		change[p] = 1;
		n_change++;
		/* "the following interfaces will be unmapped: 1/33 1/36 " (transcript) */
		for (int s = sw.split[p] ? 1 : 0; s <= sw.split[p]; s++) {
			size_t len = strlen(unmapped);
			if (s)
				snprintf(unmapped + len, sizeof(unmapped) - len, "1/%d/%d ", p, s);
			else
				snprintf(unmapped + len, sizeof(unmapped) - len, "1/%d ", p);
		}
	}
	if (!n_change)
		return true; /* already of that type */
	if (!force) {
		char answer[64] = "";
		out("the following interfaces will be unmapped: %s\nType 'yes' to confirm split: ",
		    unmapped);
		fflush(stdout);
		if (fgets(answer, sizeof(answer), stdin)) {
			answer[strcspn(answer, "\r\n")] = '\0';
			trace(answer);
		}
		out("\n");
		if (strcasecmp(answer, "yes")) {
			out("%% Split aborted\n"); /* inferred wording */
			return false;
		}
	}
	/*
	 * The old interfaces are gone and the new ones start from defaults: the
	 * port's own settings do not carry over to its subports, nor back.
	 */
	for (int p = 1; p <= sw.n_ports; p++) {
		if (!change[p])
			continue;
		sw.split[p] = ways;
		for (int s = 0; s <= SPLITS; s++)
			port_default(&sw.port[p][s]);
	}
	return true;
}

/* Interface subcommand (w = after "interface ethernet RANGE"). Returns true if applied. */
static bool do_interface(const char *range, struct pid *ids, int nid, char **w, int n)
{
	bool no = n > 0 && !strcmp(w[0], "no");
	if (no) {
		w++;
		n--;
	}
	if (n == 0) {
		incomplete();
		return false;
	}
	if (!strcmp(w[0], "module-type") && !no) {
		if (!do_module_type(ids, nid, w, n))
			return false;
		/* The transcripts show "(config) #" right after a split: the
		 * interface the context named may not exist any more. */
		if (mode == M_IF)
			mode = M_CONFIG;
		return true;
	}
	if (!strcmp(w[0], "ingress-buffer") || !strcmp(w[0], "egress-buffer")) {
		if (!sw.advanced) {
			basic_mode_only(w[0]);
			return false;
		}
		if (n < (no ? 2 : 3)) {
			incomplete();
			return false;
		}
		/* Kept as the client wrote it, one line per range, buffer and verb. */
		char text[ADV_LEN];
		snprintf(text, sizeof(text), "interface ethernet %s", range);
		for (int i = 0; i < n; i++)
			snprintf(text + strlen(text), sizeof(text) - strlen(text), " %s", w[i]);
		return no ? adv_remove(text) : adv_set(text, 6);
	}
	if (!strcmp(w[0], "mtu")) {
		int mtu;
		if (n < 2 && !no) {
			incomplete();
			return false;
		}
		if (!no && (!int_arg(w[1], 1500, 9216, &mtu, "mtu") || (n == 3 && strcmp(w[2], "force")) || n > 3)) {
			if (n == 3 && strcmp(w[2], "force"))
				unrecognized(w[2]);
			return false;
		}
		for (int i = 0; i < nid; i++)
			sw.port[ids[i].port][ids[i].split].mtu = no ? 1500 : mtu;
		return true;
	}
	if (!strcmp(w[0], "qos") && n == 3 && !strcmp(w[1], "rewrite") &&
	    (!strcmp(w[2], "pcp") || !strcmp(w[2], "dscp"))) {
		for (int i = 0; i < nid; i++) {
			struct port *x = &sw.port[ids[i].port][ids[i].split];
			*(w[2][0] == 'p' ? &x->rewrite_pcp : &x->rewrite_dscp) = !no;
		}
		return true;
	}
	if (!strcmp(w[0], "qos")) {
		if (n < 2 || strcmp(w[1], "trust")) {
			n < 2 ? incomplete() : unrecognized(w[1]);
			return false;
		}
		if (!no && n != 3) {
			incomplete();
			return false;
		}
		if (!no && strcmp(w[2], "L2") && strcmp(w[2], "L3") && strcmp(w[2], "both") &&
		    strcmp(w[2], "port")) {
			unrecognized(w[2]);
			return false;
		}
		for (int i = 0; i < nid; i++)
			strcpy(sw.port[ids[i].port][ids[i].split].trust, no ? "L2" : w[2]);
		return true;
	}
	if (!strcmp(w[0], "traffic-class")) {
		int tc;
		if (n < 3) {
			incomplete();
			return false;
		}
		if (!int_arg(w[1], 0, 7, &tc, "traffic class"))
			return false;
		if (!strcmp(w[2], "congestion-control")) {
			/*
			 * "no traffic-class T congestion-control" (the form
			 * mellanox.onyx's onyx_traffic_class sends; Onyx's QoS
			 * command pages: "The no form of the command resets the
			 * value to its default"): mode none, no thresholds. Nothing
			 * may follow it (the real CLI's rule for a bare no form is not
			 * in any source we hold; inferred).
			 */
			if (no) {
				if (n != 3) {
					unrecognized(w[3]);
					return false;
				}
				for (int i = 0; i < nid; i++) {
					struct tc *t = &sw.port[ids[i].port][ids[i].split].tc[tc];
					t->cc = CC_NONE;
					t->relative = 0;
					t->min = t->max = 0;
				}
				return true;
			}
			if (n != 8) {
				incomplete();
				return false;
			}
			enum cc cc = !strcmp(w[3], "ecn") ? CC_ECN
				     : !strcmp(w[3], "red") ? CC_RED
				     : !strcmp(w[3], "both") ? CC_BOTH
							     : CC_NONE;
			if (cc == CC_NONE) {
				unrecognized(w[3]);
				return false;
			}
			bool rel = !strcmp(w[4], "minimum-relative");
			if ((!rel && strcmp(w[4], "minimum-absolute")) ||
			    strcmp(w[6], rel ? "maximum-relative" : "maximum-absolute")) {
				unrecognized(strcmp(w[4], rel ? "minimum-relative" : "minimum-absolute") ? w[4] : w[6]);
				return false;
			}
			int mn, mx;
			if (!int_arg(w[5], 0, rel ? 100 : 100000, &mn, "threshold") ||
			    !int_arg(w[7], 0, rel ? 100 : 100000, &mx, "threshold"))
				return false;
			if (mn > mx) {
				/* inferred wording */
				out("%% Minimum threshold must not be greater than maximum threshold\n");
				return false;
			}
			for (int i = 0; i < nid; i++)
				sw.port[ids[i].port][ids[i].split].tc[tc] =
					(struct tc){cc, rel, mn, mx,
						    sw.port[ids[i].port][ids[i].split].tc[tc].ets,
						    sw.port[ids[i].port][ids[i].split].tc[tc].weight};
			return true;
		}
		if (!strcmp(w[2], "dcb") && n >= 4 && !strcmp(w[3], "ets")) {
			enum ets e = ETS_DEFAULT;
			int weight = 0;
			/* "no traffic-class T dcb ets": back to the default scheduler, bare. */
			if (no && n != 4) {
				unrecognized(w[4]);
				return false;
			}
			if (!no) {
				if (n < 5) {
					incomplete();
					return false;
				}
				if (!strcmp(w[4], "strict") && n == 5) {
					e = ETS_STRICT;
				} else if (!strcmp(w[4], "wrr") && n == 6) {
					if (!int_arg(w[5], 1, 100, &weight, "weight"))
						return false;
					e = ETS_WRR;
				} else {
					unrecognized(w[4]);
					return false;
				}
			}
			for (int i = 0; i < nid; i++) {
				sw.port[ids[i].port][ids[i].split].tc[tc].ets = e;
				sw.port[ids[i].port][ids[i].split].tc[tc].weight = weight;
			}
			return true;
		}
		unrecognized(w[2]);
		return false;
	}
	if (!strcmp(w[0], "dcb") && n >= 2 && !strcmp(w[1], "priority-flow-control")) {
		for (int i = 0; i < nid; i++)
			sw.port[ids[i].port][ids[i].split].pfc_on = !no;
		return true;
	}
	unrecognized(w[0]);
	return false;
}

static bool do_config_write(char **w, int n)
{
	if (n == 2)
		return true; /* the active file: nothing to model */
	if (n >= 4 && !strcmp(w[2], "to") && (n == 4 || (n == 5 && !strcmp(w[4], "no-switch")))) {
		char path[4400], saved[4200];
		state_path(saved, sizeof(saved), "saved");
		mkdir(saved, 0755);
		snprintf(path, sizeof(path), "%s/%s", saved, w[3]);
		FILE *f = fopen(path, "w");
		if (!f) {
			out("%% Failed to write configuration file %s\n", w[3]);
			return false;
		}
		FILE *keep = stdout;
		stdout = f;
		show_running_config();
		stdout = keep;
		fclose(f);
		return true;
	}
	unrecognized(w[n - 1]);
	return false;
}

/* One line. Returns false at logout. */
static bool handle(char *line)
{
	line[strcspn(line, "\r\n")] = '\0';
	trace(line);
	if (latency_ms)
		usleep((useconds_t)latency_ms * 1000);

	/* Output filters: "| json-print", "| include WORD". */
	bool json = false;
	char *include = NULL, *bar = strchr(line, '|');
	if (bar) {
		*bar = '\0';
		char *f = bar + 1;
		while (*f == ' ')
			f++;
		if (!strcmp(f, "json-print"))
			json = true;
		else if (!strncmp(f, "include ", 8))
			include = f + 8;
	}
	char *w[32];
	int n = 0;
	for (char *t = strtok(line, " \t"); t && n < 32; t = strtok(NULL, " \t"))
		w[n++] = t;
	if (n == 0)
		return true;

	if (!strcmp(w[0], "exit") || !strcmp(w[0], "quit")) {
		if (mode == M_IF)
			mode = M_CONFIG;
		else if (mode == M_CONFIG)
			mode = M_ENABLE;
		else
			return false;
		return true;
	}
	if (!strcmp(w[0], "show")) {
		do_show(w, n, json, include);
		return true;
	}
	if ((n == 4 && !strcmp(w[0], "no") && !strcmp(w[1], "cli") && !strcmp(w[2], "session") &&
	     !strcmp(w[3], "paging")) ||
	    (n == 5 && !strcmp(w[0], "no") && !strcmp(w[1], "cli") && !strcmp(w[4], "enable")) ||
	    (n == 3 && !strcmp(w[0], "terminal") && !strcmp(w[1], "length")))
		return true;
	if (!strcmp(w[0], "enable")) {
		if (mode == M_USER)
			mode = M_ENABLE;
		return true;
	}
	if (mode == M_USER) {
		unrecognized(w[0]);
		return true;
	}
	if (!strcmp(w[0], "disable")) {
		mode = M_USER;
		return true;
	}
	if (n == 2 && !strcmp(w[0], "configure") && !strcmp(w[1], "terminal")) {
		if (mode == M_ENABLE)
			mode = M_CONFIG;
		return true;
	}
	if (n >= 2 && !strcmp(w[0], "configuration") && !strcmp(w[1], "write")) {
		do_config_write(w, n);
		return true;
	}
	if (mode == M_ENABLE) {
		unrecognized(w[0]);
		return true;
	}

	/* Configuration commands, counted for fault injection. */
	char joined[1024] = "";
	for (int i = 0; i < n; i++)
		snprintf(joined + strlen(joined), sizeof(joined) - strlen(joined), "%s%s",
			 i ? " " : "", w[i]);
	if (reject[0] && strstr(joined, reject)) {
		/* inferred wording */
		out("%% Failed to apply configuration: %s\n", joined);
		return true;
	}
	bool applied = false;
	bool no = !strcmp(w[0], "no");
	char **v = no ? w + 1 : w;
	int m = no ? n - 1 : n;
	struct pid ids[MAX_PORTS * (SPLITS + 1)];
	if (mode == M_IF) {
		int nid = parse_range(if_range, ids, (int)(sizeof(ids) / sizeof(ids[0])));
		applied = nid > 0 && do_interface(if_range, ids, nid, w, n);
	} else if (m >= 2 && !strcmp(v[0], "interface") && !strcmp(v[1], "ethernet")) {
		if (m < 3) {
			incomplete();
			return true;
		}
		int nid = parse_range(v[2], ids, (int)(sizeof(ids) / sizeof(ids[0])));
		if (nid <= 0)
			return true;
		if (m == 3 && !no) {
			snprintf(if_range, sizeof(if_range), "%s", v[2]);
			mode = M_IF;
			return true;
		}
		if (no) {
			/* "no" after the interface: "interface ethernet X no ..." */
			unrecognized(w[0]);
			return true;
		}
		applied = do_interface(v[2], ids, nid, v + 3, m - 3);
	} else if (m >= 2 && !strcmp(v[0], "traffic") && !strcmp(v[1], "pool")) {
		applied = do_pool(v, m, no);
	} else if (m >= 1 && !strcmp(v[0], "pool")) {
		applied = do_adv_pool(v, m, no);
	} else if ((m == 3 || (m == 4 && !strcmp(v[3], "force"))) && !strcmp(v[0], "advanced") &&
		   !strcmp(v[1], "buffer") && !strcmp(v[2], "management")) {
		applied = do_buffer_mode(no);
	} else if (m == 4 && !strcmp(v[0], "dcb") && !strcmp(v[1], "priority-flow-control") &&
		   !strcmp(v[2], "enable") && !strcmp(v[3], "force")) {
		sw.pfc_global = !no;
		applied = true;
	} else if (m == 2 && !strcmp(v[0], "hostname")) {
		snprintf(sw.hostname, sizeof(sw.hostname), "%s", v[1]);
		applied = true;
	} else {
		unrecognized(v[0]);
	}
	if (applied) {
		state_save();
		if (cut_after >= 0 && ++changes >= cut_after) {
			/*
			 * The command took effect; the connection drops before the
			 * reply. Once: the fault file is retired, as a link that
			 * dropped once comes back for the reconnect.
			 */
			char from[4200], to[4300];
			state_path(from, sizeof(from), "faults");
			snprintf(to, sizeof(to), "%s.done", from);
			rename(from, to);
			fflush(stdout);
			_exit(1);
		}
	}
	return true;
}

int main(int argc, char **argv)
{
	int n_ports = 32;
	const char *ver = NULL;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--state") && i + 1 < argc)
			snprintf(dir, sizeof(dir), "%s", argv[++i]);
		else if (!strcmp(argv[i], "--ports") && i + 1 < argc)
			n_ports = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--version") && i + 1 < argc)
			ver = argv[++i];
	}
	if (!ver)
		ver = getenv("ONYX_SIM_VERSION");
	if (ver) {
		if (!*ver || strlen(ver) >= sizeof(version) || strspn(ver, "0123456789.-") != strlen(ver)) {
			fprintf(stderr, "onyx-sim: --version takes a release such as 3.10.4606\n");
			return 2;
		}
		snprintf(version, sizeof(version), "%s", ver);
	}
	if (!dir[0] || n_ports < 1 || n_ports > MAX_PORTS) {
		fprintf(stderr, "usage: onyx-sim --state DIR [--ports 1..%d] [--version RELEASE]\n",
			MAX_PORTS);
		return 2;
	}
	mkdir(dir, 0755);
	state_load(n_ports);
	faults_load();
	/* Output is line-buffered by hand: prompts go out with an explicit flush. */
	setvbuf(stdout, NULL, _IOFBF, 1 << 16);

	char line[4096];
	const char *oneshot = getenv("SSH_ORIGINAL_COMMAND");
	if (oneshot && *oneshot) {
		mode = M_ENABLE;
		snprintf(line, sizeof(line), "%s", oneshot);
		handle(line);
		fflush(stdout);
		return 0;
	}
	prompt();
	while (fgets(line, sizeof(line), stdin)) {
		if (!handle(line))
			break;
		prompt();
	}
	fflush(stdout);
	return 0;
}
