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
read -r rc first secs <"$out/second.rc"
echo "--- second msprof (exit $rc after ${secs}s; first msprof pid $first)"
cat "$out/second.log"
[[ $rc == 1 ]] || { echo "second msprof exited $rc, want 1"; exit 1; }
(( secs <= 12 )) || { echo "second msprof took ${secs}s to give up, want at most 12"; exit 1; }
grep -q "no reply from the server for pid [0-9]* within 5 s: another msprof may be connected to it" \
	"$out/second.log" || { echo "the second msprof does not say why it gave up"; exit 1; }
[[ ! -e $out/second ]] || { echo "the refused msprof created $out/second"; exit 1; }
[[ $(cat "$out/msprof.rc") == 0 ]] || { echo "the first msprof exited $(cat "$out/msprof.rc")"; exit 1; }
