#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# make bench works: every benchmark (bench/pN_*.sh) runs once at the tiny
# size, on this machine and in the VM as its "# where:" line says, and
# leaves rows with an npuprof figure in bench.json.  The figures are not
# judged: timing never fails a test.
set -uo pipefail
cd "$(dirname "$0")/../.."
out=build/bench-smoke
compgen -G "bench/p[0-9]*_*.sh" >/dev/null || { echo "skip: no benchmarks yet"; exit 77; }
want=$(ls bench/p[0-9]*_*.sh | sed 's|.*/||; s|_.*||' | tr a-z A-Z | sort -u | paste -sd,)
bench/run.sh --size tiny --out "$out" || exit 1
python3 bench/report.py "$out" --require "$want" >/dev/null
