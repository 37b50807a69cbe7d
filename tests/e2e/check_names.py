#!/usr/bin/env python3
"""Check that hostile kernel names came out of every writer as their exact text.

Usage: check_names.py OUT [--name TEXT]... [--comm TEXT] [--console FILE]
  OUT holds PROF_XXX directories, exported (mindstudio_profiler_output/), and
  records/PROF_XXX.jsonl (npuprof-dump's output for each).  The kernels of the
  capture are exactly the six names of issue 6 plus each --name; they are
  given here as the text the rule of user/include/prof/npuprof/name_text.h makes
  of their bytes:
      Mat"Mul         -> Mat"Mul
      back\\slash      -> back\\slash
      x,y             -> x,y
      <01>ctl         -> \\x01ctl
      bad<ff><fe>utf  -> bad\\xff\\xfeutf
      n<c3><a4>me     -> n\u00e4me (valid UTF-8, unchanged)
  --comm: the text info.json's pid_name must hold.  --console: msprof's
  export output, whose top-ops table must name every kernel.

What must hold:
  - every msprof_*.json is strict UTF-8 and parses with json; the device task
    events (X events of the "Ascend Hardware" processes) of kernel type are
    named exactly the expected set, and every expected name is also a
    "Kernel Name" or "Op Type" argument of an API call;
  - every CSV is strict UTF-8 and parses with csv, each row as wide as its
    header; task_time's AI_CORE kernel_name, op_summary's Op Name and OP Type
    and op_statistic's OP Type hold exactly the expected set;
  - every npuprof-dump line parses with json; the names of the kernel task
    records are exactly the expected set;
  - no string anywhere holds a control character (Unicode category Cc).
Exit 0 when all hold, 1 otherwise (each finding printed).
"""
import argparse
import csv
import glob
import io
import json
import os
import sys
import unicodedata

NAMES = ['Mat"Mul', "back\\slash", "x,y", "\\x01ctl", "bad\\xff\\xfeutf", "n\u00e4me"]
bad = []


def fail(msg):
    bad.append(msg)
    print("FAIL " + msg)


def read_text(path):
    """The file as text; a finding (and None) when it is not strict UTF-8."""
    try:
        with open(path, "rb") as f:
            return f.read().decode("utf-8")
    except UnicodeDecodeError as e:
        fail(f"{path}: not UTF-8: {e}")
        return None


def has_control(s, allowed=""):
    return any(unicodedata.category(c) == "Cc" and c not in allowed for c in s)


def walk_strings(v):
    if isinstance(v, str):
        yield v
    elif isinstance(v, dict):
        for k, x in v.items():
            yield k
            yield from walk_strings(x)
    elif isinstance(v, list):
        for x in v:
            yield from walk_strings(x)


def no_controls(where, doc):
    for s in walk_strings(doc):
        if has_control(s):
            fail(f"{where}: control character in {s!r}")


def same_set(where, got, want):
    got, want = set(got), set(want)
    if got != want:
        fail(f"{where}: missing {sorted(want - got)!r}, unexpected {sorted(got - want)!r}")


def check_timeline(path, names):
    text = read_text(path)
    if text is None:
        return
    try:
        events = json.loads(text)
    except ValueError as e:
        fail(f"{path}: not JSON: {e}")
        return
    no_controls(path, events)
    hw = {e["pid"] for e in events
          if e.get("ph") == "M" and e.get("name") == "process_name"
          and e.get("args", {}).get("name") == "Ascend Hardware"}
    tasks = [e["name"] for e in events if e.get("ph") == "X" and e.get("pid") in hw
             and e.get("args", {}).get("Task Type") == "AI_CORE"]
    same_set(f"{path}: kernel task events", tasks, names)
    args = set()
    for e in events:
        if e.get("ph") == "X" and e.get("pid") not in hw:
            a = e.get("args", {})
            args.update(a[k] for k in ("Kernel Name", "Op Type") if k in a)
    missing = set(names) - args
    if missing:
        fail(f"{path}: no API call carries {sorted(missing)!r}")


def read_csv(path):
    """(header, rows) or None; a finding for every row not as wide as the header."""
    text = read_text(path)
    if text is None:
        return None
    rows = list(csv.reader(io.StringIO(text, newline="")))
    if not rows:
        fail(f"{path}: empty")
        return None
    head = rows[0]
    for i, row in enumerate(rows[1:], 2):
        if len(row) != len(head):
            fail(f"{path}:{i}: {len(row)} fields, header has {len(head)}")
        if any(has_control(f) for f in row):
            fail(f"{path}:{i}: control character in {row!r}")
    return head, rows[1:]


def column(path, head, rows, name, where=None):
    i = head.index(name)
    return [r[i] for r in rows if len(r) == len(head) and (where is None or where(head, r))]


def check_csvs(out_dir, names):
    seen = set()
    for path in sorted(glob.glob(os.path.join(out_dir, "*.csv"))):
        got = read_csv(path)
        if got is None:
            continue
        head, rows = got
        base = os.path.basename(path)
        kind = base[:base.rindex("_")]
        seen.add(kind)
        if kind == "task_time":
            kernel = lambda h, r: r[h.index("kernel_type")] == "AI_CORE"
            same_set(f"{path}: kernel_name", column(path, head, rows, "kernel_name", kernel), names)
        elif kind == "op_summary":
            same_set(f"{path}: Op Name", column(path, head, rows, "Op Name"), names)
            same_set(f"{path}: OP Type", column(path, head, rows, "OP Type"), names)
        elif kind == "op_statistic":
            same_set(f"{path}: OP Type", column(path, head, rows, "OP Type"), names)
    for kind in ("task_time", "op_summary", "op_statistic", "api_statistic"):
        if kind not in seen:
            fail(f"{out_dir}: no {kind}_*.csv")


def check_dump(path, names):
    text = read_text(path)
    if text is None:
        return
    kernels = []
    for i, line in enumerate(text.splitlines(), 1):
        try:
            rec = json.loads(line)
        except ValueError as e:
            fail(f"{path}:{i}: not JSON: {e}")
            continue
        no_controls(f"{path}:{i}", rec)
        if rec.get("type") == "task" and rec.get("task_type") == "AI_CORE":
            kernels.append(rec["name"])
    same_set(f"{path}: kernel task records", kernels, names)


def check_console(path, names):
    text = read_text(path)
    if text is None:
        return
    if has_control(text, allowed="\n"):
        fail(f"{path}: control character in the console output")
    for n in names:
        if not any(line.startswith("    " + n + " ") for line in text.splitlines()):
            fail(f"{path}: no top-ops line for {n!r}")


def check_prof(prof, names, comm):
    info = read_text(os.path.join(prof, "host", "info.json"))
    if info is not None:
        doc = json.loads(info)
        no_controls(f"{prof}/host/info.json", doc)
        if comm is not None and doc.get("pid_name") != comm:
            fail(f"{prof}/host/info.json: pid_name {doc.get('pid_name')!r}, want {comm!r}")
    out_dir = os.path.join(prof, "mindstudio_profiler_output")
    timelines = glob.glob(os.path.join(out_dir, "msprof_*.json"))
    if len(timelines) != 1:
        fail(f"{out_dir}: {len(timelines)} msprof_*.json, want 1")
    for path in timelines:
        check_timeline(path, names)
    check_csvs(out_dir, names)
    dump = os.path.join(os.path.dirname(prof), "records", os.path.basename(prof) + ".jsonl")
    if os.path.exists(dump):
        check_dump(dump, names)
    else:
        fail(f"{dump}: missing (npuprof-dump output)")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--name", action="append", default=[])
    ap.add_argument("--comm")
    ap.add_argument("--console")
    a = ap.parse_args()
    names = NAMES + a.name
    profs = sorted(glob.glob(os.path.join(a.out, "PROF_*")))
    if not profs:
        fail(f"{a.out}: no PROF_* directory")
    for prof in profs:
        check_prof(prof, names, a.comm)
    if a.console:
        check_console(a.console, names)
    print(f"{len(profs)} PROF dirs, {len(names)} names: {len(bad)} findings")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
