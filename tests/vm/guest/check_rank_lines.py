#!/usr/bin/env python3
"""Check the JSON lines the ranks of one sample-AI-task job printed.

Usage: check_rank_lines.py FILE STEPS THREADS STREAMS DEVICES... [--pids=P,...]
  FILE     the job's stdout: nothing but one JSON line per rank
  DEVICES  one argument per rank, in rank order: the comma-separated device
           of each of its threads ("2" for one thread on device 2, "0,1" for
           threads 0 and 1 on devices 0 and 1); their number is the world size
  --pids   the pids the ranks must have (seen from outside while they ran)

What must hold: exactly one line per rank, each a whole JSON object, with
distinct pids; rank r has "rank" r, "world_size" the number of ranks,
"device" its thread 0's device, "devices" the list given, no "error"; its
steps are exactly STEPS per thread, each on its thread's device with the
calls and device tasks one step of sim/app/task_worker.c makes with
STREAMS streams, and its totals are the process's, every thread's setup
and teardown and those steps.  Exit 0 when all hold, 1 otherwise (each
finding printed).
"""
import argparse
import collections
import json
import sys

bad = []


def fail(msg):
    bad.append(msg)
    print(f"FAIL: {msg}")


def step_counts(streams):
    """api, tasks, kernels of one step (task_worker.c step_calls)."""
    api = {"aclrtMemcpyAsync": 2, "aclrtLaunchKernel": 5, "aclopExecuteV2": 1,
           "aclrtRecordEvent": 1, "aclrtSynchronizeStream": streams}
    tasks = {"AI_CORE": 6, "MEMCPY": 2, "EVENT_RECORD": 1}
    kernels = {"MatMul": 2, "Add": 1, "LayerNorm": 1, "Softmax": 1, "Gelu": 1}
    return api, tasks, kernels


def thread_other_api(streams):
    """Calls of one thread's setup and teardown (setup_device, setup_kernels, teardown)."""
    return {"aclrtSetDevice": 1, "aclrtCreateStream": streams, "aclrtMalloc": 2,
            "aclrtCreateEvent": 1, "aclrtBinaryLoadFromFile": 1,
            "aclrtBinaryGetFunction": 4, "aclrtMemcpy": 1, "aclrtSynchronizeDevice": 1,
            "aclrtFree": 2, "aclrtDestroyEvent": 1, "aclrtDestroyStream": streams,
            "aclrtResetDevice": 1}


def expected_totals(steps, threads, streams):
    api = collections.Counter({"aclInit": 1, "aclFinalize": 1})
    tasks = collections.Counter({"AI_CORE": 0, "MEMCPY": 0, "EVENT_RECORD": 0})
    kernels = collections.Counter()
    s_api, s_tasks, s_kernels = step_counts(streams)
    for _ in range(threads):
        api.update(thread_other_api(streams))
        tasks["MEMCPY"] += 1  # the synchronous weights copy in setup
        for _ in range(steps):
            api.update(s_api)
            tasks.update(s_tasks)
            kernels.update(s_kernels)
    return dict(api), dict(tasks), dict(kernels)


def check_steps(where, line, steps, devices, streams):
    s_api, s_tasks, s_kernels = step_counts(streams)
    per_thread = collections.defaultdict(list)
    for s in line["steps"]:
        per_thread[s["thread"]].append(s)
        if s["device"] != devices[s["thread"]]:
            fail(f"{where} step {s['step']} thread {s['thread']}: device {s['device']}, "
                 f"want {devices[s['thread']]}")
        got = (s["api"], s["tasks"], s["kernels"])
        if got != (s_api, s_tasks, s_kernels):
            fail(f"{where} step {s['step']} thread {s['thread']}: counts {got}, "
                 f"want {(s_api, s_tasks, s_kernels)}")
        if not s["begin_ns"] < s["end_ns"]:
            fail(f"{where} step {s['step']} thread {s['thread']}: begin_ns {s['begin_ns']} "
                 f"not before end_ns {s['end_ns']}")
    if sorted(per_thread) != list(range(len(devices))):
        fail(f"{where}: steps of threads {sorted(per_thread)}, want 0..{len(devices) - 1}")
    for t, ss in per_thread.items():
        if [s["step"] for s in ss] != list(range(steps)):
            fail(f"{where} thread {t}: steps {[s['step'] for s in ss]}, want 0..{steps - 1}")
        if len({s["tid"] for s in ss}) != 1:
            fail(f"{where} thread {t}: steps from several tids {sorted({s['tid'] for s in ss})}")
    tids = {ss[0]["tid"] for ss in per_thread.values()}
    if len(tids) != len(per_thread):
        fail(f"{where}: {len(per_thread)} threads share tids {sorted(tids)}")


def check_line(r, line, args, devices):
    where = f"rank {r} (pid {line.get('pid')})"
    world = len(args.devices)
    for key, want in (("rank", r), ("world_size", world), ("device", devices[0]),
                      ("devices", devices), ("threads", len(devices)),
                      ("streams", args.streams)):
        if line.get(key) != want:
            fail(f"{where}: \"{key}\" is {line.get(key)!r}, want {want!r}")
    if "error" in line:
        fail(f"{where}: error {line['error']!r}")
    want = expected_totals(args.steps, len(devices), args.streams)
    got = (line.get("api"), line.get("tasks"), line.get("kernels"))
    if got != want:
        fail(f"{where}: totals {got}, want {want}")
    check_steps(where, line, args.steps, devices, args.streams)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("file")
    p.add_argument("steps", type=int)
    p.add_argument("threads", type=int)
    p.add_argument("streams", type=int)
    p.add_argument("devices", nargs="+")
    p.add_argument("--pids", default="")
    args = p.parse_args()
    args.devices = [[int(d) for d in a.split(",")] for a in args.devices]
    text = open(args.file).read()
    raw = text.splitlines()
    lines = []
    for i, t in enumerate(raw):
        try:
            lines.append(json.loads(t))
        except ValueError:
            fail(f"{args.file}:{i + 1}: not one whole JSON object: {t[:120]!r}...")
    if not text.endswith("\n"):
        fail(f"{args.file}: does not end with a newline")
    if len(raw) != len(args.devices):
        fail(f"{args.file}: {len(raw)} lines, want {len(args.devices)} (one per rank)")
    pids = [ln.get("pid") for ln in lines]
    if len(set(pids)) != len(pids):
        fail(f"{args.file}: pids {pids} are not distinct")
    if args.pids and sorted(pids) != sorted(int(p) for p in args.pids.split(",")):
        fail(f"{args.file}: pids {sorted(pids)}, want those seen running: {args.pids}")
    by_rank = {ln.get("rank"): ln for ln in lines}
    for r, devices in enumerate(args.devices):
        if len(devices) != args.threads:
            sys.exit(f"check_rank_lines.py: rank {r}: {len(devices)} devices given for "
                     f"{args.threads} threads")
        if r not in by_rank:
            fail(f"{args.file}: no line of rank {r}")
        else:
            check_line(r, by_rank[r], args, devices)
    print(f"{args.file}: {len(lines)} rank line(s), pids {pids}, {len(bad)} findings")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
