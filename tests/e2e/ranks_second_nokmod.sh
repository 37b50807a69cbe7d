#!/usr/bin/env bash
# Two msprof on one process without npuprof.ko (E2E_KMOD=0): nothing in the
# kernel records who captures a process on the BPF path, so the second
# msprof is not refused by name at once as in ranks_second.sh; the app's
# dynamic-profiling server, which serves one msprof at a time, does not
# answer it, and it gives up after 5 s: exit 1, the words below, nothing
# created.  The first capture goes on and is exact.
source "$(dirname "$0")/lib.bash"
export E2E_PROCS=1 E2E_KMOD=0
e2e_run second --steps=300 --step-gap-ms=30 || exit 1
e2e_second_refused 12 "no reply from the server for pid [0-9]+ within 5 s: another msprof may be connected to it"
