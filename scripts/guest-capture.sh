#!/bin/sh
# Runs inside the test VM (scripts/vm-run.sh): load the modules, capture the
# sample AI task with msprof over a scripted start/stop window, and leave
# everything in OUT for the host-side checks.
#
#   scripts/guest-capture.sh MODE OUT [APP ARGS...]
# MODE: launch (msprof starts the app), attach (msprof --pid), or, for a job
# of E2E_RANKS processes (default 4; rank r on device r, driver devices=N):
#   attach-ranks  one msprof --pid=P1,...,PN for all of them
#   launch-ranks  msprof launches build/bin/run_ranks.sh N (a wrapper script
#                 that starts the ranks with &) and follows the job
#   app-ranks     app mode, no prompt and stdin closed: msprof
#                 --delay=E2E_BEFORE (none when 0) --duration=E2E_WINDOW
#                 ai_task --ranks=N --spawn=exec
#   sessions      one msprof per rank, all at once, into the same OUT
#   kill-rank     as attach-ranks, and the last rank is killed mid-window
#   second        one msprof on rank 0, then a second one on the same pid:
#                 refused at once (its output in OUT/second.log, status in
#                 OUT/second.rc); the first capture goes on
# Timing knobs (seconds, environment): E2E_BEFORE (before "start"),
# E2E_WINDOW (between "start" and "stop").  E2E_APP: the program launch
# mode starts instead of build/bin/ai_task.  E2E_DRIVER: the simulated NPU
# driver loaded, npusim (default) or npustub (other tracepoints, no clock
# ioctl); the two are never loaded together.  E2E_DRIVER_ARGS: more
# parameters for its insmod (task_id_bits=8: task ids reused every 256).
# E2E_MSPROF_ARGS: more msprof options for launch and attach mode
# (--runtime-api=on).  E2E_KMOD=0: npuprof.ko is not loaded, so msprof
# captures device tasks through BPF.
set -eu
mode=$1
out=$2
shift 2
before=${E2E_BEFORE:-3}
window=${E2E_WINDOW:-4}
ranks=${E2E_RANKS:-4}
driver=${E2E_DRIVER:-npusim}
case $driver in
npusim | npustub) ;;
*) echo "E2E_DRIVER=$driver: must be npusim or npustub" >&2; exit 2 ;;
esac

# The kernel the capture ran on, for the host-side checks.
uname -r >"$out/kernel.release"
insmod build/kmod/"$driver".ko devices="$ranks" ${E2E_DRIVER_ARGS:-}
[ "${E2E_KMOD:-1}" = 0 ] || insmod build/kmod/npuprof.ko

# started PID: wait (at most 120 s) until msprof said PID's start succeeded.
started() {
	i=0
	while ! grep -q "pid $1 start success" "$out/msprof.log" 2>/dev/null && [ $i -lt 1200 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}

# The prompt's input; with $victim set, the window is timed from that
# process's answered start (a loaded machine may take long to get there).
commands() {
	sleep "$before"
	echo start
	[ -z "${victim:-}" ] || started "$victim"
	sleep "$window"
	echo stop
	echo quit
}

# wait_socket PID: until the app's dynamic-profiling server listens.
wait_socket() {
	i=0
	while [ ! -S "$HOME/dynamic_profiling_socket_$1" ]; do
		i=$((i + 1))
		[ $i -le 300 ] || { echo "no socket from pid $1" >&2; exit 1; }
		sleep 0.1
	done
}

# start_ranks APP ARGS...: $ranks apps in attach mode, rank r on device r;
# their pids in $pids (space separated) and $pid_list (comma separated).
start_ranks() {
	pids=
	r=0
	while [ $r -lt "$ranks" ]; do
		RANK=$r LOCAL_RANK=$r WORLD_SIZE=$ranks PROFILING_MODE=dynamic \
			build/bin/ai_task --rank=$r --device=$r "$@" >"$out/app.$r.out" 2>"$out/app.$r.err" &
		pids="$pids $!"
		r=$((r + 1))
	done
	for p in $pids; do wait_socket "$p"; done
	pid_list=$(echo $pids | tr ' ' ',')
}

case $mode in
launch)
	# shellcheck disable=SC2086 # E2E_MSPROF_ARGS: words, unquoted
	commands | build/bin/msprof --dynamic=on --output="$out" ${E2E_MSPROF_ARGS:-} \
		"${E2E_APP:-build/bin/ai_task}" "$@" >"$out/msprof.log" 2>"$out/msprof.err"
	;;
attach)
	PROFILING_MODE=dynamic build/bin/ai_task "$@" >"$out/app.out" 2>"$out/app.err" &
	app=$!
	wait_socket "$app"
	# shellcheck disable=SC2086
	commands | build/bin/msprof --dynamic=on --pid="$app" --output="$out" ${E2E_MSPROF_ARGS:-} \
		>"$out/msprof.log" 2>"$out/msprof.err"
	wait "$app"
	;;
app-ranks)
	rc=0
	delay=
	[ "$before" = 0 ] || delay=--delay=$before
	build/bin/msprof --output="$out" --result="$out/result.jsonl" $delay --duration="$window" \
		build/bin/ai_task --ranks="$ranks" --spawn=exec "$@" </dev/null \
		>"$out/msprof.log" 2>"$out/msprof.err" || rc=$?
	echo $rc >"$out/msprof.rc"
	;;
launch-ranks)
	rc=0
	commands | build/bin/msprof --dynamic=on --output="$out" --result="$out/result.jsonl" \
		build/bin/run_ranks.sh "$ranks" "$@" >"$out/msprof.log" 2>"$out/msprof.err" || rc=$?
	echo $rc >"$out/msprof.rc"
	;;
attach-ranks | kill-rank)
	start_ranks "$@"
	if [ "$mode" = kill-rank ]; then
		# the last rank is killed in the middle of the window: once its
		# start is answered (a loaded machine may take long to get there)
		victim=${pids##* }
		( started "$victim"; sleep $((window / 2)); kill -9 "$victim" ) &
	fi
	rc=0
	commands | build/bin/msprof --dynamic=on --pid="$pid_list" --output="$out" \
		--result="$out/result.jsonl" >"$out/msprof.log" 2>"$out/msprof.err" || rc=$?
	echo $rc >"$out/msprof.rc"
	for p in $pids; do wait "$p" || true; done
	[ "$mode" = kill-rank ] && echo "$victim" >"$out/victim"
	;;
sessions)
	start_ranks "$@"
	r=0
	mpids=
	for p in $pids; do
		commands | build/bin/msprof --dynamic=on --pid="$p" --output="$out" \
			>"$out/msprof.$r.log" 2>"$out/msprof.$r.err" &
		mpids="$mpids $!"
		r=$((r + 1))
	done
	wait_rc=0
	for m in $mpids; do wait "$m" || wait_rc=$?; done
	for p in $pids; do wait "$p"; done
	cat "$out"/msprof.[0-9]*.log >"$out/msprof.log"
	cat "$out"/msprof.[0-9]*.err >"$out/msprof.err"
	echo $wait_rc >"$out/msprof.rc"
	;;
second)
	start_ranks "$@"
	first=${pids%% *}
	first=${first:-$(echo $pids | cut -d' ' -f1)}
	commands | build/bin/msprof --dynamic=on --pid="$first" --output="$out" \
		>"$out/msprof.log" 2>"$out/msprof.err" &
	msprof_pid=$!
	sleep $((before + 1))
	start_s=$(date +%s)
	rc2=0
	printf 'start\nstop\nquit\n' | build/bin/msprof --dynamic=on --pid="$first" --output="$out/second" \
		>"$out/second.log" 2>&1 || rc2=$?
	echo "$rc2 $msprof_pid $(($(date +%s) - start_s))" >"$out/second.rc"
	rc1=0
	wait "$msprof_pid" || rc1=$?
	echo $rc1 >"$out/msprof.rc"
	for p in $pids; do wait "$p"; done
	;;
*)
	echo "usage: guest-capture.sh launch|attach|attach-ranks|launch-ranks|app-ranks|kill-rank|sessions|second OUT [APP ARGS...]" >&2
	exit 2
	;;
esac
# The app prints exactly one JSON line on stdout: its own count of calls.
case $mode in
launch | attach)
	grep -h '^{' "$out/msprof.log" "$out/app.out" 2>/dev/null | tail -n 1 >"$out/app.json" ;;
launch-ranks | app-ranks)
	grep -h '^{' "$out/msprof.log" >"$out/app.json" ;;
*)
	cat "$out"/app.[0-9]*.out | grep -h '^{' >"$out/app.json" ;;
esac
for d in "$out"/PROF_*; do
	[ -d "$d" ] && mkdir -p "$out/records" &&
		build/bin/npuprof-dump "$d" >"$out/records/$(basename "$d").jsonl"
done
[ "${E2E_KMOD:-1}" = 0 ] || rmmod npuprof
rmmod "$driver"
