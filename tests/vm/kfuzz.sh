#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# The kernel-interface fuzz test (tests/vm/kfuzz.c) in its own VM boot, the
# guest kernel checking its slab objects (slub_debug: red zones, poisoning,
# consistency checks on free) and poisoning freed pages, so a use after
# free or an overrun in npuprof.ko shows up in the kernel log that the VM
# runner and the test read.  Size and seed from the environment:
# NPUPROF_FUZZ_CALLS (default 30000: about a minute under TCG, boot
# included; make check-all runs 200000), NPUPROF_FUZZ_SEED (printed by every run),
# NPUPROF_FUZZ_THREADS, NPUPROF_FUZZ_EPOCHS.
source "$(dirname "$0")/lib.bash"
vm_built build/tests/vm/kfuzz || { echo "build/tests/vm/kfuzz missing: run make" >&2; exit 1; }
calls=${NPUPROF_FUZZ_CALLS:-30000}
limit=$((120 + calls / 100))
NPUPROF_VM_APPEND="slub_debug=FZPU page_poison=1" \
	scripts/vm-run.sh --timeout $((limit + 120)) --smp "${VM_SMP:-2}" -- \
	"tests/vm/guest/run-suite kfuzz $limit build/tests/vm/kfuzz"
