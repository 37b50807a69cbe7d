#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Every VM suite (tests/vm/*.sh, tests/e2e/*.sh, as tests/run.sh --vm runs
# them) on each VM target's kernel: make check-all's kernel matrix.
#
#   tests/matrix.sh [TARGET...]
#
# TARGETs are names of scripts/vm-kernel.sh targets; the default is every
# target it knows.  Per target: its kernel is fetched when missing, its
# modules built (scripts/target-modules.sh; the default target uses
# build/kmod/ of `make modules`), for another architecture its whole user
# space cross-built too (make target TARGET=T), then tests/run.sh --vm runs with
# NPUPROF_VM_TARGET=TARGET (scripts/vm-run.sh boots that kernel with
# build/target/TARGET/ over build/), its logs in
# build/test-logs/matrix/TARGET/.  The platform smokes are left out (only
# the vm/ and e2e/ names are run): they pick their kernel themselves.  The last line is "N passed, N failed,
# N skipped" over all targets; exit 1 when anything failed.

set -u
cd "$(dirname "$0")/.." || exit 1
ME=matrix
DEFAULT_TARGET=amd64-6.1

if (($#)); then
	targets=("$@")
else
	mapfile -t targets < <(scripts/vm-kernel.sh targets | awk '{ print $1 }')
fi

passed=0 failed=0 skipped=0 bad=()

# Add the closing counts of one tests/run.sh output ($1) to the totals.
add_counts() {
	local p f s
	read -r p f s < <(tail -n 1 "$1" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed, \([0-9]*\) skipped$/\1 \2 \3/p')
	passed=$((passed + ${p:-0}))
	failed=$((failed + ${f:-1}))
	skipped=$((skipped + ${s:-0}))
}

# Run every VM suite on target $1; a target that cannot be prepared counts
# as one failure.
run_target() {
	local t=$1 logs=build/test-logs/matrix/$1 suite
	echo "=== $t"
	mkdir -p "$logs"
	if ! scripts/vm-kernel.sh --target "$t" fetch >"$logs/prepare.log" 2>&1 ||
		{ [[ $t != "$DEFAULT_TARGET" ]] && ! scripts/target-modules.sh "$t" >>"$logs/prepare.log" 2>&1; } ||
		{ [[ $(scripts/vm-kernel.sh --target "$t" arch) != "$(dpkg --print-architecture)" ]] &&
			! make -j2 target TARGET="$t" >>"$logs/prepare.log" 2>&1; }; then
		echo "$ME: $t: cannot fetch its kernel or build for it; see $logs/prepare.log"
		failed=$((failed + 1))
		bad+=("$t")
		return
	fi
	for suite in vm/ e2e/; do
		NPUPROF_VM_TARGET=$t NPUPROF_TEST_LOGS=$logs tests/run.sh --vm "$suite" |
			tee "$logs/${suite%/}.out"
		add_counts "$logs/${suite%/}.out"
		grep -q '^failed: ' "$logs/${suite%/}.out" && bad+=("$t:${suite%/}")
	done
}

for t in "${targets[@]}"; do
	run_target "$t"
done
echo
((${#bad[@]})) && echo "failed on: ${bad[*]}"
echo "$passed passed, $failed failed, $skipped skipped"
((failed == 0))
