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
# Two functions: aclrtFree(NULL) (cheapest, no device) and aclrtLaunchKernel
# on an unknown handle (the launch's entry+return with its argument reads;
# no device either, so the same figures come from the host and the VM).
#
# The cases run in rounds, interleaved, and each figure is the minimum over
# the rounds (the machine is shared: the minimum is the least disturbed
# run); the spread (min..max) is in the notes.  In the VM, traps cost ~30x
# under software emulation: only the ratios mean anything there.
source "$(dirname "$0")/lib.bash"

loop=build/bench/p1_api_loop
lib=$(realpath build/lib/libascendcl.so)
[[ -x $loop ]] || { bench_log "$loop missing: make bench-progs"; exit 1; }
if [[ $BENCH_WHERE == vm ]]; then
	calls=$(tiny_or_full 2000 20000) rounds=$(tiny_or_full 1 3)
else
	calls=$(tiny_or_full 3000 50000) rounds=$(tiny_or_full 1 3)
fi
# bpftrace compiles its program with LLVM at start: minutes under TCG.
bt_ok=1 bt_why=""
if ! have bpftrace; then
	bt_ok=0 bt_why="bpftrace not installed"
elif [[ $BENCH_WHERE == vm && $BENCH_SIZE == tiny ]]; then
	bt_ok=0 bt_why="skipped at tiny size in the VM (LLVM start-up under TCG)"
fi

declare -A fig extra
# note VALUE for CASE/FUNC: keep all rounds' figures, space-separated.
add() { fig[$1]="${fig[$1]:-} $2"; }

# loop_case CASE FUNC: one run of the loop; its figures into fig/extra.
loop_case() {
	local out
	out=$("$loop" "$1" "$2" "$calls" 2>>"$BENCH_OUT/logs/p1.$BENCH_WHERE.err") || {
		bench_log "$1 $2 failed (see $BENCH_OUT/logs/p1.$BENCH_WHERE.err)"; return 1; }
	bench_log "$1 $2: $out"
	add "$1/$2" "$(sed -n 's/.*ns_per_call=\([0-9.]*\).*/\1/p' <<<"$out")"
	if [[ $out == *start_us=* && $1 != idle ]]; then
		add start "$(sed -n 's/.*start_us=\([0-9.]*\).*/\1/p' <<<"$out")"
		add stop "$(sed -n 's/.*stop_us=\([0-9.]*\).*/\1/p' <<<"$out")"
	fi
	[[ $out == *records=* ]] && extra["rec/$2"]=$(grep -o 'records=[0-9]* expected=[0-9]* lost=[0-9]*' <<<"$out")
	return 0
}

# bpftrace_case KIND FUNC: the loop with bpftrace attached (KIND print|count).
bpftrace_case() {
	local sym prog log=$BENCH_OUT/logs/p1.bpftrace.$BENCH_WHERE.out pid i
	sym=$([[ $2 == launch ]] && echo aclrtLaunchKernel || echo aclrtFree)
	if [[ $1 == print ]]; then
		prog="uprobe:$lib:$sym { printf(\"enter %d %d\\n\", tid, nsecs); }
		      uretprobe:$lib:$sym { printf(\"exit %d %d %d\\n\", tid, nsecs, retval); }"
	else
		prog="uprobe:$lib:$sym { @enter = count(); } uretprobe:$lib:$sym { @exit = count(); }"
	fi
	bpftrace -e "$prog" >"$log" 2>&1 &
	pid=$!
	for ((i = 0; i < 600; i++)); do
		grep -q '^Attaching' "$log" 2>/dev/null && break
		sleep 0.2
	done
	sleep 0.5
	loop_case none "$2" && fig["bt$1/$2"]="${fig[bt$1/$2]:-} ${fig[none/$2]##* }"
	# loop_case added its figure to none/FUNC: take it back out.
	fig["none/$2"]=${fig[none/$2]% *}
	kill -INT "$pid"
	wait "$pid"
	bench_log "bpftrace $1 $2: $(tail -c 300 "$log" | tr '\n' ' ')"
}

for ((r = 0; r < rounds; r++)); do
	for f in free launch; do
		for c in none floor npuprof idle stopped; do
			loop_case "$c" "$f"
		done
		if ((bt_ok)); then
			bpftrace_case print "$f"
			bpftrace_case count "$f"
		fi
	done
done

# stat KEY min|max|med: over the rounds' figures ("" when none).
stat() {
	python3 -c 'import sys
v = [float(x) for x in sys.argv[2].split()]
v.sort()
f = {"min": v[0], "max": v[-1], "med": v[len(v) // 2]} if v else {}
print(f"{f[sys.argv[1]]:.4g}" if v else "")' "$2" "${fig[$1]:-}"
}
spread() { echo "$1 $(stat "$1" min)..$(stat "$1" max)"; }
val() { local v; v=$(stat "$1" min); echo "${v:-n/a: did not run}"; }
# le A B LIMIT: yes when A/B <= LIMIT.
le() { python3 -c 'import sys
try: print("yes" if float(sys.argv[1]) / float(sys.argv[2]) <= float(sys.argv[3]) else "no")
except (ValueError, ZeroDivisionError): print("n/a")' "$1" "$2" "$3"; }

emu=$([[ $BENCH_WHERE == vm ]] && echo "VM under TCG: traps ~30x, ratios only" || echo "host kernel, shared 2-core machine")
for f in free launch; do
	case_=$([[ $f == free ]] && echo "aclrtFree(NULL) loop, 1 thread" || echo "aclrtLaunchKernel(unknown handle) loop, 1 thread")
	np=$(val "npuprof/$f") floor=$(val "floor/$f") none=$(val "none/$f")
	if ((bt_ok)); then
		btp=$(val "btprint/$f") btc=$(val "btcount/$f")
	else
		btp="n/a: $bt_why" btc="n/a: $bt_why"
	fi
	rf=$(ratio "$np" "$floor") rp=$(ratio "$np" "${btp%%:*}") rc=$(ratio "$np" "${btc%%:*}")
	met=no
	[[ $(le "$np" "$floor" 1.10) == yes && $(le "$np" "${btp%%:*}" 0.625) == yes ]] && met=yes
	[[ $rp == n/a ]] && met=$([[ $(le "$np" "$floor" 1.10) == yes ]] && echo n/a || echo no)
	row --bench P1 --title "runtime API capture cost" --case "$case_, capturing" \
		--metric "cost per call (min of $rounds rounds, $calls calls)" --unit ns/call --npuprof "$np" \
		--baseline "no probe=$none" --baseline "empty uprobe+uretprobe=$floor" \
		--baseline "bpftrace print=$btp" --baseline "bpftrace count=$btc" \
		--ratio "floor=$rf" --ratio "bpftrace print=$rp" --ratio "bpftrace count=$rc" \
		--goal "npuprof <= 1.10x floor and <= 1/1.6 (0.625x) of bpftrace print" --met "$met" \
		--note "$emu" --note "spread: $(spread "npuprof/$f"); $(spread "floor/$f"); $(spread "none/$f")" \
		--note "${extra[rec/$f]:-no record count}"
	for c in idle stopped; do
		v=$(val "$c/$f")
		what=$([[ $c == idle ]] && echo "npuprof attached, never started" || echo "npuprof attached, after start+stop")
		# "Equal" to no probe: within 10% or 5 ns of it, far below one trap.
		met=$(python3 -c 'import sys
try: a, b = float(sys.argv[1]), float(sys.argv[2]); print("yes" if a <= max(b * 1.10, b + 5) else "no")
except ValueError: print("n/a")' "$v" "$none")
		row --bench P1 --title "runtime API capture cost" --case "$case_, $what" \
			--metric "cost per call (min of $rounds rounds)" --unit ns/call --npuprof "$v" \
			--baseline "no probe=$none" --baseline "empty uprobe+uretprobe=$floor" \
			--ratio "no probe=$(ratio "$v" "$none")" --ratio "floor=$(ratio "$v" "$floor")" \
			--goal "equal to no probe (<= 1.10x or +5 ns)" --met "$met" \
			--note "$emu" --note "spread: $(spread "$c/$f")"
	done
done
for w in start stop; do
	row --bench P1 --title "runtime API capture cost" --case "npuprof $w latency (enable $([[ $w == start ]] && echo 1 || echo 0)), attached to the loop's process" \
		--metric "median of $((rounds * 4)) ${w}s" --unit us --npuprof "$(stat "$w" med)" \
		--baseline "n/a=n/a: no baseline (bpftrace has no start/stop)" --goal "" --met n/a \
		--note "$emu" --note "spread: $(spread "$w")"
done
exit 0
