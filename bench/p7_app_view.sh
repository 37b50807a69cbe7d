#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# where: vm
#
# P7 the app's view: step time of the sample job (build/bin/ai_task, RANKS
# ranks started as the e2e tests start them, PROFILING_MODE=dynamic, no gap
# between steps) in one job's life, phase after phase:
#   none      before any msprof
#   idle      msprof --dynamic=on --pid=... attached, no capture started
#   capture   between "start" and "stop"
#   stopped   after "stop", msprof still attached
#   quit      after "quit", msprof gone
# Each phase lasts PHASE seconds; a step counts for a phase when it lies
# wholly inside it (bench/p7_steps.py, on the ranks' JSON reports).  The
# phases with msprof are compared with the job's own drift (A/B/A): the
# line through the mean step times before attach and after quit, taken at
# each phase's middle.  The noise printed is the standard error of each
# mean.
# All in one VM boot, so the ratios compare; under TCG the figures
# themselves are ~30x slow.
source "$(dirname "$0")/lib.bash"

ranks=2
phase=$(tiny_or_full 3 15)
dir=$BENCH_OUT/p7
rm -rf "$dir"
mkdir -p "$dir/prof"
mono() { build/bench/mono_ns; }

insmod build/kmod/npusim.ko devices="$ranks" || exit 1
insmod build/kmod/npuprof.ko || exit 1

# The ranks, as scripts/guest-capture.sh starts them for attach mode.
pids=()
for ((r = 0; r < ranks; r++)); do
	RANK=$r LOCAL_RANK=$r WORLD_SIZE=$ranks PROFILING_MODE=dynamic \
		build/bin/ai_task --rank=$r --device=$r --steps=100000 --step-gap-ms=0 --quiet \
		>"$dir/app.$r.out" 2>"$dir/app.$r.err" &
	pids+=($!)
done
for p in "${pids[@]}"; do
	for ((i = 0; i < 600; i++)); do [[ -S $HOME/dynamic_profiling_socket_$p ]] && break; sleep 0.1; done
done

# wait_log TEXT COUNT: until msprof's log has COUNT lines with TEXT (120 s at most).
wait_log() {
	local i
	for ((i = 0; i < 1200; i++)); do
		(($(grep -c "$1" "$dir/msprof.log" 2>/dev/null || true) + 0 >= $2)) && return 0
		sleep 0.1
	done
	bench_log "msprof never said '$1' $2 times"; return 1
}
# window NAME: PHASE seconds of steps, marked on CLOCK_MONOTONIC.
window() {
	local b
	b=$(mono)
	sleep "$phase"
	echo "$1 $b $(mono)" >>"$dir/marks"
}

window none
# msprof's prompt: a FIFO on the guest's tmpfs (9p refuses special files).
fifo=$(mktemp -d)/cmd
mkfifo "$fifo" || exit 1
pid_list=$(IFS=,; echo "${pids[*]}")
build/bin/msprof --dynamic=on --pid="$pid_list" --output="$dir/prof" <"$fifo" \
	>"$dir/msprof.log" 2>"$dir/msprof.err" &
msprof=$!
exec 3>"$fifo"
echo status >&3 # answered once every pid is attached
wait_log ": connected" "$ranks" && window idle
echo start >&3
wait_log "start success" "$ranks" && window capture
echo stop >&3
# The apps answer first; msprof then ends the capture (probes removed,
# files closed) and says where each PROF dir is: the phase starts there.
wait_log "stop success" "$ranks" && wait_log "PROF data saved in" "$ranks" && window stopped
echo quit >&3
exec 3>&-
wait "$msprof"
window quit
kill -USR1 "${pids[@]}"
wait "${pids[@]}"
bench_log "msprof: $(tr '\n' ' ' <"$dir/msprof.log" | tail -c 400)"

python3 bench/p7_steps.py "$dir/marks" "$dir"/app.*.out >"$dir/phases" || exit 1
cat "$dir/phases" >&2
get() { sed -n "s/^$1 .* $2=\([^ ]*\).*/\1/p" "$dir/phases"; }
none=$(get none mean_us)
for p in idle capture stopped; do
	v=$(get "$p" mean_us)
	base=$(get "$p" base_us)
	# No cost beyond noise: ratio - 1 at most twice the combined error of
	# the phase's mean and the baseline's (the no-msprof line at that
	# time).  Faster than the baseline is no cost, whatever the noise.
	# (a here-string: the guest has no /dev/fd for process substitution)
	read -r met tol <<<"$(python3 -c 'import sys, math
a, b, ea, eb = map(float, sys.argv[1:])
tol = 2 * math.hypot(ea, eb) / 100
print("yes" if a / b - 1 <= tol else "no", f"{tol:.3f}")' "$v" "$base" "$(get "$p" sem_pct)" "$(get "$p" base_sem_pct)" 2>/dev/null || echo "n/a n/a")"
	goal="1.00x within noise (no slower than the drift line by more than the 2-sigma band)"
	[[ $p == capture ]] && { goal="as small as P1/P2 allow (figure, no bound)"; met=n/a; }
	row --bench P7 --title "the app's view" --case "ai_task, $ranks ranks, no step gap: $p" \
		--metric "mean step time ($(get "$p" n) steps in ${phase} s)" --unit us --npuprof "${v:-n/a}" \
		--baseline "no msprof (drift line)=${base:-n/a: no steps}" \
		--ratio "no msprof (drift line)=$(ratio "$v" "$base")" \
		--baseline "no msprof (before attach)=${none:-n/a: no steps}" \
		--ratio "no msprof (before attach)=$(ratio "$v" "$none")" \
		--goal "$goal" --met "$met" \
		--note "VM under TCG: ratios only" \
		--note "drift-corrected baseline: the line through the mean step times before attach and after quit (both without msprof), at this phase's middle" \
		--note "noise (std. error of the mean): $p $(get "$p" sem_pct)%, baseline $(get "$p" base_sem_pct)%; 2-sigma band on the ratio +-$tol; step sd $(get "$p" sd_us) us; median step $(get "$p" median_us) us vs $(get none median_us) us before attach"
done
quit=$(get quit mean_us)
row --bench P7 --title "the app's view" --case "ai_task, $ranks ranks, no step gap: drift" \
	--metric "mean step time after quit ($(get quit n) steps in ${phase} s)" --unit us \
	--npuprof "${quit:-n/a}" --baseline "no msprof (before attach)=${none:-n/a: no steps}" \
	--ratio "no msprof (before attach)=$(ratio "$quit" "$none")" \
	--goal "the job's own drift over the run, both ends without msprof (figure, no bound)" --met n/a \
	--note "VM under TCG: ratios only" \
	--note "noise: after quit $(get quit sem_pct)%, before attach $(get none sem_pct)%"
exit 0
