#!/usr/bin/env bash
# Description: the simulated NPU driver npusim.ko in the test VM: builds the
# guest program tests/vm/npusim_basic.c if needed and runs it under
# scripts/vm-run.sh, which loads, exercises and unloads the module (see the
# program's banner for what it checks).  Exit 0 pass, 1 fail, 77 skip.
#
#   tests/vm/npusim.sh [PATH/npusim.ko]
set -u
cd "$(dirname "$0")/../.."

ko=${1:-}
if [[ -z $ko ]]; then
	for c in build/kmod/npusim.ko sim/driver/npusim.ko; do
		[[ -f $c ]] && { ko=$c; break; }
	done
fi
if [[ -z $ko || ! -f $ko ]]; then
	echo "SKIP: npusim.ko not built; run make modules" >&2
	exit 77
fi
if [[ ! -x scripts/vm-run.sh ]]; then
	echo "SKIP: scripts/vm-run.sh missing" >&2
	exit 77
fi

prog=build/tests/vm/npusim_basic
if [[ ! -x $prog || tests/vm/npusim_basic.c -nt $prog ]]; then
	mkdir -p "$(dirname "$prog")"
	${CC:-gcc} -O2 -g -std=gnu11 -Wall -Wextra -Werror -D_GNU_SOURCE \
		-Iinclude -Isim/include -Itests/unit \
		-o "$prog" tests/vm/npusim_basic.c || exit 1
fi

scripts/vm-run.sh --timeout 300 -- "$prog" "$ko"
