#!/usr/bin/env bash
# A 4-rank job (rank r on device r), one msprof --pid=P1,P2,P3,P4: one
# prompt drives all four; each rank gets its own PROF dir holding exactly
# its own API calls and device tasks of every step inside the window,
# nothing lost, msprof exits 0, and --result has one complete line per
# PROF dir.
source "$(dirname "$0")/lib.bash"
export E2E_PROCS=4
e2e_run attach-ranks --steps=300 --step-gap-ms=30 || exit 1
rc=$(cat "$out/msprof.rc")
[[ $rc == 0 ]] || { echo "msprof exited $rc, want 0"; exit 1; }
grep -q "dynamic profiling for 4 pids:" "$out/msprof.err" "$out/msprof.log" ||
	{ echo "msprof did not name the 4 pids it controls"; exit 1; }
n=$(grep -c "start success" "$out/msprof.log")
[[ $n == 4 ]] || { echo "$n start replies, want 4"; exit 1; }
python3 tests/e2e/check_result.py "$out" 4 0
