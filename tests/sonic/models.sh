# SPDX-License-Identifier: MIT
# shellcheck shell=sh disable=SC2034,SC2154
# Sourced, with $top set to the checkout: where SONiC's own YANG models are.
# They are SONiC's code (sonic-net/sonic-buildimage, src/sonic-yang-models,
# Apache-2.0), not the project's, so the repository does not carry them:
# docs/testing.md says how to get them. The one place the test scripts decide
# it (tests/sim/sonic_sim.py's models_dir() follows the same rule):
#   1. $SONIC_YANG_DIR when it is set; it must hold the models (a wrong path
#      is a failure, never a skip);
#   2. else ../shared/fixtures/sonic-yang beside the checkout, where there is
#      one (this project's machines and CI): the only read of ../shared that
#      tests/layout.sh allows;
#   3. else none: what needs them is reported as skipped (tests/run.sh).
# Sets and exports SONIC_YANG_DIR (empty when none), and sets qg_yang_why to
# why there are none, or to what is wrong with the one given.
qg_yang_why=
if [ -n "${SONIC_YANG_DIR:-}" ]; then
	[ -f "$SONIC_YANG_DIR/sonic-port.yang" ] ||
		qg_yang_why="SONIC_YANG_DIR=$SONIC_YANG_DIR holds no SONiC YANG models (no sonic-port.yang)"
elif [ -f "$top/../shared/fixtures/sonic-yang/sonic-port.yang" ]; then
	SONIC_YANG_DIR=$(cd "$top/../shared/fixtures/sonic-yang" && pwd)
else
	SONIC_YANG_DIR=
	qg_yang_why="SONiC's YANG models are not here: SONIC_YANG_DIR is unset (docs/testing.md says how to get them)"
fi
export SONIC_YANG_DIR
