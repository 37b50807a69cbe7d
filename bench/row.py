#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Append one benchmark row to a JSON-lines file (make bench).

Every benchmark script reports through this one writer, so bench.json has
one shape.  A row is one comparison: npuprof's figure, each baseline's
figure in the same unit, measured in the same run, the ratios npuprof /
baseline, the goal in words and whether it held.

  bench/row.py --out FILE --bench P1 --title "runtime API capture cost" \
      --case "aclrtGetDevice loop, 1 thread" --metric "cost per call" \
      --unit ns/call --npuprof 812.4 \
      --baseline "no probe=20.1" --baseline "bpftrace print=2400" \
      --ratio "floor=1.04" --goal "npuprof <= 1.10x floor" --met yes \
      --note "..." --where host

--baseline NAME=VALUE may be NAME=n/a:REASON when that baseline could not
run (the row is kept and says why).  --met is yes, no or n/a (a row that
reports a figure with no goal).  `row.py --print-env WHERE` prints this
system's environment as JSON; `--env FILE` takes it from such a file
instead (VM rows are written on the host after the run: bench/lib.bash).  The environment (kernel, CPU, cores,
whether under software emulation, tool versions) is added to every row.
"""
import argparse
import json
import os
import platform
import subprocess
import sys


def number(text):
    try:
        v = float(text)
    except ValueError:
        return None
    return int(v) if v.is_integer() and abs(v) < 2**53 else v


def pair(text):
    if "=" not in text:
        sys.exit(f"row.py: '{text}': expected NAME=VALUE")
    name, value = text.split("=", 1)
    return name.strip(), value.strip()


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.machine()


def emulated():
    """1 under qemu's software emulation (TCG), 0 on real or KVM CPUs."""
    try:
        with open("/proc/cpuinfo") as f:
            text = f.read()
    except OSError:
        return None
    if "QEMU" in text:
        return True
    vendor = ""
    try:
        with open("/sys/class/dmi/id/sys_vendor") as f:
            vendor = f.read().strip()
    except OSError:
        pass
    return vendor == "QEMU"


def clocksource():
    try:
        with open("/sys/devices/system/clocksource/clocksource0/current_clocksource") as f:
            return f.read().strip()
    except OSError:
        return None


def version(cmd):
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return None
    text = (out.stdout or out.stderr).strip().splitlines()
    return text[0] if text else None


def environment(where, path=None):
    """The live system's, or (path) one a VM run saved with --print-env."""
    if path:
        with open(path) as f:
            env = json.load(f)
        return with_tools(env)
    env = {
        "where": where,
        "kernel": platform.release(),
        "arch": platform.machine(),
        "cpu": cpu_model(),
        "cpus": os.cpu_count(),
        "software_emulation": emulated(),
        "clocksource": clocksource(),
    }
    return with_tools(env)


def with_tools(env):
    cache = os.environ.get("BENCH_VERSIONS")
    if cache and os.path.exists(cache):
        with open(cache) as f:
            env["tools"] = json.load(f)
    return env


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--print-env":
        env = environment(sys.argv[2])
        env.pop("tools", None)
        print(json.dumps(env))
        return
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--bench", required=True)
    ap.add_argument("--title", required=True)
    ap.add_argument("--case", required=True)
    ap.add_argument("--metric", required=True)
    ap.add_argument("--unit", required=True)
    ap.add_argument("--npuprof", required=True)
    ap.add_argument("--baseline", action="append", default=[])
    ap.add_argument("--ratio", action="append", default=[])
    ap.add_argument("--goal", default="")
    ap.add_argument("--met", choices=["yes", "no", "n/a"], default="n/a")
    ap.add_argument("--note", action="append", default=[])
    ap.add_argument("--where", choices=["host", "vm"], required=True)
    ap.add_argument("--size", default=os.environ.get("BENCH_SIZE", "full"))
    ap.add_argument("--env", help="environment saved by --print-env (rows of a VM run)")
    a = ap.parse_args()

    baselines, unavailable = {}, {}
    for text in a.baseline:
        name, value = pair(text)
        if value.startswith("n/a"):
            baselines[name] = None
            unavailable[name] = value[4:].strip() or "did not run"
        else:
            v = number(value)
            if v is None:
                sys.exit(f"row.py: --baseline {text}: not a number")
            baselines[name] = v
    ratios = {}
    for text in a.ratio:
        name, value = pair(text)
        ratios[name] = number(value) if value != "n/a" else None
    row = {
        "benchmark": a.bench,
        "title": a.title,
        "case": a.case,
        "metric": a.metric,
        "unit": a.unit,
        "npuprof": number(a.npuprof) if a.npuprof != "n/a" else None,
        "baselines": baselines,
        "unavailable": unavailable,
        "ratios": ratios,
        "goal": a.goal,
        "goal_met": {"yes": True, "no": False, "n/a": None}[a.met],
        "notes": a.note,
        "size": a.size,
        "environment": environment(a.where, a.env),
    }
    with open(a.out, "a") as f:
        f.write(json.dumps(row, sort_keys=False) + "\n")


if __name__ == "__main__":
    main()
