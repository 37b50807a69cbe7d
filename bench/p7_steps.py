#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""P7 (make bench): step times of the sample job per phase, from the JSON
lines ai_task's ranks print (sim/app/task_report.c) and the phase windows
bench/p7_app_view.sh marked on CLOCK_MONOTONIC.

  p7_steps.py MARKS APP_OUT...

MARKS has lines "PHASE BEGIN_NS END_NS"; a step counts for a phase when it
lies wholly inside the window.  Prints one line per phase:
  PHASE n=N mean_us=M sd_us=S sem_pct=E median_us=D base_us=B base_sem_pct=F
(sem_pct: standard error of the mean in % of it, the noise of the mean).
Successive steps are not independent (under TCG the job's speed wanders
over seconds), so the error comes from batch means: the steps of each
second of the phase are averaged, and the error is that of the mean of
those per-second means (with fewer than 3 seconds: of the steps).

The first and the last phase run without msprof (A ... A): the job's own
drift over the run is the line through their means, taken at each phase's
middle, and base_us is that line's value there (base_sem_pct its noise),
the baseline a phase is compared with.  So a job that slowly speeds up or
slows down is not taken for a cost of the phases in between.
"""
import json
import math
import statistics
import sys


def batch_sem(inside, begin, step_sem):
    """Standard error of the mean step time from per-second batch means."""
    batches = {}
    for s in inside:
        batches.setdefault((s["begin_ns"] - begin) // 1000000000, []).append(
            (s["end_ns"] - s["begin_ns"]) / 1000)
    means = [statistics.mean(v) for v in batches.values()]
    if len(means) < 3:
        return step_sem
    return statistics.stdev(means) / len(means) ** 0.5


def main():
    marks = []
    with open(sys.argv[1]) as f:
        for line in f:
            name, b, e = line.split()
            marks.append((name, int(b), int(e)))
    steps = []
    for path in sys.argv[2:]:
        with open(path) as f:
            for line in f:
                line = line.strip()
                if line.startswith("{"):
                    steps += json.loads(line).get("steps", [])
    stats = []
    for name, b, e in marks:
        inside = [s for s in steps if s["begin_ns"] >= b and s["end_ns"] <= e]
        d = [(s["end_ns"] - s["begin_ns"]) / 1000 for s in inside]
        if len(d) < 2:
            stats.append((name, (b + e) / 2, len(d), None))
            continue
        m, sd = statistics.mean(d), statistics.stdev(d)
        stats.append((name, (b + e) / 2, len(d),
                      (m, sd, batch_sem(inside, b, sd / len(d) ** 0.5),
                       statistics.median(d))))
    first, last = stats[0], stats[-1]
    for name, t, n, st in stats:
        if st is None or first[3] is None or last[3] is None:
            print(f"{name} n={n} mean_us=nan sd_us=nan sem_pct=nan median_us=nan "
                  "base_us=nan base_sem_pct=nan")
            continue
        m, sd, sem, med = st
        w = (t - first[1]) / (last[1] - first[1]) if last[1] != first[1] else 0.0
        base = first[3][0] + (last[3][0] - first[3][0]) * w
        base_sem = math.hypot((1 - w) * first[3][2], w * last[3][2])
        print(f"{name} n={n} mean_us={m:.1f} sd_us={sd:.1f} "
              f"sem_pct={100 * sem / m:.2f} median_us={med:.1f} "
              f"base_us={base:.1f} base_sem_pct={100 * base_sem / base:.2f}")

if __name__ == "__main__":
    main()
