#!/usr/bin/env bash
# Defined outcomes in the VM: neither driver nor module (no device named),
# no module (device tasks through BPF), BPF forced with the module, no
# module with NPUPROF_TASK_CAPTURE=kmod (refused), no socket, odd command orders,
# the app exiting mid-capture, rmmod during capture, not root, app mode's
# job ending before --delay, a launcher leaving its rank behind, --output
# under /proc, a full disk (in dynamic and in app mode; on both writers, io_uring
# and the pwrite fallback), the only process
# dying before "stop", symlinks planted in a PROF dir, msprof killed
# mid-capture (both writers too), SIGTERM in launch mode (passed on to the
# app; see guest/outcomes.sh).
set -u
cd "$(dirname "$0")/../.."
mkdir -p build/e2e
out=$(mktemp -d "$PWD/build/e2e/outcomes.XXXXXX")
scripts/vm-run.sh --rw "$out" --timeout 600 -- tests/e2e/guest/outcomes.sh "$out"
