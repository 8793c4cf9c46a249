/* SPDX-License-Identifier: MIT */
/*
 * explain's rows of each device (explain_devices.h): its keys from the key
 * table, given or default; a switch's port roles and its headroom.
 */
#include "explain_devices.h"

#include "../model/headroom.h"
#include "../model/keys.h"
#include "../model/port_kind.h"
#include "../model/target.h"
#include "explain_row.h"
#include "headroom_report.h"
#include "modeljson.h"

#include <stdio.h>
#include <string.h>

/* The row of the group of alike hosts host i is in (struct qg_target's group()). */
static void group_row(cJSON *rows, const struct qg_model *m, size_t i)
{
	const struct qg_host *h = &m->hosts[i];
	char key[160], group[QG_GROUP_LEN];
	h->target->group(m, i, group);
	snprintf(key, sizeof(key), "hosts.%s.group", h->name);
	explain_of(explain_row_str(
		       rows, key, group, "derived",
		       "hosts whose settings are the same share one group: its settings and script "
		       "body once (plan.json's groups)"),
		   h->name);
}

/*
 * The speed of each kind of s's ports that no role gives a speed, for the
 * default of its speed_gbps: "default: each port at its kind's native
 * speed: 25 on SN2410's 25G ports (front-panel 1-48), 100 on its 100G ports
 * (front-panel 49-56)".
 */
static void kind_speeds(const struct qg_switch *s, char *out, size_t len)
{
	const struct qg_switch_hw *hw = qg_switch_model_hw(s);
	size_t o = (size_t)snprintf(out, len, "default: each port at its kind's native speed:");
	bool first = true;
	for (int k = 0; k < hw->n_kinds && o < len; k++) {
		bool here = false;
		for (size_t p = 0; p < s->n_ports && !here; p++) {
			int r = s->port_role ? s->port_role[p] : 0;
			here = !(r && s->roles[r - 1].speed_gbps) &&
			       qg_port_kind(s, p) == &hw->kinds[k];
		}
		if (!here)
			continue;
		char what[64];
		qg_port_kind_text(hw, &hw->kinds[k], what, sizeof(what));
		o += (size_t)snprintf(out + o, len - o, "%s %d on %s%s %s", first ? "" : ",",
				      hw->kinds[k].native_gbps, first ? hw->model : "its",
				      first ? "'s" : "", what);
		first = false;
	}
}

/*
 * A device's rows ("switches.NAME.port"), from the key table's rows of its
 * list ("switches[]") that land in it, but its name: each value where it
 * lands, given or default; a host's group after its address.
 */
void explain_device_rows(cJSON *rows, const struct qg_model *m, const char *list, size_t i)
{
	size_t n, ll = strlen(list);
	const struct qg_key *keys = qg_keys(&n);
	bool host = !strcmp(list, "hosts[]");
	const struct qg_target *t = host		    ? m->hosts[i].target
				    : strcmp(list, "dvs[]") ? m->switches[i].target
							    : NULL;
	const void *dev = host ? (const void *)&m->hosts[i]
			  : t  ? (const void *)&m->switches[i]
			       : (const void *)&m->dvs[i];
	const char *name = host ? m->hosts[i].name : t ? m->switches[i].name : m->dvs[i].name;
	char key[160], reason[256];
	for (size_t j = 0; j < n; j++) {
		const struct qg_key *k = &keys[j];
		if (strncmp(k->path, list, ll) || k->path[ll] != '.' || k->base == QG_KB_NONE ||
		    !strcmp(k->path + ll + 1, "name"))
			continue;
		const char *field = k->path + ll + 1, *why = k->doc;
		bool given = qg_key_given(k, dev);
		/* A switch whose target declares no versions has none to show. */
		if (!strcmp(field, "os_version") && !((const char *)dev + k->offset)[0])
			continue;
		/* Issue 34: no model, and so no native speed: said, not guessed. */
		const struct qg_switch *sw = host || !t ? NULL : &m->switches[i];
		if (sw && !sw->model_given &&
		    (!strcmp(field, "model") ||
		     (!strcmp(field, "speed_gbps") && !sw->speed_given))) {
			snprintf(key, sizeof(key), "switches.%s.%s", name, field);
			explain_of(
			    explain_row(
				rows, key, cJSON_CreateNull(), "default",
				!strcmp(field, "model")
				    ? "not given: the switch's lossless headroom is not proven "
				      "(headroom-unproven)"
				    : "not given, and no model to take its native speed from"),
			    name);
			continue;
		}
		/*
		 * A model whose ports here are of kinds of different native
		 * speeds: no one number is the switch's (model/port_kind.h).
		 */
		if (sw && !sw->speed_given && !strcmp(field, "speed_gbps") &&
		    !qg_port_speed_uniform(sw)) {
			kind_speeds(sw, reason, sizeof(reason));
			snprintf(key, sizeof(key), "switches.%s.%s", name, field);
			explain_of(explain_row(rows, key, cJSON_CreateNull(), "default", reason),
				   name);
			continue;
		}
		/* The port's protocol, the user's fallback, a default that names its source. */
		if (!strcmp(field, "port")) {
			snprintf(reason, sizeof(reason), "%s port", t->access ? t->access : "SSH");
			why = reason;
		} else if (!given && !strcmp(field, "user")) {
			why = "from ~/.ssh/config, else the local user, at push time";
		} else if (!given && k->def) {
			snprintf(reason, sizeof(reason), "default: %s", k->def);
			why = reason;
		}
		snprintf(key, sizeof(key), "%.*s.%s.%s", (int)(ll - 2), list, name, field);
		explain_of(explain_row(rows, key, qg_key_value_json(k, dev),
				       given ? "given" : "default", why),
			   name);
		if (host && !strcmp(field, "address") && t->group)
			group_row(rows, m, i);
	}
}

/*
 * A switch's port roles (issue 28), each after its ports: its ECN
 * thresholds (given, or the policy's for a role that gives none) and its
 * cable length where it gives one.
 */
void explain_role_rows(cJSON *rows, const struct qg_model *m, size_t i)
{
	const struct qg_switch *s = &m->switches[i];
	char key[2 * QG_NAME_LEN + 64];
	for (size_t r = 0; r < s->n_roles; r++) {
		const struct qg_port_role *role = &s->roles[r];
		snprintf(key, sizeof(key), "switches.%s.roles.%s.ports", s->name, role->name);
		/* As the target prints a port list: its runs, ","-joined. */
		cJSON *runs = qg_role_ports_json(s, r), *run;
		char list[512] = "";
		size_t used = 0;
		cJSON_ArrayForEach(run, runs)
		{
			if (used < sizeof(list))
				used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%s",
							 used ? "," : "", run->valuestring);
		}
		cJSON_Delete(runs);
		explain_of(explain_row(rows, key, cJSON_CreateString(list), "given",
				       qg_key_find("switches[].roles.*.ports")->doc),
			   s->name);
		if (role->cable_m) {
			snprintf(key, sizeof(key), "switches.%s.roles.%s.cable_length_m", s->name,
				 role->name);
			explain_of(
			    explain_row(rows, key, cJSON_CreateNumber(role->cable_m), "given",
					qg_key_find("switches[].roles.*.cable_length_m")->doc),
			    s->name);
		}
		if (!m->qos.ecn)
			continue;
		static const char *const ends[] = {"min_kb", "max_kb"};
		for (int e = 0; e < 2; e++) {
			int v = e ? role->ecn_max_kb : role->ecn_min_kb;
			int policy = e ? m->qos.ecn_max_kb : m->qos.ecn_min_kb;
			char path[64], why[96];
			snprintf(path, sizeof(path), "switches[].roles.*.ecn.%s", ends[e]);
			snprintf(why, sizeof(why), "default: qos.lossless.ecn.%s, the policy's",
				 ends[e]);
			snprintf(key, sizeof(key), "switches.%s.roles.%s.ecn.%s", s->name,
				 role->name, ends[e]);
			explain_of(explain_row(rows, key,
					       cJSON_CreateNumber(role->ecn_given ? v : policy),
					       role->ecn_given ? "given" : "default",
					       role->ecn_given ? qg_key_find(path)->doc : why),
				   s->name);
		}
	}
}

/*
 * A switch's lossless headroom (issue 34): "headroom.NAME", its budget and
 * use and the largest PG of its ports in no role, then "headroom.NAME.ROLE"
 * for each role; the values are qg_headroom_json()'s, as plan.json has them.
 */
void explain_headroom_rows(cJSON *rows, const struct qg_model *m, size_t i)
{
	const struct qg_switch *s = &m->switches[i];
	const struct qg_headroom_os *os = s->target->headroom;
	cJSON *h = qg_headroom_json(m, i);
	if (!h)
		return;
	cJSON *roles = cJSON_DetachItemFromObjectCaseSensitive(h, "roles");
	char key[2 * QG_NAME_LEN + 16], reason[640];
	const char *why = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(h, "unproven"));
	double use = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(h, "use_bytes"));
	double budget = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(h, "budget_bytes"));
	double unproven =
	    cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(h, "unproven_ports"));
	if (!os || !s->model_given || unproven == (double)s->n_ports)
		snprintf(reason, sizeof(reason), "not proven: %s (headroom-unproven)", why);
	else
		snprintf(
		    reason, sizeof(reason),
		    "%s (Spectrum-%d): %.0f of %.0f bytes, %s%s; the largest PG of the ports in "
		    "no role (each role's below)%s; figures: %s; budget: %s; shared headroom "
		    "pool: %s",
		    qg_switch_models[s->model], qg_switch_hw(s->model)->asic->generation, use,
		    budget, use <= budget ? "fits" : "does not fit",
		    why ? " (some ports not proven: headroom-unproven)" : "",
		    qg_port_kinds_mixed(s) ? ", with its port's kind (port_kind)" : "",
		    os->method_source, os->budget_source, os->shared_pool);
	snprintf(key, sizeof(key), "headroom.%s", s->name);
	explain_of(explain_row(rows, key, h, "derived", reason), s->name);
	cJSON *r;
	cJSON_ArrayForEach(r, roles)
	{
		snprintf(key, sizeof(key), "headroom.%s.%s", s->name, r->string);
		bool dflt = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r, "cable_default"));
		snprintf(reason, sizeof(reason),
			 "the largest lossless PG of the ports of role %s, and their sum "
			 "(use_bytes)%s",
			 r->string, dflt && os ? "; cable length: the OS's default" : "");
		explain_of(explain_row(rows, key, cJSON_Duplicate(r, true), "derived", reason),
			   s->name);
	}
	cJSON_Delete(roles);
}
