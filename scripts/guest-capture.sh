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
#   containers    four ai_task in containers of their own (unshare: mount,
#                 pid and network namespaces and a private root, or a pid
#                 namespace alone), each pid 1 inside; one msprof on the
#                 host attaches to three of them by host pid
#                 (start_container)
#   kill-rank     as attach-ranks, and the last rank is killed mid-window
#   second        one msprof on rank 0, then a second one on the same pid:
#                 refused at once (its output in OUT/second.log, status in
#                 OUT/second.rc); the first capture goes on
#   launch-longhome  launch mode with a HOME so long that the app's socket
#                 path passes sun_path (its server cannot start): first
#                 with --require-server=on (refused: OUT/required.log and
#                 .rc), then captured from the kernel side (OUT/msprof.rc)
#   app-longhome  app mode, one process, the whole run, with that HOME
#   check         msprof --check=on (OUT/check.txt, .rc), then again while
#                 another process holds device 0's log (check-held.txt, .rc)
#   attach-user   attach mode to an app run as another user (nobody) with
#                 HOME=/srv/job (a tmpfs), not that user's passwd home;
#                 its pid in OUT/app.pid, msprof's status in OUT/msprof.rc
# Timing knobs (seconds, environment): E2E_BEFORE (before "start"),
# E2E_WINDOW (between "start" and "stop").  E2E_APP: the program launch
# mode starts instead of build/bin/ai_task.  E2E_DRIVER: the simulated NPU
# driver loaded, npusim (default), npustub (other tracepoints, no clock
# ioctl) or ascendsim (the real Ascend driver's interfaces: trs tracepoints
# behind procfs switches, queue and completion events only; sq_mode= in
# E2E_DRIVER_ARGS); never two together.  E2E_DRIVER_ARGS: more
# parameters for its insmod (task_id_bits=8: task ids reused every 256).
# E2E_MSPROF_ARGS: more msprof options for launch and attach mode
# (--runtime-api=on).  E2E_MSPROF_WRAP: words run before msprof in launch,
# attach and app-ranks mode, e.g. build/tests/vm/seccomp_deny --deny=bpf --
# (a container's seccomp profile).  E2E_NOSERVER, E2E_LATE_RANK: see start_ranks.  E2E_KMOD=0: npuprof.ko is not loaded, so msprof
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
npusim | npustub | ascendsim) ;;
*) echo "E2E_DRIVER=$driver: must be npusim, npustub or ascendsim" >&2; exit 2 ;;
esac

# The kernel the capture ran on, for the host-side checks.
uname -r >"$out/kernel.release"
# (a second capture in the same VM, E2E_ALSO, finds them loaded)
[ -d /sys/module/"$driver" ] || insmod build/kmod/"$driver".ko devices="$ranks" ${E2E_DRIVER_ARGS:-}
[ "${E2E_KMOD:-1}" = 0 ] || [ -d /sys/module/npuprof ] || insmod build/kmod/npuprof.ko

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

# wait_socket PID [PATH]: until the app's dynamic-profiling server
# listens (at PATH; default: in our HOME, named after PID).
wait_socket() {
	i=0
	while [ ! -S "${2:-$HOME/dynamic_profiling_socket_$1}" ]; do
		i=$((i + 1))
		[ $i -le 300 ] || { echo "no socket from pid $1" >&2; exit 1; }
		sleep 0.1
	done
}

# wait_runtime PID: until the app has its runtime library mapped (it has
# exec'd ai_task), for an app without a server to wait for.
wait_runtime() {
	i=0
	while ! grep -q libascendcl "/proc/$1/maps" 2>/dev/null; do
		i=$((i + 1))
		[ $i -le 300 ] || { echo "pid $1 never mapped libascendcl.so" >&2; exit 1; }
		sleep 0.1
	done
}

# long_home: make and print a HOME whose socket path,
# HOME/dynamic_profiling_socket_<pid>, passes sun_path's 108 bytes
# (/root/ and 100 letters: 132 bytes and the pid's digits).
long_home() {
	h=/root/$(printf '%0100d' 0 | tr 0 h)
	mkdir -p "$h"
	echo "$h"
}

# start_ranks APP ARGS...: $ranks apps in attach mode, rank r on device r;
# their pids in $pids (space separated) and $pid_list (comma separated).
# The ranks E2E_NOSERVER lists (space separated) start without
# PROFILING_MODE=dynamic, so they have no dynamic-profiling server; rank
# E2E_LATE_RANK (attach-ranks) sets its device only 1 s after msprof said
# its start succeeded (ai_task --setup-wait-file), whatever the load.
start_ranks() {
	pids=
	waits=
	r=0
	while [ $r -lt "$ranks" ]; do
		prof=dynamic
		case " ${E2E_NOSERVER:-} " in *" $r "*) prof= ;; esac
		late=
		[ "$r" != "${E2E_LATE_RANK:--1}" ] || late=--setup-wait-file=$out/late.go
		# shellcheck disable=SC2086 # $late: no word or one
		RANK=$r LOCAL_RANK=$r WORLD_SIZE=$ranks env ${prof:+PROFILING_MODE=$prof} \
			build/bin/ai_task --rank=$r --device=$r $late "$@" >"$out/app.$r.out" 2>"$out/app.$r.err" &
		p=$!
		pids="$pids $p"
		# its cue, given once msprof.log says its start succeeded
		[ -z "$late" ] || ( started $p; sleep 1; touch "$out/late.go" ) &
		if [ -n "$prof" ]; then waits="$waits wait_socket:$p"; else waits="$waits wait_runtime:$p"; fi
		r=$((r + 1))
	done
	for w in $waits; do "${w%%:*}" "${w#*:}"; done
	pid_list=$(echo $pids | tr ' ' ',')
}

# start_container I PROF KIND ARGS...: ai_task ARGS as container I, pid 1
# of a pid namespace of its own (unshare, no container engine), with
# RANK=I.  KIND root: new mount and network namespaces too, a private root
# on tmpfs holding the host's /usr, /etc, /dev and /sys and its own copy
# of ai_task and the runtime libraries under /opt/npu-app, a path the host
# does not have, and HOME=/home/app (msprof's is /root); KIND rootpw: the
# same without HOME in its environment, its /etc/passwd giving root the
# home $long_home (its socket path then passes sun_path's 108 bytes seen
# through /proc/P/root); KIND pidns: the pid namespace alone, the host's
# files and HOME.  PROF=dynamic gives it a dynamic-profiling server (its
# socket in its HOME).  Its host pid is printed to $out/cpid.I once it
# runs ai_task.
start_container() {
	i=$1
	prof=$2
	kind=$3
	shift 3
	if [ "$kind" = pidns ]; then
		unshare --pid --fork --kill-child env -i PATH=/usr/bin:/bin HOME="$HOME" RANK="$i" \
			${prof:+PROFILING_MODE=$prof} build/bin/ai_task "$@" >"$out/app.$i.out" 2>"$out/app.$i.err" &
		u=$!
	else
		mkdir -p "/tmp/npuprof-ctr.$i"
		home=HOME=/home/app
		[ "$kind" != rootpw ] || home=
		# shellcheck disable=SC2016 # the inner scripts expand their own words
		unshare --mount --pid --net --fork --kill-child sh -c '
			set -e
			r=$1 prof=$2 rank=$3 home=$4 long=$5
			shift 5
			mount -t tmpfs ctr "$r"
			mkdir -p "$r/usr" "$r/etc" "$r/dev" "$r/sys" "$r/proc" "$r/home/app" "$r/tmp" \
				"$r/opt/npu-app/bin" "$r/opt/npu-app/lib"
			for d in usr etc dev sys; do mount --rbind "/$d" "$r/$d"; done
			if [ -z "$home" ]; then
				mkdir -p "$r$long"
				sed "s|^\(root:[^:]*:0:0:[^:]*:\)[^:]*:|\1$long:|" /etc/passwd >"$r/tmp/passwd"
				mount --bind "$r/tmp/passwd" "$r/etc/passwd"
			fi
			for l in bin sbin lib lib64; do [ ! -L "/$l" ] || ln -s "$(readlink "/$l")" "$r/$l"; done
			cp build/bin/ai_task "$r/opt/npu-app/bin/"
			cp build/lib/libascendcl.so build/lib/libruntime.so build/lib/libascend_hal.so "$r/opt/npu-app/lib/"
			exec chroot "$r" /bin/sh -c "mount -t proc proc /proc && cd /tmp &&
				exec env -i PATH=/usr/bin:/bin $home RANK=$rank ${prof:+PROFILING_MODE=$prof} \
				/opt/npu-app/bin/ai_task \"\$@\"" ai_task "$@"
		' container "/tmp/npuprof-ctr.$i" "$prof" "$i" "$home" "$long_home" "$@" \
			>"$out/app.$i.out" 2>"$out/app.$i.err" &
		u=$!
	fi
	n=0
	while :; do
		c=$(cat "/proc/$u/task/$u/children" 2>/dev/null || true)
		c=${c%% *}
		[ -z "$c" ] || ! grep -q libascendcl "/proc/$c/maps" 2>/dev/null || break
		n=$((n + 1))
		[ $n -le 300 ] || { echo "container $i: ai_task did not start" >&2; exit 1; }
		sleep 0.1
	done
	echo "$c" >"$out/cpid.$i"
	unshare_pids="${unshare_pids:-} $u"
}

# container_ids I: the container's host pid and, for each of its threads,
# "INNER HOST" tid pairs into $out/tids.I (NSpid of each thread's status).
container_ids() {
	c=$(cat "$out/cpid.$1")
	for t in /proc/"$c"/task/*; do
		awk '/^NSpid:/ { print $3, $2 }' "$t/status"
	done >"$out/tids.$1"
}

# container_json I: container I's JSON line with the pid and thread ids
# the host sees (its own are those of its pid namespace).
container_json() {
	c=$(cat "$out/cpid.$1")
	script="s/^{\"pid\":1,/{\"pid\":$c,/"
	while read -r inner host; do
		script="$script;s/\"tid\":$inner,/\"tid\":$host,/g"
	done <"$out/tids.$1"
	grep -h '^{' "$out/app.$1.out" | sed "$script"
}

case $mode in
containers)
	# Containers 0, 1 and 3 have private roots: 0 has a server, 1 has
	# none, 3 (not attached) has none and the same pid inside as the
	# others.  2 is a pid namespace alone, without a server, while another
	# process (a decoy, not its server) listens at the socket name its
	# inner pid gives in the same HOME.  msprof on the host attaches to 0,
	# 1 and 2 by their host pids; nothing of 3 may be captured.
	unshare_pids=
	long_home=/home/$(printf '%062d' 0 | tr 0 x)
	start_container 0 dynamic rootpw --device=0 "$@"
	start_container 1 "" root --device=1 "$@"
	start_container 2 "" pidns --device=2 "$@"
	start_container 3 "" root --device=3 "$@"
	python3 -c 'import socket, sys, time
s = socket.socket(socket.AF_UNIX)
s.bind(sys.argv[1])
s.listen(4)
time.sleep(600)' "$HOME/dynamic_profiling_socket_1" &
	decoy=$!
	echo $decoy >"$out/decoy"
	c0=$(cat "$out/cpid.0")
	wait_socket "$c0" "/proc/$c0/root$long_home/dynamic_profiling_socket_1"
	wait_socket decoy "$HOME/dynamic_profiling_socket_1"
	( sleep $((before + 1)); for i in 0 1 2; do container_ids $i; done ) &
	ids=$!
	rc=0
	commands | build/bin/msprof --dynamic=on --pid="$c0,$(cat "$out/cpid.1"),$(cat "$out/cpid.2")" \
		--output="$out" --result="$out/result.jsonl" >"$out/msprof.log" 2>"$out/msprof.err" || rc=$?
	echo $rc >"$out/msprof.rc"
	wait "$ids"
	for u in $unshare_pids; do wait "$u" || echo "container exited $?" >&2; done
	kill "$decoy"
	rm -f "$HOME/dynamic_profiling_socket_1"
	# msprof inside a container (a pid namespace with its own /proc) with
	# the app it attaches to, given the pid the app sees: into $out/inside
	# as a capture of its own
	in=$out/inside
	mkdir -p "$in"
	# shellcheck disable=SC2016 # the inner script expands its own words
	unshare --pid --fork --mount-proc --kill-child sh -c '
		in=$1 before=$2 window=$3
		shift 3
		PROFILING_MODE=dynamic build/bin/ai_task --device=0 "$@" >"$in/app.0.out" 2>"$in/app.0.err" &
		app=$!
		n=0
		while [ ! -S "$HOME/dynamic_profiling_socket_$app" ]; do
			n=$((n + 1))
			if [ $n -gt 300 ] || ! kill -0 $app 2>/dev/null; then
				echo "inside: no socket from pid $app" >"$in/msprof.err"
				echo 1 >"$in/msprof.rc"
				kill $app 2>/dev/null
				exit 1
			fi
			sleep 0.1
		done
		rc=0
		{ sleep "$before"; echo start; sleep "$window"; echo stop; echo quit; } |
			build/bin/msprof --dynamic=on --pid=$app --output="$in" --result="$in/result.jsonl" \
			>"$in/msprof.log" 2>"$in/msprof.err" || rc=$?
		echo $rc >"$in/msprof.rc"
		wait $app
	' inside "$in" "$before" "$window" "$@" &
	u=$!
	# its ai_task as the host sees it: a child of the namespace's pid 1
	n=0
	while :; do
		s1=$(cat "/proc/$u/task/$u/children" 2>/dev/null || true)
		s1=${s1%% *}
		c=
		[ -z "$s1" ] || for k in $(cat "/proc/$s1/task/$s1/children" 2>/dev/null); do
			grep -q libascendcl "/proc/$k/maps" 2>/dev/null && c=$k
		done
		[ -z "$c" ] || break
		n=$((n + 1))
		[ $n -le 300 ] || { echo "inside: ai_task did not start" >&2; kill "$u"; exit 1; }
		sleep 0.1
	done
	sleep $((before + 1))
	for t in /proc/"$c"/task/*; do awk '/^NSpid:/ { print $3, $2 }' "$t/status"; done >"$in/tids.0"
	wait "$u" || true
	script=
	while read -r inner host; do script="$script;s/\"tid\":$inner,/\"tid\":$host,/g"; done <"$in/tids.0"
	grep -h '^{' "$in/app.0.out" | sed "${script#;}" >"$in/app.json"
	echo "$c" >"$in/host.pid"
	for d in "$in"/PROF_*; do
		[ -d "$d" ] && mkdir -p "$in/records" &&
			build/bin/npuprof-dump "$d" >"$in/records/$(basename "$d").jsonl"
	done
	# attaching from a pid namespace that sees the host's /proc is refused
	rc=0
	unshare --pid --fork build/bin/msprof --dynamic=on --pid=1 --output="$out/inside-hostproc" \
		</dev/null >"$out/inside-hostproc.log" 2>&1 || rc=$?
	echo $rc >"$out/inside-hostproc.rc"
	# launching a job from a pid namespace of its own is refused
	rc=0
	unshare --pid --fork --mount-proc build/bin/msprof --dynamic=on --output="$out/inside-launch" \
		build/bin/ai_task </dev/null >"$out/inside-launch.log" 2>&1 || rc=$?
	echo $rc >"$out/inside-launch.rc"
	;;
check)
	# msprof --check=on with the driver's library on the loader's path (as
	# CANN's set_env.sh puts it), then while another process holds device
	# 0's log (the HAL test program's holder)
	LD_LIBRARY_PATH=$PWD/build/lib
	export LD_LIBRARY_PATH
	rc=0
	build/bin/msprof --check=on >"$out/check.txt" 2>&1 || rc=$?
	echo $rc >"$out/check.rc"
	HOLD=1 build/tests/vm/hal_channel start >"$out/holder.out" 2>&1 &
	holder=$!
	i=0
	while [ ! -s "$out/holder.out" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
	echo $holder >"$out/holder.pid"
	rc=0
	build/bin/msprof --check=on >"$out/check-held.txt" 2>&1 || rc=$?
	echo $rc >"$out/check-held.rc"
	kill -9 $holder
	wait $holder 2>/dev/null || true
	unset LD_LIBRARY_PATH
	;;
launch)
	# shellcheck disable=SC2086 # E2E_MSPROF_ARGS, E2E_MSPROF_WRAP: words, unquoted
	commands | ${E2E_MSPROF_WRAP:-} build/bin/msprof --dynamic=on --output="$out" ${E2E_MSPROF_ARGS:-} \
		"${E2E_APP:-build/bin/ai_task}" "$@" >"$out/msprof.log" 2>"$out/msprof.err"
	;;
attach)
	PROFILING_MODE=dynamic build/bin/ai_task "$@" >"$out/app.out" 2>"$out/app.err" &
	app=$!
	wait_socket "$app"
	# shellcheck disable=SC2086
	commands | ${E2E_MSPROF_WRAP:-} build/bin/msprof --dynamic=on --pid="$app" --output="$out" \
		${E2E_MSPROF_ARGS:-} >"$out/msprof.log" 2>"$out/msprof.err"
	wait "$app"
	;;
launch-longhome)
	HOME=$(long_home)
	export HOME
	rc=0
	printf 'start\nstop\nquit\n' | build/bin/msprof --dynamic=on --require-server=on \
		--output="$out/required" "${E2E_APP:-build/bin/ai_task}" "$@" >"$out/required.log" 2>&1 || rc=$?
	echo $rc >"$out/required.rc"
	rc=0
	# shellcheck disable=SC2086 # E2E_MSPROF_ARGS: words, unquoted
	commands | build/bin/msprof --dynamic=on --output="$out" ${E2E_MSPROF_ARGS:-} \
		"${E2E_APP:-build/bin/ai_task}" "$@" >"$out/msprof.log" 2>"$out/msprof.err" || rc=$?
	echo $rc >"$out/msprof.rc"
	;;
app-longhome)
	HOME=$(long_home)
	export HOME
	rc=0
	build/bin/msprof --output="$out" "${E2E_APP:-build/bin/ai_task}" "$@" </dev/null \
		>"$out/msprof.log" 2>"$out/msprof.err" || rc=$?
	echo $rc >"$out/msprof.rc"
	;;
attach-user)
	mount -t tmpfs job /srv
	mkdir /srv/job
	chown 65534:65534 /srv/job
	HOME=/srv/job PROFILING_MODE=dynamic setpriv --reuid=65534 --regid=65534 --clear-groups \
		build/bin/ai_task "$@" >"$out/app.out" 2>"$out/app.err" &
	app=$!
	echo $app >"$out/app.pid"
	wait_socket "$app" "/srv/job/dynamic_profiling_socket_$app"
	rc=0
	# shellcheck disable=SC2086
	commands | build/bin/msprof --dynamic=on --pid="$app" --output="$out" ${E2E_MSPROF_ARGS:-} \
		>"$out/msprof.log" 2>"$out/msprof.err" || rc=$?
	echo $rc >"$out/msprof.rc"
	wait "$app"
	umount /srv
	;;
app-ranks)
	rc=0
	delay=
	[ "$before" = 0 ] || delay=--delay=$before
	# shellcheck disable=SC2086
	${E2E_MSPROF_WRAP:-} build/bin/msprof --output="$out" --result="$out/result.jsonl" $delay --duration="$window" \
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
	echo "usage: guest-capture.sh launch|attach|attach-ranks|launch-ranks|app-ranks|kill-rank|sessions|second|containers|launch-longhome|app-longhome|attach-user OUT [APP ARGS...]" >&2
	exit 2
	;;
esac
# The app prints exactly one JSON line on stdout: its own count of calls.
case $mode in
launch | attach | launch-longhome | app-longhome | attach-user)
	grep -h '^{' "$out/msprof.log" "$out/app.out" 2>/dev/null | tail -n 1 >"$out/app.json" ;;
launch-ranks | app-ranks)
	grep -h '^{' "$out/msprof.log" >"$out/app.json" ;;
containers)
	{ container_json 0; container_json 1; container_json 2; } >"$out/app.json" ;;
check) ;;
*)
	cat "$out"/app.[0-9]*.out | grep -h '^{' >"$out/app.json" ;;
esac
for d in "$out"/PROF_*; do
	[ -d "$d" ] && mkdir -p "$out/records" &&
		build/bin/npuprof-dump "$d" >"$out/records/$(basename "$d").jsonl"
done
[ "${E2E_KMOD:-1}" = 0 ] || rmmod npuprof
rmmod "$driver"
