#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Inside the test VM (bench/run.sh boots it): run each VM benchmark given,
# with its rows and logs in OUT.  Each script loads the modules it needs.
#
#   bench/guest.sh OUT bench/pN_x.sh...
set -uo pipefail
cd "$(dirname "$0")/.."
out=$1
shift
export BENCH_OUT=$out BENCH_SIZE=${NPUPROF_BENCH_SIZE:-full} BENCH_VERSIONS=$out/versions.json
failed=0
# The environment every VM row carries (bench/lib.bash: rows are written on the host).
rm -f "$out/rows/pending.vm.sh"
python3 bench/row.py --print-env vm >"$out/rows/env.vm.json" || failed=1
for s in "$@"; do
	echo "== $(basename "$s") in the VM ($(uname -r))"
	bash "$s" vm >"$out/logs/$(basename "$s" .sh).vm.log" 2>&1 || {
		echo "bench/guest.sh: $(basename "$s") failed:" >&2
		tail -n 30 "$out/logs/$(basename "$s" .sh).vm.log" >&2
		failed=1
	}
	tail -n 5 "$out/logs/$(basename "$s" .sh).vm.log"
	rmmod npuprof 2>/dev/null; rmmod npusim 2>/dev/null
done
exit $failed
