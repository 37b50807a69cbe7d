#!/usr/bin/env bash
# Description: the multi-rank forms of the sample AI task in the VM, on
# npusim.ko with devices=4 (see tests/vm/guest/app_ranks.sh for the cases):
# ai_task --ranks=4 with --spawn=fork and --spawn=exec, run_ranks.sh 4, one
# process with --threads=2 --devices=0,1, ranks under PROFILING_MODE=dynamic
# each on their own socket, a failing rank, SIGTERM passed on.
# Exit 0 pass, 1 fail.
source "$(dirname "$0")/lib.bash"
for f in build/bin/ai_task build/bin/run_ranks.sh build/kmod/npusim.ko; do
	vm_built "$f" || { echo "$f missing: run make" >&2; exit 1; }
done
scripts/vm-run.sh --timeout 600 -- tests/vm/guest/app_ranks.sh
