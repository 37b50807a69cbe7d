#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# where: host vm
#
# P3 drain throughput: records per second per core through the real drain
# (ring read, routing, zstd, io_uring writes, slices and .done), fed from
# in-memory rings of npuprof.ko's layout by producer threads running flat
# out (build/bench/p3_drain, bench/src/p3_drain.c).  Baselines on the same
# record bytes in the same run, interleaved round by round: zstd level 1
# through the library (4 MiB chunks), the zstd -1 command on the raw file,
# and a plain read+write copy.  CPU time, not wall time, so the figures are
# per core whatever else loads the machine.
#
# A row of its own, with no goal: the same drain on the pwrite fallback
# writer (ppoll and a pwrite(2) writer thread, where io_uring is refused),
# on the same records in the same rounds, against the io_uring drain.
# Both are charged the drain thread and the threads their writer runs
# (io_uring's io-wq workers, or the pwrite writer thread).
#
# In the VM the records come from the real capture path instead:
# npuprof.ko following the benchmark program while npusim.ko's hook
# (/sys/kernel/debug/npusim/bench) fires npusim_task_end flat out on the
# last CPU, the drain reading the module's rings as the session does; the
# baselines run on the records it drained.  TCG emulates every
# instruction, so VM figures only compare with each other.
source "$(dirname "$0")/lib.bash"

if [[ $BENCH_WHERE == vm ]]; then
	records=$(tiny_or_full 50000 150000)
	mode=kmod
	case_text="npusim_task_end records via npuprof.ko, hook on the last CPU as fast as the drain takes them"
	insmod build/kmod/npusim.ko || exit 1
	insmod build/kmod/npuprof.ko || exit 1
else
	records=$(tiny_or_full 200000 8000000)
	mode=
	case_text="88-byte task records, 2 rings, flat-out producers"
fi
rounds=$(tiny_or_full 1 3)
scratch=$BENCH_OUT/p3-scratch
rm -rf "$scratch" && mkdir -p "$scratch" || exit 1
log=$BENCH_OUT/logs/p3.drain.$BENCH_WHERE.txt

bench_log "drain of $records task records, $rounds rounds, in $scratch"
build/bench/p3_drain "$scratch" "$records" "$rounds" $mode | tee "$log" >&2 || exit 1
get() { sed -n "s/^$1=//p" "$log"; }
records=$(get records)

# The zstd command on the same bytes: its own CPU time (user + system).
cli_ns=n/a
if have zstd; then
	t=$( { /usr/bin/time -f '%U %S' zstd -q -1 -c "$scratch/raw.bin" >/dev/null; } 2>&1 | tail -n 1)
	cli_ns=$(python3 -c 'import sys; u, s = map(float, sys.argv[1].split()); print(f"{(u + s) * 1e9 / int(sys.argv[2]):.2f}")' "$t" "$records")
fi
rm -rf "$scratch"
if [[ $BENCH_WHERE == vm ]]; then
	rmmod npuprof
	rmmod npusim
fi

# M records/s per core from CPU ns per record.
mrate() { python3 -c 'import sys; print(f"{1e3 / float(sys.argv[1]):.3g}" if sys.argv[1] != "n/a" else "n/a")' "$1"; }
drain=$(mrate "$(get drain_ns)") zlib=$(mrate "$(get zstd1_ns)") copy=$(mrate "$(get copy_ns)")
pw=$(mrate "$(get pwrite_ns)")
zcli=$(mrate "$cli_ns")
met=$(python3 -c 'import sys; d, z = float(sys.argv[1]), float(sys.argv[2]); print("yes" if d >= 10 and d >= z / 1.5 else "no")' "$drain" "$zlib")
# The copy baseline's CPU time is a few ms per round: scheduler and page
# cache noise moves it by tens of percent between rounds.
spread=$(python3 -c 'import sys, re
v = [float(m) for m in re.findall(r"copy_ns=([0-9.]+)", open(sys.argv[1]).read())]
print(f"{(max(v) - min(v)) / min(v) * 100:.0f}" if len(v) > 1 and min(v) > 0 else "n/a")' "$log")
# Records the module's rings lost, over the rounds of WRITER's drains.
lost_of() { awk -v w="writer=$1" -F'lost=' '$0 ~ "^" w " " { s += $2 } END { print s + 0 }' "$log"; }
# pwrite / io_uring records per CPU-second, round by round.
pw_rounds=$(python3 -c 'import sys, re
r = re.findall(r"drain_ns=([0-9.]+) pwrite_ns=([0-9.]+)", open(sys.argv[1]).read())
print(", ".join(f"{float(d) / float(p):.3g}x" for d, p in r if float(p) > 0) or "n/a")' "$log")
lost=$(lost_of io_uring)
vm_note= pw_vm_note=
[[ $BENCH_WHERE == vm ]] && vm_note="; TCG: compare only with the VM baselines; the hook waits while the rings hold 5000 records, so the drain limits the rate ($lost lost)" &&
	pw_vm_note="; TCG: the hook fires the same count into each writer's drain, paced by it ($(lost_of pwrite) lost on pwrite, $lost on io_uring)"
row --bench P3 --title "drain throughput" \
	--case "$case_text, $records records" \
	--metric "records per CPU-second of the drain" --unit "M records/s/core" \
	--npuprof "$drain" \
	--baseline "zstd -1 (library, 4 MiB chunks)=$zlib" \
	--baseline "zstd -1 (command)=$( [[ $zcli == n/a ]] && echo "n/a: zstd not installed" || echo "$zcli")" \
	--baseline "read+write copy=$copy" \
	--ratio "zstd -1 (library, 4 MiB chunks)=$(ratio "$drain" "$zlib")" \
	--ratio "zstd -1 (command)=$(ratio "$drain" "$zcli")" \
	--ratio "read+write copy=$(ratio "$drain" "$copy")" \
	--goal ">= 10 M records/s/core and >= 0.67x zstd -1 (within 1.5x its cost)" --met "$met" \
	--note "drain CPU = process CPU less the producers' (drain thread + io_uring workers); met uses the library zstd -1 figure (same 4 MiB chunks as the goal's zstd -1; the command adds process start and file I/O); median of $rounds interleaved rounds; read+write copy varies ${spread}% between rounds (few ms of CPU), read its ratio as an order of magnitude$vm_note"
row --bench P3 --title "drain throughput" \
	--case "same records, pwrite fallback writer (ppoll + a pwrite(2) writer thread)" \
	--metric "records per CPU-second of the drain" --unit "M records/s/core" \
	--npuprof "$pw" \
	--baseline "io_uring drain (the row above)=$drain" \
	--baseline "zstd -1 (library, 4 MiB chunks)=$zlib" \
	--ratio "io_uring drain (the row above)=$(ratio "$pw" "$drain")" \
	--ratio "zstd -1 (library, 4 MiB chunks)=$(ratio "$pw" "$zlib")" \
	--met n/a \
	--note "the fallback's cost, no goal: drain CPU = process CPU less the producers' and the main thread's, so the drain thread plus the pwrite writer thread (the io_uring row: the drain thread plus io_uring's io-wq workers); same records, same rounds, the two writers alternating which runs first; median of $rounds rounds; pwrite / io_uring round by round: $pw_rounds$pw_vm_note"
row --bench P3 --title "drain throughput" \
	--case "same records: bytes written per record" --metric "bytes on disk per record" \
	--unit "bytes/record" --npuprof "$(get drain_bytes_per_rec)" \
	--baseline "raw record=$(get raw_bytes_per_rec)" \
	--baseline "zstd -1 (library, 4 MiB chunks)=$(get zstd1_bytes_per_rec)" \
	--ratio "raw record=$(ratio "$(get drain_bytes_per_rec)" "$(get raw_bytes_per_rec)")" \
	--ratio "zstd -1 (library, 4 MiB chunks)=$(ratio "$(get drain_bytes_per_rec)" "$(get zstd1_bytes_per_rec)")" \
	--met n/a --note "$( [[ $BENCH_WHERE == vm ]] && echo "hook records (task id +1, dev_ts +50 each: near-ideal for the delta coding)" || echo "synthetic task records (tests/unit/taskgen.h)"); P5 measures the demo workload"
