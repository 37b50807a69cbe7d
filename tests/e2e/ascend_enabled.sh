#!/usr/bin/env bash
# ascendsim.ko whose device log holds only the tasks of processes that
# enabled profiling themselves (devlog_scope=enabled: the question real
# hardware has not answered yet, ascend-driver.md 2.3 and 4.3 question 4),
# SQs forwarded by a kernel worker (uio_t, as a 910B), ids packed by
# swapping (log_id_packing=swap).  One VM boot:
#  - attach mode, 4 ranks, one msprof --pid, ranks 2 and 3 without a
#    dynamic-profiling server: ranks 0 and 1 (their server's start sends
#    the profiling-enable task) get every task's submit, and its begin and
#    end from the moment their app enabled profiling (msprof's window opens
#    first, then asks the apps: E2E_LOG_FROM_ENABLE) until it disabled it,
#    exactly; ranks 2 and 3 get every task's submit and no begin or end,
#    and the export says why (E2E_NO_BEGIN_END_RANKS);
#  - launch mode (E2E_ALSO): the launched app has a server, so all exact.
source "$(dirname "$0")/lib.bash"
export E2E_DRIVER=ascendsim E2E_DRIVER_ARGS="devlog_scope=enabled sq_mode=uio_t log_id_packing=swap"

launch() {
	local top=$out
	out=$top/launch
	echo "--- launch mode"
	cat "$out/msprof.log" "$out/msprof.err"
	E2E_PROCS=1 E2E_NO_BEGIN_END_RANKS= E2E_UNNAMED_LAUNCHES=0 e2e_check || return 1
	out=$top
}

export E2E_PROCS=4 E2E_NOSERVER="2 3" E2E_WINDOW=5 E2E_UNNAMED_LAUNCHES=1 E2E_NO_BEGIN_END_RANKS="2 3"
export E2E_ALSO=launch E2E_LOG_FROM_ENABLE=1
e2e_run attach-ranks --steps=300 --step-gap-ms=30 && launch || exit 1
echo "ok: a device log of enabled processes only: exact where it holds them, said where not"
