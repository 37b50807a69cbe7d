#!/bin/sh
# Runs inside the test VM: the defined outcome of each thing that can go
# wrong around a capture.  Prints "ok"/"FAIL" per case; exit 1 on any FAIL.
#   tests/e2e/guest/outcomes.sh OUT
set -u
out=$1
app=build/bin/ai_task
msprof=build/bin/msprof
bad=0

ok() { echo "ok   $1"; }
fail() { echo "FAIL $1"; bad=1; }
# has FILE TEXT: FILE contains TEXT
has() { grep -qF -- "$2" "$1"; }
# show FILE...: a failed case's logs, without the app's long JSON report
show() { grep -hv '^{' "$@"; }

# 0. neither npuprof.ko nor the NPU driver loaded: the BPF path says once
#    that no device exists, so no device task is captured, and still starts.
printf 'start\nstop\nquit\n' | $msprof --dynamic=on --output="$out/nodrv" $app --steps=5 --quiet \
	>"$out/nodrv.log" 2>&1
rc=$?
if [ "$(grep -c "no NPU device (/dev/davinci<N>) found: no device task is captured" "$out/nodrv.log")" = 1 ] &&
	has "$out/nodrv.log" "capturing device tasks through BPF"; then
	ok "no driver, no module: no device named once (rc=$rc)"
else
	fail "no driver, no module (rc=$rc)"; show "$out/nodrv.log"
fi

# 1. npuprof.ko not loaded: msprof says so and captures device tasks
#    through BPF instead (exit 0, device task events saved).
insmod build/kmod/npusim.ko
{ sleep 1; echo start; sleep 2; echo stop; echo quit; } |
	$msprof --dynamic=on --output="$out/nomod" $app --steps=150 --step-gap-ms=20 --quiet \
		>"$out/nomod.log" 2>&1
rc=$?
tasks=$(sed -n 's/.*PROF data saved in [^:]*: [0-9]* api records, \([0-9]*\) device task events.*/\1/p' \
	"$out/nomod.log" | head -n 1)
if [ $rc = 0 ] &&
	has "$out/nomod.log" "npuprof.ko not loaded (no /dev/npuprof); capturing device tasks through BPF" &&
	[ -n "$tasks" ] && [ "$tasks" -gt 0 ]; then
	ok "no module: device tasks through BPF, said so, $tasks task events saved, exit 0"
else
	fail "no module, BPF path (rc=$rc, tasks=$tasks)"; show "$out/nomod.log"
fi

# 1b. npuprof.ko not loaded and NPUPROF_TASK_CAPTURE=kmod (the BPF path
#     refused): neither path works: a clear error, exit 1, no --output
#     created, the app runs on to its end.
printf 'start\nstop\n' | NPUPROF_TASK_CAPTURE=kmod $msprof --dynamic=on --output="$out/nomodk" $app \
	--steps=60 --step-gap-ms=20 --quiet >"$out/nomodk.log" 2>&1
rc=$?
if [ $rc = 1 ] && has "$out/nomodk.log" "npuprof.ko is not loaded: load it with insmod" &&
	! has "$out/nomodk.log" "through BPF" && [ ! -e "$out/nomodk" ] && has "$out/nomodk.log" '"steps"'; then
	ok "no module, BPF not allowed: named, exit 1, nothing created, app finished"
else
	fail "no module with NPUPROF_TASK_CAPTURE=kmod (rc=$rc)"; show "$out/nomodk.log"
fi
insmod build/kmod/npuprof.ko

# 1c. npuprof.ko loaded and NPUPROF_TASK_CAPTURE=bpf: BPF all the same,
#     the reason says it was asked for; task events saved, exit 0.
{ sleep 1; echo start; sleep 2; echo stop; echo quit; } |
	NPUPROF_TASK_CAPTURE=bpf $msprof --dynamic=on --output="$out/forcebpf" $app --steps=150 \
		--step-gap-ms=20 --quiet >"$out/forcebpf.log" 2>&1
rc=$?
tasks=$(sed -n 's/.*PROF data saved in [^:]*: [0-9]* api records, \([0-9]*\) device task events.*/\1/p' \
	"$out/forcebpf.log" | head -n 1)
if [ $rc = 0 ] && has "$out/forcebpf.log" "NPUPROF_TASK_CAPTURE=bpf; capturing device tasks through BPF" &&
	[ -n "$tasks" ] && [ "$tasks" -gt 0 ]; then
	ok "module loaded, NPUPROF_TASK_CAPTURE=bpf: through BPF, $tasks task events saved, exit 0"
else
	fail "NPUPROF_TASK_CAPTURE=bpf with the module (rc=$rc, tasks=$tasks)"; show "$out/forcebpf.log"
fi

# 2. attach to a pid that has no dynamic profiling socket: with
#    --require-server=on a usage error; by default it would be captured
#    from the kernel side, but sleep has no ACL runtime to probe.
sleep 30 &
victim=$!
$msprof --dynamic=on --require-server=on --pid=$victim --output="$out/nosock" >"$out/nosock.log" 2>&1
rc=$?
if [ $rc = 2 ] && has "$out/nosock.log" "no dynamic profiling socket" && [ ! -e "$out/nosock" ]; then
	ok "no socket, --require-server=on: named, exit 2 (usage), nothing created"
else
	fail "no socket, --require-server=on (rc=$rc)"; show "$out/nosock.log"
fi
$msprof --dynamic=on --pid=$victim --output="$out/nosock" </dev/null >"$out/noacl.log" 2>&1
rc=$?
kill $victim
if [ $rc = 1 ] && has "$out/noacl.log" "cannot profile pid $victim: process $victim has no libascendcl.so mapped" &&
	[ ! -e "$out/nosock" ]; then
	ok "no socket, no ACL runtime: named, exit 1, nothing created"
else
	fail "no socket, no ACL runtime (rc=$rc)"; show "$out/noacl.log"
fi

# 2b. attach to a wrapper script instead of the app it started: refused,
#     naming the child that runs the ACL runtime.
sh -c "$app --steps=100000 --quiet; true" >/dev/null 2>&1 &
wrapper=$!
child=
while [ -z "$child" ]; do
	for k in $(cat /proc/$wrapper/task/$wrapper/children 2>/dev/null); do
		grep -q libascendcl /proc/$k/maps 2>/dev/null && child=$k
	done
	sleep 0.1
done
$msprof --dynamic=on --pid=$wrapper --output="$out/wrapper" </dev/null >"$out/wrapper.log" 2>&1
rc=$?
kill $child $wrapper 2>/dev/null
if [ $rc = 1 ] && has "$out/wrapper.log" "pid $wrapper starts processes that run the ACL runtime: attach to them (--pid=$child)"; then
	ok "attach to a wrapper script: refused, its child named, exit 1"
else
	fail "attach to a wrapper script (rc=$rc)"; show "$out/wrapper.log"
fi

# 3. stop before start, start twice, quit while running: warnings, one
#    PROF dir, saved at quit.  The app runs 8 s, so "quit" (at 3 s) finds
#    it running even on a loaded host.
{ sleep 2; echo stop; echo start; echo start; sleep 1; echo quit; } |
	$msprof --dynamic=on --output="$out/cmds" $app --steps=400 --step-gap-ms=20 --quiet \
		>"$out/cmds.log" 2>&1
rc=$?
n=$(ls -d "$out"/cmds/PROF_* 2>/dev/null | wc -l)
if [ $rc = 0 ] && has "$out/cmds.log" "has not started" && has "$out/cmds.log" "already started" &&
	has "$out/cmds.log" "PROF data saved in" && has "$out/cmds.log" "quit success" && [ "$n" = 1 ]; then
	ok "stop before start, start twice, quit while running: $n PROF dir"
else
	fail "command sequence (rc=$rc, $n PROF dirs)"; show "$out/cmds.log"
fi

# 4. the app exits while capturing: the data so far is saved and msprof says so.
{ sleep 1; echo start; sleep 10; echo stop; } |
	$msprof --dynamic=on --output="$out/exit" $app --steps=150 --step-gap-ms=20 --quiet \
		>"$out/exit.log" 2>&1
rc=$?
prof=$(ls -d "$out"/exit/PROF_* 2>/dev/null | head -n 1)
if [ $rc = 0 ] && has "$out/exit.log" "has exited" && has "$out/exit.log" "saving the data collected so far" &&
	[ -n "$prof" ] && [ -f "$prof/host/end_info" ] && [ -f "$prof/host/info.json" ]; then
	ok "app exits during capture: saved in $(basename "$prof")"
else
	fail "app exit during capture (rc=$rc)"; show "$out/exit.log"
fi

# 5. unloading npuprof.ko while it is capturing is refused (in use), and
#    the capture goes on to a normal stop.
{ sleep 2; echo start; sleep 1; rmmod npuprof >"$out/rmmod.log" 2>&1; echo "rmmod=$?" >>"$out/rmmod.log"; \
  sleep 1; echo stop; echo quit; } |
	$msprof --dynamic=on --output="$out/rmmod" $app --steps=200 --step-gap-ms=20 --quiet \
		>"$out/rmmod_msprof.log" 2>&1
rc=$?
if [ $rc = 0 ] && has "$out/rmmod.log" "rmmod=1" && has "$out/rmmod_msprof.log" "stop success" &&
	lsmod | grep -q '^npuprof '; then
	ok "rmmod npuprof during capture refused; capture stopped normally"
else
	fail "rmmod during capture (rc=$rc)"; show "$out/rmmod.log" "$out/rmmod_msprof.log"
fi
# 6. not root: msprof says it needs root, exits 1 and creates nothing; the
#    app (an ordinary user may run it) goes on to its end.
mkdir -p /tmp/nobody && chmod 0777 /tmp/nobody
printf 'start\nstop\n' | HOME=/tmp/nobody setpriv --reuid=65534 --regid=65534 --clear-groups \
	$msprof --dynamic=on --output=/tmp/nobody/out $app --steps=60 --step-gap-ms=20 --quiet \
	>"$out/nobody.log" 2>&1
rc=$?
if [ $rc = 1 ] && has "$out/nobody.log" "needs root" && [ ! -e /tmp/nobody/out ] &&
	has "$out/nobody.log" '"steps"'; then
	ok "not root: named, exit 1, nothing created, app finished"
else
	fail "not root (rc=$rc)"; show "$out/nobody.log"
fi
# 7. app mode, the job ends before --delay: nothing collected, said so,
#    exit 1, no PROF dir.
$msprof --output="$out/early" --delay=30 $app --steps=5 --step-gap-ms=10 --quiet \
	>"$out/early.log" 2>&1 </dev/null
rc=$?
if [ $rc = 1 ] && has "$out/early.log" "Before delay time, the app process has exited" &&
	[ -z "$(ls -d "$out"/early/PROF_* 2>/dev/null)" ]; then
	ok "app mode, job ends before --delay: named, exit 1, no PROF dir"
else
	fail "app mode before delay (rc=$rc)"; show "$out/early.log"
fi

# 8. app mode, the launcher script returns at once and leaves its rank
#    running: msprof waits for the whole job (it saves after the rank
#    printed its report at its end) and keeps the rank's data.  Calls the
#    rank was inside when the uprobes went on have no record: they count
#    as lost, and msprof then says the data is incomplete and exits 3.
$msprof --output="$out/orphan" sh -c "$app --steps=60 --step-gap-ms=20 --quiet & exit 0" \
	>"$out/orphan.log" 2>&1 </dev/null
rc=$?
prof=$(ls -d "$out"/orphan/PROF_* 2>/dev/null | head -n 1)
# the rank's own report (at its end) comes before msprof's save
app_line=$(grep -n '"steps"' "$out/orphan.log" | head -n 1 | cut -d: -f1)
saved_line=$(grep -n "PROF data saved in" "$out/orphan.log" | head -n 1 | cut -d: -f1)
if { [ $rc = 0 ] || { [ $rc = 3 ] && has "$out/orphan.log" "is incomplete ("; }; } &&
	[ -n "$prof" ] && [ -n "$app_line" ] && [ -n "$saved_line" ] &&
	[ "$app_line" -lt "$saved_line" ]; then
	ok "app mode, launcher exits first: waited for its rank, saved in $(basename "$prof")"
else
	fail "app mode with an early-exiting launcher (rc=$rc)"; show "$out/orphan.log"
fi

# 9. launch mode, one process of the job has a server that never answers:
#    msprof gives it up after a bounded number of tries (named once), and
#    the prompt still serves the real rank (start/stop on time, data saved).
start_s=$(date +%s)
{ sleep 4; echo start; sleep 16; echo stop; echo quit; } |
	$msprof --dynamic=on --output="$out/silent" sh -c \
	"python3 tests/e2e/guest/silent_server.py 40 & exec $app --steps=1200 --step-gap-ms=20 --quiet" \
	>"$out/silent.log" 2>&1
rc=$?
secs=$(($(date +%s) - start_s))
n=$(ls -d "$out"/silent/PROF_* 2>/dev/null | wc -l)
if [ $rc = 0 ] && has "$out/silent.log" "does not answer: not controlled" &&
	[ "$(grep -c 'does not answer: not controlled' "$out/silent.log")" = 1 ] &&
	has "$out/silent.log" "stop success" && [ "$n" -ge 1 ]; then
	ok "launch mode, a silent server in the job: given up once, real rank captured ($n PROF dirs, ${secs}s)"
else
	fail "launch mode with a silent server (rc=$rc, $n PROF dirs, ${secs}s)"; show "$out/silent.log"
fi

# 10. --output where nothing can be created (under /proc): named before
#     anything is attached or launched, exit 1.
printf 'start\nstop\n' | $msprof --dynamic=on --output=/proc/npuprof/out $app --steps=60 --step-gap-ms=20 \
	--quiet >"$out/procout.log" 2>&1
rc=$?
if [ $rc = 1 ] && has "$out/procout.log" "--output=/proc/npuprof/out: cannot create /proc/npuprof: No such file or directory; nothing was started" &&
	! has "$out/procout.log" "is ready" && ! has "$out/procout.log" '"steps"'; then
	ok "--output under /proc: named before anything ran, exit 1"
else
	fail "--output under /proc (rc=$rc)"; show "$out/procout.log"
fi

# fifo_msprof FIFO LOG MSPROF_ARGS...: msprof in the background ($mp),
# reading its commands from FIFO (made here: the guest's /tmp, as 9p has
# no fifos) through fd 4, its output in LOG; "start" is sent 2 s later.
# The caller ends it with exec 4>&- and removes $fifo.
fifo_msprof() {
	fifo=$1
	log=$2
	shift 2
	mkfifo "$fifo"
	$msprof "$@" <"$fifo" >"$log" 2>&1 &
	mp=$!
	exec 4>"$fifo"
	sleep 2
	echo start >&4
}

# on_both_writers FN: FN io_uring, then FN pwrite, each with NPUPROF_WRITER
# set to that writer.
on_both_writers() {
	for w in io_uring pwrite; do
		NPUPROF_WRITER=$w
		export NPUPROF_WRITER
		"$1" $w
		unset NPUPROF_WRITER
	done
}

# wrote_with W LOG [INFO_JSON]: the capture ran on writer W: msprof's LOG
# says the fallback was forced exactly when W is pwrite, and INFO_JSON
# (when given) names W.
wrote_with() {
	if [ "$1" = pwrite ]; then
		has "$2" "NPUPROF_WRITER=pwrite: writing with the fallback writer" || return 1
	else
		! has "$2" "fallback writer" || return 1
	fi
	[ -z "${3:-}" ] || grep -q "\"writer\": \"$1\"" "$3"
}

# 11. a disk that fills up during the capture (a 96 KiB tmpfs): the data
#     that fit is saved, the write error named, exit 3 (incomplete).  On
#     both writers (io_uring and the pwrite fallback): the same outcome.
case_disk_full() {
	w=$1
	mkdir -p /tmp/full && mount -t tmpfs -o size=96k tmpfs /tmp/full
	{ sleep 2; echo start; sleep 6; echo stop; echo quit; } |
		$msprof --dynamic=on --output=/tmp/full $app --steps=600 --step-gap-ms=5 --streams=4 --quiet \
			>"$out/full.$w.log" 2>&1
	rc=$?
	if [ $rc = 3 ] && has "$out/full.$w.log" "No space left on device" && has "$out/full.$w.log" "PROF data saved in" &&
		wrote_with $w "$out/full.$w.log" "$(ls -d /tmp/full/PROF_* | head -n 1)/host/info.json"; then
		ok "disk full during capture ($w writer): named, data so far saved, exit 3"
	else
		fail "disk full ($w writer, rc=$rc)"; show "$out/full.$w.log"
	fi
	umount /tmp/full
}
on_both_writers case_disk_full

# stopper FIFO SECONDS: a command writer that says start, then stop only
# after SECONDS (or when $out/go appears); its pid in $writer.  FIFOs live
# in the guest's /tmp (9p cannot hold them).
stopper() {
	rm -f "$1" "$out/go" && mkfifo "$1"
	(
		exec 3>"$1"
		echo start >&3
		i=0
		while [ $i -lt $(($2 * 10)) ] && [ ! -e "$out/go" ]; do sleep 0.1 3>&-; i=$((i + 1)); done
		echo stop >&3
		echo quit >&3
	) &
	writer=$!
}

# wait_for FILE TEXT: until FILE says TEXT (at most 60 s).
wait_for() {
	i=0
	while ! has "$1" "$2" && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
}

# 12. attach mode, the only process is killed mid-capture while "stop" is
#     two minutes away: msprof saves, says so and exits at once (status 0),
#     without waiting for its input to end.
PROFILING_MODE=dynamic $app --steps=3000 --step-gap-ms=20 --quiet >"$out/dead.app" 2>&1 &
victim=$!
while [ ! -S "$HOME/dynamic_profiling_socket_$victim" ]; do sleep 0.1; done
stopper /tmp/dead.fifo 120
$msprof --dynamic=on --pid=$victim --output="$out/dead" </tmp/dead.fifo >"$out/dead.log" 2>&1 &
mpid=$!
wait_for "$out/dead.log" "start success"
sleep 1
kill -9 $victim
date +%s >"$out/dead.killed"
wait $mpid
rc=$?
ended=$(date +%s)
kill -0 $writer 2>/dev/null && waiting=1 || waiting=0
kill $writer 2>/dev/null
wait $victim 2>/dev/null
prof=$(ls -d "$out"/dead/PROF_* 2>/dev/null | head -n 1)
secs=$((ended - $(cat "$out/dead.killed" 2>/dev/null || echo 0)))
if [ $rc = 0 ] && [ $waiting = 1 ] && has "$out/dead.log" "server process $victim has exited" &&
	[ -n "$prof" ] && [ -f "$prof/host/end_info" ] && [ -f "$prof/host/info.json" ]; then
	ok "attach, the only process killed: saved and exited ${secs}s after the kill, before stop"
else
	fail "attach, process killed (rc=$rc, still waiting for stop=$waiting, ${secs}s)"; show "$out/dead.log"
fi

# 13. launch mode, the app is killed mid-capture, "stop" two minutes away:
#     msprof saves, exits at once with the app's status (128 + 9).
stopper /tmp/lkill.fifo 120
$msprof --dynamic=on --output="$out/lkill" sh -c 'echo $$ >'"$out/lkill.pid"'; exec '"$app"' --steps=3000 --step-gap-ms=20 --quiet' \
	</tmp/lkill.fifo >"$out/lkill.log" 2>&1 &
mpid=$!
wait_for "$out/lkill.log" "start success"
sleep 1
kill -9 "$(cat "$out/lkill.pid")"
wait $mpid
rc=$?
kill -0 $writer 2>/dev/null && waiting=1 || waiting=0
kill $writer 2>/dev/null
prof=$(ls -d "$out"/lkill/PROF_* 2>/dev/null | head -n 1)
if [ $rc = 137 ] && [ $waiting = 1 ] && [ -n "$prof" ] && [ -f "$prof/host/info.json" ]; then
	ok "launch, the app killed: saved, exit 137 before stop"
else
	fail "launch, app killed (rc=$rc, still waiting for stop=$waiting)"; show "$out/lkill.log"
fi

# 14. symlinks planted in a PROF dir where its control files go (as a user
#     could if it were theirs): nothing is written through them, msprof
#     names the file, and exits 3.  (Planted PROF_XXX names, device_N dirs
#     and slices: tests/unit/test_prof_fs_symlinks.c.)
printf 'victim\n' >/tmp/victim
stopper /tmp/sym.fifo 60
$msprof --dynamic=on --output="$out/sym" $app --steps=400 --step-gap-ms=20 --quiet \
	</tmp/sym.fifo >"$out/sym.log" 2>&1 &
mpid=$!
i=0
while [ -z "$(ls -d "$out"/sym/PROF_*/host 2>/dev/null)" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
prof=$(ls -d "$out"/sym/PROF_* 2>/dev/null | head -n 1)
[ -n "$prof" ] && ln -s /tmp/victim "$prof/host/info.json" && ln -s /tmp/victim "$prof/host/end_info"
touch "$out/go"
wait $mpid
rc=$?
if [ $rc = 3 ] && [ "$(cat /tmp/victim)" = victim ] && [ -L "$prof/host/info.json" ] &&
	has "$out/sym.log" "could not write host/end_info host/info.json in $prof: File exists"; then
	ok "symlinks planted at end_info and info.json: not followed, named, exit 3"
else
	fail "planted symlinks (rc=$rc, victim: $(cat /tmp/victim))"; show "$out/sym.log"
fi

# count_api PROF: API records in the slices (what npuprof-dump reads)
count_api() {
	build/bin/npuprof-dump "$1" 2>/dev/null |
		python3 -c 'import json,sys; print(sum(json.loads(l)["type"] == "api" for l in sys.stdin if l.strip()))'
}
# exported_calls PROF: API calls in the exported timeline (X events of "CANN")
exported_calls() {
	python3 -c 'import glob,json,sys
ev = json.load(open(glob.glob(sys.argv[1] + "/mindstudio_profiler_output/msprof_*.json")[0]))
cann = {e["pid"] for e in ev if e.get("ph") == "M" and e.get("args", {}).get("name") == "CANN"}
print(sum(e.get("ph") == "X" and e["pid"] in cann for e in ev))' "$1"
}

# 15. msprof killed with SIGKILL mid-capture: its PROF dir has start_info
#     only and slices without .done.  The export exports every complete
#     frame (as many API calls as the slices hold), names each reason the
#     data is incomplete and exits 3.  Both writers.
case_killed() {
	w=$1
	fifo_msprof /tmp/killed.in "$out/killed.$w.log" --dynamic=on --output="$out/killed.$w" \
		$app --steps=250 --step-gap-ms=20 --quiet
	i=0
	while [ $i -lt 100 ] && [ -z "$(find "$out/killed.$w" -name 'npuprof.api.slice_0' -size +0 2>/dev/null)" ]; do
		sleep 0.1; i=$((i + 1))
	done
	sleep 1
	kill -9 $mp
	wait $mp 2>/dev/null
	exec 4>&-
	rm -f $fifo
	prof=$(ls -d "$out"/killed.$w/PROF_* 2>/dev/null | head -n 1)
	# the app (its pid ends the PROF dir's name) runs on to its end
	apid=$(basename "${prof:-x}" | sed -n 's/.*_0*\([0-9][0-9]*\)[A-R]\{8\}$/\1/p')
	i=0
	while [ -n "$apid" ] && kill -0 "$apid" 2>/dev/null && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
	$msprof --export=on --output="$prof" >"$out/killed_export.$w.log" 2>&1
	rc=$?
	dumped=$(count_api "$prof")
	exported=$(exported_calls "$prof" 2>/dev/null)
	name=$(basename "${prof:-x}")
	if [ -n "$prof" ] && [ $rc = 3 ] &&
		has "$out/killed_export.$w.log" "$name is incomplete: collector stopped abruptly (or could not write it): no end_info" &&
		has "$out/killed_export.$w.log" "$name is incomplete: no info.json: the records lost and the device clock samples are unknown" &&
		has "$out/killed_export.$w.log" "$name is incomplete: slice host/data/npuprof.api.slice_0 has no .done file: it was never closed" &&
		has "$out/killed_export.$w.log" "Data incomplete, " && wrote_with $w "$out/killed.$w.log" &&
		[ -n "$dumped" ] && [ "$dumped" -gt 0 ] && [ "$dumped" = "$exported" ]; then
		ok "msprof killed mid-capture ($w writer): export exit 3, reasons named, $exported API calls exported"
	else
		fail "export after kill -9 ($w writer, rc=$rc, $dumped API records, $exported exported)"
		show "$out/killed.$w.log" "$out/killed_export.$w.log"
	fi
}
on_both_writers case_killed

# 16. --output on a full disk (a 96 KiB tmpfs), app mode with the whole job
#     in the window and API capture only: every API call the app made is in
#     the files or counted lost.  The stop line, --result and the export
#     (after the tmpfs grew) all give lost = produced - written exactly (in
#     --result also summed over its CPUs), and both msprof runs exit 3.  Both writers.
case_full_app() {
	w=$1
	mkdir -p /tmp/full && mount -t tmpfs -o size=96k npuprof_full /tmp/full
	$msprof --output=/tmp/full --result="$out/full.result.$w" --task-time=off $app --steps=1500 \
		--step-gap-ms=0 --bytes=4096 --quiet >"$out/full.log.$w" 2>&1 </dev/null
	rc=$?
	produced=$(grep '^{' "$out/full.log.$w" | head -n 1 | python3 -c 'import json,sys; print(sum(json.load(sys.stdin)["api"].values()))')
	mount -o remount,size=64m /tmp/full
	prof=$(ls -d /tmp/full/PROF_* 2>/dev/null | head -n 1)
	written=$(count_api "$prof")
	lost=$((${produced:-0} - ${written:-0}))
	saved=$(grep -o "PROF data saved in [^:]*: [0-9]* api records, 0 device task events, [0-9]* records lost" "$out/full.log.$w" | head -n 1)
	# --result: the total, and the same total over its CPUs
	result_lost=$(python3 -c 'import json,sys
l = json.loads(open(sys.argv[1]).readline())["lost"]
print(l["total"] if l["total"] == sum(c["total"] for c in l["byCpu"]) else "byCpu %s" % l["byCpu"])' \
		"$out/full.result.$w" 2>/dev/null)
	$msprof --export=on --output="$prof" >"$out/full_export.log.$w" 2>&1
	rc2=$?
	if [ $rc = 3 ] && [ $rc2 = 3 ] && [ -n "$produced" ] && [ "$lost" -gt 0 ] &&
		[ "$saved" = "PROF data saved in $prof: $written api records, 0 device task events, $lost records lost" ] &&
		[ "$result_lost" = "$lost" ] && has "$out/full.log.$w" "No space left on device" &&
		has "$out/full_export.log.$w" "  Records lost: $lost (ring full: " &&
		has "$out/full_export.log.$w" "is incomplete: $lost records lost (ring full: " &&
		has "$out/full_export.log.$w" "is incomplete: a write failed during the capture: No space left on device" &&
		wrote_with $w "$out/full.log.$w" "$prof/host/info.json"; then
		ok "full disk ($w writer): $produced API calls, $written written, $lost lost in the stop line, --result and export; exit 3"
	else
		fail "full disk ($w writer, rc=$rc, export rc=$rc2, produced $produced, written $written, --result lost $result_lost)"
		echo "  stop line: $saved"; show "$out/full.log.$w" "$out/full_export.log.$w"
	fi
	umount /tmp/full
}
on_both_writers case_full_app

# 17. pid reuse: an app attached without a server is killed, and a new
#     process is given its pid (ns_last_pid) before "start": msprof never
#     captures the newcomer (it says the pid now belongs to another
#     process, or that the app exited when it looked in between), no PROF
#     dir, the --result line says why, exit 1 (nothing captured).
$app --device=0 --steps=100000 --quiet >"$out/reuse.app" 2>&1 &
victim=$!
while ! grep -q libascendcl "/proc/$victim/maps" 2>/dev/null; do sleep 0.1; done
mkdir -p "$out/reuse"
{
	sleep 2
	kill -9 $victim
	wait $victim 2>/dev/null
	python3 - $victim "$app" >"$out/reuse.newcomer" 2>&1 <<'PY'
import os, sys
target, app = int(sys.argv[1]), sys.argv[2]
for attempt in range(5000):
    with open("/proc/sys/kernel/ns_last_pid", "w") as f:
        f.write(str(target - 1))
    pid = os.fork()
    if pid == 0:
        if os.getpid() == target:
            os.execv(app, [app, "--device=0", "--steps=100000", "--step-gap-ms=5", "--quiet"])
        os._exit(0)
    if pid == target:
        print("newcomer", pid, "after", attempt + 1, "forks")
        sys.exit(0)
    os.waitpid(pid, 0)
print("no newcomer")
PY
	echo start
	sleep 2
	echo stop
	echo quit
} | $msprof --dynamic=on --pid=$victim --output="$out/reuse" --result="$out/reuse.result" >"$out/reuse.log" 2>&1
rc=$?
kill -9 $victim 2>/dev/null
n=$(ls -d "$out"/reuse/PROF_* 2>/dev/null | wc -l)
if [ $rc = 1 ] && [ "$n" = 0 ] && has "$out/reuse.newcomer" "newcomer $victim" &&
	{ has "$out/reuse.log" "pid $victim now belongs to another process" || has "$out/reuse.log" "process $victim has exited"; } &&
	has "$out/reuse.result" '"prof_dir":null' && has "$out/reuse.result" "exited before any capture window"; then
	ok "pid reused before start: newcomer never captured, no PROF dir, exit 1, --result says why"
else
	fail "pid reuse (rc=$rc, $n PROF dirs)"; show "$out/reuse.log" "$out/reuse.newcomer" "$out/reuse.result"
fi

# 18. SIGTERM to msprof in launch mode mid-capture (timeout(1), a job
#     scheduler): the window is saved, the signal is passed on to the
#     launched app (a process group of its own: the sender did not reach
#     it) and msprof ends with the app's status, 143, within seconds (it
#     used to wait for the job's natural end: here 500 s).
fifo_msprof /tmp/term.in "$out/term.log" --dynamic=on --output="$out/term" $app --steps=100000 \
	--step-gap-ms=5 --quiet
i=0
while [ $i -lt 200 ] && ! has "$out/term.log" "start success"; do sleep 0.1; i=$((i + 1)); done
sleep 1
kill -TERM $mp
i=0
while [ $i -lt 300 ] && kill -0 $mp 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
alive=0
kill -0 $mp 2>/dev/null && alive=1
[ $alive = 0 ] || { pkill -KILL -f "ai_task --steps=100000 --step-gap-ms=5"; kill -9 $mp; }
wait $mp
rc=$?
exec 4>&-
rm -f $fifo
n=$(ls -d "$out"/term/PROF_* 2>/dev/null | wc -l)
if [ $alive = 0 ] && [ $rc = 143 ] && [ "$n" = 1 ] && has "$out/term.log" "PROF data saved in" &&
	has "$out/term.log" "Terminated: passing it on to the launched app (pid "; then
	ok "SIGTERM in launch mode: saved, passed on to the app, exit 143 at once"
else
	fail "SIGTERM in launch mode (msprof still running: $alive, rc=$rc, $n PROF dirs)"; show "$out/term.log"
fi

rmmod npuprof && rmmod npusim || { fail "modules would not unload after the captures"; }
exit $bad
