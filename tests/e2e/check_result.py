#!/usr/bin/env python3
"""Check msprof's --result file against the PROF dirs it wrote.

Usage: check_result.py OUT LINES FAILED
  OUT/result.jsonl must hold exactly LINES lines, each one JSON object;
  FAILED of them without a PROF dir (prof_dir null, complete false, an
  error), the others naming an existing PROF dir of OUT whose info.json
  has the same pid, with complete true, nothing lost, a window of
  start_ns < end_ns, and the same record counts the PROF dir's info.json
  says the drain saved; the saved lines carry ranks 0..n-1 once each.
"""
import json
import os
import sys


def main():
    out, want_lines, want_failed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    bad = []
    with open(os.path.join(out, "result.jsonl"), encoding="utf-8") as f:
        lines = [json.loads(line) for line in f]
    if len(lines) != want_lines:
        bad.append(f"{len(lines)} result lines, want {want_lines}")
    failed = [r for r in lines if r["prof_dir"] is None]
    if len(failed) != want_failed:
        bad.append(f"{len(failed)} lines without a PROF dir, want {want_failed}")
    for r in failed:
        if r["complete"] or not r["error"]:
            bad.append(f"pid {r['pid']}: no PROF dir but complete={r['complete']} error={r['error']!r}")
    ranks = sorted(r["rank"] for r in lines if r["prof_dir"] is not None)
    if ranks != list(range(len(ranks))):
        bad.append(f"ranks {ranks}, want 0..{len(ranks) - 1} once each (RANK from each process's environment)")
    for r in lines:
        if r["prof_dir"] is None:
            continue
        prof = r["prof_dir"]
        info = json.load(open(os.path.join(prof, "host", "info.json")))
        drain = info["drain"]
        if info["pid"] != r["pid"] or os.path.dirname(prof) != os.path.abspath(out):
            bad.append(f"{prof}: result pid {r['pid']}, info.json pid {info['pid']}")
        if not r["complete"] or any(r["lost"].values()) or r["error"] is not None:
            bad.append(f"{prof}: complete={r['complete']} lost={r['lost']} error={r['error']!r}")
        if not 0 < r["start_ns"] < r["end_ns"]:
            bad.append(f"{prof}: window {r['start_ns']}..{r['end_ns']}")
        if (r["api_records"], r["task_records"]) != (drain["api_records"], drain["task_records"]):
            bad.append(f"{prof}: result says {r['api_records']} api / {r['task_records']} task records, "
                       f"info.json {drain['api_records']} / {drain['task_records']}")
    for b in bad:
        print("FAIL " + b)
    print(f"{len(lines)} result lines, {len(bad)} findings")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
