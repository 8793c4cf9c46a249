/* SPDX-License-Identifier: MIT */
/*
 * The intent's keys, one row each (model/keys.h), in the order docs/intent.md
 * and the loader's "allowed:" lists give them. Ranges are the loader's
 * (each cited where the loader reads it); a range that depends on the
 * fabric (qos.switch_mtu's, by its switch OSes) is the widest here and
 * narrowed by the loader.
 */
#include "keys.h"

#include "bounds.h"
#include "derive.h"
#include "model.h"
#include "names.h"
#include "osversion.h"
#include "switch_hw.h"

#include <stddef.h>
#include <string.h>

#define STR_(x) #x
#define STR(x) STR_(x)
/* Where a value lands in the model: .base and .offset (model/keys.h). */
#define AT QG_KEY_AT
#define AT_TEXT QG_KEY_AT_TEXT
#define GIVEN QG_KEY_GIVEN
/* Named in the "belongs in" hint when given at another level (model/keys.h). */
#define HOMED .homed = true
/* The units of the buffer's and the watchdog's fields (model/keys.h's unit). */
#define KB .unit = "kB", .unit_spellings = "kb k kib"
#define MS .unit = "ms", .unit_spellings = "ms"
/* ECN thresholds in kB: qos.lossless.ecn's and a port role's (issue 28) alike. */
#define ECN_KB_RANGE 1, 100000
/* A port speed: one of qg_speeds_gbps (model/switch_hw.h), which the loader checks. */
#define SPEED_GBPS QG_KEY_INT, 1, 800, .unit = "Gb/s", .unit_spellings = "g gb gbps"

static const char *const trusts[] = {"dscp", "pcp", NULL};
static const char *const strict[] = {"strict", NULL};
static const char *const ets_modes[] = {"strict", "wrr", NULL};
static const char *const all_rails[] = {"all", NULL};

/* Rows shared by the two classes, under "qos.lossless" and "qos.cnp". */
/* clang-format off */
#define CLASS_PRIORITY(c, what)                                                                    \
	{c ".priority", QG_KEY_INT, 0, 7, .required = true,                                        \
	 .doc = "the 802.1p priority of " what " (0..7)", AT(QG_KB_CLASS, struct qg_class, priority),  \
	 HOMED}
#define CLASS_TC(c, what)                                                                          \
	{c ".traffic_class", QG_KEY_INT, 0, 7, .def = "the class's priority",                      \
	 .doc = "the egress queue of " what " (0..7)",                                             \
	 AT(QG_KB_CLASS, struct qg_class, traffic_class),                                         \
	 GIVEN(struct qg_class, tc_given), HOMED}
/* clang-format on */

static const struct qg_key rows[] = {
    {"version", QG_KEY_INT, 1, 1, .required = true, .doc = "the intent format's version: 1",
     AT(QG_KB_MODEL, struct qg_model, version), HOMED},
    {"fabric", QG_KEY_STRING, .required = true, .rule = QG_NAME_RULE,
     .doc = "the fabric's name, for plan.json and the generated files",
     AT_TEXT(QG_KB_MODEL, struct qg_model, fabric), .ok = qg_name_ok, .pattern = QG_NAME_PATTERN,
     HOMED},
    {"qos", QG_KEY_MAP, .required = true, .doc = "the policy every device of the fabric follows",
     HOMED},
    {"switches", QG_KEY_LIST, .doc = "the switches and the ports that carry RoCE", HOMED},
    {"hosts", QG_KEY_LIST, .doc = "the hosts and their RDMA NICs; a name may be a host list",
     HOMED},
    {"dvs", QG_KEY_LIST, .doc = "vSphere distributed switches and their member hosts"},
    {"verify", QG_KEY_MAP, .doc = "the host pairs qosgen verify runs RDMA traffic between", HOMED},
    {"acknowledge", QG_KEY_LIST, .doc = "warnings the intent accepts, each with why", HOMED},

    {"qos.trust", QG_KEY_ENUM, .values = trusts, .def = "dscp",
     .doc = "what switches and hosts classify by: the DSCP or the 802.1p priority",
     AT(QG_KB_QOS, struct qg_qos, trust), GIVEN(struct qg_qos, trust_given), HOMED},
    {"qos.mtu", QG_KEY_INT, 1500, 9216, .def = STR(QG_DEFAULT_MTU),
     .doc = "the hosts' MTU in bytes", AT(QG_KB_QOS, struct qg_qos, mtu),
     GIVEN(struct qg_qos, mtu_given), .unit = "bytes", .unit_spellings = "b bytes", HOMED},
    {"qos.switch_mtu", QG_KEY_INT, 1500, QG_DEFAULT_SWITCH_MTU,
     .def = "the largest port MTU every switch OS used takes, at most " STR(QG_DEFAULT_SWITCH_MTU),
     .doc = "the switch ports' MTU in bytes; at least mtu + " STR(QG_SWITCH_MTU_OVERHEAD),
     AT(QG_KB_QOS, struct qg_qos, switch_mtu), GIVEN(struct qg_qos, switch_mtu_given),
     .unit = "bytes", .unit_spellings = "b bytes", HOMED},
    {"qos.lossless", QG_KEY_MAP, .required = true, .doc = "the lossless (RoCE) class", HOMED},
    {"qos.cnp", QG_KEY_MAP, .doc = "the class of DCQCN's congestion notification packets", HOMED},
    {"qos.pfc_watchdog", QG_KEY_BOOL | QG_KEY_MAP,
     .doc = "the PFC watchdog: true, false, or its times in ms; absent: left as it is", HOMED},

    CLASS_PRIORITY("qos.lossless", "the lossless class"),
    {"qos.lossless.dscp", QG_KEY_INT | QG_KEY_LIST, 0, 63, .required = true, .nonempty = true,
     .unique = true, .doc = "the DSCP value(s) of RoCE traffic: one or a list (0..63)", HOMED},
    {"qos.lossless.dscp[]", QG_KEY_INT, 0, 63, .doc = "a DSCP value of RoCE traffic"},
    CLASS_TC("qos.lossless", "the lossless class"),
    /* Required where a used switch target writes a pool (intent/intent_qos.c: intent_qos_settle_pool). */
    {"qos.lossless.pool", QG_KEY_MAP,
     .doc = "the switches' lossless buffer pool; required where a switch's platform writes one",
     HOMED},
    {"qos.lossless.ecn", QG_KEY_MAP,
     .doc = "ECN marking thresholds for DCQCN; absent: ECN off (a warning)", HOMED},
    /* Defaults: NVIDIA's RoCE default on every switch OS (model/model.h, issue 34). */
    {"qos.lossless.ets", QG_KEY_ENUM | QG_KEY_MAP, .values = strict,
     .def = "{mode: wrr, weight: " STR(QG_LOSSLESS_ETS_DEFAULT_WEIGHT) "}",
     .doc = "the class's scheduling: strict, or {mode: wrr, weight: 1..100}", HOMED},
    {"qos.lossless.pool.name", QG_KEY_STRING, .required = true, .rule = QG_POOL_RULE,
     .doc = "the pool's name on the switches", AT_TEXT(QG_KB_QOS, struct qg_qos, pool_name),
     .ok = qg_pool_name_ok, .pattern = QG_POOL_PATTERN},
    {"qos.lossless.pool.memory_percent", QG_KEY_NUMBER, 0, 10000, .required = true,
     .doc = "the pool's share of the switch buffer, in percent (0, 100]",
     AT(QG_KB_QOS, struct qg_qos, pool_percent_centi), .unit = "percent", .unit_spellings = "%",
     HOMED},
    {"qos.lossless.ecn.min_kb", QG_KEY_INT, ECN_KB_RANGE, .required = true,
     .doc = "the queue depth in kB where ECN marking starts",
     AT(QG_KB_QOS, struct qg_qos, ecn_min_kb), KB, HOMED},
    {"qos.lossless.ecn.max_kb", QG_KEY_INT, ECN_KB_RANGE, .required = true,
     .doc = "the queue depth in kB where every packet is marked; at least min_kb",
     AT(QG_KB_QOS, struct qg_qos, ecn_max_kb), KB, HOMED},
    {"qos.lossless.ets.mode", QG_KEY_ENUM, .values = ets_modes, .required = true,
     .doc = "strict priority, or weighted round robin", HOMED},
    {"qos.lossless.ets.weight", QG_KEY_INT, 1, 100,
     .doc = "the WRR class's share of the bandwidth in percent; mode wrr only",
     AT(QG_KB_CLASS, struct qg_class, ets.weight), .unit = "percent", .unit_spellings = "%", HOMED},

    CLASS_PRIORITY("qos.cnp", "CNPs"),
    {"qos.cnp.dscp", QG_KEY_INT, 0, 63, .required = true,
     .doc = "the one DSCP value CNPs carry (0..63)", HOMED},
    CLASS_TC("qos.cnp", "CNPs"),
    {"qos.cnp.ets", QG_KEY_ENUM | QG_KEY_MAP, .values = strict, .def = "strict",
     .doc = "the class's scheduling: strict, or {mode: wrr, weight: 1..100}", HOMED},
    {"qos.cnp.ets.mode", QG_KEY_ENUM, .values = ets_modes, .required = true,
     .doc = "strict priority, or weighted round robin", HOMED},
    {"qos.cnp.ets.weight", QG_KEY_INT, 1, 100,
     .doc = "the WRR class's share of the bandwidth in percent; mode wrr only",
     AT(QG_KB_CLASS, struct qg_class, ets.weight), .unit = "percent", .unit_spellings = "%", HOMED},

    /* The widest of the switch OSes' ranges (model/model.h); each target checks its own. */
    {"qos.pfc_watchdog.detection_ms", QG_KEY_INT, QG_PFCWD_DETECTION_MIN, QG_PFCWD_DETECTION_MAX,
     .def = STR(QG_PFCWD_DETECTION_MS),
     .doc = "how long a queue is paused before the watchdog acts; at least poll_ms",
     AT(QG_KB_QOS, struct qg_qos, pfcwd.detection_ms), GIVEN(struct qg_qos, pfcwd.detection_given),
     MS, HOMED},
    {"qos.pfc_watchdog.restoration_ms", QG_KEY_INT, QG_PFCWD_RESTORATION_MIN,
     QG_PFCWD_RESTORATION_MAX, .def = STR(QG_PFCWD_RESTORATION_MS),
     .doc = "how long the watchdog waits before it restores the queue; at least poll_ms",
     AT(QG_KB_QOS, struct qg_qos, pfcwd.restoration_ms),
     GIVEN(struct qg_qos, pfcwd.restoration_given), MS, HOMED},
    {"qos.pfc_watchdog.poll_ms", QG_KEY_INT, QG_PFCWD_POLL_MIN, QG_PFCWD_POLL_MAX,
     .def = STR(QG_PFCWD_POLL_MS), .doc = "how often the watchdog checks the queues",
     AT(QG_KB_QOS, struct qg_qos, pfcwd.poll_ms), GIVEN(struct qg_qos, pfcwd.poll_given), MS,
     HOMED},

    {"switches[]", QG_KEY_MAP, .doc = "a switch"},
    {"switches[].name", QG_KEY_STRING, .required = true, .rule = QG_NAME_RULE,
     .doc = "the switch's name, unique across switches, hosts and dvs",
     AT_TEXT(QG_KB_SWITCH, struct qg_switch, name), .ok = qg_name_ok, .pattern = QG_NAME_PATTERN},
    {"switches[].platform", QG_KEY_ENUM, .values_from = QG_KV_SWITCH_PLATFORMS, .required = true,
     .doc = "the switch's OS: the target that writes its configuration"},
    {"switches[].address", QG_KEY_STRING, .required = true, .rule = QG_ADDRESS_RULE,
     .doc = "where diff and push reach the switch",
     AT_TEXT(QG_KB_SWITCH, struct qg_switch, address), .ok = qg_address_ok},
    {"switches[].port", QG_KEY_INT, 1, 65535, .def = "the platform's (SSH: 22)",
     .doc = "the TCP port of the switch's management access",
     AT(QG_KB_SWITCH, struct qg_switch, port), GIVEN(struct qg_switch, port_given)},
    {"switches[].user", QG_KEY_STRING, .rule = QG_USER_RULE,
     .def = "~/.ssh/config's, else the local user", .doc = "the login user",
     AT_TEXT(QG_KB_SWITCH, struct qg_switch, user), .ok = qg_user_ok, .pattern = QG_USER_PATTERN},
    {"switches[].ports", QG_KEY_STRING | QG_KEY_LIST, .required = true, .nonempty = true,
     .rule = "the platform's port names and ranges",
     .doc = "the ports that carry RoCE, in the platform's names: one, or a list", HOMED},
    {"switches[].ports[]", QG_KEY_STRING, .rule = "the platform's port names and ranges",
     .doc = "a port or a range of ports"},
    {"switches[].cable_length_m", QG_KEY_INT | QG_KEY_MAP, 1, QG_CABLE_M_MAX,
     .doc = "the ports' cable length in metres: one for all, or by port with a default",
     .unit = "metres", .unit_spellings = "m", HOMED},
    {"switches[].cable_length_m.*", QG_KEY_INT, 1, QG_CABLE_M_MAX,
     .doc = "`default` or a list of the switch's ports, to a length in metres"},
    /*
     * Roles (issue 28): the ports to hosts and those to spines differ in
     * cable length and so in the queue depth where marking should start.
     * The loader reads them on its own (intent/intent_roles.c): a role's
     * values are per port, not fields of the switch.
     */
    {"switches[].roles", QG_KEY_MAP,
     .doc = "named sets of the switch's ports with their own ECN thresholds and cable length",
     HOMED},
    {"switches[].roles.*", QG_KEY_MAP, .rule = QG_NAME_RULE, .ok = qg_name_ok,
     .pattern = QG_NAME_PATTERN,
     .doc = "a role: its name, to its ports and what they take instead of the policy's"},
    {"switches[].roles.*.ports", QG_KEY_STRING | QG_KEY_LIST, .required = true, .nonempty = true,
     .rule = "the platform's port names and ranges, ports of the switch's ports",
     .doc = "the role's ports: one, or a list; a port has at most one role"},
    {"switches[].roles.*.ports[]", QG_KEY_STRING, .rule = "the platform's port names and ranges",
     .doc = "a port or a range of ports"},
    {"switches[].roles.*.cable_length_m", QG_KEY_INT, 1, QG_CABLE_M_MAX,
     .doc = "the role's ports' cable length in metres; not also given by the switch's "
	    "cable_length_m",
     .unit = "metres", .unit_spellings = "m"},
    {"switches[].roles.*.speed_gbps", SPEED_GBPS,
     .doc = "the role's ports' speed in Gb/s instead of the switch's, for their headroom"},
    {"switches[].roles.*.ecn", QG_KEY_MAP,
     .doc = "the role's ports' ECN thresholds instead of qos.lossless.ecn's, which must be on"},
    {"switches[].roles.*.ecn.min_kb", QG_KEY_INT, ECN_KB_RANGE, .required = true,
     .doc = "the queue depth in kB where ECN marking starts on the role's ports", KB},
    {"switches[].roles.*.ecn.max_kb", QG_KEY_INT, ECN_KB_RANGE, .required = true,
     .doc = "the queue depth in kB where every packet is marked; at least min_kb", KB},

    {"switches[].os_version", QG_KEY_STRING, .rule = QG_VERSION_RULE,
     .def = "the platform's newest supported version",
     .doc = "the OS version the switch runs: its files are written in that version's dialect, "
	    "and push refuses a switch that runs one of another dialect",
     AT_TEXT(QG_KB_SWITCH, struct qg_switch, os_version), GIVEN(struct qg_switch, os_version_given),
     .ok = qg_version_ok, .pattern = QG_VERSION_PATTERN},
    /*
     * Issue 34: the hardware and its ports' speed, for the lossless
     * headroom (model/headroom.h). Without a model the headroom is not
     * proven: a warning, never a guess.
     */
    {"switches[].model", QG_KEY_ENUM, .values = qg_switch_models,
     .doc = "the switch's hardware, an NVIDIA Spectrum model: its ASIC, ports and buffer, so that "
	    "check can prove its lossless headroom fits",
     AT(QG_KB_SWITCH, struct qg_switch, model)},
    {"switches[].speed_gbps", SPEED_GBPS, .def = "the model's native port speed",
     .doc = "its ports' speed in Gb/s, one the model's ports take, for their headroom",
     AT(QG_KB_SWITCH, struct qg_switch, speed_gbps), GIVEN(struct qg_switch, speed_given)},

    {"hosts[]", QG_KEY_MAP,
     .doc = "a host, or a host list; each platform adds its own keys (its target's rows)"},
    {"hosts[].name", QG_KEY_STRING, .required = true,
     .rule = QG_NAME_RULE ", or a host list prefix[001-512]suffix",
     .doc = "the host's name, or a host list of names", AT_TEXT(QG_KB_HOST, struct qg_host, name)},
    {"hosts[].address", QG_KEY_STRING, .required = true,
     .rule = QG_ADDRESS_RULE "; with a host list, an address list or the first IPv4",
     .doc = "where push and verify reach the host", AT_TEXT(QG_KB_HOST, struct qg_host, address)},
    {"hosts[].platform", QG_KEY_ENUM, .values_from = QG_KV_HOST_PLATFORMS, .required = true,
     .doc = "the host's OS: the target that writes its script"},
    {"hosts[].port", QG_KEY_INT, 1, 65535, .def = STR(QG_DEFAULT_SSH_PORT), .doc = "the SSH port",
     AT(QG_KB_HOST, struct qg_host, port), GIVEN(struct qg_host, port_given)},
    {"hosts[].user", QG_KEY_STRING, .rule = QG_USER_RULE,
     .def = "~/.ssh/config's, else the local user", .doc = "the login user",
     AT_TEXT(QG_KB_HOST, struct qg_host, user), .ok = qg_user_ok, .pattern = QG_USER_PATTERN},

    {"dvs[]", QG_KEY_MAP, .doc = "a vSphere distributed switch"},
    {"dvs[].name", QG_KEY_STRING, .required = true, .rule = QG_DVS_NAME_RULE,
     .doc = "the DVS's name in vCenter", AT_TEXT(QG_KB_DVS, struct qg_dvs, name),
     .ok = qg_dvs_name_ok, .pattern = QG_DVS_NAME_PATTERN},
    {"dvs[].vcenter", QG_KEY_STRING, .required = true, .rule = QG_ADDRESS_RULE,
     .doc = "the vCenter that holds it", AT_TEXT(QG_KB_DVS, struct qg_dvs, vcenter),
     .ok = qg_address_ok},
    {"dvs[].datacenter", QG_KEY_STRING, .required = true, .rule = QG_LABEL_RULE,
     .doc = "its datacenter", AT_TEXT(QG_KB_DVS, struct qg_dvs, datacenter), .ok = qg_label_ok,
     .pattern = QG_LABEL_PATTERN},
    /* vSphere accepts a DVS maxMtu of 1500..9000. */
    {"dvs[].mtu", QG_KEY_INT, 1500, 9000, .def = "qos.mtu",
     .doc = "the DVS's maximum MTU; at least qos.mtu", AT(QG_KB_DVS, struct qg_dvs, mtu),
     GIVEN(struct qg_dvs, mtu_given)},
    {"dvs[].uplinks", QG_KEY_INT, 1, 32, .def = STR(QG_DEFAULT_DVS_UPLINKS),
     .doc = "the number of uplink ports per host", AT(QG_KB_DVS, struct qg_dvs, uplinks)},
    {"dvs[].portgroup", QG_KEY_STRING, .rule = QG_LABEL_RULE, .doc = "a portgroup to create on it",
     AT_TEXT(QG_KB_DVS, struct qg_dvs, portgroup), .ok = qg_label_ok, .pattern = QG_LABEL_PATTERN},
    {"dvs[].hosts", QG_KEY_LIST, .doc = "its member hosts, by name"},
    {"dvs[].hosts[]", QG_KEY_STRING, .rule = "the name of a host of hosts", .doc = "a member host",
     .ok = qg_name_ok, .pattern = QG_NAME_PATTERN},

    {"verify.pairs", QG_KEY_LIST, .required = true, .nonempty = true,
     .doc = "the host pairs to run traffic between", HOMED},
    /* perftest's largest message for ib_write_bw is 8 MiB (MAX_SIZE). */
    {"verify.message_size", QG_KEY_INT, 1, 8388608, .def = STR(QG_DEFAULT_MESSAGE_SIZE),
     .doc = "the RDMA WRITE message size in bytes",
     AT(QG_KB_VERIFY, struct qg_verify, message_size), GIVEN(struct qg_verify, message_size_given),
     .unit = "bytes", .unit_spellings = "b bytes"},
    {"verify.duration_s", QG_KEY_INT, 1, 3600, .def = STR(QG_DEFAULT_DURATION_S),
     .doc = "how long each pair runs, in seconds", AT(QG_KB_VERIFY, struct qg_verify, duration_s),
     GIVEN(struct qg_verify, duration_given), .unit = "seconds", .unit_spellings = "s sec"},
    {"verify.pairs[]", QG_KEY_MAP, .doc = "a pair"},
    {"verify.pairs[].client", QG_KEY_STRING, .required = true,
     .rule = "the name of a host of hosts", .doc = "the host that writes", .ok = qg_name_ok,
     .pattern = QG_NAME_PATTERN},
    {"verify.pairs[].server", QG_KEY_STRING, .required = true,
     .rule = "the name of a host of hosts", .doc = "the host written to", .ok = qg_name_ok,
     .pattern = QG_NAME_PATTERN},
    {"verify.pairs[].min_gbps", QG_KEY_NUMBER, 0, 320000, .required = true,
     .doc = "the least bandwidth that passes, in Gb/s (0, 3200]"},
    /*
     * Issue 28: rail K is the client's nics[K] with the server's nics[K]; an
     * index is below a host's NICs, at most QG_NICS_MAX (model/bounds.h).
     */
    {"verify.pairs[].rails", QG_KEY_ENUM | QG_KEY_LIST, .values = all_rails, .nonempty = true,
     .unique = true, .def = "rail 0 alone",
     .doc = "the rails to run, one after another: all (every NIC both hosts have) or a list of "
	    "NIC indices"},
    {"verify.pairs[].rails[]", QG_KEY_INT, 0, QG_NICS_MAX - 1,
     .doc = "a rail: the client's and the server's NIC of this index in their nics"},

    {"acknowledge[]", QG_KEY_ENUM | QG_KEY_MAP, .values_from = QG_KV_WARNINGS,
     .doc = "a warning's name, or {warning, because}"},
    {"acknowledge[].warning", QG_KEY_ENUM, .values_from = QG_KV_WARNINGS, .required = true,
     .doc = "the name of a warning the intent can trigger"},
    {"acknowledge[].because", QG_KEY_STRING, .rule = QG_BECAUSE_RULE,
     .doc = "why it is accepted, shown by explain"},
};

const struct qg_key *qg_keys(size_t *n_out)
{
	*n_out = sizeof(rows) / sizeof(rows[0]);
	return rows;
}

const struct qg_key *qg_key_find(const char *path)
{
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		if (!strcmp(rows[i].path, path))
			return &rows[i];
	return NULL;
}

size_t qg_key_children(const char *path, const char **names, size_t cap)
{
	size_t n = 0, len = strlen(path);
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]) && n < cap; i++) {
		const char *p = rows[i].path, *key = p;
		if (len) {
			if (strncmp(p, path, len) || p[len] != '.')
				continue;
			key = p + len + 1;
		}
		if (!key[strcspn(key, ".[")] && strcmp(key, "*"))
			names[n++] = key;
	}
	names[n] = NULL;
	return n;
}

bool qg_key_given(const struct qg_key *k, const void *base)
{
	bool given = true;
	if (k->given)
		memcpy(&given, (const char *)base + k->given - 1, sizeof(given));
	else if (k->type == QG_KEY_STRING && !k->required)
		given = *((const char *)base + k->offset) != '\0';
	return given;
}

void qg_key_path(const char *path, char *out, size_t len)
{
	size_t o = 0;
	for (const char *c = path; *c && o + 3 < len; c++) {
		if (*c != '[') {
			out[o++] = *c;
			continue;
		}
		/* A host list's name holds brackets of its own: "hosts[gpu-[001-512]]". */
		size_t depth = 0;
		const char *close = c;
		for (; *close; close++) {
			depth += *close == '[';
			depth -= *close == ']';
			if (depth == 0)
				break;
		}
		if (!*close)
			break;
		out[o++] = '[';
		out[o++] = ']';
		c = close;
	}
	out[o] = '\0';
}
