#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""P7 (make bench): step times of the sample job per phase, from the JSON
lines ai_task's ranks print (sim/app/task_report.c) and the phase windows
bench/p7_app_view.sh marked on CLOCK_MONOTONIC.

  p7_steps.py MARKS APP_OUT...

MARKS has lines "PHASE BEGIN_NS END_NS"; a step counts for a phase when it
lies wholly inside the window.  Prints one line per phase:
  PHASE n=N mean_us=M sd_us=S sem_pct=E median_us=D
(sem_pct: standard error of the mean in % of it, the noise of the mean).
"""
import json
import statistics
import sys


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
    for name, b, e in marks:
        d = [(s["end_ns"] - s["begin_ns"]) / 1000 for s in steps
             if s["begin_ns"] >= b and s["end_ns"] <= e]
        if len(d) < 2:
            print(f"{name} n={len(d)} mean_us=nan sd_us=nan sem_pct=nan median_us=nan")
            continue
        m, sd = statistics.mean(d), statistics.stdev(d)
        print(f"{name} n={len(d)} mean_us={m:.1f} sd_us={sd:.1f} "
              f"sem_pct={100 * sd / m / len(d) ** 0.5:.2f} "
              f"median_us={statistics.median(d):.1f}")


if __name__ == "__main__":
    main()
