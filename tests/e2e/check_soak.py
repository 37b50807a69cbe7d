#!/usr/bin/env python3
"""Check the soak's resource figures for growth (tests/e2e/soak.sh).

Usage: check_soak.py OUT
  OUT/cycles/mem.tsv   cycle, msprof VmRSS kB, VmHWM kB, open fds,
                       RssAnon kB, RssFile kB, after each start/stop
                       window of one msprof session
  OUT/loads/kmem.tsv   round, Slab kB, SUnreclaim kB, VmallocUsed kB after
                       each rmmod of npuprof.ko (round 0: before the first
                       insmod), and npuprof.ko's refcount once the round's
                       msprof had exited

The first quarter of the rows is warm-up; early is the second quarter,
late the last one.  Warm-up, because memory that is sized once and then
reused is not a leak: in the 200-window runs msprof's VmRSS takes one step
of about 3 MB around window 35 (the same window in every run, about when
the 1 MiB kernel rings first wrap) and then stays flat to the kB for the
160 windows after.  What must hold:
  - open fds: late min <= early max.  Descriptors are counted exactly and
    sampled once msprof said the window is saved; a descriptor left open
    per window raises every later sample, so no slack is needed, and a
    file still open at one sample (a single 94 among 93s, once in 200
    windows before the sampling waited for that line) is not a leak.
  - VmRSS: late mean - early mean <= 256 kB, and VmHWM: last - early max
    <= 256 kB.  RSS moves in pages as malloc trims and touches its heap
    and arenas; in the runs measured it moved by at most a few dozen kB.
    256 kB is 64 pages: a leak of 1.3 kB per window (a record batch, a
    path string per window) shows over 200 windows; the 10-window run of
    make check catches only leaks of 25 kB or more a window.
  - npuprof.ko refcount after msprof exited: 0 every round.
  - SUnreclaim and VmallocUsed (caches dropped before each reading):
    late mean - early mean <= 512 kB.  The rest of the kernel (9p, BPF
    maps freed after an RCU grace period, per-CPU page lists) moves these
    by a few hundred kB between readings; a session's rings alone are
    2 x 1 MiB of vmalloc on the 2-CPU guest, so a leaked session, its
    rings or its probes' data show in one round.
Exit 0 when all hold, 1 otherwise.
"""
import os
import sys

RSS_SLACK_KB = 256
KMEM_SLACK_KB = 512
bad = []


def fail(msg):
    bad.append(msg)
    print("FAIL " + msg)


def load(path):
    with open(path, encoding="utf-8") as f:
        head = f.readline().split()
        return head, [[int(v) for v in line.split()] for line in f if line.strip()]


def early_late(rows):
    """Second and last quarter of the rows (at least one row each)."""
    q = max(1, len(rows) // 4)
    early = rows[q:2 * q] or rows[:1]
    return early, rows[-q:]


def mean(rows, col):
    return sum(r[col] for r in rows) / len(rows)


def check_msprof(path):
    head, rows = load(path)
    print("msprof per window: " + ", ".join(head))
    for r in rows:
        print("  " + "\t".join(str(v) for v in r))
    early, late = early_late(rows)
    fds_e, fds_l = max(r[3] for r in early), min(r[3] for r in late)
    rss = mean(late, 1) - mean(early, 1)
    hwm = rows[-1][2] - max(r[2] for r in early)
    print(f"windows {early[0][0]}-{early[-1][0]} vs {late[0][0]}-{late[-1][0]}: "
          f"VmRSS {rss:+.0f} kB, VmHWM {hwm:+d} kB, fds at most {fds_e} -> at least {fds_l}")
    if fds_l > fds_e:
        fail(f"msprof's open descriptors went from at most {fds_e} to at least {fds_l}")
    if rss > RSS_SLACK_KB:
        fail(f"msprof's VmRSS grew by {rss:.0f} kB (allowed {RSS_SLACK_KB})")
    if hwm > RSS_SLACK_KB:
        fail(f"msprof's VmHWM grew by {hwm} kB (allowed {RSS_SLACK_KB})")


def check_kernel(path):
    head, rows = load(path)
    print("kernel after each rmmod: " + ", ".join(head))
    for r in rows:
        print("  " + "\t".join(str(v) for v in r))
    for r in rows[1:]:
        if r[4] != 0:
            fail(f"round {r[0]}: npuprof.ko refcount {r[4]} after msprof exited, want 0")
    early, late = early_late(rows)
    for col, name in ((2, "SUnreclaim"), (3, "VmallocUsed")):
        grew = mean(late, col) - mean(early, col)
        print(f"rounds {early[0][0]}-{early[-1][0]} vs {late[0][0]}-{late[-1][0]}: {name} {grew:+.0f} kB")
        if grew > KMEM_SLACK_KB:
            fail(f"{name} grew by {grew:.0f} kB over the load/unload rounds (allowed {KMEM_SLACK_KB})")


def main():
    out = sys.argv[1]
    check_msprof(os.path.join(out, "cycles", "mem.tsv"))
    check_kernel(os.path.join(out, "loads", "kmem.tsv"))
    print(f"{len(bad)} findings")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
