#!/usr/bin/env python3
"""Check a dynamic-profiling capture against the sample app's own counts.

Usage: check_capture.py OUT [PROCESSES]
  OUT holds app.json (the sample AI task's exit line, one per process of a
  multi-process job: exact API-call and device-task counts per step, with
  CLOCK_MONOTONIC step bounds), the PROF_XXX directories msprof wrote, and
  records/PROF_XXX.jsonl (every record, from npuprof-dump).  PROCESSES, when
  given, is how many processes must each have exactly one PROF dir.  A pid
  named in OUT/victim was killed mid-window: it has no app.json line, so
  its PROF dir is checked only for its own records, no duplicates and no
  loss.

What must hold, for every PROF dir (matched to its process's line of
app.json by the pid in its info.json, or by the threads of its records):
  - every API call and device task record belongs to that process;
  - capture window = [start_info.clockMonotonic, end_info.clockMonotonic];
    at least one step lies wholly inside it;
  - for each such step: the API records of that thread inside the step's
    bounds match the app's count per API exactly (at each CANN level
    info.json's "apiLevels" names: AscendCL, the app's own ACL calls;
    Runtime, the rt* call each of them makes in the simulated runtime,
    RUNTIME_OF), and the device tasks it
    submitted match per task type exactly, each with exactly one submit,
    start and end record;
  - no record appears twice; every ring lost 0 records;
  - info.json's rings and devices match the LOST records, the device_<id>
    directories and the task records;
  - each device_<id> with data holds CANN's start_info.<id>, end_info.<id>
    (the host's window clocks), info.json.<id> (that device's id and its
    own clock pairs, as host/info.json has them) and sample.json (as the
    host's); no control file is left under its temporary name;
  - every record lies inside [start_info.clockMonotonicEnabled,
    end_info.clockMonotonicDisabled], read before the producers are enabled
    and after they are disabled: exact, however long an emulated CPU stalls;
  - the exported timeline parses, every flow arrow goes forward in time (a
    device task starts after the call that launched it), no task starts
    before its own submit time, and each task life cycle with a submit,
    start and end is one event, also when its task id was reused;
  - a call in flight at the stop is a record marked cut (no return), one
    at most per thread and API, drawn as one call event marked "cut": "end";
  - the exported database msprof_<ts>.db, for each step inside the window:
    the thread's CANN_API rows in the step match the app's API counts, the
    tasks they submitted (CANN_API JOIN TASK ON connectionId) its task
    counts per type, and their kernels (TASK JOIN COMPUTE_TASK_INFO ON
    globalTaskId) its kernel counts per name, all exactly.
  - a capture of device tasks alone (info.json "apiLevels" [], e.g. msprof
    refused bpf()) has no API record and no flow arrow; its database is
    checked for no CANN_API row of the step (its tasks, joined through
    CANN_API, cannot be; the records' are, above);
  - E2E_API_LEVELS (environment, comma-separated), when set, is exactly
    info.json's "apiLevels" (absent there: AscendCL alone, as before the
    runtime level existed).
  - E2E_NO_BEGIN_END_RANKS (environment, space-separated ranks): the
    processes of those ranks got no task begin or end (a device log that
    holds only processes which enabled profiling themselves, and these have
    no dynamic-profiling server): each of their tasks has exactly one
    submit and no start or end record, their database has no task row to
    join (only the API counts are compared), and the export said why
    (export.log: "its log held no task begin or end of this process").
  - E2E_LOG_FROM_ENABLE=1: a device log that holds a process's tasks only
    once its app enabled profiling (its server's start sent the enable
    task, after msprof's window opened) and until it disabled it: a step
    whose tasks ran before that process's first begin or after its last end
    is checked for its submits and API calls only.
  - E2E_UNNAMED_LAUNCHES=1: kernels launched by a function handle made
    before npuprof attached carry no name (the real driver gives none):
    a step's kernels in the database are then compared by their total,
    each named one of the app's kernels or the task type AI_CORE.
Exit 0 when all hold, 1 otherwise (each finding printed).
"""
import collections
import decimal
import glob
import json
import os
import sqlite3
import sys

bad = []

# The level-5000 call (the name CANN's runtime registers, record.h) that
# each ACL call of the app makes in the simulated runtime, one each
# (sim/runtime/acl_rt.c, acl_kernel.c); aclInit, aclFinalize and the
# kernel-binary calls make none.
RUNTIME_OF = {
    "aclrtSetDevice": "SetDevice", "aclrtResetDevice": "DeviceReset",
    "aclrtCreateStream": "StreamCreate", "aclrtDestroyStream": "StreamDestroy",
    "aclrtSynchronizeStream": "StreamSynchronize", "aclrtSynchronizeDevice": "DeviceSynchronize",
    "aclrtMalloc": "DevMalloc", "aclrtFree": "DevFree",
    "aclrtMemcpy": "MemCopySync", "aclrtMemcpyAsync": "MemcpyAsync",
    "aclrtLaunchKernel": "KernelLaunch", "aclopExecuteV2": "KernelLaunch",
    "aclrtCreateEvent": "EventCreate", "aclrtDestroyEvent": "EventDestroy",
    "aclrtRecordEvent": "EventRecord",
}


def api_levels(prof):
    """The CANN levels the capture holds, by info.json (AscendCL when it
    does not say), checked against E2E_API_LEVELS when that is set."""
    info = json.load(open(os.path.join(prof, "host", "info.json")))
    levels = info.get("apiLevels", ["AscendCL"])
    want = os.environ.get("E2E_API_LEVELS")
    if want is not None and levels != want.split(","):
        fail(f"{prof}: info.json apiLevels {levels}, want {want.split(',')}")
    return levels


def want_api_calls(app_api, levels):
    """API records a step's ACL calls @app_api give at @levels."""
    want = collections.Counter()
    for name, n in app_api.items():
        if not n:
            continue
        if "AscendCL" in levels:
            want[name] += n
        if "Runtime" in levels and name in RUNTIME_OF:
            want[RUNTIME_OF[name]] += n
    return dict(want)


def us(text):
    """Exact value of an exported "123.456" us string (floats lose the
    last digits of wall-clock us)."""
    return decimal.Decimal(str(text))


def fail(msg):
    bad.append(msg)
    print("FAIL " + msg)


def load_records(path):
    recs = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                recs.append(json.loads(line))
    return recs


def check_no_duplicates(prof, recs):
    seen = collections.Counter()
    for r in recs:
        if r["type"] == "api":
            seen[("api", r["tid"], r["ts"], r["api"])] += 1
        elif r["type"] == "task":
            # a task id may be reused (ids wrap): the same record has its time too
            seen[("task", r["device"], r["stream"], r["task_id"], r["event"], r["ts"])] += 1
    dups = [k for k, n in seen.items() if n > 1]
    if dups:
        fail(f"{prof}: {len(dups)} records appear more than once, e.g. {dups[0]}")


def check_lost(prof, recs):
    lost_recs = [r for r in recs if r["type"] == "lost"]
    if not lost_recs:
        fail(f"{prof}: no loss records (the drain writes one per ring at stop)")
    for r in lost_recs:
        if r["lost"] != 0:
            fail(f"{prof}: source {r['source']} cpu {r['cpu']} lost {r['lost']} records")
    info = json.load(open(os.path.join(prof, "host", "info.json")))
    for src, rings in info.get("rings", {}).items():
        for ring in rings:
            if ring["lost"]:
                fail(f"{prof}: info.json {src} {ring} lost {ring['lost']}")


def check_info_counts(prof, recs):
    """info.json's "rings" and "devices" (the drain's own report) must say
    what the files say: one ring per LOST record with its counters, and
    the device ids of the device_<id> directories and task records."""
    info = json.load(open(os.path.join(prof, "host", "info.json")))
    names = {1: "npuprof.ko", 2: "bpf", 3: "devlog"}
    from_recs = collections.defaultdict(list)
    for r in recs:
        if r["type"] == "lost":
            # the device log's rings are one per device, not per CPU
            unit = "device" if r["source"] == 3 else "cpu"
            from_recs[names.get(r["source"], str(r["source"]))].append(
                {unit: r["cpu"], "written": r["written"], "lost": r["lost"]})
    for src, rings in info.get("rings", {}).items():
        want = sorted(from_recs.get(src, []), key=lambda x: x.get("cpu", x.get("device")))
        if rings != want:
            fail(f"{prof}: info.json rings {src} = {rings}, LOST records say {want}")
    dirs = sorted(int(d[len("device_"):]) for d in os.listdir(prof)
                  if d.startswith("device_") and d[len("device_"):].isdigit())
    tasks = sorted({r["device"] for r in recs if r["type"] == "task"})
    if info.get("devices") != dirs or dirs != tasks:
        fail(f"{prof}: info.json devices {info.get('devices')}, directories {dirs}, "
             f"task records {tasks}")


def step_counts(recs, step):
    """API and task counts the capture holds for one step of one thread."""
    lo, hi, tid = step["begin_ns"], step["end_ns"], step["tid"]
    api = collections.Counter()
    tasks = collections.Counter()
    ids = set()
    for r in recs:
        if r.get("tid") != tid or not lo <= r["ts"] <= hi:
            continue
        if r["type"] == "api":
            api[r["api"]] += 1
        elif r["type"] == "task" and r["event"] == "submit":
            tasks[r["task_type"]] += 1
            ids.add((r["device"], r["stream"], r["task_id"], r["ts"]))
    return api, tasks, ids


LIFECYCLE = {"submit": 0, "start": 1, "end": 2}


def task_cycles(recs):
    """Each task's life-cycle records, keyed (device, stream, task id, submit ts).

    Task ids wrap, so one (device, stream, task id) may name several tasks:
    taken in time order, each submit begins the next task's records, and so
    does a second start or end: the task after it, whose submit the window
    did not see (at stop the CPUs stop recording one after another, so a
    task's submit and start may be missing while its end is there).  Such a
    task has no key here (the export's join does the same:
    tools/export/export_join.c).
    """
    by_key = collections.defaultdict(list)
    for r in recs:
        if r["type"] == "task" and r["event"] in LIFECYCLE:
            by_key[(r["device"], r["stream"], r["task_id"])].append(r)
    cycles = {}
    for key, rs in by_key.items():
        rs.sort(key=lambda r: (r["ts"], LIFECYCLE[r["event"]]))
        cur = collections.Counter()
        for r in rs:
            if r["event"] == "submit":
                cur = cycles.setdefault(key + (r["ts"],), collections.Counter())
            elif cur[r["event"]]:
                cur = collections.Counter()  # a task without its submit
            cur[r["event"]] += 1
    return cycles


def no_begin_end(app):
    """Does app's rank get no task begin or end (E2E_NO_BEGIN_END_RANKS)?"""
    ranks = os.environ.get("E2E_NO_BEGIN_END_RANKS", "").split()
    return str(app.get("rank")) in ranks


def logged_span(recs):
    """[first begin, last end] of the device log in recs (E2E_LOG_FROM_ENABLE),
    else None: every task of a step must have its begin and end."""
    if os.environ.get("E2E_LOG_FROM_ENABLE") != "1":
        return None
    ts = [r["ts"] for r in recs if r["type"] == "task" and r["event"] in ("start", "end")]
    return (min(ts), max(ts)) if ts else (0, -1)


def logged(span, step):
    """Did the step run wholly inside the logged span?"""
    return span is None or (span[0] <= step["begin_ns"] and step["end_ns"] <= span[1])


def check_task_lifecycle(prof, recs, ids, app, step_logged=True):
    cycles = task_cycles(recs)
    want = {"submit": 1, "start": 1, "end": 1}
    if no_begin_end(app) or not step_logged:
        want = {"submit": 1, "start": 0, "end": 0}
    for dev, stream, tid, ts in ids:
        events = cycles.get((dev, stream, tid, ts), collections.Counter())
        for ev in ("submit", "start", "end"):
            # a step outside the logged span: its begins and ends may be cut
            loose = not step_logged and ev != "submit" and events[ev] <= 1
            if events[ev] != want[ev] and not loose:
                fail(f"{prof}: device {dev} stream {stream} task {tid} submitted at {ts}: "
                     f"{events[ev]} {ev} records, want {want[ev]}")


def check_steps(prof, recs, app):
    start_info = json.load(open(os.path.join(prof, "host", "start_info")))
    end_info = json.load(open(os.path.join(prof, "host", "end_info")))
    start, end = start_info["clockMonotonic"], end_info["clockMonotonic"]
    # no record before the producers were enabled or after they were
    # disabled: exact, whatever the (emulated) CPU did in between
    lo, hi = start_info["clockMonotonicEnabled"], end_info["clockMonotonicDisabled"]
    if not lo <= start <= end <= hi:
        fail(f"{prof}: window bounds out of order: enabled {lo}, start {start}, end {end}, disabled {hi}")
    for kind in ("task", "api"):
        ts = [r["ts"] for r in recs if r["type"] == kind]
        if ts and (min(ts) < lo or max(ts) > hi):
            fail(f"{prof}: {kind} records span {(min(ts) - lo) / 1e6:.3f} ms to "
                 f"{(max(ts) - hi) / 1e6:+.3f} ms around [clockMonotonicEnabled, clockMonotonicDisabled]")
    levels = api_levels(prof)
    span = logged_span(recs)
    inside = [s for s in app["steps"] if start <= s["begin_ns"] and s["end_ns"] <= end]
    print(f"{os.path.basename(prof)}: window {(end - start) / 1e9:.3f} s, "
          f"{len(inside)} of {len(app['steps'])} steps inside")
    if not inside:
        fail(f"{prof}: no step lies wholly inside the capture window")
    for s in inside:
        api, tasks, ids = step_counts(recs, s)
        want_api = want_api_calls(s["api"], levels)
        want_tasks = {k: v for k, v in s["tasks"].items() if v}
        if dict(api) != want_api:
            fail(f"{prof}: step {s['step']} thread {s['tid']}: API calls {dict(api)}, app made {want_api}")
        if dict(tasks) != want_tasks:
            fail(f"{prof}: step {s['step']} thread {s['tid']}: device tasks {dict(tasks)}, app made {want_tasks}")
        check_task_lifecycle(prof, recs, ids, app, logged(span, s))
    return inside


# One step's counts from the database, by name (texts are STRING_IDS ids):
# the calls of the step's thread that started in it, the tasks they
# submitted, those tasks' kernels.
DB_QUERIES = {
    "api": "SELECT s.value, count(*) FROM CANN_API a JOIN STRING_IDS s ON s.id = a.name",
    "tasks": "SELECT s.value, count(*) FROM CANN_API a"
             " JOIN TASK t ON t.connectionId = a.connectionId JOIN STRING_IDS s ON s.id = t.taskType",
    "kernels": "SELECT s.value, count(*) FROM CANN_API a"
               " JOIN TASK t ON t.connectionId = a.connectionId"
               " JOIN COMPUTE_TASK_INFO c ON c.globalTaskId = t.globalTaskId"
               " JOIN STRING_IDS s ON s.id = c.name",
}
DB_STEP = " WHERE (a.globalTid & 4294967295) = ? AND a.startNs BETWEEN ? AND ? GROUP BY s.value"


def same_kernels(got, want):
    """The database's kernels of a step against the app's: equal, or with
    E2E_UNNAMED_LAUNCHES the same total, each name the app's or AI_CORE."""
    if os.environ.get("E2E_UNNAMED_LAUNCHES") != "1":
        return got == want
    return (sum(got.values()) == sum(want.values()) and
            set(got) <= set(want) | {"AI_CORE"})


def check_db(prof, inside, levels, app, span=None):
    files = glob.glob(os.path.join(prof, "msprof_" + "[0-9]" * 14 + ".db"))
    if len(files) != 1:
        fail(f"{prof}: {len(files)} msprof_*.db files, want 1")
        return
    start_info = json.load(open(os.path.join(prof, "host", "start_info")))
    # the database is in Unix ns: the offset the export takes from start_info
    off = int(start_info["collectionTimeBegin"]) * 1000 - start_info["clockMonotonic"]
    db = sqlite3.connect(f"file:{files[0]}?mode=ro", uri=True)
    for s in inside:
        args = (s["tid"], s["begin_ns"] + off, s["end_ns"] + off)
        for what, sql in DB_QUERIES.items():
            if what != "api" and not levels:
                continue  # joined through CANN_API, which is empty
            if what != "api" and (no_begin_end(app) or not logged(span, s)):
                continue  # no task has a start and an end: none is in TASK
            got = dict(db.execute(sql + DB_STEP, args))
            if what == "api":  # a call at each level captured, as in the records
                want = want_api_calls(s["api"], levels)
            else:
                want = {k: v for k, v in s[what].items() if v}
            if (got != want if what != "kernels" else not same_kernels(got, want)):
                fail(f"{prof}: database, step {s['step']} thread {s['tid']}: {what} {got}, app made {want}")
    db.close()


def check_task_events(prof, events, recs):
    """One X event per task life cycle with a submit, start and end, by
    (device, stream, task id): a reused task id is two tasks, not one."""
    hw = {e["pid"]: int(e["args"]["labels"].split()[1]) for e in events
          if e.get("ph") == "M" and e.get("name") == "process_labels" and e["args"]["labels"] != "CPU"}
    got = collections.Counter((hw[e["pid"]], e["args"]["Stream Id"], e["args"]["Task Id"])
                              for e in events if e.get("ph") == "X" and e.get("pid") in hw
                              and "Submit Time(us)" in e["args"] and "cut" not in e["args"])
    want = collections.Counter(k[:3] for k, c in task_cycles(recs).items()
                               if c["submit"] and c["start"] and c["end"])
    if got != want:
        diff = [(k, got[k], want[k]) for k in set(got) | set(want) if got[k] != want[k]]
        fail(f"{prof}: {len(diff)} (device, stream, task id) with another number of timeline tasks "
             f"than life cycles in the records, e.g. {diff[0]} (timeline, records)")


def check_timeline(prof, recs, levels, app):
    files = glob.glob(os.path.join(prof, "mindstudio_profiler_output", "msprof_*.json"))
    if len(files) != 1:
        fail(f"{prof}: {len(files)} msprof_*.json files, want 1")
        return
    doc = json.load(open(files[0], encoding="utf-8"))
    events = doc["traceEvents"] if isinstance(doc, dict) else doc
    starts = {e["id"]: us(e["ts"]) for e in events if e.get("ph") == "s"}
    ends = {e["id"]: us(e["ts"]) for e in events if e.get("ph") == "f"}
    if levels and not starts and not no_begin_end(app):
        fail(f"{prof}: timeline has no launch -> task flow arrows")
    if not levels and starts:
        fail(f"{prof}: {len(starts)} flow arrows in a capture without API calls")
    early = [e for e in events if e.get("ph") == "X" and "Submit Time(us)" in e.get("args", {})
             and us(e["ts"]) < us(e["args"]["Submit Time(us)"])]
    if early:
        e = early[0]
        fail(f"{prof}: {len(early)} device tasks start before their own submit time, e.g. "
             f"{e['name']} at {e['ts']} us, submitted {e['args']['Submit Time(us)']} us")
    backwards = [i for i in starts if i in ends and ends[i] < starts[i]]
    if backwards:
        i = backwards[0]
        fail(f"{prof}: {len(backwards)} device tasks start before their launch, e.g. flow {i}: "
             f"launch {starts[i]} us, task {ends[i]} us")
    check_task_events(prof, events, recs)
    check_cut_calls(prof, events, recs)


def check_cut_calls(prof, events, recs):
    """Calls in flight at the stop: records flagged cut (no return), one
    at most per thread and API (one in-flight slot each), each drawn as
    one call event ending at end_info's clock, marked "cut": "end"."""
    cut = [r for r in recs if r["type"] == "api" and r.get("cut") == "end"]
    odd = [r for r in cut if r["exit_ts"] != 0 or r["ret"] != 0]
    if odd:
        fail(f"{prof}: {len(odd)} cut call records with a return, e.g. {odd[0]}")
    per = collections.Counter((r["tid"], r["api"]) for r in cut)
    if per and max(per.values()) > 1:
        fail(f"{prof}: several cut calls of one thread and API: {per.most_common(1)}")
    drawn = [e for e in events if e.get("ph") == "X" and "level" in e.get("args", {})
             and e["args"].get("cut") == "end"]
    if len(drawn) != len(cut):
        fail(f"{prof}: {len(cut)} calls cut by the stop, {len(drawn)} drawn cut in the timeline")
    print(f"{os.path.basename(prof)}: {len(cut)} calls in flight at the stop")


def load_apps(out):
    with open(os.path.join(out, "app.json"), encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def app_of(prof, recs, apps):
    """The app.json line of the process this PROF dir is for."""
    pid = json.load(open(os.path.join(prof, "host", "info.json")))["pid"]
    for app in apps:
        if app.get("pid") == pid:
            return pid, app
    tids = {r["tid"] for r in recs if r["type"] == "api"}
    for app in apps:
        if tids & {s["tid"] for s in app["steps"]}:
            return pid, app
    return pid, None


def check_device_ctrl(prof):
    host = {n: json.load(open(os.path.join(prof, "host", n)))
            for n in ("start_info", "end_info", "info.json", "sample.json")}
    samples = {c["device"]: c for c in host["info.json"]["clockSamples"]}
    for data in glob.glob(os.path.join(prof, "device_*", "data")):
        d = os.path.dirname(data)
        dev = int(os.path.basename(d)[len("device_"):])
        try:
            start = json.load(open(os.path.join(d, f"start_info.{dev}")))
            end = json.load(open(os.path.join(d, f"end_info.{dev}")))
            info = json.load(open(os.path.join(d, f"info.json.{dev}")))
            sample = json.load(open(os.path.join(d, "sample.json")))
        except (OSError, ValueError) as e:
            fail(f"{d}: a control file is missing or damaged: {e}")
            continue
        for key in ("collectionTimeBegin", "clockMonotonic", "clockMonotonicRaw"):
            if start.get(key) != host["start_info"][key]:
                fail(f"{d}/start_info.{dev}: {key} {start.get(key)}, host/start_info has {host['start_info'][key]}")
        for key in ("collectionTimeEnd", "clockMonotonic", "clockMonotonicRaw"):
            if end.get(key) != host["end_info"][key]:
                fail(f"{d}/end_info.{dev}: {key} {end.get(key)}, host/end_info has {host['end_info'][key]}")
        want = [samples[dev]] if dev in samples else []
        if (info.get("devices"), info.get("DeviceInfo"), info.get("clockSamples"), info.get("pid")) != \
                (str(dev), [{"id": dev}], want, host["info.json"]["pid"]):
            fail(f"{d}/info.json.{dev}: devices {info.get('devices')}, DeviceInfo {info.get('DeviceInfo')}, "
                 f"pid {info.get('pid')}, clockSamples {info.get('clockSamples')}; want {dev}, its own "
                 f"samples {want}, pid {host['info.json']['pid']}")
        if sample != host["sample.json"]:
            fail(f"{d}/sample.json differs from host/sample.json")
    left = glob.glob(os.path.join(prof, "*", ".*.tmp"))
    if left:
        fail(f"{prof}: control files left under their temporary names: {left}")


def check_own_records(prof, recs, pid):
    """Every record is the process's: its pid, or the host's (the first of
    info.json's nsPid) when msprof ran in a pid namespace of its own."""
    ns = json.load(open(os.path.join(prof, "host", "info.json"))).get("nsPid") or [pid]
    own = {pid, ns[0]}
    other = collections.Counter(r["pid"] for r in recs if r["type"] in ("api", "task") and r["pid"] not in own)
    if other:
        fail(f"{prof}: records of other processes {dict(other)} in the PROF dir of pid {pid}")


def main():
    out = sys.argv[1]
    want_procs = int(sys.argv[2]) if len(sys.argv) > 2 else None
    apps = load_apps(out)
    victim = os.path.join(out, "victim")
    killed = {int(open(victim).read())} if os.path.exists(victim) else set()
    profs = sorted(p for p in glob.glob(os.path.join(out, "PROF_*")) if os.path.isdir(p))
    if not profs:
        fail(f"{out}: no PROF_* directory")
    steps = 0
    per_pid = collections.Counter()
    for prof in profs:
        recs = load_records(os.path.join(out, "records", os.path.basename(prof) + ".jsonl"))
        pid, app = app_of(prof, recs, apps)
        per_pid[pid] += 1
        if app is None and pid in killed:
            # killed mid-window: it printed no counts; what it did is its own
            check_own_records(prof, recs, pid)
            check_no_duplicates(prof, recs)
            check_lost(prof, recs)
            check_info_counts(prof, recs)
            if not any(r["type"] == "api" for r in recs):
                fail(f"{prof}: the killed pid {pid} has no API record")
            continue
        if app is None:
            fail(f"{prof}: no line of app.json belongs to pid {pid}")
            continue
        check_own_records(prof, recs, pid)
        check_no_duplicates(prof, recs)
        check_lost(prof, recs)
        check_info_counts(prof, recs)
        check_device_ctrl(prof)
        inside = check_steps(prof, recs, app)
        steps += len(inside)
        levels = json.load(open(os.path.join(prof, "host", "info.json"))).get(
            "apiLevels", ["AscendCL"])
        check_timeline(prof, recs, levels, app)
        check_db(prof, inside, levels, app, logged_span(recs))
        if no_begin_end(app):
            log = os.path.join(out, "export.log")
            name = os.path.basename(prof)
            if not any(name in line and "its log held no task begin or end of this process" in line
                       for line in open(log)):
                fail(f"{prof}: export.log does not say its device log held none of its tasks")
    if want_procs is not None and (len(per_pid) != want_procs or set(per_pid.values()) != {1}):
        fail(f"{out}: PROF dirs per pid {dict(per_pid)}, want one for each of {want_procs} processes")
    print(f"{len(profs)} PROF dirs, {steps} steps checked, {len(bad)} findings")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
