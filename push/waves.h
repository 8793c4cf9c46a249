/* SPDX-License-Identifier: MIT */
#ifndef QG_GEN_VERIFY_WAVES_H
#define QG_GEN_VERIFY_WAVES_H

#include "../model/model.h"

#include <stdbool.h>
#include <stddef.h>

/* A device a wave of `push --all --batch N` pushed (push/push.c). */
struct qg_wave_device {
	enum qg_device_kind kind;
	size_t index; /* into the model's switches, hosts or dvs */
};

/*
 * `push --verify` (issue 27): which of the intent's verify pairs may run
 * after a wave, given every device of that wave and of the waves before it
 * (pushed, n_pushed): the pairs whose client and server hosts are both among
 * them and that have not run yet (pair_done false; m->verify.n_pairs flags).
 * Their indices into m->verify.pairs go to out (room for n_pairs), in the
 * intent's order, and their pair_done flags are set: each pair runs once,
 * after the wave that finished its later host. Returns how many. Pure: no
 * I/O, nothing but pair_done and out written.
 */
size_t qg_verify_pairs_ready(const struct qg_model *m, const struct qg_wave_device *pushed,
			     size_t n_pushed, bool *pair_done, size_t *out);

#endif
