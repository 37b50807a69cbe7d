#!/usr/bin/env bash
# The realistic simulated driver, ascendsim.ko (the real Ascend driver's
# interfaces and nothing more: trs tracepoints behind procfs switches that
# see a task queued, never run; libascend_hal.so's profiling channel 50
# with the device's begin/end log), SQs in all three submit modes
# (sq_mode=mixed: kernel-forwarded in the caller's context, forwarded later
# by a kernel worker with no pid, direct with no kernel event), the log
# packing ids as the scheduler does since late 2023 (log_id_packing=bit12),
# the log device-wide (devlog_scope=device).  One VM boot:
#  - attach mode, 4 ranks, one msprof --pid for all, ranks 2 and 3 without
#    a dynamic-profiling server: each rank's PROF dir holds every API call
#    and device task of each step in the window exactly, each task with its
#    submit (the halSqTaskSend uprobe), begin and end (the device log)
#    joined to the call that launched it; kernels launched by a handle made
#    before msprof attached carry no name (E2E_UNNAMED_LAUNCHES);
#  - app mode, 4 ranks (E2E_ALSO), the same exactly, names included;
#  - launch mode (E2E_ALSO), the same.
#  - msprof --check=on (E2E_ALSO): exit 0, the trs tracepoints present, the
#    switches off, the SQs by submit mode, every device's log opens; then,
#    while another process holds device 0's log, exit 1 and that said.
# In each capture: msprof said once where device 0's begin/end come from, info.json
# "taskTiming" says the device log was read with nothing lost, missing or
# left unattributed, the window's queue events (trs_chan:sqe) of kio and
# uio_t SQs were recorded, and the trace_enable switches are back off.
source "$(dirname "$0")/lib.bash"
export E2E_DRIVER=ascendsim E2E_DRIVER_ARGS="sq_mode=mixed log_id_packing=bit12"

# timing_ok DIR: the device log's outcome in msprof's output and info.json.
timing_ok() {
	local dir=$1
	[[ $(grep -c "task begin/end from the device log (channel 50)" "$dir/msprof.log" "$dir/msprof.err" |
		awk -F: '{ n += $2 } END { print n }') == 1 ]] ||
		{ echo "$dir: msprof did not say once where begin/end come from"; return 1; }
	python3 - "$dir" <<-'PY' || return 1
		import glob, json, sys
		infos = glob.glob(sys.argv[1] + "/PROF_*/host/info.json")
		assert infos, "no info.json"
		queued = 0
		for f in infos:
		    d = json.load(open(f))
		    held = [t for t in d["taskTiming"] if t["beginEndOutcome"] == "deviceLog"]
		    assert held, (f, d["taskTiming"])
		    for t in held:
		        log = t["deviceLog"]
		        assert t["submit"] == "halSqTaskSend uprobe", (f, t)
		        assert log["begins"] > 0 and log["ends"] > 0, (f, t)
		        assert log["countGaps"] == log["ringDrops"] == log["unattributed"] == 0, (f, t)
		    assert d["driver"]["backend"] == "ascend", (f, d["driver"])
		for f in glob.glob(sys.argv[1] + "/records/*.jsonl"):
		    queued += sum(1 for l in open(f) if json.loads(l).get("event") == "queued")
		assert queued > 0, "no queue event (trs_chan:sqe) recorded"
		print(f"ok: {len(infos)} PROF dirs read the device log; {queued} queue events")
	PY
}

# check_report: msprof --check=on's two reports.
check_report() {
	local dir=$out/check line
	echo "--- msprof --check=on"
	cat "$dir/check.txt"
	[[ $(cat "$dir/check.rc") == 0 ]] || { echo "--check exited $(cat "$dir/check.rc"), want 0"; return 1; }
	for line in "tracepoint trs_chan/sqe: present" "tracepoint trs_core/logic_cqe: present" \
		"switch /proc/trs_chan/dev0-ts0/trace_enable: 0 (root may write it: yes)" \
		"driver backend: ascend" "device 3 log (channel 50): device log (channel 50)" \
		"task begin/end: can be captured on every device"; do
		grep -qxF -- "$line" "$dir/check.txt" || { echo "check.txt lacks: $line"; return 1; }
	done
	grep -qE '^device 0 submit queues now: kio [0-9]+, uio_t [0-9]+, uio_d [0-9]+$' "$dir/check.txt" ||
		{ echo "check.txt lacks device 0's submit queues"; return 1; }
	echo "--- msprof --check=on while pid $(cat "$dir/holder.pid") holds device 0's log"
	cat "$dir/check-held.txt"
	[[ $(cat "$dir/check-held.rc") == 1 ]] ||
		{ echo "--check exited $(cat "$dir/check-held.rc"), want 1"; return 1; }
	grep -qE "^device 0 log \(channel 50\): none: another process collects device 0's log" "$dir/check-held.txt" &&
		grep -qxF "device 1 log (channel 50): device log (channel 50)" "$dir/check-held.txt" ||
		{ echo "check-held.txt does not say who holds device 0's log"; return 1; }
	echo "ok: msprof --check=on"
}

also() {
	local top=$out
	out=$top/app-ranks
	echo "--- app mode, 4 ranks"
	cat "$out/msprof.log" "$out/msprof.err"
	[[ $(cat "$out/msprof.rc") == 0 ]] || { echo "app mode exited $(cat "$out/msprof.rc")"; return 1; }
	E2E_PROCS=4 E2E_UNNAMED_LAUNCHES=0 e2e_check && timing_ok "$out" || return 1
	out=$top/launch
	echo "--- launch mode"
	cat "$out/msprof.log" "$out/msprof.err"
	E2E_PROCS=1 E2E_UNNAMED_LAUNCHES=0 e2e_check && timing_ok "$out" || return 1
	out=$top
}

export E2E_PROCS=4 E2E_NOSERVER="2 3" E2E_WINDOW=5 E2E_UNNAMED_LAUNCHES=1 E2E_ALSO="app-ranks launch check"
e2e_run attach-ranks --steps=300 --step-gap-ms=30 && timing_ok "$out" && check_report && also || exit 1
echo "ok: ascendsim in attach, app and launch mode"
