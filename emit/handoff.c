/* SPDX-License-Identifier: MIT */
#include "handoff.h"

#include <errno.h>
#include <string.h>

/*
 * A host's script is three parts run as one (targets/common/host_script.h):
 * its platform's helper library, its row of the hosts' table and its
 * group's body, which the inventory names (qosgen_platform, qosgen_row,
 * qosgen_group: the row is in the inventory, not read from the table, so
 * that 10,000 hosts do not read a 10,000-line file each). They are put
 * together on the controller, byte for byte (the file lookups keep the
 * final newlines), into a temporary file of the task's own, removed
 * whatever happens; Ansible's script action then copies it and runs it, as
 * before: no Python on the host (ESXi's included). The controller's steps
 * change nothing Ansible should report (nor show under --diff: the whole
 * script), and run in check mode too; never with the play's become (that is
 * the host's sudo, not the controller's).
 * The script action has no check mode of its own (it would skip the task),
 * so the task always runs and check mode becomes the scripts' dry run. In
 * the block scalar YAML keeps backslashes as they are; Jinja's string
 * literal makes \\[ a \[ for Python's re.
 */
static const char *const host_script_vars[] = {"ansible_connection: ansible.builtin.ssh", NULL};
const struct qg_handoff qg_handoff_host_script = {
    .play = "Run the generated host scripts",
    .group_vars = host_script_vars,
    .tasks =
	"- name: Run the host's script, in check mode as its dry run (QG_DRY_RUN=1)\n"
	"  vars:\n"
	"    qosgen_lib: \"{{ qosgen_out }}/host/lib/{{ qosgen_platform }}.sh\"\n"
	"    qosgen_body: \"{{ qosgen_out }}/host/groups/{{ qosgen_group }}.sh\"\n"
	"  block:\n"
	"    - name: Make a temporary file on the controller for it\n"
	"      ansible.builtin.tempfile:\n"
	"        suffix: .sh\n"
	"      register: qosgen_tmp\n"
	"      delegate_to: localhost\n"
	"      become: false\n"
	"      check_mode: false\n"
	"      changed_when: false\n"
	"    - name: Put host/lib/PLATFORM.sh, the host's row and host/groups/GROUP.sh in it, "
	"as one\n"
	"      ansible.builtin.copy:\n"
	"        dest: \"{{ qosgen_tmp.path }}\"\n"
	/*
	 * A block scalar: its line break is the row's newline, with no escape
	 * (Ansible doubles backslashes in a Jinja string literal); |- keeps the
	 * group's body's own final newline and adds none.
	 */
	"        content: |-\n"
	"          {{ lookup('ansible.builtin.file', qosgen_lib, rstrip=false) }}{{ qosgen_row }}\n"
	"          {{ lookup('ansible.builtin.file', qosgen_body, rstrip=false) }}\n"
	"        mode: \"0600\"\n"
	"      diff: false\n"
	"      delegate_to: localhost\n"
	"      become: false\n"
	"      check_mode: false\n"
	"      changed_when: false\n"
	"    - name: Run it on the host\n"
	"      ansible.builtin.script: \"{{ qosgen_tmp.path }}\"\n"
	"      environment:\n"
	"        QG_DRY_RUN: \"{{ '1' if ansible_check_mode else '0' }}\"\n"
	"      check_mode: false\n"
	"      register: qosgen_script\n"
	"      # [changed] KEY: ... set now; [differs] KEY: ... would be set (dry run)\n"
	"      changed_when: >-\n"
	"        qosgen_script.stdout_lines | select('match', '\\\\[(changed|differs)\\\\] ')\n"
	"        | list | length > 0\n"
	/*
	 * As qosgen push judges it (targets/host/script_push.c): a script that
	 * printed no report line did nothing it can vouch for, exit 0 or not.
	 */
	"      # exit 1: a setting failed; 2: a tool or knob is missing on this host;\n"
	"      # no report line at all: the script did not run as generated\n"
	"      failed_when: >-\n"
	"        qosgen_script.rc != 0 or qosgen_script.stdout_lines\n"
	"        | select('match', '\\\\[(ok|changed|failed|missing|n/a|differs)\\\\] ')\n"
	"        | list | length == 0\n"
	/* A failed task prints its result itself; this shows an ok or changed one's lines. */
	"    - name: Report the script's lines (in check mode, what it would change)\n"
	"      ansible.builtin.debug:\n"
	"        var: qosgen_script.stdout_lines\n"
	"  always:\n"
	"    - name: Remove the temporary file\n"
	"      ansible.builtin.file:\n"
	"        path: \"{{ qosgen_tmp.path }}\"\n"
	"        state: absent\n"
	"      when: qosgen_tmp.path is defined\n"
	"      delegate_to: localhost\n"
	"      become: false\n"
	"      check_mode: false\n"
	"      changed_when: false\n",
};

/*
 * Switches and DVSes (issue 27): `qosgen push` itself, on the controller,
 * one device per task, so that the play reports what qosgen means. A device
 * is ok when qosgen found it in sync, changed when qosgen sent something and
 * read it back in sync (removals included: the push converges exactly, as
 * onyx_config and NVUE merge patches, which only add, never did), failed
 * when the push failed, rolled back, or its outcome is unknown; qosgen's own
 * checkpoints and rollbacks are kept. Ansible's forks and serial do the
 * fan-out. Check mode runs `qosgen diff`, which reads and sends nothing (an
 * NVUE switch's read makes no revision), and the next task prints qosgen's
 * own diff text: a module returning `diff:` would show the same lines, but
 * would be Python of ours on every controller; the text is what `qosgen
 * diff` prints, one task per device.
 * NVUE's password reaches qosgen through its environment
 * (QOSGEN_NVUE_PASSWORD), never argv: Ansible's `environment:` keyword
 * writes it into the /bin/sh -c command line it runs the module with (ps,
 * -vvv), so it goes in on the command's stdin, read by a one-line sh that
 * exports it; the task is then no_log (its invocation holds the stdin). A
 * password already in the controller's environment (an AWX credential's
 * injector) is kept when qosgen_nvue_password is not set.
 * The result is read from qosgen's --json (docs/json.md): the one device's
 * status, ok, message and lines. The report puts the status before the
 * message only where the message does not already say it: a dry run's
 * message is "120 settings would change (dry run: nothing sent)", which
 * "would change: " before it said twice (issue 37). qosgen_kind (the
 * inventory's) picks --switch or --dvs.
 */
static const char push_tasks[] =
    "- name: Check the variables qosgen needs\n"
    "  ansible.builtin.assert:\n"
    "    that: qosgen_intent is defined\n"
    "    fail_msg: set qosgen_intent to the intent file (-e qosgen_intent=fabric.yaml)\n"
    "    quiet: true\n"
    "- name: Run qosgen push on the controller (qosgen diff in check mode)\n"
    "  ansible.builtin.command:\n"
    "    argv: >-\n"
    "      {{ qosgen_sh + [qosgen | default('qosgen'), qosgen_verb, qosgen_intent,\n"
    "      '--' ~ qosgen_kind, inventory_hostname, '--json'] + (qosgen_push_args | default([])) "
    "}}\n"
    "    chdir: \"{{ qosgen_out }}/..\"\n"
    "    stdin: \"{{ qosgen_nvue_password | default('') }}\"\n"
    "  vars:\n"
    "    qosgen_verb: \"{{ 'diff' if ansible_check_mode else 'push' }}\"\n"
    "    # The password, if any, from stdin into qosgen's environment, never argv.\n"
    "    qosgen_sh:\n"
    "      - /bin/sh\n"
    "      - -c\n"
    "      - IFS= read -r p && [ -n \"$p\" ] && export QOSGEN_NVUE_PASSWORD=\"$p\"; exec \"$@\"\n"
    "      - qosgen\n"
    "  check_mode: false\n"
    "  no_log: \"{{ qosgen_nvue_password is defined }}\"\n"
    "  register: qosgen_run\n"
    "  changed_when: >-\n"
    "    qosgen_device.lines_sent | default(0) > 0 or\n"
    "    qosgen_device.status | default('') == 'would change'\n"
    "  failed_when: false\n"
    "- name: Report qosgen's result and what it sent (in check mode, what it would send)\n"
    "  ansible.builtin.debug:\n"
    "    msg: \"{{ [qosgen_said if qosgen_status in qosgen_said else qosgen_status ~ ': ' ~ "
    "qosgen_said] + qosgen_device.lines | default([]) }}\"\n"
    "  vars:\n"
    "    qosgen_status: \"{{ qosgen_device.status | default('no result') }}\"\n"
    "- name: Fail unless the device is in sync or converged exactly\n"
    "  ansible.builtin.fail:\n"
    "    msg: \"qosgen exit {{ qosgen_run.rc }}: {{ qosgen_device.status | default('no "
    "result') }}: {{ qosgen_said }}\"\n"
    "  when: qosgen_run.rc != 0 or not (qosgen_device.ok | default(false))\n";

/*
 * The one device of qosgen's --json envelope, {} when it printed none (a
 * usage error), and its message, else what qosgen said on stderr.
 */
static const char *const push_play_vars[] = {
    "qosgen_device: \"{{ ((qosgen_run.stdout | default('{}', true) | from_json).devices | "
    "default([{}]))[0] }}\"",
    "qosgen_said: \"{{ qosgen_device.message | default(qosgen_run.stderr | default('')) }}\"",
    NULL};

/* qosgen runs on the controller: Ansible connects to nothing. */
static const char *const push_group_vars[] = {
    "ansible_connection: local", "ansible_python_interpreter: \"{{ ansible_playbook_python }}\"",
    NULL};

const struct qg_handoff qg_handoff_switch_push = {
    .play = "Configure the switches with qosgen push",
    .group_vars = push_group_vars,
    .play_vars = push_play_vars,
    .tasks = push_tasks,
};

const struct qg_handoff qg_handoff_dvs_push = {
    .play = "Configure the distributed switches with qosgen push",
    .group_vars = push_group_vars,
    .play_vars = push_play_vars,
    .tasks = push_tasks,
};

/*
 * Hosts whose push does more than their script (issue 27): `qosgen push
 * --host NAME --json`, the same tasks. The Linux target's push, with
 * persist: true (the default), also installs its copy of the script, a
 * systemd unit and a udev rule (targets/host/linux_persist.c); a play that
 * ran the script alone left such a host ok while `qosgen diff --host` found
 * `[differs] persist`: ok and changed meant less than qosgen means.
 * Installing the same payload from the play would be a second engine to keep
 * equal to the first; with the push as the one engine, ok is `in sync`
 * (persistence included), changed `converged`, check mode `qosgen diff
 * --host`. qosgen reaches the host with its own SSH (the intent's user,
 * qosgen_push_args' --identity and --known-hosts), as `qosgen push` does.
 * A target whose push sends its script alone (script_push.c) keeps the
 * script play above: the same bytes, judged the same way.
 */
const struct qg_handoff qg_handoff_host_push = {
    .play = "Configure the hosts with qosgen push",
    .group_vars = push_group_vars,
    .play_vars = push_play_vars,
    .tasks = push_tasks,
};

/*
 * The inventory's groups (issue 24, item 7). Ansible keeps hosts and groups
 * in one namespace of patterns: a switch named `linux` made the Linux play
 * (hosts: 'linux') target it, a host named `onyx` got the Onyx play. Every
 * group name therefore holds a capital letter, which Ansible takes in a
 * group name ([A-Za-z0-9_]) and matches case-sensitively, and the intent's
 * name rule (a-z 0-9 . _ -) never lets a device have: GROUP_PREFIX and the
 * target's name, and the three by role (the DVSes' not Qosgen_dvs, the
 * DVS target's own group).
 */
#define GROUP_PREFIX "Qosgen_"
static const char *const role_group[] = {GROUP_PREFIX "switches", GROUP_PREFIX "hosts",
					 GROUP_PREFIX "distributed_switches"};

/*
 * The names Ansible keeps for itself, and what it would do with a device so
 * named: localhost and 127.0.0.1 are its implicit controller (the host
 * play's `delegate_to: localhost` steps would run on that device, or the
 * device's on the controller), all and ungrouped its own groups.
 */
static const struct {
	const char *name, *why;
} reserved[] = {
    {"localhost", "Ansible's name for the controller: its delegate_to: localhost steps would "
		  "go to this device"},
    {"127.0.0.1", "Ansible's name for the controller: its delegate_to: localhost steps would "
		  "go to this device"},
    {"all", "Ansible's group of every host: a play for all would mean this device"},
    {"ungrouped", "Ansible's group of the hosts in no group"},
};

void qg_handoff_check(const struct qg_model *m, struct qg_diags *d)
{
	static const char *const kind[] = {"switch", "host", "DVS"};
	for (int k = QG_DEVICE_SWITCH; k <= QG_DEVICE_DVS; k++)
		for (size_t i = 0; i < qg_device_count(m, k); i++) {
			const char *name = qg_device_name(m, k, i);
			for (size_t r = 0; r < sizeof(reserved) / sizeof(reserved[0]); r++)
				if (!strcmp(name, reserved[r].name))
					qg_error(d,
						 k == QG_DEVICE_SWITCH ? m->switches[i].pos
						 : k == QG_DEVICE_HOST ? m->hosts[i].pos
								       : m->dvs[i].pos,
						 "%s '%s': a name Ansible reserves (%s), and "
						 "ansible/inventory.yml names every device; "
						 "rename the device",
						 kind[k], name, reserved[r].why);
		}
}

/* The n bytes at s as a YAML flow scalar (qg_yaml_scalar), s not NUL-terminated there. */
static void yaml_scalar_n(struct qg_buf *b, const char *s, size_t n)
{
	const char *end = s + n;
	bool plain = true;
	for (const char *p = s; p < end; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			plain = false;
	if (plain) {
		/* A single-quoted scalar has one escape: '' for '. Appended in runs. */
		qg_buf_puts(b, "'");
		for (const char *p = s; p < end;) {
			const char *q = memchr(p, '\'', (size_t)(end - p));
			qg_buf_append(b, p, (size_t)((q ? q : end) - p));
			if (!q)
				break;
			qg_buf_puts(b, "''");
			p = q + 1;
		}
		qg_buf_puts(b, "'");
		return;
	}
	qg_buf_puts(b, "\"");
	for (const char *p = s; p < end; p++) {
		unsigned char c = (unsigned char)*p;
		if (c < 0x20 || c == 0x7f)
			qg_buf_printf(b, "\\x%02x", c);
		else if (c == '"' || c == '\\')
			qg_buf_printf(b, "\\%c", c);
		else
			qg_buf_append(b, p, 1);
	}
	qg_buf_puts(b, "\"");
}

void qg_yaml_scalar(struct qg_buf *b, const char *s)
{
	yaml_scalar_n(b, s, strlen(s));
}

/* What Ansible connects to for device i: false for a kind it does not reach (a DVS). */
static bool device_access(const struct qg_model *m, enum qg_device_kind kind, size_t i,
			  const char **address, int *port, const char **user)
{
	if (kind == QG_DEVICE_SWITCH) {
		*address = m->switches[i].address;
		*port = m->switches[i].port;
		*user = m->switches[i].user;
		return true;
	}
	if (kind == QG_DEVICE_HOST) {
		*address = m->hosts[i].address;
		*port = m->hosts[i].port;
		*user = m->hosts[i].user;
		return true;
	}
	return false;
}

/*
 * A host of several NICs (issue 28): one inventory entry, its NICs a host
 * variable, qosgen_nics, each NIC's netdev and RDMA device, in the host's
 * order (K of the settings keys' nics[K]). A host of one NIC has none, as
 * before: its names are in its script's row.
 */
static void inventory_nics(const struct qg_host *h, struct qg_buf *b)
{
	if (h->n_nics < 2)
		return;
	qg_buf_puts(b, "              qosgen_nics:\n");
	for (size_t k = 0; k < h->n_nics; k++) {
		qg_buf_puts(b, "                - {netdev: ");
		qg_yaml_scalar(b, h->nics[k].netdev);
		qg_buf_puts(b, ", rdma_device: ");
		qg_yaml_scalar(b, h->nics[k].rdma_device);
		qg_buf_puts(b, "}\n");
	}
}

/*
 * Target t's handed-off devices: its group with its variables (qosgen_platform:
 * the target's name, then its hand-off's) and each device's facts (with
 * qosgen_group where the target groups its devices).
 */
static void inventory_group(const struct qg_model *m, const struct qg_target *t,
			    const struct qg_handoff_row *rows, struct qg_buf *b)
{
	static const char *const kind[] = {"switch", "host", "dvs"};
	qg_buf_printf(b, "        " GROUP_PREFIX "%s:\n          vars:\n            qosgen_platform: ",
		      t->name);
	qg_yaml_scalar(b, t->name);
	/* qosgen push's option for these devices: --switch, --host, --dvs. */
	qg_buf_printf(b, "\n            qosgen_kind: %s\n", kind[t->kind]);
	for (size_t k = 0; t->handoff->group_vars && t->handoff->group_vars[k]; k++)
		qg_buf_printf(b, "            %s\n", t->handoff->group_vars[k]);
	qg_buf_puts(b, "          hosts:\n");
	for (size_t i = 0; i < qg_device_count(m, t->kind); i++) {
		const char *address, *user;
		int port;
		if (qg_target_for(m, t->kind, i) != t)
			continue;
		qg_buf_puts(b, "            ");
		qg_yaml_scalar(b, qg_device_name(m, t->kind, i));
		/* A DVS is vCenter's object, reached by qosgen alone: its name only. */
		if (!device_access(m, t->kind, i, &address, &port, &user)) {
			qg_buf_puts(b, ": {}\n");
			continue;
		}
		qg_buf_puts(b, ":\n              ansible_host: ");
		qg_yaml_scalar(b, address);
		qg_buf_printf(b, "\n              ansible_port: %d\n", port);
		/* No user in the intent: Ansible's own (-u, AWX's credential, ssh_config). */
		if (user[0]) {
			qg_buf_puts(b, "              ansible_user: ");
			qg_yaml_scalar(b, user);
			qg_buf_puts(b, "\n");
		}
		/*
		 * A grouped device's files are partly its group's (model/target.h):
		 * what the script play puts together; a pushed device needs neither.
		 */
		if (t->group && t->handoff == &qg_handoff_host_script) {
			char group[QG_GROUP_LEN] = "";
			t->group(m, i, group);
			qg_buf_puts(b, "              qosgen_group: ");
			qg_yaml_scalar(b, group);
			qg_buf_puts(b, "\n");
		}
		if (t->kind == QG_DEVICE_HOST)
			inventory_nics(&m->hosts[i], b);
		/*
		 * !unsafe: Ansible must not template it. A validated row holds no
		 * {{ or {%, but the row is the script's own text, never Jinja.
		 */
		if (rows && rows[i].s && t->handoff == &qg_handoff_host_script) {
			qg_buf_puts(b, "              qosgen_row: !unsafe ");
			yaml_scalar_n(b, rows[i].s, rows[i].len);
			qg_buf_puts(b, "\n");
		}
	}
}

static bool handed_off(const struct qg_model *m, const struct qg_target *t)
{
	return t->handoff && qg_target_used(m, t);
}

static void inventory_text(const struct qg_model *m, struct qg_handoff_row *const rows[],
			   struct qg_buf *b)
{
	qg_buf_puts(b, "all:\n  vars:\n    qosgen_fabric: ");
	qg_yaml_scalar(b, m->fabric);
	qg_buf_puts(b, "\n  children:\n");
	for (int kind = QG_DEVICE_SWITCH; kind <= QG_DEVICE_DVS; kind++) {
		bool opened = false;
		for (size_t t = 0; m->targets[t]; t++) {
			const struct qg_target *tg = m->targets[t];
			if (tg->kind != (enum qg_device_kind)kind || !handed_off(m, tg))
				continue;
			if (!opened)
				qg_buf_printf(b, "    %s:\n      children:\n", role_group[kind]);
			opened = true;
			inventory_group(m, tg, rows ? rows[kind] : NULL, b);
		}
	}
}

/* Each line of text, indented by n spaces (empty lines stay empty). */
static void indented(struct qg_buf *b, const char *text, int n)
{
	while (*text) {
		size_t len = strcspn(text, "\n");
		if (len)
			qg_buf_printf(b, "%*s%.*s", n, "", (int)len, text);
		qg_buf_puts(b, "\n");
		text += len + (text[len] == '\n');
	}
}

/* One play for the targets (from index first on) that share h, in registry order. */
static void site_play(const struct qg_model *m, size_t first, const struct qg_handoff *h,
		      struct qg_buf *b)
{
	/* A blank line between plays, none after the last (yamllint's empty-lines). */
	qg_buf_printf(b, "%s- name: %s\n  hosts: '", b->len ? "\n" : "", h->play);
	const char *sep = "";
	for (size_t t = first; m->targets[t]; t++) {
		if (m->targets[t]->handoff != h || !handed_off(m, m->targets[t]))
			continue;
		qg_buf_printf(b, "%s" GROUP_PREFIX "%s", sep, m->targets[t]->name);
		sep = ":";
	}
	/*
	 * Waves (issue 27): qosgen_serial devices at a time (default all), and
	 * the first wave with a device that failed stops the play and with it
	 * the playbook: the rest are left untouched, as `qosgen push --batch`
	 * leaves them.
	 */
	qg_buf_puts(b, "'\n  gather_facts: false\n"
		       "  serial: \"{{ qosgen_serial | default('100%') }}\"\n"
		       "  max_fail_percentage: 0\n  vars:\n"
		       "    qosgen_out: \"{{ playbook_dir | dirname }}\"\n");
	for (size_t k = 0; h->play_vars && h->play_vars[k]; k++)
		qg_buf_printf(b, "    %s\n", h->play_vars[k]);
	qg_buf_puts(b, "  tasks:\n");
	indented(b, h->tasks, 4);
}

/*
 * The plays in the order `qosgen push --all --batch` takes the devices
 * (cli/batch.c): switches, then DVSes, then hosts; the reason and the
 * changes no order keeps lossless are in docs/ansible.md.
 */
static void site_text(const struct qg_model *m, struct qg_buf *b)
{
	static const enum qg_device_kind order[] = {QG_DEVICE_SWITCH, QG_DEVICE_DVS,
						    QG_DEVICE_HOST};
	for (size_t k = 0; k < sizeof(order) / sizeof(order[0]); k++)
		for (size_t t = 0; m->targets[t]; t++) {
			const struct qg_handoff *h = m->targets[t]->handoff;
			if (m->targets[t]->kind != order[k] || !handed_off(m, m->targets[t]))
				continue;
			bool seen = false;
			for (size_t e = 0; e < t; e++)
				seen |= m->targets[e]->handoff == h && handed_off(m, m->targets[e]);
			if (!seen)
				site_play(m, t, h, b);
		}
}

/* Fill template `name`'s {{var}} with text (and the header placeholders). */
static int emit_file(const struct qg_model *m, const struct qg_emit_ctx *ctx, const char *tname,
		     const char *var, struct qg_buf *text, const char *path, struct qg_outset *out)
{
	if (text->failed)
		return -ENOMEM;
	/* The template's line ends the text. */
	if (text->len && text->data[text->len - 1] == '\n')
		text->data[--text->len] = '\0';
	const struct qg_tvar vars[] = {QG_TVARS_HEADER(ctx, m),
				       {var, text->data ? text->data : ""}};
	return qg_emit_template(ctx, tname, vars, sizeof(vars) / sizeof(vars[0]), path, 0644, out);
}

int qg_handoff_emit(const struct qg_model *m, const struct qg_emit_ctx *ctx,
		    struct qg_handoff_row *const rows[QG_DEVICE_DVS + 1], struct qg_outset *out)
{
	bool any = false;
	for (size_t t = 0; m->targets && m->targets[t]; t++)
		any |= handed_off(m, m->targets[t]);
	if (!any)
		return 0;
	struct qg_buf inv = {0}, site = {0};
	inventory_text(m, rows, &inv);
	site_text(m, &site);
	int rc = emit_file(m, ctx, "ansible-inventory.yml", "inventory", &inv, QG_HANDOFF_INVENTORY,
			   out);
	if (rc == 0)
		rc = emit_file(m, ctx, "ansible-site.yml", "plays", &site, QG_HANDOFF_SITE, out);
	qg_buf_free(&inv);
	qg_buf_free(&site);
	return rc;
}
