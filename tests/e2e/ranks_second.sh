#!/usr/bin/env bash
# Two sessions on one process: the second msprof is refused at once (within
# 3 s, before it touches the app's server), names the first msprof's pid,
# exits 1 and creates nothing; the first capture goes on and is exact.
source "$(dirname "$0")/lib.bash"
export E2E_PROCS=1
e2e_run second --steps=300 --step-gap-ms=30 || exit 1
read -r rc first secs <"$out/second.rc"
echo "--- second msprof (exit $rc after ${secs}s)"
cat "$out/second.log"
[[ $rc == 1 ]] || { echo "second msprof exited $rc, want 1"; exit 1; }
(( secs <= 3 )) || { echo "second msprof took ${secs}s to be refused, want at most 3"; exit 1; }
grep -q "msprof (pid $first) already profiles it" "$out/second.log" ||
	{ echo "the refusal does not name the first msprof (pid $first)"; exit 1; }
[[ ! -e $out/second ]] || { echo "the refused msprof created $out/second"; exit 1; }
[[ $(cat "$out/msprof.rc") == 0 ]] || { echo "the first msprof exited $(cat "$out/msprof.rc")"; exit 1; }
