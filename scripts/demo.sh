#!/usr/bin/env bash
# make demo: the main job on the built-in workload.  Boots the test VM
# (Debian's kernel under qemu; nothing is loaded into this machine's own
# kernel), loads the realistic simulated driver ascendsim.ko (4 devices:
# the real Ascend driver's interfaces, task begin/end only in the device
# log behind libascend_hal.so) and npuprof.ko there, starts a
# 4-rank job of the sample AI task (rank r on device r, each started with
# PROFILING_MODE=dynamic as CANN's attach mode wants), and drives all four
# from one `msprof --dynamic=on --pid=P1,P2,P3,P4` with a scripted
# start/stop window; then exports the PROF_XXX directories (one per rank)
# on the host and prints a summary per rank and a job table.
# Output: $DEMO_OUT (default ./demo-out).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${DEMO_OUT:-$PWD/demo-out}
case $out in /*) ;; *) out=$PWD/$out ;; esac
mkdir -p "$out"
rm -rf "$out"/PROF_* "$out"/records "$out"/result.jsonl

echo "== capturing a 4-rank job of the sample AI task in the VM (one msprof --pid for all ranks, start after 3 s, stop 4 s later)"
E2E_DRIVER=ascendsim E2E_DRIVER_ARGS=sq_mode=mixed E2E_RANKS=4 E2E_BEFORE=3 E2E_WINDOW=4 scripts/vm-run.sh --rw "$out" --timeout 600 -- \
	scripts/guest-capture.sh attach-ranks "$out" --steps=300 --step-gap-ms=30 --threads=2 --quiet
echo
echo "== what msprof printed in the VM (each rank's own report is in $out/app.json)"
cat "$out/msprof.err"
grep -v '^{' "$out/msprof.log" || true
echo
echo "== what msprof --result wrote for scripts ($out/result.jsonl)"
cat "$out/result.jsonl"
echo
echo "== exporting (msprof --export=on --output=$out)"
build/bin/msprof --export=on --output="$out"
if [[ -f ../shared/checks/check_prof.py ]]; then
	echo
	echo "== layout check"
	python3 ../shared/checks/check_prof.py "$out"
fi
echo
echo "Done. PROF_XXX directories and exports are in $out"
echo "Open mindstudio_profiler_output/msprof_*.json in https://ui.perfetto.dev or chrome://tracing."
