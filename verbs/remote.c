/* SPDX-License-Identifier: MIT */
#include "remote.h"
#include "../lib/errmsg.h"
#include "../lib/escape.h"

#include <arpa/inet.h>
#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * POSIX sh only (dash, busybox): hosts run whatever /bin/sh they have. The
 * rdma_cm configfs group of a device exists only once someone made it; the
 * kernel then fills in the defaults, so making it to read the ToS changes
 * nothing that is in effect.
 */
static const char facts_body[] =
    "echo 'qosgen-facts 1'\n"
    "[ -e \"/sys/class/net/$net\" ] || echo 'missing netdev'\n"
    "[ -e \"/sys/class/infiniband/$dev\" ] || echo 'missing rdma_device'\n"
    "v=$(cat \"/sys/class/net/$net/mtu\" 2>/dev/null) && echo \"netdev_mtu $v\"\n"
    "ip -o -4 addr show dev \"$net\" 2>/dev/null | while read -r _ _ fam addr _; do\n"
    "\t[ \"$fam\" = inet ] && echo \"ipv4 ${addr%/*}\" && break\n"
    "done\n"
    "p=/sys/class/infiniband/$dev/ports/1\n"
    "v=$(cat \"$p/state\" 2>/dev/null) && echo \"port_state $v\"\n"
    "ibv_devinfo -d \"$dev\" -i 1 2>/dev/null | while read -r k v _; do\n"
    "\t[ \"$k\" = active_mtu: ] && echo \"active_mtu $v\"\n"
    "done\n"
    "for g in \"$p\"/gids/*; do\n"
    "\ti=${g##*/}\n"
    "\tcase $(cat \"$g\" 2>/dev/null) in 0000:0000:0000:0000:0000:ffff:*) ;; *) continue ;; esac\n"
    "\t[ \"$(cat \"$p/gid_attrs/types/$i\" 2>/dev/null)\" = 'RoCE v2' ] || continue\n"
    "\t[ \"$(cat \"$p/gid_attrs/ndevs/$i\" 2>/dev/null)\" = \"$net\" ] || continue\n"
    "\techo \"gid_index $i\"\n"
    "\tbreak\n"
    "done\n"
    "c=/sys/kernel/config/rdma_cm\n"
    "[ -d \"$c\" ] && [ ! -d \"$c/$dev\" ] && mkdir \"$c/$dev\" 2>/dev/null\n"
    "v=$(cat \"$c/$dev/ports/1/default_roce_tos\" 2>/dev/null) && echo \"roce_tos $v\"\n"
    "v=$(sed -n 's/.*tclass=\\([0-9]*\\).*/\\1/p' "
    "\"/sys/class/infiniband/$dev/tc/1/traffic_class\" "
    "2>/dev/null) && [ -n \"$v\" ] && echo \"traffic_class $v\"\n"
    "for f in \"$p\"/counters/* \"$p\"/hw_counters/*; do\n"
    "\t[ -f \"$f\" ] && v=$(cat \"$f\" 2>/dev/null) && echo \"counter ${f##*/} $v\"\n"
    "done\n"
    "ethtool -S \"$net\" 2>/dev/null | while read -r k v; do\n"
    "\tcase $k in rx_prio[0-7]_*:|tx_prio[0-7]_*:) echo \"counter ${k%:} $v\" ;; esac\n"
    "done\n"
    "command -v qosgen >/dev/null 2>&1 && echo 'have qosgen'\n"
    "command -v ib_write_bw >/dev/null 2>&1 && echo 'have ib_write_bw'\n"
    "exit 0\n";

void vr_facts_script(const struct qg_nic *h, struct qg_buf *out)
{
	qg_buf_puts(out, "net=");
	qg_sh_word(out, h->netdev);
	qg_buf_puts(out, "\ndev=");
	qg_sh_word(out, h->rdma_device);
	qg_buf_puts(out, "\n");
	qg_buf_puts(out, facts_body);
}

static bool parse_int(const char *s, int lo, int hi, int *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (end == s || errno || v < lo || v > hi)
		return false;
	while (*end == ' ' || *end == '\t')
		end++;
	if (*end && *end != '(') /* ibv_devinfo: "4096 (5)" */
		return false;
	*out = (int)v;
	return true;
}

/*
 * A counter's name reaches verify's lines and its JSON: only what sysfs file
 * names and ethtool -S use ("rx_prio3_discards", "np_cnp_sent"), never a
 * byte that a terminal would obey.
 */
static bool counter_name_ok(const char *s)
{
	for (; *s; s++)
		if (!(*s >= 'a' && *s <= 'z') && !(*s >= 'A' && *s <= 'Z') &&
		    !(*s >= '0' && *s <= '9') && *s != '_' && *s != '-' && *s != '.')
			return false;
	return true;
}

int vr_facts_parse(const char *text, struct vr_facts *f, char *err, size_t errlen)
{
	memset(f, 0, sizeof(*f));
	f->netdev_mtu = f->active_mtu = f->gid_index = f->roce_tos = f->traffic_class = -1;
	char *copy = strdup(text), *save = NULL;
	if (!copy) {
		qg_errf(err, errlen, "out of memory");
		return -1;
	}
	for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *sp = strchr(line, ' ');
		if (!sp)
			continue;
		*sp = '\0';
		const char *k = line, *v = sp + 1;
		int n;
		if (!strcmp(k, "qosgen-facts"))
			f->seen = true;
		else if (!strcmp(k, "netdev_mtu") && parse_int(v, 68, 65536, &n))
			f->netdev_mtu = n;
		else if (!strcmp(k, "active_mtu") && parse_int(v, 256, 4096, &n))
			f->active_mtu = n;
		else if (!strcmp(k, "gid_index") && parse_int(v, 0, 65535, &n))
			f->gid_index = n;
		else if (!strcmp(k, "roce_tos") && parse_int(v, 0, 255, &n))
			f->roce_tos = n;
		else if (!strcmp(k, "traffic_class") && parse_int(v, 0, 255, &n))
			f->traffic_class = n;
		else if (!strcmp(k, "ipv4")) {
			/* It goes into a command line later: only a real dotted quad. */
			struct in_addr a;
			if (strlen(v) < sizeof(f->ipv4) && inet_pton(AF_INET, v, &a) == 1)
				snprintf(f->ipv4, sizeof(f->ipv4), "%s", v);
		} else if (!strcmp(k, "port_state"))
			snprintf(f->port_state, sizeof(f->port_state), "%s", v);
		else if (!strcmp(k, "missing")) {
			f->netdev_missing |= !strcmp(v, "netdev");
			f->rdma_missing |= !strcmp(v, "rdma_device");
		} else if (!strcmp(k, "have")) {
			f->have_qosgen |= !strcmp(v, "qosgen");
			f->have_perftest |= !strcmp(v, "ib_write_bw");
		} else if (!strcmp(k, "counter")) {
			char name[64];
			unsigned long long value;
			char tail;
			if (sscanf(v, "%63s %19llu %c", name, &value, &tail) == 2 &&
			    counter_name_ok(name) &&
			    vc_counters_add(&f->counters, name, value) != 0) {
				free(copy);
				vr_facts_free(f);
				qg_errf(err, errlen, "out of memory");
				return -1;
			}
		}
	}
	free(copy);
	vc_counters_sort(&f->counters);
	if (!f->seen) {
		vr_facts_free(f);
		qg_errf(err, errlen,
			"the read-back script printed no facts (is /bin/sh a POSIX shell?)");
		return -1;
	}
	return 0;
}

void vr_facts_free(struct vr_facts *f)
{
	vc_counters_free(&f->counters);
}

bool vr_nic_missing(const struct vr_facts *f, const struct qg_nic *nic, char *why, size_t len)
{
	if (f->netdev_missing && f->rdma_missing)
		snprintf(why, len, "no network device '%s' and no RDMA device '%s' on this host",
			 nic->netdev, nic->rdma_device);
	else if (f->netdev_missing)
		snprintf(why, len, "no network device '%s' on this host", nic->netdev);
	else if (f->rdma_missing)
		snprintf(why, len, "no RDMA device '%s' on this host", nic->rdma_device);
	else
		return false;
	return true;
}

void vr_run_script(const struct qg_nic *h, const struct vr_run *r, struct qg_buf *out)
{
	char gid[32] = "";
	if (r->gid_index >= 0)
		snprintf(gid, sizeof(gid), " -x %d", r->gid_index);
	qg_buf_puts(out, "dev=");
	qg_sh_word(out, h->rdma_device);
	qg_buf_puts(out, "\nt=\n");
	if (r->limit_s > 0)
		qg_buf_printf(out, "command -v timeout >/dev/null 2>&1 && t='timeout %d'\n",
			      r->limit_s);
	qg_buf_printf(out,
		      "if command -v qosgen >/dev/null 2>&1; then\n"
		      "\texec $t qosgen probe -d \"$dev\"%s -p %d -s %d -n %llu --tclass %d %s\n"
		      "fi\n",
		      gid, r->tcp_port, r->size, r->iters, r->tclass,
		      r->server ? "--server" : r->peer);
	qg_buf_puts(out, "if ! command -v ib_write_bw >/dev/null 2>&1; then\n"
			 "\techo 'neither qosgen nor ib_write_bw (perftest) is installed' >&2\n"
			 "\texit 127\n"
			 "fi\n");
	char cmd[256];
	snprintf(cmd, sizeof(cmd),
		 "$t ib_write_bw -F --report_gbits -d \"$dev\"%s -p %d -s %d -n %llu --tclass=%d",
		 gid, r->tcp_port, r->size, r->iters, r->tclass);
	if (r->server) {
		qg_buf_printf(out, "exec %s\n", cmd);
		return;
	}
	qg_buf_printf(out,
		      "i=0\n"
		      "while :; do\n"
		      "\tout=$(%s %s 2>&1)\n"
		      "\trc=$?\n"
		      "\tcase $out in *\"Couldn't connect\"*) ;; *) printf '%%s\\n' \"$out\"; exit "
		      "$rc ;; esac\n"
		      "\ti=$((i + 1))\n"
		      "\t[ $i -lt 20 ] || { printf '%%s\\n' \"$out\"; exit $rc; }\n"
		      "\tsleep 1\n"
		      "done\n",
		      cmd, r->peer);
}

/*
 * A JSON number from the host, range-checked before any conversion: a cast
 * of 1e300 (or NaN) to an integer type is undefined behaviour. Out of range
 * or not a number: dflt, "not reported".
 */
static double num(const cJSON *o, const char *k, double lo, double hi, double dflt)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
	if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) || v->valuedouble < lo ||
	    v->valuedouble > hi)
		return dflt;
	return v->valuedouble;
}

static int num_int(const cJSON *o, const char *k, int lo, int hi)
{
	return (int)num(o, k, lo, hi, -1);
}

/* Counts up to 2^53: every integer a double holds exactly, far above any run's. */
static unsigned long long num_count(const cJSON *o, const char *k)
{
	return (unsigned long long)num(o, k, 0, 9007199254740992.0, 0);
}

static int parse_probe_json(const char *line, struct vr_result *r, char *err, size_t errlen)
{
	cJSON *o = cJSON_Parse(line);
	if (!cJSON_IsObject(o)) {
		cJSON_Delete(o);
		qg_errf(err, errlen, "qosgen probe printed something that is not its JSON result");
		return -1;
	}
	snprintf(r->tool, sizeof(r->tool), "qosgen probe");
	r->gbps = num(o, "gbps", 0, 1e6, -1); /* Gb/s: no link is a petabit */
	r->active_mtu = num_int(o, "active_mtu", 256, 4096);
	r->path_mtu = num_int(o, "path_mtu", 256, 4096);
	r->tclass = num_int(o, "tclass", 0, 255);
	r->gid_index = num_int(o, "gid_index", 0, 65535);
	r->size = num_count(o, "size");
	r->iters = num_count(o, "iters");
	cJSON_Delete(o);
	r->ok = r->gbps >= 0;
	if (!r->ok)
		qg_errf(err, errlen, "qosgen probe's result has no bandwidth");
	return r->ok ? 0 : -1;
}

/*
 * perftest's report (shared/notes/perftest.md): " Mtu : 4096[B]", " GID index : 1",
 * a header naming the unit ("BW average[MB/sec]" is MiB/s, "[Gb/sec]" with
 * --report_gbits), then " 65536 1000 69.93 67.43 0.001079".
 */
static int parse_perftest(const char *text, struct vr_result *r, char *err, size_t errlen)
{
	snprintf(r->tool, sizeof(r->tool), "ib_write_bw");
	bool gbits = false, header = false;
	const char *p = text;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char line[256];
		snprintf(line, sizeof(line), "%.*s",
			 (int)(len < sizeof(line) ? len : sizeof(line) - 1), p);
		/*
		 * Widths bound what is read (a conversion that overflows is UB), then
		 * the range is checked: a longer number reads as out of range.
		 */
		long v;
		unsigned long long size, iters;
		double peak, avg;
		if (sscanf(line, " Mtu : %6ld[B]", &v) == 1)
			r->path_mtu = v >= 256 && v <= 4096 ? (int)v : -1;
		else if (sscanf(line, " GID index : %7ld", &v) == 1)
			r->gid_index = v >= 0 && v <= 65535 ? (int)v : -1;
		else if (strstr(line, "#bytes") && strstr(line, "BW average")) {
			header = true;
			gbits = strstr(line, "BW average[Gb/sec]") != NULL;
		} else if (header && r->gbps < 0 &&
			   sscanf(line, " %19llu %19llu %lf %lf", &size, &iters, &peak, &avg) ==
			       4) {
			double gbps = gbits ? avg : avg * 1048576.0 * 8 / 1e9;
			r->size = size;
			r->iters = iters;
			r->gbps = isfinite(gbps) && gbps >= 0 && gbps <= 1e6 ? gbps : -1;
		}
		p += len + (nl != NULL);
	}
	r->ok = r->gbps >= 0;
	if (!r->ok)
		qg_errf(err, errlen, "ib_write_bw printed no result line");
	return r->ok ? 0 : -1;
}

void vr_output_tail(const char *text, size_t len, char *dst, size_t dstlen)
{
	const char *end = text + len;
	while (end > text && (end[-1] == '\n' || end[-1] == ' '))
		end--;
	const char *p = end;
	for (int lines = 0; p > text && lines < 2; p--)
		if (p[-1] == '\n')
			lines++;
	while (p < end && *p == '\n')
		p++;
	struct qg_buf b = {0};
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t run = nl ? (size_t)(nl - p) : (size_t)(end - p);
		qg_escape_append(&b, p, run);
		if (nl)
			qg_buf_puts(&b, " ");
		p += run + (nl != NULL);
	}
	snprintf(dst, dstlen, "%s", b.data && !b.failed ? b.data : "");
	qg_buf_free(&b);
}

void vr_result_init(struct vr_result *r)
{
	memset(r, 0, sizeof(*r));
	r->gbps = -1;
	r->active_mtu = r->path_mtu = r->tclass = r->gid_index = -1;
}

int vr_result_parse(const char *text, struct vr_result *r, char *err, size_t errlen)
{
	vr_result_init(r);
	const char *p = text;
	while (*p == ' ' || *p == '\n' || *p == '\t')
		p++;
	if (*p == '{') {
		char line[1024];
		size_t len = strcspn(p, "\n");
		if (len >= sizeof(line)) {
			qg_errf(err, errlen, "qosgen probe's result line is too long");
			return -1;
		}
		memcpy(line, p, len);
		line[len] = '\0';
		return parse_probe_json(line, r, err, errlen);
	}
	return parse_perftest(text, r, err, errlen);
}

unsigned long long vr_iters(int message_size, int duration_s, long long min_gbps_centi)
{
	double bytes = (double)min_gbps_centi / 100 * 1e9 / 8 * duration_s;
	unsigned long long n = (unsigned long long)(bytes / message_size + 0.999);
	return n < 100 ? 100 : n;
}

void vr_defpath_script(const struct qg_nic *h, const struct vr_defpath_run *r, struct qg_buf *out)
{
	qg_buf_puts(out, "dev=");
	qg_sh_word(out, h->rdma_device);
	qg_buf_printf(out,
		      "\nt=\n"
		      "command -v timeout >/dev/null 2>&1 && t='timeout %d'\n"
		      "if ! command -v qosgen >/dev/null 2>&1; then\n"
		      "\techo 'qosgen is not installed: the default-path probe is qosgen probe "
		      "--default-path' >&2\n"
		      "\texit 127\n"
		      "fi\n",
		      r->limit_s > 0 ? r->limit_s : 60);
	char probe[160], client[200];
	snprintf(probe, sizeof(probe), "$t qosgen probe --default-path -d \"$dev\" -p %d -n %d",
		 r->port, r->count);
	/* The addresses are dotted quads the caller checked (facts, intent). */
	snprintf(client, sizeof(client), "%s%s%s %s", probe, r->source ? " --source " : "",
		 r->source ? r->source : "", r->peer ? r->peer : "");
	if (r->loopback) {
		/* The server first, in the background; its line, then the client's. */
		qg_buf_printf(out,
			      "%s --server &\n"
			      "s=$!\n"
			      "sleep 1\n"
			      "%s\n"
			      "c=$?\n"
			      "[ $c -ne 0 ] && kill $s 2>/dev/null\n"
			      "wait $s\n"
			      "w=$?\n"
			      "[ $c -ne 0 ] && exit $c\n"
			      "exit $w\n",
			      probe, client);
		return;
	}
	if (r->server)
		qg_buf_printf(out, "exec %s --server\n", probe);
	else
		qg_buf_printf(out, "exec %s\n", client);
}

int vr_defpath_parse(const char *text, struct vr_defpath *d, char *err, size_t errlen)
{
	memset(d, 0, sizeof(*d));
	d->tclass = -1;
	for (const char *p = text; p && *p;) {
		size_t len = strcspn(p, "\n");
		char line[1024];
		if (len < sizeof(line) && *p == '{') {
			memcpy(line, p, len);
			line[len] = '\0';
			cJSON *o = cJSON_Parse(line);
			const cJSON *role = cJSON_GetObjectItemCaseSensitive(o, "role");
			const cJSON *tos = cJSON_GetObjectItemCaseSensitive(o, "tos");
			if (cJSON_IsString(role) && !strcmp(role->valuestring, "server")) {
				d->have_server = true;
				d->received = (int)num(o, "received", 0, 1e6, 0);
				const cJSON *t;
				cJSON_ArrayForEach(t, tos)
				{
					if (d->n_tos < 8 && cJSON_IsNumber(t) &&
					    t->valuedouble >= -1 && t->valuedouble <= 255)
						d->tos[d->n_tos++] = (int)t->valuedouble;
				}
			} else if (cJSON_IsString(role) && !strcmp(role->valuestring, "client")) {
				d->have_client = true;
				d->sent = (int)num(o, "sent", 0, 1e6, 0);
				d->tclass = num_int(o, "tclass", 0, 255);
			}
			cJSON_Delete(o);
		}
		p += len + (p[len] == '\n');
	}
	if (!d->have_server && !d->have_client) {
		qg_errf(err, errlen, "qosgen probe --default-path printed no result");
		return -1;
	}
	return 0;
}
