#!/usr/bin/env bash
# App mode, as scripts use it: msprof --delay=3 --duration=4 ai_task
# --ranks=4 --spawn=exec with stdin closed and no prompt.  msprof follows
# the launcher into its four exec'd ranks, collects from 3 s after launch
# for 4 s, and each rank gets one PROF dir with exactly its own calls and
# tasks of every step inside that window; --result has four complete
# lines; msprof exits with the job's status (0) once the job has ended.
source "$(dirname "$0")/lib.bash"
export E2E_PROCS=4 E2E_BEFORE=3 E2E_WINDOW=4
e2e_run app-ranks --steps=300 --step-gap-ms=30 || exit 1
rc=$(cat "$out/msprof.rc")
[[ $rc == 0 ]] || { echo "msprof exited $rc, want 0 (the job's status)"; exit 1; }
grep -q "collection stopped after --duration=4 s" "$out/msprof.log" ||
	{ echo "msprof did not stop at --duration"; exit 1; }
python3 tests/e2e/check_result.py "$out" 4 0
