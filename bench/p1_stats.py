#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""P1 (make bench): statistics over the rounds bench/p1_api_cost.sh ran.

  p1_stats.py FILE FUNC CASE [OVER]
  p1_stats.py --all FILE

FILE has lines "FUNC CASE ROUND VALUE".  Without OVER: the median of CASE's
values, then its min..max.  With OVER: the median over the rounds of
CASE / OVER of the same round (a paired ratio: the load of a shared machine
falls on both alike), then its min..max.  Prints "n/a" when a figure is
missing.  --all prints "FUNC CASE OVER MEDIAN MIN..MAX" for every
function, case and OVER (or "-" for none) at once: one start of Python
instead of dozens, which matters under software emulation.
"""
import statistics
import sys


def load(path):
    """{func: {case: {round: value}}}"""
    vals = {}
    with open(path) as f:
        for line in f:
            fn, c, r, v = line.split()
            vals.setdefault(fn, {}).setdefault(c, {})[r] = float(v)
    return vals


def stat(cases, case, over):
    a = cases.get(case, {})
    if over:
        b = cases.get(over, {})
        xs = [a[r] / b[r] for r in a if r in b and b[r] > 0]
    else:
        xs = list(a.values())
    if not xs:
        return "n/a n/a"
    return f"{statistics.median(xs):.4g} {min(xs):.4g}..{max(xs):.4g}"


def main():
    if sys.argv[1] == "--all":
        for func, cases in load(sys.argv[2]).items():
            for case in cases:
                for over in [None] + list(cases):
                    print(func, case, over or "-", stat(cases, case, over))
        return
    path, func, case = sys.argv[1:4]
    over = sys.argv[4] if len(sys.argv) > 4 else None
    print(stat(load(path).get(func, {}), case, over))


if __name__ == "__main__":
    main()
