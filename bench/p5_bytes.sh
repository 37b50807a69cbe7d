#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# where: vm
#
# P5 bytes on disk: bytes per record for the demo workload (the sample AI
# task on npusim, as scripts/demo.sh runs it), captured three ways in the
# same boot: npuprof (msprof app mode: the whole run, slices as written),
# trace-cmd record -e npusim (ftrace, trace.dat) and perf record -e
# 'npusim:*' (perf.data).  The driver events are the ones all three see,
# so the main row compares npuprof's device task series with them; a
# second row gives npuprof's figure over every record it wrote (runtime
# API calls included).
source "$(dirname "$0")/lib.bash"

steps=$(tiny_or_full 20 300)
args=(--steps="$steps" --step-gap-ms=0 --threads=2 --quiet)
work=$BENCH_OUT/p5
rm -rf "$work" && mkdir -p "$work" || exit 1

insmod build/kmod/npusim.ko || exit 1
insmod build/kmod/npuprof.ko || exit 1

# size_of FILES...: total bytes (0 when none).
size_of() { local t=0 f; for f in "$@"; do [[ -f $f ]] && t=$((t + $(stat -c %s "$f"))); done; echo $t; }
# per A B: A / B with 3 decimals.
per() { python3 -c 'import sys; print(f"{int(sys.argv[1]) / int(sys.argv[2]):.3f}" if int(sys.argv[2]) else "n/a")' "$1" "$2"; }

# --- npuprof: msprof app mode over the whole run
bench_log "msprof: ai_task ${args[*]}"
build/bin/msprof --output="$work/np" --result="$work/np.result" build/bin/ai_task "${args[@]}" \
	>"$work/msprof.log" 2>&1 || { cat "$work/msprof.log" >&2; exit 1; }
prof=$(echo "$work"/np/PROF_*)
task_recs=$(python3 -c 'import json, sys; print(sum(json.loads(l)["task_records"] for l in open(sys.argv[1])))' "$work/np.result")
api_recs=$(python3 -c 'import json, sys; print(sum(json.loads(l)["api_records"] for l in open(sys.argv[1])))' "$work/np.result")
task_bytes=$(size_of "$prof"/device_*/data/npuprof.task.*.slice_[0-9]*)
api_bytes=$(size_of "$prof"/host/data/npuprof.api.slice_[0-9]*)
np_task=$(per "$task_bytes" "$task_recs")
np_all=$(per $((task_bytes + api_bytes)) $((task_recs + api_recs)))
raw_all=$(per $((task_recs * 88 + api_recs * 104)) $((task_recs + api_recs)))
bench_log "npuprof: $task_recs task records in $task_bytes bytes, $api_recs API records in $api_bytes bytes"

# --- trace-cmd: the same workload, the npusim events into trace.dat
tc=n/a tc_note="n/a: trace-cmd not installed"
if have trace-cmd; then
	bench_log "trace-cmd record -e npusim"
	if trace-cmd record -q -e npusim -o "$work/trace.dat" build/bin/ai_task "${args[@]}" \
		>"$work/trace-cmd.log" 2>&1; then
		ev=$(trace-cmd report -i "$work/trace.dat" 2>/dev/null | grep -c 'npusim_')
		tc=$(per "$(size_of "$work/trace.dat")" "$ev")
		bench_log "trace-cmd: $ev events in $(size_of "$work/trace.dat") bytes"
		tc_note=$tc
	else
		tc_note="n/a: trace-cmd record failed (log in $work/trace-cmd.log)"
	fi
	trace-cmd reset >/dev/null 2>&1
fi

# --- perf record: the same events, all CPUs (start and end fire from a timer)
pf=n/a pf_note="n/a: perf not installed"
if [[ $BENCH_SIZE == tiny ]]; then
	# perf's start-up alone takes most of a minute under TCG: make check's time.
	pf_note="n/a: skipped at tiny size (perf's start-up under TCG)"
elif have perf; then
	bench_log "perf record -e npusim:*"
	if perf record -q -a -e 'npusim:*' -o "$work/perf.data" -- build/bin/ai_task "${args[@]}" \
		>"$work/perf.log" 2>&1; then
		ev=$(perf script -i "$work/perf.data" 2>/dev/null | grep -c 'npusim:')
		pf=$(per "$(size_of "$work/perf.data")" "$ev")
		bench_log "perf: $ev samples in $(size_of "$work/perf.data") bytes"
		pf_note=$pf
	else
		pf_note="n/a: perf record failed (log in $work/perf.log)"
	fi
fi

met=$(python3 -c 'import sys
n, t = sys.argv[1], sys.argv[2]
try: print("yes" if float(n) <= 3 and float(n) <= float(t) / 5 else "no")
except ValueError: print("no")' "$np_task" "$tc")
row --bench P5 --title "bytes on disk" \
	--case "sample AI task, ${args[*]}: driver task events ($task_recs records)" \
	--metric "bytes on disk per record" --unit "bytes/record" --npuprof "$np_task" \
	--baseline "raw record=88" --baseline "trace-cmd record (trace.dat)=$tc_note" \
	--baseline "perf record (perf.data)=$pf_note" \
	--ratio "raw record=$(ratio "$np_task" 88)" \
	--ratio "trace-cmd record (trace.dat)=$(ratio "$np_task" "$tc")" \
	--ratio "perf record (perf.data)=$(ratio "$np_task" "$pf")" \
	--goal "<= 3 bytes/record and <= 0.2x trace.dat" --met "$met" \
	--note "npuprof: task slice bytes / task records from msprof --result; trace.dat and perf.data include their fixed headers"
row --bench P5 --title "bytes on disk" \
	--case "sample AI task: every record npuprof wrote (API calls and tasks, $((task_recs + api_recs)) records)" \
	--metric "bytes on disk per record" --unit "bytes/record" --npuprof "$np_all" \
	--baseline "raw record=$raw_all" --ratio "raw record=$(ratio "$np_all" "$raw_all")" \
	--goal "<= 3 bytes/record" --met "$(python3 -c 'import sys; print("yes" if float(sys.argv[1]) <= 3 else "no")' "$np_all")" \
	--note "ftrace and perf do not see the runtime API calls (uprobes), so no baseline here"
rm -rf "$work"
rmmod npuprof
rmmod npusim
exit 0
