#!/bin/sh
# Inside the test VM (tests/e2e/soak.sh): the soak.  One sample AI task runs
# in dynamic mode all along; then
#   1. one msprof --pid session with E2E_SOAK_CYCLES start/stop windows
#      (PROF dirs in OUT/cycles); once msprof says a window is saved, its
#      VmRSS, VmHWM, open descriptors, RssAnon and RssFile go to
#      OUT/cycles/mem.tsv;
#   2. E2E_SOAK_LOADS rounds of: insmod npuprof.ko, one msprof --pid with
#      one window (OUT/loads/N), rmmod npuprof.ko; after every rmmod the
#      kernel's Slab, SUnreclaim, VmallocUsed (kB, caches dropped first) and
#      the refcount npuprof.ko had after its msprof exited go to
#      OUT/loads/kmem.tsv.
# The app then ends its steps (SIGUSR1) and leaves its JSON line of counts
# in OUT/app.json (the host puts it next to every capture for
# tests/e2e/check_capture.py: megabytes, slow to copy over 9p).  Windows
# last E2E_WINDOW_MS (default 600).  The host checks the rest.
set -eu
out=$1
cycles=${E2E_SOAK_CYCLES:-6}
loads=${E2E_SOAK_LOADS:-2}
window_ms=${E2E_WINDOW_MS:-600}
window=$(awk "BEGIN { print $window_ms / 1000 }")

say() { echo "soak: $*"; }

# wait_for SECONDS WHAT COMMAND...: until COMMAND succeeds.
wait_for() {
	deadline=$(($(date +%s) + $1)) what=$2
	shift 2
	until "$@"; do
		[ "$(date +%s)" -le $deadline ] || { say "timed out waiting for $what" >&2; exit 1; }
		sleep 0.1
	done
}

# DIR N: msprof said it saved N windows of DIR (all files written and closed)
windows_done() {
	[ "$(grep -c '^PROF data saved' "$1/msprof.log")" -ge "$2" ]
}

mem_line() { # CYCLE PID
	awk -v c="$1" -v fds="$(ls /proc/"$2"/fd | wc -l)" '
		/^VmRSS:/ { rss = $2 } /^VmHWM:/ { hwm = $2 }
		/^RssAnon:/ { anon = $2 } /^RssFile:/ { file = $2 }
		END { print c "\t" rss "\t" hwm "\t" fds "\t" anon "\t" file }' /proc/"$2"/status
}

kmem_line() { # ROUND REFCOUNT
	sync
	echo 3 >/proc/sys/vm/drop_caches
	awk -v r="$1" -v ref="$2" '
		/^Slab:/ { s = $2 } /^SUnreclaim:/ { u = $2 } /^VmallocUsed:/ { v = $2 }
		END { print r "\t" s "\t" u "\t" v "\t" ref }' /proc/meminfo
}

ready() { grep -qs 'is ready' "$1/msprof.log" "$1/msprof.err"; }

# msprof_open DIR: msprof --pid on the app, commands from a fifo (fd 3),
# once it says it is ready; its pid in $msprof.
msprof_open() {
	rm -f /tmp/soak.cmd
	mkfifo /tmp/soak.cmd
	build/bin/msprof --dynamic=on --pid="$app" --output="$1" </tmp/soak.cmd \
		>"$1/msprof.log" 2>"$1/msprof.err" &
	msprof=$!
	exec 3>/tmp/soak.cmd
	wait_for 60 "msprof to get ready" ready "$1"
}

# window DIR N: the Nth start/stop window of the msprof on fd 3, saved.
window() {
	echo start >&3
	sleep "$window"
	echo stop >&3
	wait_for 60 "window $2" windows_done "$1" "$2"
}

# msprof_close DIR: quit; its exit status in DIR/msprof.rc.
msprof_close() {
	echo quit >&3
	exec 3>&-
	rc=0
	wait $msprof || rc=$?
	echo $rc >"$1/msprof.rc"
}

# Part 1: one msprof session, $cycles windows.
soak_cycles() {
	dir=$out/cycles
	mkdir -p "$dir"
	printf 'cycle\trss_kb\thwm_kb\tfds\tanon_kb\tfile_kb\n' >"$dir/mem.tsv"
	start_s=$(date +%s)
	msprof_open "$dir"
	n=1
	while [ $n -le "$cycles" ]; do
		window "$dir" $n
		mem_line $n $msprof >>"$dir/mem.tsv"
		n=$((n + 1))
	done
	msprof_close "$dir"
	say "$cycles windows in $(($(date +%s) - start_s)) s, msprof exit $(cat "$dir/msprof.rc")"
}

# Part 2: $loads rounds of insmod, one capture, rmmod.
soak_loads() {
	mkdir -p "$out/loads"
	printf 'round\tslab_kb\tsunreclaim_kb\tvmalloc_kb\trefcnt\n' >"$out/loads/kmem.tsv"
	kmem_line 0 0 >>"$out/loads/kmem.tsv"
	start_s=$(date +%s)
	n=1
	while [ $n -le "$loads" ]; do
		dir=$out/loads/$n
		mkdir -p "$dir"
		insmod build/kmod/npuprof.ko
		msprof_open "$dir"
		window "$dir" 1
		msprof_close "$dir"
		ref=$(cat /sys/module/npuprof/refcnt)
		rmmod npuprof
		kmem_line $n "$ref" >>"$out/loads/kmem.tsv"
		n=$((n + 1))
	done
	say "$loads load/unload rounds in $(($(date +%s) - start_s)) s"
}

insmod build/kmod/npusim.ko
insmod build/kmod/npuprof.ko
PROFILING_MODE=dynamic build/bin/ai_task --steps=1000000 --step-gap-ms=20 --quiet \
	>"$out/app.out" 2>"$out/app.err" &
app=$!
wait_for 30 "the app's socket" test -S "$HOME/dynamic_profiling_socket_$app"
soak_cycles
rmmod npuprof
soak_loads
kill -USR1 $app
wait $app
grep -h '^{' "$out/app.out" >"$out/app.json"
rmmod npusim
