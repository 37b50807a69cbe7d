#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# where: host
#
# P3 drain throughput: records per second per core through the real drain
# (ring read, routing, zstd, io_uring writes, slices and .done), fed from
# in-memory rings of npuprof.ko's layout by producer threads running flat
# out (build/bench/p3_drain, bench/src/p3_drain.c).  Baselines on the same
# record bytes in the same run, interleaved round by round: zstd level 1
# through the library (4 MiB chunks), the zstd -1 command on the raw file,
# and a plain read+write copy.  CPU time, not wall time, so the figures are
# per core whatever else loads the machine.
source "$(dirname "$0")/lib.bash"

records=$(tiny_or_full 200000 8000000)
rounds=$(tiny_or_full 1 3)
scratch=$BENCH_OUT/p3-scratch
rm -rf "$scratch" && mkdir -p "$scratch" || exit 1
log=$BENCH_OUT/logs/p3.drain.txt

bench_log "drain of $records task records, $rounds rounds, in $scratch"
build/bench/p3_drain "$scratch" "$records" "$rounds" | tee "$log" >&2 || exit 1
get() { sed -n "s/^$1=//p" "$log"; }

# The zstd command on the same bytes: its own CPU time (user + system).
cli_ns=n/a
if have zstd; then
	t=$( { /usr/bin/time -f '%U %S' zstd -q -1 -c "$scratch/raw.bin" >/dev/null; } 2>&1 | tail -n 1)
	cli_ns=$(python3 -c 'import sys; u, s = map(float, sys.argv[1].split()); print(f"{(u + s) * 1e9 / int(sys.argv[2]):.2f}")' "$t" "$records")
fi
rm -rf "$scratch"

# M records/s per core from CPU ns per record.
mrate() { python3 -c 'import sys; print(f"{1e3 / float(sys.argv[1]):.3g}" if sys.argv[1] != "n/a" else "n/a")' "$1"; }
drain=$(mrate "$(get drain_ns)") zlib=$(mrate "$(get zstd1_ns)") copy=$(mrate "$(get copy_ns)")
zcli=$(mrate "$cli_ns")
met=$(python3 -c 'import sys; d, z = float(sys.argv[1]), float(sys.argv[2]); print("yes" if d >= 10 and d >= z / 1.5 else "no")' "$drain" "$zlib")
row --bench P3 --title "drain throughput" \
	--case "88-byte task records, 2 rings, flat-out producers, $records records" \
	--metric "records per CPU-second of the drain" --unit "M records/s/core" \
	--npuprof "$drain" \
	--baseline "zstd -1 (library, 4 MiB chunks)=$zlib" \
	--baseline "zstd -1 (command)=$( [[ $zcli == n/a ]] && echo "n/a: zstd not installed" || echo "$zcli")" \
	--baseline "read+write copy=$copy" \
	--ratio "zstd -1 (library, 4 MiB chunks)=$(ratio "$drain" "$zlib")" \
	--ratio "zstd -1 (command)=$(ratio "$drain" "$zcli")" \
	--ratio "read+write copy=$(ratio "$drain" "$copy")" \
	--goal ">= 10 M records/s/core and >= 0.67x zstd -1 (within 1.5x its cost)" --met "$met" \
	--note "drain CPU = process CPU less the producer threads' (drain thread + io_uring workers); median of $rounds interleaved rounds"
row --bench P3 --title "drain throughput" \
	--case "same records: bytes written per record" --metric "bytes on disk per record" \
	--unit "bytes/record" --npuprof "$(get drain_bytes_per_rec)" \
	--baseline "raw record=$(get raw_bytes_per_rec)" \
	--baseline "zstd -1 (library, 4 MiB chunks)=$(get zstd1_bytes_per_rec)" \
	--ratio "raw record=$(ratio "$(get drain_bytes_per_rec)" "$(get raw_bytes_per_rec)")" \
	--ratio "zstd -1 (library, 4 MiB chunks)=$(ratio "$(get drain_bytes_per_rec)" "$(get zstd1_bytes_per_rec)")" \
	--met n/a --note "synthetic task records (tests/unit/taskgen.h); P5 measures the demo workload"
