#!/bin/sh
# SPDX-License-Identifier: MIT
# ForceCommand of the test sshd for host pushes: run what the client asked
# for with the fake device tools first in PATH and their state in QG_STATE,
# so the generated scripts run for real without touching this machine.
# Usage (from sshd_config): fakehost.sh STATE_DIR FAKE_DIR
QG_STATE=$1
PATH=$2:$PATH
export QG_STATE PATH
exec sh -c "$SSH_ORIGINAL_COMMAND"
