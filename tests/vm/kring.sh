#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Host wrapper of the reader-against-module VM tests (tests/vm/kring_*.c):
# build npuprof.ko, the stub driver, libnpuprof.a (the real reader:
# user/kring.c + user/ring.c) and each test linked against it, then boot the
# VM once and run them there.  Prints "N passed, N failed, N skipped";
# exits 1 if any failed or the VM runner failed (it also fails on a kernel
# BUG/WARNING/Oops).
#
#   tests/vm/kring.sh [TEST...]     (names like kring_read; default all)
set -u
cd "$(dirname "$0")/../.." || exit 1
KDIR=${KDIR:-/lib/modules/$(scripts/vm-kernel.sh version 2>/dev/null || echo 6.1.0-57-amd64)/build}
OUT=build/tests/vm

make -s -C "$KDIR" M="$PWD/kmod" modules >/dev/null || exit 1
make -s -C "$KDIR" M="$PWD/tests/kmod/tp_stub" modules >/dev/null || exit 1
make -s build/lib/libnpuprof.a >/dev/null || exit 1
mkdir -p "$OUT" build/kmod
cp kmod/npuprof.ko tests/kmod/tp_stub/npuprof_tp_stub.ko build/kmod/

if [ $# -eq 0 ]; then
	set -- $(ls tests/vm/kring_*.c | sed 's|.*/||; s|\.c$||')
fi
for t in "$@"; do
	gcc -O2 -g -std=gnu11 -Wall -Wextra -Werror -D_GNU_SOURCE -pthread \
		-Iinclude -Iuser/include -Isim/include -Itests/unit -o "$OUT/$t" \
		"tests/vm/$t.c" build/lib/libnpuprof.a \
		-lbpf -lelf -lz -luring -lzstd -ljansson -lpthread -lm || exit 1
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
scripts/vm-run.sh --timeout 600 --smp 2 -- "$guest"
