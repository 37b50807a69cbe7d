#!/usr/bin/env bash
# A 4-rank job under one msprof --pid; one rank is killed (SIGKILL) in the
# middle of the window.  msprof names it, keeps capturing the other three,
# and saves all four PROF dirs: the killed rank's holds exactly what it
# did up to its death (every step it finished inside the window, nothing
# of the others), and msprof exits 0 (a process ending is not a failure).
source "$(dirname "$0")/lib.bash"
export E2E_PROCS=4
export E2E_KILLED=1
e2e_run kill-rank --steps=300 --step-gap-ms=30 || exit 1
victim=$(cat "$out/victim")
rc=$(cat "$out/msprof.rc")
[[ $rc == 0 ]] || { echo "msprof exited $rc, want 0"; exit 1; }
grep -q "server process $victim has exited" "$out/msprof.log" ||
	{ echo "msprof did not say that pid $victim exited"; exit 1; }
grep -q "the data of pid $victim collected so far is saved at stop" "$out/msprof.log" ||
	{ echo "msprof did not say that pid $victim's data is kept"; exit 1; }
n=$(grep -c "stop success" "$out/msprof.log")
[[ $n == 3 ]] || { echo "$n stop replies, want 3 (the killed rank has none)"; exit 1; }
python3 tests/e2e/check_result.py "$out" 4 0
