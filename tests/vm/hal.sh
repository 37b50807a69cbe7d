#!/usr/bin/env bash
# The simulated libascend_hal.so over npusim.ko in the test VM:
# tests/vm/hal_channel.c (built by make) loads build/kmod/npusim.ko with
# the parameters of each case itself (see the program's banner: channel
# list, clock pairs, the refusals 115/30/-10/-12/-13, a killed owner, each
# id packing with exact begin/end counts, a slow reader's loss counted
# exactly, devlog_scope=enabled) and unloads it.
# Exit 0 pass, 1 fail.
source "$(dirname "$0")/lib.bash"
for f in build/tests/vm/hal_channel build/kmod/npusim.ko build/lib/libascend_hal.so; do
	vm_built "$f" || { echo "$f missing: run make" >&2; exit 1; }
done
scripts/vm-run.sh --timeout 400 -- build/tests/vm/hal_channel build/kmod/npusim.ko
