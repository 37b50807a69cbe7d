#!/bin/sh
# Runs inside the test VM (tests/vm/app_ranks.sh): the multi-rank forms of
# the sample AI task on npusim.ko with four devices.  Prints "ok"/"FAIL"
# per case, a failed case's output after it; exit 1 on any FAIL.
#
# Each job's stdout must be one JSON line per rank as the options imply
# (guest/check_rank_lines.py); ranks started with PROFILING_MODE=dynamic
# must each listen on their own dynamic-profiling socket; a failing rank
# and a SIGTERM must give exit status 1 and name the ranks on stderr.
set -u
app=build/bin/ai_task
wrapper=build/bin/run_ranks.sh
check="python3 tests/vm/guest/check_rank_lines.py"
out=$(mktemp -d /tmp/app_ranks.XXXXXX)
bad=0

ok() { echo "ok   $1"; }
fail() { echo "FAIL $1"; bad=1; }
# show CASE: a failed case's stderr and stdout (cut: the JSON lines are long)
show() { cut -c1-400 "$out/$1.err" "$out/$1.out" | sed 's/^/     | /'; }
# has CASE TEXT: the case's stderr contains TEXT
has() { grep -qF -- "$2" "$out/$1.err"; }

# job CASE CHECK_ARGS -- COMMAND...: run COMMAND, expect exit 0 and the
# lines check_rank_lines.py accepts for CHECK_ARGS (STEPS THREADS STREAMS
# DEVICES...).
job() {
	name=$1 args=
	shift
	while [ "$1" != -- ]; do args="$args $1"; shift; done
	shift
	"$@" >"$out/$name.out" 2>"$out/$name.err"
	rc=$?
	# shellcheck disable=SC2086 # args are words
	if [ $rc = 0 ] && $check "$out/$name.out" $args >"$out/$name.check" 2>&1; then
		ok "$name: exit 0; $(tail -n 1 "$out/$name.check")"
	else
		fail "$name: exit $rc, want 0"; cat "$out/$name.check"; show "$name"
	fi
}

# rank_env PID: PID's RANK, LOCAL_RANK and WORLD_SIZE, sorted, on one line
rank_env() {
	tr '\0' '\n' <"/proc/$1/environ" | grep -E '^(RANK|LOCAL_RANK|WORLD_SIZE)=' | sort | paste -sd' '
}

# listening PIDS...: "pid path" for each listening dynamic-profiling socket
# the processes PIDS hold (sockets by inode from /proc/PID/fd, names and
# states from /proc/net/unix: flags 00010000 is a listener).
listening() {
	for k in "$@"; do
		# shellcheck disable=SC2012 # fd names are numbers
		ls -l "/proc/$k/fd" 2>/dev/null | sed -n "s/.*socket:\[\([0-9]*\)\]\$/$k \1/p"
	done | awk 'NR == FNR { pid[$2] = $1; next }
		($7 in pid) && $4 == "00010000" && $8 ~ /dynamic_profiling_socket_/ { print pid[$7], $8 }' \
		- /proc/net/unix
}

# rank_sockets PARENT N: wait (60 s at most, while PARENT runs) until
# PARENT's N children each listen on one dynamic-profiling socket; then
# print "pid path env" for each, env as rank_env prints it.  Each look is
# a handful of processes, so an emulated CPU under load still looks often.
rank_sockets() {
	tries=0
	while [ $tries -lt 300 ] && kill -0 "$1" 2>/dev/null; do
		# shellcheck disable=SC2046 # the children's pids as words
		lines=$(listening $(cat "/proc/$1/task/$1/children" 2>/dev/null))
		if [ "$(printf '%s\n' "$lines" | grep -c .)" = "$2" ] &&
			[ "$(printf '%s\n' "$lines" | cut -d' ' -f1 | sort -u | wc -l)" = "$2" ]; then
			printf '%s\n' "$lines" | while read -r pid path; do
				echo "$pid $path $(rank_env "$pid")"
			done
			return 0
		fi
		tries=$((tries + 1))
		sleep 0.2
	done
	echo "gave up after $tries looks (parent $1 $(kill -0 "$1" 2>/dev/null && echo running || echo gone)); last seen:"
	printf '%s\n' "$lines"
	return 1
}

# dynamic CASE SPAWN: PROFILING_MODE=dynamic with DYNAMIC_PROFILING_KEY_PID
# set to the launcher's pid (as msprof's launch mode does): every rank
# listens on a socket of its own, named after the key or after its own pid.
# The ranks idle 20 s between their two steps, time to look at them.
# Exec'd ranks must also have RANK, LOCAL_RANK and WORLD_SIZE in their
# environment (a forked rank's setenv() does not show in /proc/PID/environ).
dynamic() {
	name=$1
	PROFILING_MODE=dynamic sh -c 'export DYNAMIC_PROFILING_KEY_PID=$$; exec "$@"' sh \
		$app --ranks=4 --spawn="$2" --steps=2 --step-gap-ms=20000 --quiet \
		>"$out/$name.out" 2>"$out/$name.err" &
	launcher=$!
	if ! rank_sockets $launcher 4 >"$out/$name.sockets"; then
		fail "$name: not every rank listens on a dynamic-profiling socket"
		cat "$out/$name.sockets"
		kill $launcher 2>/dev/null
		wait $launcher
		show "$name"
		return
	fi
	wait $launcher
	rc=$?
	envs=ok
	for r in 0 1 2 3; do
		pid=$(sed -n "s/^{\"pid\":\([0-9]*\),\"rank\":$r,.*/\1/p" "$out/$name.out")
		[ "$2" = exec ] && ! grep -q "^$pid .* LOCAL_RANK=$r RANK=$r WORLD_SIZE=4\$" "$out/$name.sockets" &&
			envs="rank $r's environment wrong"
	done
	pids=$(cut -d' ' -f1 "$out/$name.sockets" | paste -sd,)
	own=0 key=0
	while read -r pid path _; do
		case $path in
		*_socket_$pid) own=$((own + 1)) ;;
		*_socket_$launcher) key=$((key + 1)) ;;
		esac
	done <"$out/$name.sockets"
	# Two ranks bound to the key's name means one lost it to the other's
	# stale-file check between its bind and listen (dynprof_server.c says
	# so); each still has a socket, but msprof reaches only one by that name.
	[ $key -gt 1 ] && echo "note $name: $key ranks bound the key's name; only the last is reachable by it"
	if [ $rc = 0 ] && [ $((own + key)) = 4 ] && [ "$envs" = ok ] &&
		$check "$out/$name.out" 2 1 1 0 1 2 3 --pids="$pids" >"$out/$name.check" 2>&1; then
		ok "$name: 4 ranks, 4 sockets ($key named after the key $launcher, $own after their pid)"
	else
		fail "$name: exit $rc, sockets named $key after the key + $own after their pid, env $envs"
		cat "$out/$name.sockets" "$out/$name.check"; show "$name"
	fi
}

insmod build/kmod/npusim.ko devices=4 || { echo "FAIL insmod npusim.ko devices=4"; exit 1; }

job fork 3 1 2 0 1 2 3 -- $app --ranks=4 --spawn=fork --steps=3 --streams=2 --step-gap-ms=10 --quiet
job exec 2 1 3 0 1 2 3 -- $app --ranks=4 --spawn=exec --steps=2 --streams=3 --step-gap-ms=10 \
	--bytes=4096 --quiet
job wrapper 3 1 1 0 1 2 3 -- $wrapper 4 --steps=3 --step-gap-ms=10 --quiet
job devices 3 2 1 0,1 -- $app --threads=2 --devices=0,1 --steps=3 --step-gap-ms=10 --quiet
job devices3 2 3 2 3,1,2 -- $app --threads=3 --devices=3,1,2 --steps=2 --streams=2 --step-gap-ms=10 \
	--quiet

dynamic dynamic_fork fork
dynamic dynamic_exec exec

# A rank on a device npusim does not have: exit 1, that rank named, the
# other one fine.
"$app" --ranks=2 --device=3 --steps=2 --step-gap-ms=10 --quiet >"$out/badrank.out" 2>"$out/badrank.err"
rc=$?
pid1=$(sed -n 's/^{"pid":\([0-9]*\),"rank":1,.*/\1/p' "$out/badrank.out")
if [ $rc = 1 ] && [ -n "$pid1" ] && has badrank "rank 1 (pid $pid1, device 4) failed: exit status 1" &&
	! has badrank "rank 0 (" && grep -q '"rank":1,.*"error":"aclrtSetDevice(4) failed' "$out/badrank.out" &&
	grep -q '"rank":0,' "$out/badrank.out"; then
	ok "badrank: exit 1, rank 1 (pid $pid1, device 4) named"
else
	fail "badrank: exit $rc, want 1 and rank 1 named"; show badrank
fi

"$wrapper" 2 --device=3 --steps=2 --step-gap-ms=10 --quiet >"$out/badwrap.out" 2>"$out/badwrap.err"
rc=$?
pid1=$(sed -n 's/^{"pid":\([0-9]*\),"rank":1,.*/\1/p' "$out/badwrap.out")
if [ $rc = 1 ] && [ -n "$pid1" ] && has badwrap "rank 1 (pid $pid1, device 4) failed: exit status 1" &&
	! has badwrap "rank 0 ("; then
	ok "badwrap: exit 1, rank 1 (pid $pid1, device 4) named"
else
	fail "badwrap: exit $rc, want 1 and rank 1 named"; show badwrap
fi

# SIGTERM to the launcher reaches every rank: all four die of it, the
# launcher exits 1 naming each, and no rank is left running.
"$app" --ranks=4 --spawn=exec --steps=100000 --step-gap-ms=100 --quiet >"$out/sigterm.out" 2>"$out/sigterm.err" &
launcher=$!
tries=0
until [ "$(wc -w <"/proc/$launcher/task/$launcher/children")" = 4 ] || [ $tries -ge 300 ]; do
	tries=$((tries + 1))
	sleep 0.2
done
kids=$(cat "/proc/$launcher/task/$launcher/children")
sleep 1
kill -TERM $launcher
# A launcher that did not pass it on would run for hours: give it 30 s.
tries=0
while kill -0 $launcher 2>/dev/null && [ $tries -lt 150 ]; do
	tries=$((tries + 1))
	sleep 0.2
done
kill -KILL $launcher 2>/dev/null && echo "sigterm: launcher still running 30 s after SIGTERM"
wait $launcher
rc=$?
named=0
for r in 0 1 2 3; do
	grep -qE "^ai_task: rank $r \(pid [0-9]+, device $r\) failed: killed by signal 15 " "$out/sigterm.err" &&
		named=$((named + 1))
done
left=
for k in $kids; do
	has sigterm "(pid $k, " || named=$((named - 1))
	kill -0 "$k" 2>/dev/null && left="$left $k"
done
if [ $rc = 1 ] && [ $named = 4 ] && [ -z "$left" ] && [ "$(wc -w <"$out/sigterm.out")" = 0 ] &&
	[ "$(echo "$kids" | wc -w)" = 4 ]; then
	ok "sigterm: passed on to ranks $kids; exit 1, all 4 named"
else
	fail "sigterm: exit $rc, $named of 4 ranks named, still running:$left"; show sigterm
	# shellcheck disable=SC2086 # a list of pids
	kill -KILL $left 2>/dev/null
fi

rmmod npusim || fail "npusim.ko would not unload after the jobs"
exit $bad
