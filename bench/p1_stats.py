#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""P1 (make bench): statistics over the rounds bench/p1_api_cost.sh ran.

  p1_stats.py FILE FUNC CASE [OVER]

FILE has lines "FUNC CASE ROUND VALUE".  Without OVER: the median of CASE's
values, then its min..max.  With OVER: the median over the rounds of
CASE / OVER of the same round (a paired ratio: the load of a shared machine
falls on both alike), then its min..max.  Prints "n/a" when a figure is
missing.
"""
import statistics
import sys


def main():
    path, func, case = sys.argv[1:4]
    over = sys.argv[4] if len(sys.argv) > 4 else None
    vals = {}
    with open(path) as f:
        for line in f:
            fn, c, r, v = line.split()
            if fn == func:
                vals.setdefault(c, {})[r] = float(v)
    a = vals.get(case, {})
    if over:
        b = vals.get(over, {})
        xs = [a[r] / b[r] for r in a if r in b and b[r] > 0]
    else:
        xs = list(a.values())
    if not xs:
        print("n/a n/a")
        return
    print(f"{statistics.median(xs):.4g} {min(xs):.4g}..{max(xs):.4g}")


if __name__ == "__main__":
    main()
