#!/usr/bin/env bash
# Description: on Debian 12's arm64 kernel (VM target arm64-6.1, TCG), the
# cross-built npusim.ko and npuprof.ko load and msprof captures the sample
# AI task in launch mode over a 2-second window, checked exactly as
# e2e/launch_mode checks it (the app's own counts, the PROF layout, the
# clock placement, the task path said once).  Built by `make target
# TARGET=arm64-6.1` and `make target-modules TARGET=arm64-6.1`; exit 77
# when that build, the kernel or qemu-system-aarch64 is missing.
export NPUPROF_VM_TARGET=arm64-6.1
source "$(dirname "$0")/../e2e/lib.bash"

t=build/target/$NPUPROF_VM_TARGET
for f in $t/bin/msprof $t/bin/ai_task $t/kmod/npuprof.ko $t/kmod/npusim.ko build/bin/msprof; do
	[[ -e $f ]] || { echo "smoke_arm64_6_1: SKIP: $f missing (make target target-modules TARGET=$NPUPROF_VM_TARGET; make)"; exit 77; }
done
scripts/vm-kernel.sh vmlinuz >/dev/null 2>&1 || { echo "smoke_arm64_6_1: SKIP: kernel of $NPUPROF_VM_TARGET not fetched (scripts/install-deps.sh)"; exit 77; }
command -v qemu-system-aarch64 >/dev/null || { echo "smoke_arm64_6_1: SKIP: qemu-system-aarch64 missing"; exit 77; }

# The app runs for 1 s + 2 s + a margin: steps * step gap.
E2E_BEFORE=1 E2E_WINDOW=2 e2e_run launch --steps=120 --step-gap-ms=50 --threads=2 && e2e_clocks && e2e_task_path
