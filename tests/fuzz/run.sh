#!/usr/bin/env bash
# Run every libFuzzer target of BUILD_DIR/fuzz for SECONDS each (make fuzz).
#
#   tests/fuzz/run.sh BUILD_DIR SECONDS [NAME...]
#
# Each target starts from its committed seeds (tests/fuzz/corpus/<name>/,
# never written) plus what earlier runs found (BUILD_DIR/corpus/<name>/,
# where new inputs go).  A crash, leak, sanitizer report or broken
# property leaves its input in BUILD_DIR/artifacts/<name>/ and fails the
# run: fix the bug, then add that input as a unit test (tests/unit).
# Per target one line: executions, exec/s, coverage (cov: edges, ft:
# features), corpus size, and the outcome; the log is BUILD_DIR/logs/.
set -u
cd "$(dirname "$0")/../.."

build=${1:?usage: tests/fuzz/run.sh BUILD_DIR SECONDS [NAME...]}
secs=${2:?usage: tests/fuzz/run.sh BUILD_DIR SECONDS [NAME...]}
shift 2
names=("$@")
if ((${#names[@]} == 0)); then
	for t in tests/fuzz/fuzz_*.c; do
		n=$(basename "$t" .c)
		names+=("${n#fuzz_}")
	done
fi

# Largest input per target: room for what its format carries.
max_len() {
	case $1 in
	dynprof_server) echo 6000 ;;
	export | slice_reader) echo 32768 ;;
	acl_symbols) echo 20000 ;; # a small shared object
	*) echo 4096 ;;
	esac
}

# "stat::name: value" from a libFuzzer log, or "?".
stat_of() {
	local v
	v=$(sed -n "s/^stat::$2: *//p" "$1" | tail -n 1)
	echo "${v:-?}"
}

# cov/ft/corp of the last status line of a log.
status_of() {
	local line
	line=$(grep -E '^#[0-9]+' "$1" | grep -E 'cov: ' | tail -n 1)
	sed -E 's/.*cov: ([0-9]+) ft: ([0-9]+) corp: ([0-9]+)\/([0-9a-zA-Z]+).*/cov=\1 ft=\2 corpus=\3 (\4)/' <<<"$line"
}

# Every report stops the target, also from code built with recoverable UBSan.
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}

failed=()
mkdir -p "$build/logs"
for n in "${names[@]}"; do
	bin=$build/fuzz/fuzz_$n
	seeds=tests/fuzz/corpus/$n
	work=$build/corpus/$n
	art=$build/artifacts/$n/
	log=$build/logs/$n.log
	if [[ ! -x $bin ]]; then
		echo "FAIL $n: $bin not built"
		failed+=("$n")
		continue
	fi
	mkdir -p "$work" "$art"
	"$bin" -max_total_time="$secs" -max_len="$(max_len "$n")" -timeout=30 \
		-rss_limit_mb=2048 -print_final_stats=1 -close_fd_mask=3 \
		-artifact_prefix="$art" "$work" "$seeds" >"$log" 2>&1
	rc=$?
	execs=$(stat_of "$log" number_of_executed_units)
	rate=$(stat_of "$log" average_exec_per_sec)
	found=$(grep -h -m1 -E 'ERROR: (AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer|libFuzzer)|runtime error:|property failed:' "$log")
	if ((rc != 0)); then
		failed+=("$n")
		printf 'FAIL %-16s execs=%s exec/s=%s %s\n' "$n" "$execs" "$rate" "$(status_of "$log")"
		printf '     | %s\n' "${found:-exit status $rc}" \
			"input: $(sed -n 's/.*Test unit written to //p' "$log" | tail -n 1)" "log: $log"
	else
		printf 'PASS %-16s execs=%s exec/s=%s %s, nothing found\n' "$n" "$execs" "$rate" \
			"$(status_of "$log")"
	fi
done
if ((${#failed[@]})); then
	echo "fuzz: found something in: ${failed[*]}"
	exit 1
fi
echo "fuzz: ${#names[@]} targets, ${secs}s each, nothing found"
