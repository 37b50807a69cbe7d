#!/usr/bin/env bash
# Two sessions on one process: the second msprof is refused at once (within
# 3 s, before it touches the app's server), names the first msprof's pid,
# exits 1 and creates nothing; the first capture goes on and is exact.
source "$(dirname "$0")/lib.bash"
export E2E_PROCS=1
e2e_run second --steps=300 --step-gap-ms=30 || exit 1
e2e_second_refused 3 "msprof \(pid FIRST\) already profiles it"
