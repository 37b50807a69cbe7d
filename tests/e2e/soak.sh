#!/usr/bin/env bash
# Soak in the VM (tests/e2e/guest/soak.sh): E2E_SOAK_CYCLES start/stop
# windows in one msprof --pid session (default 6; make check-all: 200) and
# E2E_SOAK_LOADS npuprof.ko load/unload rounds with a capture each
# (default 2; make check-all: 50).  Every window must be exact and lose
# nothing (check_capture.py), every msprof exit 0, and neither msprof's
# memory and descriptors over the windows nor the kernel's memory over the
# rounds may grow (check_soak.py says by how much they may move and why).
source "$(dirname "$0")/lib.bash"
export E2E_SOAK_CYCLES=${E2E_SOAK_CYCLES:-6} E2E_SOAK_LOADS=${E2E_SOAK_LOADS:-2}
cycles=$E2E_SOAK_CYCLES
loads=$E2E_SOAK_LOADS
mkdir -p build/e2e
out=$(mktemp -d "$PWD/build/e2e/soak.XXXXXX")
echo "output: $out"
start_s=$SECONDS
scripts/vm-run.sh --rw "$out" --timeout $((240 + cycles * 8 + loads * 30)) -- \
	tests/e2e/guest/soak.sh "$out" || { echo "soak in the VM failed"; exit 1; }
echo "VM part: $((SECONDS - start_s)) s"

# check_dir DIR N: N exact windows in DIR, msprof exited 0.
check_dir() {
	local dir=$1 want=$2 d n
	[[ $(cat "$dir/msprof.rc") == 0 ]] || { echo "$dir: msprof exited $(cat "$dir/msprof.rc")"; cat "$dir/msprof.err"; return 1; }
	n=$(ls -d "$dir"/PROF_* | wc -l)
	[[ $n == "$want" ]] || { echo "$dir: $n PROF dirs, want $want"; return 1; }
	ln -f "$out/app.json" "$dir/app.json" || return 1
	mkdir -p "$dir/records"
	for d in "$dir"/PROF_*; do
		build/bin/npuprof-dump "$d" >"$dir/records/$(basename "$d").jsonl" || return 1
	done
	build/bin/msprof --export=on --output="$dir" >"$dir/export.log" 2>&1 ||
		{ echo "$dir: export failed"; tail "$dir/export.log"; return 1; }
	python3 tests/e2e/check_capture.py "$dir" >"$dir/check.log" ||
		{ grep FAIL "$dir/check.log" | head -20; return 1; }
}

rc=0
check_dir "$out/cycles" "$cycles" || rc=1
tail -n 1 "$out/cycles/check.log"
for ((n = 1; n <= loads; n++)); do
	check_dir "$out/loads/$n" 1 || rc=1
done
echo "$loads load/unload rounds: windows checked"
python3 tests/e2e/check_soak.py "$out" || rc=1
echo "total: $((SECONDS - start_s)) s"
exit $rc
