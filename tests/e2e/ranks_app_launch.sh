#!/usr/bin/env bash
# App mode from launch (no --delay, --duration=4): msprof places the
# uprobes on the job's libascendcl.so before the launcher runs and follows
# it into its exec'd ranks, so each rank's PROF dir begins with its very
# first ACL calls (aclInit, aclrtSetDevice), and every step inside the
# window is exact.
source "$(dirname "$0")/lib.bash"
export E2E_PROCS=4 E2E_BEFORE=0 E2E_WINDOW=4
e2e_run app-ranks --steps=300 --step-gap-ms=30 || exit 1
rc=$(cat "$out/msprof.rc")
[[ $rc == 0 ]] || { echo "msprof exited $rc, want 0 (the job's status)"; exit 1; }
python3 tests/e2e/check_result.py "$out" 4 0 || exit 1
for f in "$out"/records/PROF_*.jsonl; do
	python3 - "$f" <<'PY' || exit 1
import json, sys
apis = [json.loads(l)["api"] for l in open(sys.argv[1]) if '"type": "api"' in l or '"type":"api"' in l]
for want in ("aclInit", "aclrtSetDevice"):
    if apis.count(want) != 1:
        print(f"{sys.argv[1]}: {apis.count(want)} {want} records, want 1 (captured from launch)")
        sys.exit(1)
PY
done
