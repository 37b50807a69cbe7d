#!/usr/bin/env bash
# Launch mode follows the job: msprof starts run_ranks.sh 4, a wrapper
# script that starts four ranks with & (fork+exec, as many run.sh do).
# msprof finds every rank's dynamic-profiling server (the first takes
# msprof's key, the others fall back to their own pid), says which pids it
# controls, and each rank gets its own PROF dir with exactly its own calls
# and tasks of every step inside the window; --result has four complete
# lines with ranks 0..3; msprof exits with the job's status (0).
source "$(dirname "$0")/lib.bash"
export E2E_PROCS=4 E2E_BEFORE=6
e2e_run launch-ranks --steps=400 --step-gap-ms=30 || exit 1
rc=$(cat "$out/msprof.rc")
[[ $rc == 0 ]] || { echo "msprof exited $rc, want 0 (the job's status)"; exit 1; }
n=$(cat "$out/msprof.log" "$out/msprof.err" | grep -c "now also controls pid")
[[ $n == 3 ]] || { echo "msprof found $n more ranks, want 3"; exit 1; }
n=$(grep -c "start success" "$out/msprof.log")
[[ $n == 4 ]] || { echo "$n start replies, want 4"; exit 1; }
python3 tests/e2e/check_result.py "$out" 4 0
