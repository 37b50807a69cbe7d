# SPDX-License-Identifier: MIT
# Sourced by every bench/pN_*.sh: its first argument says where it runs
# (host or vm); BENCH_OUT, BENCH_SIZE come from bench/run.sh.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
BENCH_WHERE=${1:?usage: $0 host|vm}
BENCH_SIZE=${BENCH_SIZE:-full}
BENCH_OUT=${BENCH_OUT:-bench-out}
BENCH_ID=$(basename "$0"); BENCH_ID=${BENCH_ID%%_*}
mkdir -p "$BENCH_OUT/rows" "$BENCH_OUT/logs"
BENCH_ROWS=$BENCH_OUT/rows/$BENCH_ID.$BENCH_WHERE.jsonl
rm -f "$BENCH_ROWS"

# row ARGS...: one table row (bench/row.py's options, without --out/--where).
# In the VM a Python start costs seconds under TCG: the row is queued in
# rows/pending.vm.sh with the guest's environment (bench/guest.sh saved
# it), and bench/run.sh writes it on the host after the VM run.
row() {
	local cmd=(python3 bench/row.py --out "$BENCH_ROWS" --where "$BENCH_WHERE" --size "$BENCH_SIZE")
	if [[ $BENCH_WHERE == vm ]]; then
		printf '%q ' "${cmd[@]}" --env "$BENCH_OUT/rows/env.vm.json" "$@" >>"$BENCH_OUT/rows/pending.vm.sh"
		echo >>"$BENCH_OUT/rows/pending.vm.sh"
	else
		"${cmd[@]}" "$@"
	fi
}

# tiny_or_full TINY FULL: the value for this size.
tiny_or_full() { [[ $BENCH_SIZE == tiny ]] && echo "$1" || echo "$2"; }

# ratio A B: A / B with 3 significant digits ("n/a" when either is missing or B is 0).
ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN {
		num = "^[-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?$"
		if (a ~ num && b ~ num && b + 0 != 0) printf "%.3g\n", a / b; else print "n/a" }'
}

# have TOOL: 0 when TOOL is on PATH.
have() { command -v "$1" >/dev/null 2>&1; }

bench_log() { printf '%s: %s\n' "$BENCH_ID" "$*" >&2; }
