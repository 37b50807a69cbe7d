#!/bin/sh
# Runs inside the test VM for tests/e2e/seccomp.sh: msprof under a
# container's seccomp profile that refuses bpf() and perf_event_open()
# (build/tests/vm/seccomp_deny), in one boot:
#   OUT/launch, OUT/attach   with npuprof.ko: a capture each, by
#                            scripts/guest-capture.sh (APP ARGS for ai_task)
#   OUT/fail-launch          without npuprof.ko, launch mode; the app
#                            would touch OUT/fail-launch/app.started
#   OUT/fail-attach          without npuprof.ko, attach mode to an
#                            ai_task with its server (NPUSIM_VERBOSE=1:
#                            its stderr says when a client connects)
# Each fail-* holds msprof.log, msprof.err and msprof.rc; fail-attach
# also the app's app.out, app.err and app.rc.
#
#   tests/e2e/guest/seccomp.sh OUT [APP ARGS...]
set -eu
out=$1
shift
deny="build/tests/vm/seccomp_deny --deny=bpf,perf_event_open --"
mkdir -p "$out/launch" "$out/attach" "$out/fail-launch" "$out/fail-attach"

E2E_MSPROF_WRAP=$deny scripts/guest-capture.sh launch "$out/launch" "$@"
E2E_MSPROF_WRAP=$deny scripts/guest-capture.sh attach "$out/attach" "$@"

insmod build/kmod/npusim.ko devices=1
f=$out/fail-launch
rc=0
# shellcheck disable=SC2016 # the app's own words
$deny build/bin/msprof --dynamic=on --output="$f/prof" \
	sh -c 'touch "$0"; exec build/bin/ai_task --steps=5 --quiet' "$f/app.started" \
	</dev/null >"$f/msprof.log" 2>"$f/msprof.err" || rc=$?
echo $rc >"$f/msprof.rc"

f=$out/fail-attach
NPUSIM_VERBOSE=1 PROFILING_MODE=dynamic build/bin/ai_task --steps=100 --step-gap-ms=20 --quiet \
	>"$f/app.out" 2>"$f/app.err" &
app=$!
i=0
while [ ! -S "$HOME/dynamic_profiling_socket_$app" ] && [ $i -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
rc=0
$deny build/bin/msprof --dynamic=on --pid=$app --output="$f/prof" \
	</dev/null >"$f/msprof.log" 2>"$f/msprof.err" || rc=$?
echo $rc >"$f/msprof.rc"
rc=0
wait $app || rc=$?
echo $rc >"$f/app.rc"
rmmod npusim
