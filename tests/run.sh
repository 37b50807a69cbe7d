#!/usr/bin/env bash
# Test runner: every host unit test (build/tests/test_*), then every VM test
# (tests/vm/*.sh, tests/e2e/*.sh, tests/platform/smoke_*.sh: each boots the Debian kernel under qemu
# through scripts/vm-run.sh, which also fails a run whose guest kernel
# printed BUG/WARNING/Oops or an RCU stall; what they run inside the guest lives in
# tests/e2e/guest/ and is not a test of its own), then the short smokes on
# the other kernels and architectures (tests/platform/*.sh: each sets its
# own NPUPROF_VM_TARGET).  The host shell tests (tests/host/*.sh: no VM,
# seconds each) run with the unit tests.  With --pkg, only tests/pkg/*.sh
# (packaging checks that build npuprof.ko through dkms, a minute or more;
# make check-all runs them).  With --bench, only
# tests/bench/*.sh (make bench's benchmarks once at a tiny size: they must
# run, their figures are not judged; make check-all runs them).  A test is a program: exit 0 pass, 77 skip,
# anything else fail; each runs under a timeout.  The last line is
# "N passed, N failed, N skipped".
#
# The unit tests built under AddressSanitizer and UBSan (make asan:
# build-asan/tests/test_*) run as asan/test_*, halting at the first report.
# The slice writer's and the drain's tests run again as pwrite/test_* (and
# asan-pwrite/test_*) with NPUPROF_WRITER=pwrite: the fallback writer under
# the same assertions.
#
#   tests/run.sh [--unit|--vm|--pkg|--bench] [NAME_FILTER]
# NPUPROF_VM_TEST_TIMEOUT: seconds each VM test may take (default 900).
# NPUPROF_TEST_LOGS: where the logs go (default build/test-logs).
set -u
cd "$(dirname "$0")/.."

mode=all
case "${1:-}" in
--unit) mode=unit; shift ;;
--vm) mode=vm; shift ;;
--pkg) mode=pkg; shift ;;
--bench) mode=bench; shift ;;
-h | --help) sed -n '2,/^set -u/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;;
-*) echo "tests/run.sh: $1: not --unit, --vm, --pkg or --bench (tests/run.sh --help)" >&2; exit 2 ;;
esac
filter="${1:-}"
(($# <= 1)) || { echo "tests/run.sh: one NAME_FILTER at most, got: $*" >&2; exit 2; }
log_dir=${NPUPROF_TEST_LOGS:-build/test-logs}
mkdir -p "$log_dir"
passed=0 failed=0 skipped=0
failed_names=()

run_one() { # NAME TIMEOUT CMD...
	local name=$1 limit=$2 start rc
	shift 2
	[[ -n "$filter" && "$name" != *"$filter"* ]] && return
	start=$(date +%s)
	mkdir -p "$(dirname "$log_dir/$name")"
	timeout --kill-after=10 "$limit" "$@" >"$log_dir/$name.log" 2>&1
	rc=$?
	local took=$(($(date +%s) - start))
	case $rc in
	0) passed=$((passed + 1)); printf 'PASS %-40s %3ss\n' "$name" "$took" ;;
	77) skipped=$((skipped + 1)); printf 'SKIP %-40s %3ss  %s\n' "$name" "$took" \
		"$(grep -m1 -i skip "$log_dir/$name.log")" ;;
	*) failed=$((failed + 1)); failed_names+=("$name")
	   [[ $rc == 124 ]] && echo "timed out after ${limit}s" >>"$log_dir/$name.log"
	   printf 'FAIL %-40s %3ss  (exit %s; log %s)\n' "$name" "$took" "$rc" "$log_dir/$name.log"
	   tail -n 25 "$log_dir/$name.log" | sed 's/^/     | /' ;;
	esac
}

if [[ $mode == all || $mode == unit ]]; then
	for t in build/tests/test_*; do
		[[ -x $t ]] || continue
		run_one "unit/$(basename "$t")" 120 "$t"
	done
	# the slice writer and the drain once more on the pwrite fallback writer
	for t in build/tests/test_slice_* build/tests/test_drain_*; do
		[[ -x $t ]] || continue
		run_one "pwrite/$(basename "$t")" 120 env NPUPROF_WRITER=pwrite "$t"
	done
	asan_env=(ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:halt_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1
		UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1)
	for t in build-asan/tests/test_*; do
		[[ -x $t ]] || continue
		run_one "asan/$(basename "$t")" 300 env "${asan_env[@]}" "$t"
	done
	for t in build-asan/tests/test_slice_* build-asan/tests/test_drain_*; do
		[[ -x $t ]] || continue
		run_one "asan-pwrite/$(basename "$t")" 300 env "${asan_env[@]}" NPUPROF_WRITER=pwrite "$t"
	done
	for t in tests/host/*.sh; do
		[[ -f $t ]] || continue
		run_one "host/$(basename "$t")" 120 bash "$t"
	done
fi
vm_tests=()
# tests/platform/smoke.sh is the generic script its smoke_<target>.sh run.
[[ $mode == all || $mode == vm ]] &&
	vm_tests=(tests/vm/*.sh tests/e2e/*.sh $(ls tests/platform/*.sh | grep -v '/smoke\.sh$'))
[[ $mode == bench ]] && vm_tests=(tests/bench/*.sh)
[[ $mode == pkg ]] && vm_tests=(tests/pkg/*.sh)
for t in "${vm_tests[@]}"; do
	[[ -f $t ]] || continue
	run_one "${t#tests/}" "${NPUPROF_VM_TEST_TIMEOUT:-900}" bash "$t"
done

echo
# a filter that picked no test is a mistake, not a pass
if [[ -n $filter ]] && ((passed + failed + skipped == 0)); then
	echo "tests/run.sh: no test name contains '$filter' (names: unit/test_*, pwrite/test_*, asan/test_*, asan-pwrite/test_*, host/*.sh, vm/*.sh, e2e/*.sh, platform/*.sh)" >&2
	echo "0 passed, 0 failed, 0 skipped"
	exit 2
fi
if ((failed)); then
	echo "failed: ${failed_names[*]}"
fi
echo "$passed passed, $failed failed, $skipped skipped"
((failed == 0))
