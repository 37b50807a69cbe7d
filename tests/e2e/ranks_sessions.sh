#!/usr/bin/env bash
# A 4-rank job with one msprof session per rank, all four at once (the
# usual bulk-capture script): npuprof.ko and BPF keep the sessions apart,
# so each rank's PROF dir holds exactly its own records, nothing is lost,
# and every msprof exits 0.
source "$(dirname "$0")/lib.bash"
export E2E_PROCS=4
e2e_run sessions --steps=300 --step-gap-ms=30 || exit 1
rc=$(cat "$out/msprof.rc")
[[ $rc == 0 ]] || { echo "an msprof exited $rc, want 0"; exit 1; }
