#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# make bench: every benchmark, npuprof and its baselines measured side by
# side in one run, then one table and bench-out/bench.json.
#
#   bench/run.sh [--size tiny|full] [--only P1,P3] [--out DIR] [--no-vm] [--no-host]
#
# Each benchmark is bench/pN_*.sh; its "# where:" line says whether it runs
# on this machine's kernel (host: uprobes and BPF ring buffers work here,
# modules cannot be loaded), in the test VM (Debian's kernel under qemu,
# where npuprof.ko and npusim.ko load), or both.  Every script appends rows
# through bench/row.py to DIR/rows/; bench/report.py prints the table.
#
# All VM benchmarks share one boot: under software emulation a trap costs
# about 30x what it costs on hardware, so only ratios measured in the same
# boot mean anything, and the table says so on every VM row.
#
# The VM boots with clocksource=tsc: under qemu the default clocksource is
# the emulated HPET, a device read per ktime_get_ns() that costs npuprof.ko
# and BPF (which read it) several times what it costs ftrace (which reads
# the TSC); hardware servers run on the TSC (x86) or the architected timer.
#
# A full run gives the VM one host thread per vCPU (NPUPROF_VM_TCG_THREAD=
# multi): the rows with one writer per CPU need both CPUs running at once.
# The tiny smoke, a pass/fail check, runs single-threaded like the tests
# (scripts/vm-run.sh says why).
#
# --size tiny runs each benchmark once at a small size (make check's smoke
# test: it proves the benchmark works; its figures mean nothing).  Timing
# never fails this script: it exits non-zero only when a benchmark could
# not run at all.
set -uo pipefail
cd "$(dirname "$0")/.."

size=full only="" out=bench-out host=1 vm=1
while (($#)); do
	case $1 in
	--size) size=${2:-}; shift 2 ;;
	--only) only=${2:-}; shift 2 ;;
	--out) out=${2:-}; shift 2 ;;
	--no-vm) vm=0; shift ;;
	--no-host) host=0; shift ;;
	-h|--help) sed -n '/^# make bench/,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) echo "bench/run.sh: unknown option '$1' (allowed: --size tiny|full, --only P1,..., --out DIR, --no-vm, --no-host)" >&2; exit 2 ;;
	esac
done
case $size in tiny|full) ;; *) echo "bench/run.sh: --size=$size: allowed values are tiny, full" >&2; exit 2 ;; esac
mkdir -p "$out" || exit 1
out=$(realpath "$out")
rm -rf "$out/rows" "$out/logs"
mkdir -p "$out/rows" "$out/logs"

# The benchmarks selected: bench/pN_*.sh, filtered by --only.
scripts=()
for s in bench/p[0-9]*_*.sh; do
	id=$(basename "$s"); id=${id%%_*}; id=${id^^}
	[[ -z $only || ",${only^^}," == *",$id,"* ]] && scripts+=("$s")
done
((${#scripts[@]})) || { echo "bench/run.sh: no benchmark matches --only=$only" >&2; exit 2; }

python3 bench/versions.py >"$out/versions.json"
export BENCH_VERSIONS=$out/versions.json BENCH_SIZE=$size BENCH_OUT=$out

failed=0
runs_on() { grep -q "^# where:.*\b$2\b" "$1"; }

if ((host)); then
	for s in "${scripts[@]}"; do
		runs_on "$s" host || continue
		echo "== $(basename "$s") on this machine ($(uname -r))"
		if ! bash "$s" host 2>&1 | tee "$out/logs/$(basename "$s" .sh).host.log"; then
			echo "bench/run.sh: $(basename "$s") on the host failed (log $out/logs)" >&2
			failed=1
		fi
	done
fi

if ((vm)); then
	guest=()
	for s in "${scripts[@]}"; do runs_on "$s" vm && guest+=("$s"); done
	if ((${#guest[@]})); then
		echo "== ${guest[*]} in the test VM (one boot)"
		limit=$([[ $size == tiny ]] && echo 600 || echo 3600)
		NPUPROF_VM_APPEND="${NPUPROF_VM_APPEND:-clocksource=tsc tsc=reliable}" \
		NPUPROF_VM_TCG_THREAD="${NPUPROF_VM_TCG_THREAD:-$([[ $size == tiny ]] && echo single || echo multi)}" \
		scripts/vm-run.sh --rw "$out" --timeout "$limit" --smp "${BENCH_VM_SMP:-2}" --mem 2048 -- \
			"NPUPROF_BENCH_SIZE=$size bench/guest.sh $out ${guest[*]}" || failed=1
		# The rows the VM run queued (bench/lib.bash), written here.
		if [[ -f $out/rows/pending.vm.sh ]]; then
			bash "$out/rows/pending.vm.sh" || failed=1
			rm -f "$out/rows/pending.vm.sh"
		fi
	fi
fi

python3 bench/report.py "$out" || failed=1
exit $failed
