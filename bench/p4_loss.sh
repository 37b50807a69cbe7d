#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# where: host vm
#
# On the host (no module can load there) the same method runs the real
# drain at hardware speed: build/bench/p4_host feeds it from an in-memory
# ring of the kmod layout and default size, written by a paced producer
# thread; see bench/src/p4_host.c.  In the VM the producer is the module
# path below, and TCG bounds the figure (the hook and the drain run
# emulated, tens of times slower than hardware).
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
#
# Every window runs twice, back to back, with the order alternating from
# one rate to the next: on the io_uring writer and on the pwrite fallback
# writer (NPUPROF_WRITER=pwrite: ppoll and a pwrite(2) writer thread).
# The fallback gets a row of its own beside io_uring's, with no goal.
source "$(dirname "$0")/lib.bash"

field() { sed -n "s/.*\b$1=\([^ ]*\).*/\1/p" <<<"$2"; }

WRITERS="io_uring pwrite"
# Per writer, over its windows: the highest zero-loss rate, 1 while every
# window counted loss exactly, windows run, what each gave, the unpaced
# rate, the drain's CPU ns per record at 1 M/s (host).
declare -A best exact_all points details unpaced cpu_ns
for w in $WRITERS; do best[$w]=0 exact_all[$w]=1 points[$w]=0 details[$w]= unpaced[$w]= cpu_ns[$w]=; done

# writers_for I: both writers, the first one alternating with I.
writers_for() { (($1 % 2)) && echo "pwrite io_uring" || echo "$WRITERS"; }

# tally WRITER ASKED ACHIEVED PRODUCED WRITTEN LOST EXACT [CPU_NS]: one
# window's figures into WRITER's.
tally() {
	local w=$1 asked=$2 achieved=$3 produced=$4 written=$5 lost=$6 exact=$7 cpu=${8:-}
	points[$w]=$((${points[$w]} + 1))
	((exact)) || exact_all[$w]=0
	[[ $asked == 0 ]] && unpaced[$w]=$achieved
	((lost == 0 && asked != 0 && asked > ${best[$w]})) && best[$w]=$asked
	[[ $asked == 1000000 ]] && cpu_ns[$w]=$cpu
	details[$w]+="${asked/#0/unpaced}: ${achieved}/s produced $produced written $written lost $lost${cpu:+ drain CPU $cpu ns/record}; "
}

# pwrite_row HOW NOTE ROW_ARGS...: the fallback writer's threshold row,
# beside io_uring's, with no goal; its note says whether its windows
# counted loss exactly (the exact row judges io_uring's).
pwrite_row() {
	local how=$1 note=$2 exact
	shift 2
	exact=$([[ ${exact_all[pwrite]} == 1 ]] && echo "all" || echo "NOT all")
	row --bench P4 --title "loss threshold" \
		--case "same rates, pwrite fallback writer ($how)" \
		--metric "highest zero-loss rate" --unit "records/s" --npuprof "${best[pwrite]}" \
		--baseline "io_uring writer (the row above)=${best[io_uring]}" \
		--ratio "io_uring writer (the row above)=$(ratio "${best[pwrite]}" "${best[io_uring]}")" \
		"$@" --met n/a \
		--note "the fallback's cost, no goal: each rate's window runs on both writers back to back, alternating which goes first; $note; loss counted exactly (produced - written = lost) in $exact ${points[pwrite]} pwrite windows" \
		--note "${details[pwrite]}"
}

# keep_up WRITER: records/s one free core keeps up with, from the 1 M/s window's CPU.
keep_up() { python3 -c "print(round(1e9 / float('${cpu_ns[$1]:-x}')))" 2>/dev/null || echo "n/a: no 1 M/s window"; }

# The host: real drain, memory ring producer.  Rows as in the VM.
host_main() {
	local rates secs cpu=0 rate count line w i=0 work met keep_up_io keep_up_pw
	rates=$(tiny_or_full "100000 1000000" "250000 500000 1000000 2000000 4000000 8000000")
	secs=$(tiny_or_full 0.2 2)
	[[ -x build/bench/p4_host ]] || { bench_log "build/bench/p4_host missing: run make"; exit 1; }
	work=$(mktemp -d)
	for rate in $rates 0; do
		count=$(python3 -c "print(max(20000, int($rate * $secs)))")
		[[ $rate == 0 ]] && count=$(tiny_or_full 200000 8000000)
		for w in $(writers_for $((i++))); do
			rm -rf "${work:?}"/*
			line=$(NPUPROF_WRITER=$w build/bench/p4_host "$work" "$count" "$rate" "$cpu") ||
				{ bench_log "rate $rate, $w writer: p4_host failed"; exact_all[$w]=0; continue; }
			bench_log "host rate $rate: $line"
			[[ $(field writer "$line") == "$w" ]] ||
				{ bench_log "rate $rate: asked for the $w writer, the drain ran $(field writer "$line")"; exact_all[$w]=0; continue; }
			tally "$w" "$rate" "$(field rate "$line")" "$(field produced "$line")" \
				"$(field written "$line")" "$(field lost "$line")" "$(field exact "$line")" \
				"$(field drain_cpu_ns_per_record "$line")"
		done
	done
	rm -rf "$work"
	keep_up_io=$(keep_up io_uring) keep_up_pw=$(keep_up pwrite)
	met=$([[ ${best[io_uring]} -ge 1000000 ]] && echo yes || echo no)
	row --bench P4 --title "loss threshold" \
		--case "memory ring of the kmod layout (1 MiB, 64 KiB watermark) paced on CPU $cpu, $secs s per rate, real drain" \
		--metric "highest zero-loss rate" --unit "records/s" --npuprof "${best[io_uring]}" \
		--baseline "producer unpaced (drain cannot keep up)=${unpaced[io_uring]:-n/a: failed}" \
		--baseline "drain keep-up on one free core, 1e9 / drain CPU ns per record at 1 M/s=$keep_up_io" \
		--goal "zero loss at >= 1 M records/s sustained" --met "$met" \
		--note "rates tried: $rates (a rate counts only if nothing was lost); the producer is a memcpy into the ring, so the figure is the drain's keep-up rate (io_uring + zstd level 3 + slices, session defaults)" \
		--note "the machine is shared (2 cores, other jobs): the wall-clock threshold depends on the CPU the drain gets; its CPU time per record (process CPU less the producer thread's: the drain thread and io_uring's io-wq workers) does not" \
		--note "${details[io_uring]}"
	pwrite_row "NPUPROF_WRITER=pwrite: ppoll + a pwrite(2) writer thread" \
		"drain CPU = process CPU less the producer thread's, so the drain thread plus the pwrite writer thread (io_uring: plus its io-wq workers)" \
		--baseline "pwrite drain keep-up on one free core, 1e9 / drain CPU ns per record at 1 M/s=$keep_up_pw" \
		--baseline "io_uring drain keep-up, likewise=$keep_up_io" \
		--ratio "keep-up, pwrite / io_uring=$(ratio "$keep_up_pw" "$keep_up_io")"
	row --bench P4 --title "loss threshold" \
		--case "same windows (host): produced - written = lost" \
		--metric "windows counted exactly" --unit windows --npuprof "${exact_all[io_uring]}" \
		--goal "loss counted exactly, to the record, in every window (1 = all ${points[io_uring]})" \
		--met "$([[ ${exact_all[io_uring]} == 1 ]] && echo yes || echo no)" \
		--note "written = task records read back from the slices, each once and in order; lost = the drain's loss total (what the session reports); io_uring windows (the pwrite row notes its own)"
}
[[ $BENCH_WHERE == host ]] && { host_main; exit 0; }

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

# The producer alone: nothing attached, flat out.
n=$(tiny_or_full 20000 1000000)
line=$(build/bench/p2_event none "$n" "$CPU") || exit 1
hook_rate=$(python3 -c "print(round(1e9 / float('$(field ns_per_event "$line")')))")
bench_log "hook alone: $line ($hook_rate events/s)"
insmod build/kmod/npuprof.ko || exit 1

# point WRITER RATE: one window on WRITER; echoes "rate achieved produced
# written lost exact".
point() {
	local w=$1 rate=$2 count line dir written exact
	count=$(python3 -c "print(max(20000, int($rate * $SECONDS_PER_RATE)))")
	[[ $rate == 0 ]] && count=$(tiny_or_full 20000 1000000)
	line=$(NPUPROF_WRITER=$w build/bench/p4_loss "$work" "$count" "$rate" "$CPU") || return 1
	dir=$(field prof_dir "$line")
	if ! grep -Eq "\"writer\": *\"$w\"" "$dir/host/info.json"; then
		bench_log "rate $rate: asked for the $w writer, $dir/host/info.json says: $(grep -Eo '"writer": *"[^"]*"' "$dir/host/info.json")"
		rm -rf "$dir"
		return 1
	fi
	written=$(build/bin/npuprof-dump "$dir" | grep -c '"type":"task"')
	exact=$(($(field produced "$line") - written == $(field lost "$line") ? 1 : 0))
	bench_log "rate $rate, $w writer: $line written=$written exact=$exact"
	echo "$rate $(field rate "$line") $(field produced "$line") $written $(field lost "$line") $exact"
	rm -rf "$dir"
}

i=0
for rate in $RATES 0; do
	for w in $(writers_for $((i++))); do
		p=$(point "$w" "$rate") || { bench_log "rate $rate, $w writer: p4_loss failed"; exact_all[$w]=0; continue; }
		# shellcheck disable=SC2086 # the six figures, as words
		tally "$w" $p
	done
done

met=$([[ ${best[io_uring]} -ge 1000000 ]] && echo yes || echo no)
row --bench P4 --title "loss threshold" \
	--case "npusim_task_end paced on CPU $CPU, ${SECONDS_PER_RATE} s per rate, default rings, real drain" \
	--metric "highest zero-loss rate" --unit "records/s" --npuprof "${best[io_uring]}" \
	--baseline "hook alone, nothing attached=$hook_rate" \
	--baseline "hook with capture, unpaced=${unpaced[io_uring]:-n/a: failed}" \
	--goal "zero loss at >= 1 M records/s sustained" --met "$met" \
	--note "rates tried: $RATES (a rate counts only if the hook reached it and nothing was lost)" \
	--note "bounded by TCG: the hook, the probe and the user-space drain all run emulated (the drain keeps up with tens of k records/s here); the host P4 row runs the same drain at hardware speed" \
	--note "${details[io_uring]}"
pwrite_row "NPUPROF_WRITER=pwrite: ppoll + a pwrite(2) writer thread" "bounded by TCG as the row above" \
	--baseline "hook with capture, unpaced, pwrite=${unpaced[pwrite]:-n/a: failed}" \
	--baseline "hook with capture, unpaced, io_uring=${unpaced[io_uring]:-n/a: failed}" \
	--ratio "unpaced, pwrite / io_uring=$(ratio "${unpaced[pwrite]}" "${unpaced[io_uring]}")"
row --bench P4 --title "loss threshold" \
	--case "same windows: produced - written = lost" \
	--metric "windows counted exactly" --unit windows --npuprof "${exact_all[io_uring]}" \
	--goal "loss counted exactly, to the record, in every window (1 = all ${points[io_uring]})" \
	--met "$([[ ${exact_all[io_uring]} == 1 ]] && echo yes || echo no)" \
	--note "written = task records npuprof-dump reads from the slices; lost = the session's total at stop (info.json); io_uring windows (the pwrite row notes its own)"
