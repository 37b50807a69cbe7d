#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# where: host vm
#
# P1 runtime API capture cost: ns per call of one ACL function in a tight
# loop (build/bench/p1_api_loop, bench/src/p1_api_loop.c) with nothing
# attached, with an empty uprobe+uretprobe pair (the floor every uprobe
# capture pays), with npuprof capturing (its rings drained by a second
# thread), with bpftrace printing each call to a file and counting calls in
# a map; then npuprof attached but idle, and after a capture was stopped.
# The BPF programs' own run time (bpf_stats) is also taken, on the host,
# with npuprof's calls in flight in its hash-map fallback.
# Two functions: aclrtFree(NULL) (cheapest, no device) and aclrtLaunchKernel
# on an unknown handle (the launch's entry+return with its argument reads;
# no device either, so the same figures come from the host and the VM).
# On the host also the driver library's submit, halSqTaskSend() with one
# 64-byte SQE per call, under npuprof's submit uprobe (the real Ascend
# driver's submits: bpf/acl_trace.bpf.c acl_sq_send, entry only, so its
# floor is an empty uprobe alone), in a stand-in libascend_hal.so whose
# halSqTaskSend returns 0 (tests/unit/hal_lib_fixture.c); not in the VM,
# where each mix round costs ~40 s of start/stop under TCG.
#
# The cases run in rounds, interleaved (none, floor and npuprof in one
# process, `p1_api_loop mix`), and each figure is the median over the
# rounds; a ratio is the median of the rounds' paired ratios (the load of
# the shared machine falls on both alike).  The spread (min..max) is in the
# notes.  In the VM, traps cost ~30x
# under software emulation: only the ratios mean anything there.
source "$(dirname "$0")/lib.bash"

loop=build/bench/p1_api_loop
lib=$(realpath build/lib/libascendcl.so)
[[ -x $loop ]] || { bench_log "$loop missing: make bench-progs"; exit 1; }
if [[ $BENCH_WHERE == vm ]]; then
	calls=$(tiny_or_full 100 3000) rounds=$(tiny_or_full 1 5)
else
	calls=$(tiny_or_full 2000 10000) rounds=$(tiny_or_full 1 10)
fi
# bpftrace compiles its program with LLVM at start: minutes under TCG.
bt_ok=1 bt_why=""
if ! have bpftrace; then
	bt_ok=0 bt_why="bpftrace not installed"
elif [[ $BENCH_WHERE == vm && $BENCH_SIZE == tiny ]]; then
	bt_ok=0 bt_why="skipped at tiny size in the VM (LLVM start-up under TCG)"
fi

figs=$BENCH_OUT/logs/p1.$BENCH_WHERE.rounds
errs=$BENCH_OUT/logs/p1.$BENCH_WHERE.err
: >"$figs"
: >"$errs"
declare -A counts
inflight=""

# put FUNC CASE ROUND VALUE: one figure.
put() { [[ -n $4 ]] && echo "$1 $2 $3 $4" >>"$figs"; }
# field OUT NAME: NAME=value from a p1_api_loop line.
field() { sed -n "s/.*\b$2=\([0-9.]*\).*/\1/p" <<<"$1"; }

# run_loop CASE FUNC ROUND [ARGS]: p1_api_loop CASE FUNC CALLS ARGS.
run_loop() {
	local out
	out=$("$loop" "$1" "$2" "$calls" "${@:4}" 2>>"$errs") || {
		bench_log "$1 $2 failed: $(tail -n 3 "$errs" | tr '\n' ' ')"; return 1; }
	bench_log "round $3 $1 $2: $out"
	echo "$out"
}

# mix_round FUNC ROUND: none, floor, npuprof in one process; then, on the
# host, the BPF programs' run time again with calls in flight in the hash
# map (the loader's fallback on kernels without task storage for uprobes;
# in the VM each mix costs 16 starts and stops of ~2.6 s under TCG).
mix_round() {
	local out
	out=$(run_loop mix "$1" "$2" 1) || return
	for c in none floor npuprof start_us stop_us bpf_ns_npuprof bpf_ns_floor; do
		put "$1" "$c" "$2" "$(field "$out" "$c")"
	done
	counts[$1]="$(grep -o 'records=[0-9]* expected=[0-9]*' <<<"$out")"
	inflight=$(sed -n 's/.*inflight=\([a-z]*\).*/\1/p' <<<"$out")
	# the submit probe keeps nothing in flight
	[[ $BENCH_WHERE == host && $1 != submit ]] || return 0
	out=$(NPUPROF_BPF_INFLIGHT=hash run_loop mix "$1" "$2" 1) || return
	put "$1" bpf_ns_hash "$2" "$(field "$out" bpf_ns_npuprof)"
}

# attached_round FUNC ROUND: npuprof attached idle, then after a stop.
attached_round() {
	local c out
	for c in idle stopped; do
		out=$(run_loop "$c" "$1" "$2") && put "$1" "$c" "$2" "$(field "$out" ns_per_call)"
	done
	out=$(run_loop none "$1" "$2") && put "$1" none_proc "$2" "$(field "$out" ns_per_call)"
}

# bpftrace_round KIND FUNC ROUND: the loop with bpftrace attached (print|count).
bpftrace_round() {
	local sym prog log=$BENCH_OUT/logs/p1.bpftrace.$BENCH_WHERE.out pid i out
	sym=$([[ $2 == launch ]] && echo aclrtLaunchKernel || echo aclrtFree)
	if [[ $1 == print ]]; then
		prog="uprobe:$lib:$sym { printf(\"enter %d %d\\n\", tid, nsecs); }
		      uretprobe:$lib:$sym { printf(\"exit %d %d %d\\n\", tid, nsecs, retval); }"
	else
		prog="uprobe:$lib:$sym { @enter = count(); } uretprobe:$lib:$sym { @exit = count(); }"
	fi
	# BEGIN runs once every probe is attached.
	bpftrace -e "BEGIN { printf(\"ready\\n\"); } $prog" >"$log" 2>&1 &
	pid=$!
	for ((i = 0; i < 600; i++)); do
		grep -q '^ready' "$log" 2>/dev/null && break
		sleep 0.2
	done
	out=$(run_loop external "$2" "$3") && put "$2" "bt$1" "$3" "$(field "$out" ns_per_call)"
	kill -INT "$pid"
	for ((i = 0; i < 100; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
	kill -KILL "$pid" 2>/dev/null # a bpftrace that missed its SIGINT
	wait "$pid"
	[[ $1 == count ]] && bench_log "bpftrace count $2: $(grep '^@' "$log" | tr '\n' ' ')"
}

# At tiny size in the VM one function proves the path (make check's time).
funcs=(free launch)
[[ $BENCH_WHERE == host ]] && funcs+=(submit)
[[ $BENCH_WHERE == vm && $BENCH_SIZE == tiny ]] && funcs=(free)
# BENCH_P1_FUNCS="submit" (a list of free, launch, submit): those alone.
[[ -n ${BENCH_P1_FUNCS:-} ]] && read -ra funcs <<<"$BENCH_P1_FUNCS"
for ((r = 0; r < rounds; r++)); do
	for f in "${funcs[@]}"; do
		mix_round "$f" "$r"
		attached_round "$f" "$r"
		# bpftrace starts LLVM: under TCG once per size is all the time allows
		# (and at tiny size for one function only: make check's time)
		if ((bt_ok)) && [[ $f != submit ]] && [[ $BENCH_WHERE == host || $r == 0 ]] &&
			[[ $BENCH_SIZE == full || $f == free ]]; then
			bpftrace_round print "$f" "$r"
			bpftrace_round count "$f" "$r"
		fi
	done
done

# Every statistic at once (bench/p1_stats.py --all): KEY "FUNC CASE OVER".
declare -A stats
python3 bench/p1_stats.py --all "$figs" >"$figs.stats"
while read -r fn c o m rng; do stats["$fn $c $o"]="$m $rng"; done <"$figs.stats"
lookup() { echo "${stats["$1 $2 ${3:--}"]:-n/a n/a}"; }
# med FUNC CASE [OVER]: median (or median paired ratio), no spread.
med() { lookup "$@" | cut -d' ' -f1; }
spread() { echo "$2 $(lookup "$@" | cut -d' ' -f2)"; }
# le VALUE LIMIT: yes when VALUE <= LIMIT, n/a when VALUE is not a number.
le() { python3 -c 'import sys
try: print("yes" if float(sys.argv[1]) <= float(sys.argv[2]) else "no")
except ValueError: print("n/a")' "$1" "$2"; }
or_na() { [[ $1 == n/a ]] && echo "n/a: $2" || echo "$1"; }

emu=$([[ $BENCH_WHERE == vm ]] && echo "VM under TCG: traps ~30x, ratios only" || echo "host kernel $(uname -r), shared 2-core machine")
submit_case="halSqTaskSend(1 SQE of 64 bytes) loop of a stand-in libascend_hal.so (returns 0), 1 thread"
# case_of FUNC: the loop's words.
case_of() {
	case $1 in
	free) echo "aclrtFree(NULL) loop, 1 thread" ;;
	launch) echo "aclrtLaunchKernel(unknown handle) loop, 1 thread" ;;
	submit) echo "$submit_case" ;;
	esac
}
for f in "${funcs[@]}"; do
	case_=$(case_of "$f")
	if [[ $f == submit ]]; then
		row --bench P1 --title "runtime API capture cost" --case "$case_, npuprof's submit uprobe capturing" \
			--metric "cost per call (median of $rounds rounds of $calls calls)" --unit ns/call \
			--npuprof "$(med "$f" npuprof)" \
			--baseline "no probe=$(med "$f" none)" --baseline "empty uprobe=$(med "$f" floor)" \
			--ratio "floor=$(med "$f" npuprof floor)" --goal "" --met n/a \
			--note "$emu; ratios are medians of per-round paired ratios" \
			--note "the submit probe (bpf/acl_trace.bpf.c acl_sq_send) has no return half: its floor is an empty uprobe alone; placed on the stand-in's file (npuprof_acl_trace_attach_submits_file), this process selected, one TASK SUBMIT record per SQE" \
			--note "spread over rounds: $(spread "$f" npuprof); $(spread "$f" floor); ratio $(spread "$f" npuprof floor)" \
			--note "last round: ${counts[$f]:-no record count}"
	else
	rf=$(med "$f" npuprof floor) rp=$(med "$f" npuprof btprint) rc=$(med "$f" npuprof btcount)
	why=$bt_why
	[[ $rp == n/a && -z $why ]] && why="runs for aclrtFree only at tiny size"
	met=no
	[[ $(le "$rf" 1.10) == yes && $(le "$rp" 0.625) == yes ]] && met=yes
	[[ $rp == n/a && $(le "$rf" 1.10) == yes ]] && met=n/a
	row --bench P1 --title "runtime API capture cost" --case "$case_, capturing" \
		--metric "cost per call (median of $rounds rounds of $calls calls)" --unit ns/call \
		--npuprof "$(med "$f" npuprof)" \
		--baseline "no probe=$(med "$f" none)" --baseline "empty uprobe+uretprobe=$(med "$f" floor)" \
		--baseline "bpftrace print=$(or_na "$(med "$f" btprint)" "$why")" \
		--baseline "bpftrace count=$(or_na "$(med "$f" btcount)" "$why")" \
		--ratio "floor=$rf" --ratio "bpftrace print=$rp" --ratio "bpftrace count=$rc" \
		--goal "npuprof <= 1.10x floor and <= 1/1.6 (0.625x) of bpftrace print" --met "$met" \
		--note "$emu; ratios are medians of per-round paired ratios" \
		--note "spread over rounds: $(spread "$f" npuprof); $(spread "$f" floor); ratio $(spread "$f" npuprof floor); vs print $(spread "$f" npuprof btprint)" \
		--note "last round: ${counts[$f]:-no record count}"
	fi
	for c in idle stopped; do
		what=$([[ $c == idle ]] && echo "npuprof attached, never started" || echo "npuprof attached, after start+stop")
		rn=$(med "$f" "$c" none_proc)
		# "Equal" to no probe: within 10%; one trap would be >1000x.
		row --bench P1 --title "runtime API capture cost" --case "$case_, $what" \
			--metric "cost per call (median of $rounds rounds)" --unit ns/call --npuprof "$(med "$f" "$c")" \
			--baseline "no probe=$(med "$f" none_proc)" \
			--baseline "empty uprobe$([[ $f == submit ]] || echo +uretprobe)=$(med "$f" floor)" \
			--ratio "no probe=$rn" --ratio "floor=$(ratio "$(med "$f" "$c")" "$(med "$f" floor)")" \
			--goal "equal to no probe (<= 1.10x)" --met "$(le "$rn" 1.10)" \
			--note "$emu; each in its own process, no probe beside the runs of 'none'" \
			--note "spread: $(spread "$f" "$c"); $(spread "$f" none_proc)"
	done
done
for f in "${funcs[@]}"; do
	if [[ $f == submit ]]; then
		row --bench P1 --title "runtime API capture cost" \
			--case "halSqTaskSend: the BPF program's own run time (bpf_stats), entry only (acl_sq_send)" \
			--metric "median of $rounds rounds" --unit ns/call --npuprof "$(med "$f" bpf_ns_npuprof)" \
			--baseline "empty uprobe program=$(med "$f" bpf_ns_floor)" \
			--ratio "empty program=$(med "$f" bpf_ns_npuprof bpf_ns_floor)" --goal "" --met n/a \
			--note "$emu; kernel.bpf_stats run_time_ns / run_cnt: what npuprof adds to each trap, free of the trap's noise" \
			--note "acl_sq_send reads the send info and the SQE header and writes one record per SQE; it keeps nothing in flight" \
			--note "spread: $(spread "$f" bpf_ns_npuprof); $(spread "$f" bpf_ns_floor)"
		continue
	fi
	row --bench P1 --title "runtime API capture cost" \
		--case "$([[ $f == free ]] && echo aclrtFree || echo aclrtLaunchKernel): the BPF programs' own run time (bpf_stats), entry + return" \
		--metric "median of $rounds rounds" --unit ns/call --npuprof "$(med "$f" bpf_ns_npuprof)" \
		--baseline "empty uprobe+uretprobe programs=$(med "$f" bpf_ns_floor)" \
		--baseline "npuprof, calls in flight in the hash map=$(or_na "$(med "$f" bpf_ns_hash)" "host only (TCG time)")" \
		--ratio "empty programs=$(med "$f" bpf_ns_npuprof bpf_ns_floor)" \
		--ratio "hash map=$(med "$f" bpf_ns_npuprof bpf_ns_hash)" --goal "" --met n/a \
		--note "$emu; kernel.bpf_stats run_time_ns / run_cnt: what npuprof adds to each trap, free of the trap's noise" \
		--note "npuprof kept calls in flight in: ${inflight:-?} (task: task-local storage); the hash-map baseline is its fallback for kernels before 5.12 or without BTF, in a second process each round" \
		--note "spread: $(spread "$f" bpf_ns_npuprof); $(spread "$f" bpf_ns_floor); hash map $(spread "$f" bpf_ns_hash)"
done
for w in start stop; do
	row --bench P1 --title "runtime API capture cost" \
		--case "npuprof $w latency (enable($([[ $w == start ]] && echo 1 || echo 0))), 1 process attached" \
		--metric "median of $((rounds * 2)) ${w}s" --unit us --npuprof "$(med "${funcs[0]}" "${w}_us")" \
		--baseline "n/a=n/a: bpftrace has no start/stop" --goal "" --met n/a \
		--note "$emu; probes placed at start, removed at stop ($([[ $BENCH_WHERE == vm ]] && echo "one link per probe, 6.1" || echo "uprobe_multi links"))" \
		--note "spread: $(spread free "${w}_us"); launch $(spread launch "${w}_us")"
done
exit 0
