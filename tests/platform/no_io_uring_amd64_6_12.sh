#!/usr/bin/env bash
# Description: capture where the kernel refuses io_uring to everyone:
# tests/e2e/no_io_uring.sh (launch, attach and app mode on the fallback
# writer, exact counts) on amd64-6.12 booted with
# sysctl.kernel.io_uring_disabled=2 (the switch Linux 6.6 added) instead of
# a seccomp filter.  Exit 77 when that kernel is not fetched.
set -u
cd "$(dirname "$0")/../.."
target=amd64-6.12
export NPUPROF_VM_TARGET=$target NO_IO_URING_SYSCTL=1
if ! scripts/vm-kernel.sh version >/dev/null 2>&1 || ! scripts/vm-kernel.sh vmlinuz >/dev/null 2>&1; then
	echo "no_io_uring $target: SKIP: kernel not fetched (scripts/vm-kernel.sh --target $target fetch)"
	exit 77
fi
if [[ ! -f build/target/$target/kmod/npuprof.ko ]]; then
	scripts/target-modules.sh "$target" >/dev/null || exit 1
fi
exec tests/e2e/no_io_uring.sh
