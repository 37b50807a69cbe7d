#!/bin/sh
# Runs inside the test VM (scripts/vm-run.sh): load the modules, capture the
# sample AI task with msprof in launch or attach mode over a scripted
# start/stop window, and leave everything in OUT for the host-side checks.
#
#   scripts/guest-capture.sh launch|attach OUT [APP ARGS...]
# Timing knobs (seconds, environment): E2E_BEFORE (before "start"),
# E2E_WINDOW (between "start" and "stop").
set -eu
mode=$1
out=$2
shift 2
before=${E2E_BEFORE:-3}
window=${E2E_WINDOW:-4}

insmod build/kmod/npusim.ko
insmod build/kmod/npuprof.ko

commands() {
	sleep "$before"
	echo start
	sleep "$window"
	echo stop
	echo quit
}

case $mode in
launch)
	commands | build/bin/msprof --dynamic=on --output="$out" build/bin/ai_task "$@" \
		>"$out/msprof.log" 2>"$out/msprof.err"
	;;
attach)
	PROFILING_MODE=dynamic build/bin/ai_task "$@" >"$out/app.out" 2>"$out/app.err" &
	app=$!
	i=0
	while [ ! -S "$HOME/dynamic_profiling_socket_$app" ]; do
		i=$((i + 1))
		[ $i -le 300 ] || { echo "no socket from pid $app" >&2; exit 1; }
		sleep 0.1
	done
	commands | build/bin/msprof --dynamic=on --pid="$app" --output="$out" \
		>"$out/msprof.log" 2>"$out/msprof.err"
	wait "$app"
	;;
*)
	echo "usage: guest-capture.sh launch|attach OUT [APP ARGS...]" >&2
	exit 2
	;;
esac
# The app prints exactly one JSON line on stdout: its own count of calls.
grep -h '^{' "$out/msprof.log" "$out/app.out" 2>/dev/null | tail -n 1 >"$out/app.json"
for d in "$out"/PROF_*; do
	[ -d "$d" ] && mkdir -p "$out/records" &&
		build/bin/npuprof-dump "$d" >"$out/records/$(basename "$d").jsonl"
done
rmmod npuprof
rmmod npusim
