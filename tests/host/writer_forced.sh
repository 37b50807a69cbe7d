#!/usr/bin/env bash
# Description: NPUPROF_WRITER=io_uring where a seccomp filter refuses
# io_uring: msprof says why and what to do in one line and exits 1 before
# anything is attached, leaving no --output behind (it used to fail at
# "start" with "starting the drain: Operation not permitted").  No VM:
# the refusal comes before the capture needs the kernel side.
set -u
cd "$(dirname "$0")/../.."
tool=build/tests/vm/seccomp_deny
[[ -x $tool && -x build/bin/msprof ]] || { echo "SKIP: make all first"; exit 77; }
[[ $(id -u) == 0 ]] || { echo "SKIP: msprof's preflight wants root"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rc=0
NPUPROF_WRITER=io_uring $tool --deny=io_uring -- build/bin/msprof --dynamic=on --pid=$$ \
	--output="$tmp/out" </dev/null >"$tmp/stdout" 2>"$tmp/stderr" || rc=$?
want="[ERROR] msprof: NPUPROF_WRITER=io_uring, but io_uring is unavailable (EPERM: blocked by a seccomp filter, as a container's default profile does): nothing was started; unset NPUPROF_WRITER (or set it to auto) to write with the fallback writer"
got=$(cat "$tmp/stdout" "$tmp/stderr")
bad=0
[[ $rc == 1 ]] || { echo "FAIL: exit $rc, want 1"; bad=1; }
[[ $got == "$want" ]] || { printf 'FAIL: said\n%s\nwant\n%s\n' "$got" "$want"; bad=1; }
[[ ! -e $tmp/out ]] || { echo "FAIL: --output was left behind"; bad=1; }
((bad)) || echo "ok: forced io_uring refused before anything started, exit 1, nothing left"
exit $bad
