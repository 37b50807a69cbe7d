#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# where: vm
#
# P4 loss threshold: the highest sustained event rate the real capture path
# (npuprof_session: npuprof.ko rings at the default ring_pages, the
# io_uring + zstd drain, PROF_XXX slices) takes with zero loss, and beyond
# it whether loss is counted exactly: produced (events the npusim hook
# fired) - written (task records in the slices, counted by npuprof-dump)
# = lost (as the session reports it at stop, the figure info.json and
# msprof's stop line carry), to the record.
# The hook is paced at increasing rates (busy-wait, sim/driver/npusim_bench.c)
# by one writer on CPU 1; the drain runs wherever the scheduler puts it.
# What bounds the rate under emulation is measured too: the hook's own
# maximum rate with nothing attached, and the rate it reaches with the
# capture attached and no pacing.
source "$(dirname "$0")/lib.bash"

NCPU=$(nproc)
CPU=$((NCPU > 1 ? 1 : 0))
SECONDS_PER_RATE=$(tiny_or_full 0.2 2)
RATES=$(tiny_or_full "25000 400000" "12500 25000 50000 100000 200000 400000 800000 1600000")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for f in build/kmod/npusim.ko build/kmod/npuprof.ko build/bench/p4_loss \
	build/bench/p2_event build/bin/npuprof-dump; do
	[[ -e $f ]] || { bench_log "$f missing: run make"; exit 1; }
done
rmmod npuprof 2>/dev/null
rmmod npusim 2>/dev/null
insmod build/kmod/npusim.ko || exit 1

field() { sed -n "s/.*\b$1=\([^ ]*\).*/\1/p" <<<"$2"; }

# The producer alone: nothing attached, flat out.
n=$(tiny_or_full 20000 1000000)
line=$(build/bench/p2_event none "$n" "$CPU") || exit 1
hook_rate=$(python3 -c "print(round(1e9 / float('$(field ns_per_event "$line")')))")
bench_log "hook alone: $line ($hook_rate events/s)"
insmod build/kmod/npuprof.ko || exit 1

# point RATE: one window; echoes "rate achieved produced written lost exact".
point() {
	local rate=$1 count line dir written exact
	count=$(python3 -c "print(max(20000, int($rate * $SECONDS_PER_RATE)))")
	[[ $rate == 0 ]] && count=$(tiny_or_full 20000 1000000)
	line=$(build/bench/p4_loss "$work" "$count" "$rate" "$CPU") || return 1
	dir=$(field prof_dir "$line")
	written=$(build/bin/npuprof-dump "$dir" | grep -c '"type":"task"')
	exact=$(($(field produced "$line") - written == $(field lost "$line") ? 1 : 0))
	bench_log "rate $rate: $line written=$written exact=$exact"
	echo "$rate $(field rate "$line") $(field produced "$line") $written $(field lost "$line") $exact"
	rm -rf "$dir"
}

best=0 exact_all=1 points=0 details=""
for rate in $RATES 0; do
	p=$(point "$rate") || { bench_log "rate $rate: p4_loss failed"; exact_all=0; continue; }
	read -r asked achieved produced written lost exact <<<"$p"
	points=$((points + 1))
	((exact)) || exact_all=0
	[[ $asked == 0 ]] && unpaced=$achieved
	((lost == 0 && asked != 0 && asked > best)) && best=$asked
	details+="${asked/#0/unpaced}: ${achieved}/s produced $produced written $written lost $lost; "
done

met=$([[ $best -ge 1000000 ]] && echo yes || echo no)
row --bench P4 --title "loss threshold" \
	--case "npusim_task_end paced on CPU $CPU, ${SECONDS_PER_RATE} s per rate, default rings, real drain" \
	--metric "highest zero-loss rate" --unit "records/s" --npuprof "$best" \
	--baseline "hook alone, nothing attached=$hook_rate" \
	--baseline "hook with capture, unpaced=${unpaced:-n/a: failed}" \
	--goal "zero loss at >= 1 M records/s sustained" --met "$met" \
	--note "rates tried: $RATES (a rate counts only if the hook reached it and nothing was lost)" \
	--note "$details"
row --bench P4 --title "loss threshold" \
	--case "same windows: produced - written = lost" \
	--metric "windows counted exactly" --unit windows --npuprof "$exact_all" \
	--goal "loss counted exactly, to the record, in every window (1 = all $points)" \
	--met "$([[ $exact_all == 1 ]] && echo yes || echo no)" \
	--note "written = task records npuprof-dump reads from the slices; lost = the session's total at stop (info.json)"
