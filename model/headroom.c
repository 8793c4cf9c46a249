/* SPDX-License-Identifier: MIT */
/*
 * The headroom arithmetic (model/headroom.h). qg_headroom_compute() follows
 * sonic-swss cfgmgr/buffer_headroom_mellanox.lua (QG_HW_SWSS_COMMIT) step
 * by step, in the same order and in doubles as Lua computes, so that its
 * figures are the switch's own; the differences of the formula the older
 * SKU tables were made with are named where they apply (QG_HR_FIXED_PEER).
 * The facts are NVIDIA's, the code is not theirs.
 */
#include "headroom.h"

#include "port_kind.h"
#include "target_ops.h"

#include <string.h>

/*
 * IEEE 802.3 31B.3.7's pause quanta a port must allow its peer at each
 * speed, as the Lua's pause_quanta_per_speed has them (Mb/s -> quanta of
 * 512 bit times), since sonic-swss #1930 and #2860 (800G).
 */
static int pause_quanta(long mbps)
{
	static const struct {
		long mbps;
		int quanta;
	} t[] = {{800000, 905}, {400000, 905}, {200000, 453}, {100000, 394}, {50000, 147},
		 {40000, 118},	{25000, 80},   {10000, 67},   {1000, 2},     {100, 1}};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (t[i].mbps == mbps)
			return t[i].quanta;
	return 0;
}

/* math.ceil(v / 1024) * 1024 for v >= 0, without libm. */
static long ceil_kib(double v)
{
	double q = v / 1024;
	long n = (long)q;
	if ((double)n < q)
		n++;
	return n * 1024;
}

/* math.ceil for x >= 0. */
static double ceil_pos(double x)
{
	long n = (long)x;
	return (double)n < x ? (double)(n + 1) : (double)n;
}

/* The Lua's constants: light in a cable at 198,000 km/s, a 64-byte minimal packet. */
#define SPEED_OF_LIGHT 198000000.0
#define MIN_PACKET 64
#define HEADROOM_COMPENSATION (2 * 1024)

void qg_headroom_compute(const struct qg_headroom_in *in, struct qg_headroom_pg *out)
{
	const struct qg_asic *a = in->asic;
	bool lua = in->formula == QG_HR_LUA;
	double port_speed = (double)in->speed_gbps * 1000; /* Mb/s, as ARGV[1] */
	double cable = in->cable_m, port_mtu = in->port_mtu, lossless_mtu = in->lossless_mtu;
	double small = in->small_packet_pct;
	/* ASIC_TABLE's KiB values times 1024, as the Lua reads them. */
	double pipeline = (double)a->pipeline_latency_kib * 1024;
	double mac_phy = ((double)a->mac_phy_delay_dkib / 10) * 1024;
	/*
	 * The peer's response: its pause quanta at this speed times 512 bit
	 * times, in bytes; the ASIC table's peer_response_time where the Lua
	 * has no quanta for the speed, and at every speed for the tables made
	 * before #1930.
	 */
	int quanta = lua ? pause_quanta((long)port_speed) : 0;
	double peer =
	    quanta ? (double)quanta * 512 / 8 : ((double)a->peer_response_dkib / 10) * 1024;
	/* Spectrum-4 and -5 hold more in flight on their tiles (#3235): speed / 1000 * 120 / 8. */
	double kb_on_tile =
	    lua && (a->generation == 4 || a->generation == 5) ? port_speed / 1000 * 120 / 8 : 0;
	/*
	 * An 8-lane port's two buffer units double the pipeline latency and
	 * take a frame more; the tables before #3235 counted one KiB less.
	 */
	double speed_overhead = 0;
	if (in->lanes8) {
		pipeline = lua ? pipeline * 2 : pipeline * 2 - 1024;
		speed_overhead = port_mtu;
	}
	/*
	 * The worst case of cell occupancy: small packets each take a cell of
	 * their own. Rounded up since #3235; the older tables took it as it
	 * falls (9/4 for a 144-byte cell).
	 */
	double cell = a->cell_bytes, worst;
	if (cell > 2 * MIN_PACKET)
		worst = cell / MIN_PACKET;
	else
		worst = (2 * cell) / (1 + cell);
	if (lua)
		worst = ceil_pos(worst);
	/* Small packets' share by bytes since #3235 (by packets before; the same at 100 %). */
	double small_by_byte =
	    lua ? 100 * MIN_PACKET / ((small * MIN_PACKET + (100 - small) * lossless_mtu) / 100)
		: small;
	double occupancy = (100 - small_by_byte + small_by_byte * worst) / 100;
	double on_gearbox =
	    in->gearbox_delay_ns ? port_speed * in->gearbox_delay_ns / (8 * 1024) : 0;
	double on_cable = 2 * cable * port_speed * 1000000000 / SPEED_OF_LIGHT / (8 * 1000);
	double propagation = port_mtu + on_cable + 2 * on_gearbox + mac_phy + peer + kb_on_tile;
	long xoff = ceil_kib(lossless_mtu + propagation * occupancy);
	/*
	 * Without a shared headroom pool, a small-packet share below 100 %
	 * that leaves xoff more than 2 KiB short of the worst case gets those
	 * 2 KiB back (#4757).
	 */
	if (lua && !in->shared_headroom && in->small_packet_pct != 100) {
		long full = ceil_kib(lossless_mtu + propagation * worst);
		if (xoff + HEADROOM_COMPENSATION < full)
			xoff += HEADROOM_COMPENSATION;
	}
	long xon = ceil_kib(pipeline);
	long size = in->shared_headroom ? xon : xoff + xon + (long)speed_overhead;
	*out = (struct qg_headroom_pg){in->speed_gbps, in->cable_m, in->port_mtu,
				       xoff,	       xon,	    ceil_kib((double)size)};
}

/*
 * The LOSSLESS_TRAFFIC_PATTERN the SKU tables were made with: a 1024-byte
 * lossless MTU, all small packets (the tables reproduce with these; SONiC's
 * templates wrote 100 % until sonic-buildimage #20632).
 */
#define TABLE_LOSSLESS_MTU 1024
#define TABLE_SMALL_PACKET_PCT 100

static const struct qg_headroom_os *switch_os(const struct qg_switch *s)
{
	return s->target ? s->target->headroom : NULL;
}

/*
 * The longest cable length among switch s's ports that no role of its own
 * cable length holds: what an OS that sizes one length per profile gives
 * them all (NVUE's default-global PFC profile, as the cumulus target writes
 * it); 0 when none is given.
 */
static int longest_shared(const struct qg_switch *s)
{
	int longest = 0;
	for (size_t k = 0; s->cable_m && k < s->n_ports; k++) {
		int r = s->port_role ? s->port_role[k] : 0;
		if (!(r && s->roles[r - 1].cable_m) && s->cable_m[k] > longest)
			longest = s->cable_m[k];
	}
	return longest;
}

/*
 * The cable length the OS sizes port k's headroom for: the port's own, or
 * on an OS that sizes one per profile, its role's where the role gives one,
 * else `longest` (longest_shared()); then the OS's default, 0 where it has
 * none. *dflt: it is the default.
 */
static int port_cable(const struct qg_switch *s, const struct qg_headroom_os *os, size_t k,
		      int longest, bool *dflt)
{
	int r = s->port_role ? s->port_role[k] : 0;
	int cable = s->cable_m ? s->cable_m[k] : 0;
	if (os->cable_per_profile && !(r && s->roles[r - 1].cable_m))
		cable = longest;
	*dflt = !cable;
	return cable ? cable : os->default_cable_m;
}

/* Why port k of s cannot be proven (longest: longest_shared()'s), or NULL. */
static const char *unproven(const struct qg_switch *s, size_t k, int longest)
{
	const struct qg_headroom_os *os = switch_os(s);
	bool dflt;
	if (!os)
		return "its platform declares no headroom model";
	if (!s->model_given || !qg_switch_hw(s->model))
		return "no model";
	/* The loader refuses a port that is none of the model's: a target that cannot tell. */
	if (!qg_port_kind(s, k))
		return "which of its model's ports it is is unknown";
	if (!port_cable(s, os, k, longest, &dflt))
		return "no cable length";
	if (!qg_port_speed(s, k))
		return "no speed";
	return NULL;
}

/* longest_shared() where the switch's OS reads it, else 0 (not needed). */
static int shared_cable(const struct qg_switch *s)
{
	const struct qg_headroom_os *os = switch_os(s);
	return os && os->cable_per_profile ? longest_shared(s) : 0;
}

const char *qg_headroom_unproven(const struct qg_model *m, size_t i, size_t k)
{
	return unproven(&m->switches[i], k, shared_cable(&m->switches[i]));
}

/* Port k's figures; *cable_default: it took the OS's default cable length. */
static int port_pg(const struct qg_model *m, size_t i, size_t k, int longest,
		   struct qg_headroom_pg *out, bool *cable_default)
{
	const struct qg_switch *s = &m->switches[i];
	if (unproven(s, k, longest))
		return -1;
	const struct qg_headroom_os *os = switch_os(s);
	const struct qg_switch_hw *hw = qg_switch_hw(s->model);
	bool dynamic = os->method == QG_HRM_DYNAMIC;
	int speed = qg_port_speed(s, k);
	/*
	 * 8 lanes: SONiC's buffer manager counts the port's own (the Lua's
	 * ARGV[5]); the table method takes the row of the model's table as it
	 * is (SN5400's 400G ports on 8 lanes get SN5600's 400G row, of 4).
	 */
	const struct qg_port_kind *kind = qg_port_kind(s, k);
	bool lanes8 =
	    dynamic ? qg_port_kind_8lane(kind, speed) : qg_switch_hw_table_8lane(hw, speed);
	struct qg_headroom_in in = {
	    .asic = hw->asic,
	    .formula = dynamic ? QG_HR_LUA : hw->table_formula,
	    .speed_gbps = speed,
	    .cable_m = port_cable(s, os, k, longest, cable_default),
	    .port_mtu = m->qos.switch_mtu,
	    .lossless_mtu = dynamic ? os->lossless_mtu : TABLE_LOSSLESS_MTU,
	    .small_packet_pct = dynamic ? os->small_packet_pct : TABLE_SMALL_PACKET_PCT,
	    .gearbox_delay_ns = hw->gearbox_delay_ns,
	    .lanes8 = lanes8,
	};
	qg_headroom_compute(&in, out);
	return 0;
}

int qg_headroom_port(const struct qg_model *m, size_t i, size_t k, struct qg_headroom_pg *out)
{
	bool dflt;
	return port_pg(m, i, k, shared_cable(&m->switches[i]), out, &dflt);
}

static void group_add(struct qg_headroom_group *g, const struct qg_headroom_pg *pg, bool proven,
		      bool dflt, const struct qg_port_kind *kind)
{
	g->ports++;
	if (!proven) {
		g->unproven++;
		return;
	}
	g->use_bytes += pg->size_bytes;
	if (pg->size_bytes > g->max.size_bytes) {
		g->max = *pg;
		g->cable_default = dflt;
		g->max_kind = kind;
	}
}

void qg_headroom_switch(const struct qg_model *m, size_t i, struct qg_headroom_group *roles,
			struct qg_headroom_switch *out)
{
	const struct qg_switch *s = &m->switches[i];
	*out = (struct qg_headroom_switch){.roles = roles};
	out->os = switch_os(s);
	out->hw = s->model_given ? qg_switch_hw(s->model) : NULL;
	for (size_t r = 0; r < s->n_roles; r++)
		roles[r] = (struct qg_headroom_group){0};
	/*
	 * Ports are sorted and a role's ports mostly adjacent: consecutive
	 * ports of one kind, speed and cable length share one computation.
	 */
	struct qg_headroom_pg pg = {0}, last = {0};
	int last_cable = -1, last_speed = -1, longest = shared_cable(s);
	const struct qg_port_kind *last_kind = NULL;
	bool last_ok = false, last_dflt = false;
	for (size_t k = 0; k < s->n_ports; k++) {
		bool dflt = last_dflt;
		int cable = out->os ? port_cable(s, out->os, k, longest, &dflt) : 0;
		int speed = qg_port_speed(s, k);
		const struct qg_port_kind *kind = qg_port_kind(s, k);
		bool ok = last_ok;
		if (cable != last_cable || speed != last_speed || kind != last_kind) {
			ok = port_pg(m, i, k, longest, &pg, &dflt) == 0;
			last = pg;
			last_cable = cable;
			last_speed = speed;
			last_kind = kind;
			last_ok = ok;
			last_dflt = dflt;
		}
		int r = s->port_role ? s->port_role[k] : 0;
		group_add(&out->all, &last, ok, dflt, kind);
		group_add(r ? &roles[r - 1] : &out->no_role, &last, ok, dflt, kind);
	}
	if (!out->hw || !out->os)
		return;
	out->buffer_bytes = out->hw->buffer_bytes;
	out->budget_bytes = out->buffer_bytes;
	/* memory_percent in hundredths of a percent: exact in integers. */
	if (out->os->budget == QG_HRB_POOL && m->qos.pool_name[0]) {
		out->pool_bytes = out->buffer_bytes * m->qos.pool_percent_centi / 10000;
		out->budget_bytes = out->pool_bytes;
	}
}
