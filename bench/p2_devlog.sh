#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# where: host
#
# P2, the device-log path: on the real Ascend driver a task's begin and end
# come from the device's own log (channel 50 of libascend_hal.so), read by
# npuprof's device-log reader in msprof's process (user/devlog.c), not
# from a tracepoint hit in the driver.  Its cost is user-space CPU per
# record, not a cost on the CPU that submits: this measures records per
# second through the reader and CPU ns per task (a begin and an end
# record), with build/bench/p2_devlog (bench/src/p2_devlog.c) feeding the
# unit tests' stand-in libascend_hal.so as fast as the reader takes
# records:
#   drain   the reader and a real drain writing device_0's series (as msprof)
#   count   the reader and a thread that only counts: the reader's own share
# Rounds interleave the two (order alternating); figures are the median
# of the rounds, min in the notes.  User space only, so it runs on the
# host; npuprof.ko's tracepoint path (P2's other rows) needs the module and
# runs in the VM, where bench/p2_driver_event.sh also runs p2_devlog, for
# a figure beside npuprof.ko's of the same boot.  npuprof.ko's is a cost in
# the submitting thread's context, this one in the reader's.
source "$(dirname "$0")/lib.bash"

P=build/bench/p2_devlog
[[ -x $P ]] || { bench_log "$P missing: make bench-progs"; exit 1; }
TASKS=$(tiny_or_full 20000 500000)
ROUNDS=$(tiny_or_full 1 5)
figs=$BENCH_OUT/logs/p2_devlog.$BENCH_WHERE.rounds
: >"$figs"
failed=0

# field NAME LINE
field() { sed -n "s/.*\b$1=\([^ ]*\).*/\1/p" <<<"$2"; }

for ((r = 0; r < ROUNDS; r++)); do
	order=(drain count)
	((r % 2)) && order=(count drain)
	for m in "${order[@]}"; do
		out=$("$P" "$m" "$TASKS" 2>>"$BENCH_OUT/logs/p2_devlog.$BENCH_WHERE.err") || {
			bench_log "round $r $m failed: $(tail -n 2 "$BENCH_OUT/logs/p2_devlog.$BENCH_WHERE.err" | tr '\n' ' ')"
			failed=1
			continue
		}
		bench_log "round $r $m: $out"
		for k in rec_per_s cpu_ns_per_task drops gaps records; do
			echo "$m $k $(field "$k" "$out")" >>"$figs"
		done
	done
done

# stat MODE KEY med|min|max|sum: over the rounds ("n/a" when none ran).
stat() {
	awk -v m="$1" -v k="$2" '$1 == m && $2 == k { print $3 + 0 }' "$figs" | sort -g |
		awk -v s="$3" '{ v[++n] = $1; sum += $1 }
		END {
			if (!n) { print "n/a"; exit }
			if (s == "min") x = v[1]; else if (s == "max") x = v[n]; else if (s == "sum") x = sum
			else x = n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
			printf "%.4g\n", x
		}'
}

emu="host kernel $(uname -r), shared 2-core machine; stand-in libascend_hal.so (tests/unit/fake_ascend_hal.c) as the device, pre-built 64-byte channel-50 records, up to 16384 queued ahead"
writer=${NPUPROF_WRITER:-io_uring}
row --bench P2 --title "device-log path (real Ascend driver: begin/end from channel 50)" \
	--case "devlog reader + real drain ($writer writer), 1 device, $TASKS tasks per round" \
	--metric "CPU per task, 2 records (median of $ROUNDS rounds)" --unit ns/task \
	--npuprof "$(stat drain cpu_ns_per_task med)" \
	--baseline "reader alone, records only counted=$(stat count cpu_ns_per_task med)" \
	--ratio "reader alone=$(ratio "$(stat drain cpu_ns_per_task med)" "$(stat count cpu_ns_per_task med)")" \
	--goal "" --met n/a \
	--note "$emu" \
	--note "CPU of the reader thread, the drain and its writer threads and the stand-in's copies, less the feeder's: what msprof's process spends per task of the device log" \
	--note "min over rounds: drain $(stat drain cpu_ns_per_task min), reader alone $(stat count cpu_ns_per_task min) ns/task; records lost in the reader's ring (all rounds): $(stat drain drops sum) + $(stat count drops sum), count gaps $(stat drain gaps sum) + $(stat count gaps sum)"
row --bench P2 --title "device-log path (real Ascend driver: begin/end from channel 50)" \
	--case "devlog reader + real drain ($writer writer), 1 device, $TASKS tasks per round" \
	--metric "records through the reader (median of $ROUNDS rounds)" --unit records/s \
	--npuprof "$(stat drain rec_per_s med)" \
	--baseline "reader alone, records only counted=$(stat count rec_per_s med)" \
	--ratio "reader alone=$(ratio "$(stat drain rec_per_s med)" "$(stat count rec_per_s med)")" \
	--goal "" --met n/a \
	--note "$emu" \
	--note "wall time from the first record queued until the consumer took the last; bounded by the stand-in's feed as well (one 64 KiB batch at a time)" \
	--note "min over rounds: drain $(stat drain rec_per_s min), reader alone $(stat count rec_per_s min) records/s"
exit $failed
