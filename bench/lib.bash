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
row() { python3 bench/row.py --out "$BENCH_ROWS" --where "$BENCH_WHERE" --size "$BENCH_SIZE" "$@"; }

# tiny_or_full TINY FULL: the value for this size.
tiny_or_full() { [[ $BENCH_SIZE == tiny ]] && echo "$1" || echo "$2"; }

# ratio A B: A / B with 3 significant digits ("n/a" when either is missing or B is 0).
ratio() { python3 -c 'import sys
a, b = sys.argv[1], sys.argv[2]
try: print(f"{float(a) / float(b):.3g}")
except (ValueError, ZeroDivisionError): print("n/a")' "$1" "$2"; }

# have TOOL: 0 when TOOL is on PATH.
have() { command -v "$1" >/dev/null 2>&1; }

bench_log() { printf '%s: %s\n' "$BENCH_ID" "$*" >&2; }
