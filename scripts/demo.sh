#!/usr/bin/env bash
# make demo: the main job on the built-in workload.  Boots the test VM
# (Debian's kernel under qemu; nothing is loaded into this machine's own
# kernel), loads npusim.ko and npuprof.ko there, runs the sample AI task
# under `msprof --dynamic=on` in launch mode with a scripted start/stop
# window, then exports the PROF_XXX directories on the host and prints a
# summary.  Output: $DEMO_OUT (default ./demo-out).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${DEMO_OUT:-$PWD/demo-out}
case $out in /*) ;; *) out=$PWD/$out ;; esac
mkdir -p "$out"
rm -rf "$out"/PROF_* "$out"/records

echo "== capturing the sample AI task in the VM (launch mode, start after 3 s, stop 4 s later)"
E2E_BEFORE=3 E2E_WINDOW=4 scripts/vm-run.sh --rw "$out" --timeout 600 -- \
	scripts/guest-capture.sh launch "$out" --steps=300 --step-gap-ms=30 --threads=2 --quiet
echo
echo "== what msprof printed in the VM (the app's own report is in $out/app.json)"
grep -v '^{' "$out/msprof.log" || true
cat "$out/msprof.err"
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
