#!/usr/bin/env bash
# The simulated NPU driver npusim.ko in the test VM: tests/vm/npusim_basic.c
# (built by make) loads build/kmod/npusim.ko with two devices, exercises
# it and unloads it (see the program's banner for what it checks).
# Exit 0 pass, 1 fail.
source "$(dirname "$0")/lib.bash"
for f in build/tests/vm/npusim_basic build/kmod/npusim.ko; do
	vm_built "$f" || { echo "$f missing: run make" >&2; exit 1; }
done
scripts/vm-run.sh --timeout 300 -- build/tests/vm/npusim_basic build/kmod/npusim.ko
