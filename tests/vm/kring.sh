#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# The real reader (user/kring.c + user/ring.c, linked from libnpuprof.a)
# against the real npuprof.ko in the test VM: every tests/vm/kring_*.c
# program in one boot.  Exits 1 if any failed or the VM runner failed.
#
#   tests/vm/kring.sh [TEST...]     (names like kring_read; default all)
source "$(dirname "$0")/lib.bash"
mapfile -t names < <(suite_names kring_ "$@")
vm_suite kring 600 : "${names[@]}"
