#!/usr/bin/env bash
# A 4-rank job with one msprof session per rank, all four at once (the
# usual bulk-capture script), ranks 2 and 3 started without
# PROFILING_MODE=dynamic: npuprof.ko and BPF keep the sessions apart,
# with or without a server, so each rank's PROF dir holds exactly its own
# records, nothing is lost, and every msprof exits 0; the two without a
# server are said to be captured from the kernel side only.
source "$(dirname "$0")/lib.bash"
export E2E_PROCS=4 E2E_NOSERVER="2 3"
e2e_run sessions --steps=300 --step-gap-ms=30 || exit 1
rc=$(cat "$out/msprof.rc")
[[ $rc == 0 ]] || { echo "an msprof exited $rc, want 0"; exit 1; }
n=$(cat "$out/msprof.log" "$out/msprof.err" | grep -c "start success (kernel side only)$")
[[ $n == 2 ]] || { echo "$n kernel-side start replies, want 2"; exit 1; }
n=$(cat "$out/msprof.log" "$out/msprof.err" | grep -c "start success$")
[[ $n == 2 ]] || { echo "$n start replies from a server, want 2"; exit 1; }
