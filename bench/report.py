#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Gather the rows every benchmark wrote (DIR/rows/*.jsonl, bench/row.py)
into DIR/bench.json and print them as one table.

  bench/report.py DIR [--require P1,P2,...] [--markdown]

bench.json: {"rows": [row, ...], "environments": [...distinct...]}, rows in
benchmark order (P1, P2, ...), each as bench/row.py wrote it.  With
--require, exits 1 when a listed benchmark has no row, or a row has no
npuprof figure (the smoke test in make check uses this; timing never fails
it).  --markdown prints the table as one Markdown table instead (the
README's performance section is made with it).
"""
import glob
import json
import os
import sys


def load(path):
    rows = []
    for name in sorted(glob.glob(os.path.join(path, "rows", "*.jsonl"))):
        with open(name) as f:
            for n, line in enumerate(f, 1):
                line = line.strip()
                if not line:
                    continue
                try:
                    rows.append(json.loads(line))
                except json.JSONDecodeError as e:
                    sys.exit(f"report.py: {name}:{n}: {e}")
    return rows


def order(row):
    b = row["benchmark"]
    num = int(b[1:]) if b[1:].isdigit() else 99
    return (num, row["environment"]["where"] != "host")


def fmt(v):
    if v is None:
        return "n/a"
    if isinstance(v, float):
        if abs(v) >= 100:
            return f"{v:,.0f}"
        return f"{v:.3g}"
    return f"{v:,}"


def env_text(e):
    emu = " (qemu TCG: only same-boot ratios mean anything)" if e.get("software_emulation") else ""
    return f"{e['where']}: {e['kernel']}, {e['cpus']} CPU{emu}"


def print_table(rows):
    cur = None
    for r in rows:
        if (r["benchmark"], r["title"]) != cur:
            cur = (r["benchmark"], r["title"])
            print(f"\n{cur[0]} {cur[1]}")
        met = {True: "MET", False: "MISSED", None: "-"}[r["goal_met"]]
        print(f"  [{env_text(r['environment'])}] {r['case']}: {r['metric']} ({r['unit']})")
        print(f"    npuprof {fmt(r['npuprof'])}", end="")
        for name, v in r["baselines"].items():
            if v is None:
                print(f" | {name} n/a ({r['unavailable'].get(name, '')})", end="")
            else:
                print(f" | {name} {fmt(v)}", end="")
        print()
        if r["ratios"]:
            print("    ratio " + ", ".join(f"{k} {fmt(v)}x" if v is not None else f"{k} n/a"
                                        for k, v in r["ratios"].items()))
        if r["goal"]:
            print(f"    goal {r['goal']}: {met}")
        for note in r["notes"]:
            print(f"    note: {note}")


def print_markdown(rows):
    print("| | case | npuprof | baselines (same run) | ratio | goal | where |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        base = "; ".join(
            f"{k} {fmt(v)}" if v is not None else f"{k} n/a"
            for k, v in r["baselines"].items())
        ratios = "; ".join(f"{k} {fmt(v)}x" if v is not None else f"{k} n/a"
                           for k, v in r["ratios"].items())
        met = {True: "met", False: "**missed**", None: ""}[r["goal_met"]]
        goal = f"{r['goal']}: {met}" if r["goal"] else ""
        e = r["environment"]
        where = "VM (TCG)" if e.get("software_emulation") else e["where"]
        if r.get("size") == "tiny":
            where += ", tiny size"
        cell = lambda t: str(t).replace("|", "/")
        print(f"| {r['benchmark']} | {cell(r['case'])} | {fmt(r['npuprof'])} {cell(r['unit'])} "
              f"| {cell(base)} | {cell(ratios)} | {cell(goal)} | {where} |")


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: report.py DIR [--require P1,P2,...]")
    out = sys.argv[1]
    rows = sorted(load(out), key=order)
    envs = []
    for r in rows:
        if r["environment"] not in envs:
            envs.append(r["environment"])
    with open(os.path.join(out, "bench.json"), "w") as f:
        json.dump({"rows": rows, "environments": envs}, f, indent=1)
        f.write("\n")
    if "--markdown" in sys.argv:
        print_markdown(rows)
    else:
        print_table(rows)
        print(f"\n{len(rows)} rows; {os.path.join(out, 'bench.json')}")
    if "--require" in sys.argv:
        want = sys.argv[sys.argv.index("--require") + 1].split(",")
        bad = [b for b in want if not any(r["benchmark"] == b for r in rows)]
        bad += [f"{r['benchmark']} '{r['case']}' has no npuprof figure"
                for r in rows if r["npuprof"] is None]
        if bad:
            print("report.py: missing: " + "; ".join(bad), file=sys.stderr)
            sys.exit(1)


if __name__ == "__main__":
    main()
