#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# npuprof.ko in the test VM: every tests/vm/kmod_*.c program (built by
# make) in one boot, with build/kmod/npuprof.ko, npusim.ko, npustub.ko and
# the stub driver npuprof_tp_stub.ko (each test loads what it needs).  Exits 1 if
# any failed or the VM runner failed (also on a kernel BUG/WARNING/Oops).
#
#   tests/vm/kmod_run.sh [TEST...]     (names like kmod_ring_full; default all)
#   VM_SMP=N selects the guest CPU count (default 2).
source "$(dirname "$0")/lib.bash"
mapfile -t names < <(suite_names kmod_ "$@")
vm_suite kmod 900 : "${names[@]}"
