#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Host wrapper of the npuprof.ko VM tests: build npuprof.ko, the test stub
# driver and tests/vm/kmod_*.c, then boot the VM once and run each test
# there.  Prints "N passed, N failed, N skipped"; exits 1 if any failed or
# the VM runner failed (it also fails on a kernel BUG/WARNING/Oops).
#
#   tests/vm/kmod_run.sh [TEST...]     (names like kmod_ring_full; default all)
#   KMOD_VM_SMP=N selects the guest CPU count (default 2).
set -u
cd "$(dirname "$0")/../.." || exit 1
KDIR=${KDIR:-/lib/modules/$(scripts/vm-kernel.sh version 2>/dev/null || echo 6.1.0-57-amd64)/build}
OUT=build/tests/vm

make -s -C "$KDIR" M="$PWD/kmod" modules >/dev/null || exit 1
make -s -C "$KDIR" M="$PWD/tests/kmod/tp_stub" modules >/dev/null || exit 1
mkdir -p "$OUT" build/kmod
cp kmod/npuprof.ko tests/kmod/tp_stub/npuprof_tp_stub.ko build/kmod/

if [ $# -eq 0 ]; then
	set -- $(ls tests/vm/kmod_*.c | sed 's|.*/||; s|\.c$||')
fi
for t in "$@"; do
	gcc -O2 -g -std=gnu11 -Wall -Wextra -Werror -D_GNU_SOURCE -pthread \
		-Iinclude -Isim/include -Itests/unit -o "$OUT/$t" "tests/vm/$t.c" || exit 1
done

# Guest side: run each test with a timeout, count by exit status.
guest='p=0; f=0; s=0
for t in '"$*"'; do
	timeout 120 '"$OUT"'/$t; rc=$?
	case $rc in 0) p=$((p+1)); echo "PASS $t";;
		77) s=$((s+1)); echo "SKIP $t";;
		*) f=$((f+1)); echo "FAIL $t (exit $rc)";; esac
done
echo "$p passed, $f failed, $s skipped"; [ $f -eq 0 ]'
scripts/vm-run.sh --timeout 900 --smp "${KMOD_VM_SMP:-2}" -- "$guest"
