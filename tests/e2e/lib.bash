# Shared by the end-to-end tests (sourced): run a capture in the VM, export
# it on the host, check it against the app's own counts and the documented
# PROF_XXX layout.
set -u
cd "$(dirname "$0")/../.."
shared_checker=../shared/checks/check_prof.py

# e2e_capture MODE APP_ARGS...: the capture alone, into a new directory
# $out (it stays set for the caller's own checks).  Each mode E2E_ALSO
# names (space separated) is captured after it in the same VM, with the
# same APP_ARGS, into $out/<that mode>: one VM boot for them all.
e2e_capture() {
	local mode=$1 also cmd
	shift
	mkdir -p build/e2e
	out=$(mktemp -d "$PWD/build/e2e/$mode.XXXXXX")
	echo "output: $out"
	cmd=(scripts/guest-capture.sh "$mode" "$out" "$@")
	for also in ${E2E_ALSO:-}; do
		mkdir "$out/$also"
		cmd+=("&&" scripts/guest-capture.sh "$also" "$out/$also" "$@")
	done
	scripts/vm-run.sh --rw "$out" --timeout 600 -- "${cmd[@]}" ||
		{ echo "capture in the VM failed"; cat "$out"/msprof.* "$out"/*/msprof.* 2>/dev/null; return 1; }
	echo "--- msprof output"
	cat "$out/msprof.log" "$out/msprof.err"
}

# e2e_layout DIR: the PROF dirs in DIR against the documented layout.
e2e_layout() {
	if [[ -f $shared_checker ]]; then
		python3 "$shared_checker" "$1"
	else
		echo "note: $shared_checker not found; layout check skipped"
	fi
}

# e2e_run MODE APP_ARGS...: capture, export (its output also in
# $out/export.log), check against the sample app's counts and the layout
# checker.
e2e_run() {
	e2e_capture "$@" && e2e_check
}

# e2e_check: the capture in $out exported (status 0; 3, incomplete, only
# with E2E_NO_BEGIN_END_RANKS set) (its output also in
# $out/export.log), checked against the sample app's counts and the
# layout checker.
e2e_check() {
	local rc=0
	build/bin/msprof --export=on --output="$out" >"$out/export.log" 2>&1 || rc=$?
	cat "$out/export.log"
	# 3: exported, the data incomplete; expected where tasks got no begin/end
	((rc == 0)) || [[ $rc == 3 && -n ${E2E_NO_BEGIN_END_RANKS:-} ]] ||
		{ echo "export failed (exit $rc)"; return 1; }
	python3 tests/e2e/check_capture.py "$out" ${E2E_PROCS:-} || return 1
	e2e_layout "$out"
}

# e2e_clocks: after e2e_run, every PROF dir's export said how its device's
# times were placed, as the driver allows: npusim's clock samples, or, for
# npustub (E2E_DRIVER; no clock ioctl), the fit over the task records.
e2e_clocks() {
	local d name how n=0
	case ${E2E_DRIVER:-npusim} in
	npustub) how='a fit over [1-9][0-9]* task record times \(no clock samples in info\.json\)' ;;
	*) how='a fit over [1-9][0-9]* clock samples of the driver \(info\.json\)' ;;
	esac
	for d in "$out"/PROF_*; do
		name=$(basename "$d")
		grep -Eq "^\[INFO\] msprof: $name: device [0-9]+: device times placed by $how\$" "$out/export.log" ||
			{ echo "$name: the export did not say: device times placed by $how"; return 1; }
		n=$((n + 1))
	done
	grep -Eq "^    - device [0-9]+: device times placed by $how\$" "$out/export.log" ||
		{ echo "summary lacks its Device clocks line"; return 1; }
	((n)) || { echo "no PROF dir"; return 1; }
	echo "clock placement said for $n PROF dir(s)"
}

# e2e_query: after e2e_run, msprof --query=on --output=$out (not a
# terminal: tab-separated) exits 0 and lists, for every PROF dir, its host/
# and each device_<id>/ with the local time of that folder's start_info
# to the microsecond and the rank of host/info.json; the other columns
# empty.
e2e_query() {
	local rc=0
	build/bin/msprof --query=on --output="$out" >"$out/query.tsv" 2>"$out/query.err" || rc=$?
	((rc == 0)) || { cat "$out/query.err"; echo "msprof --query exited $rc"; return 1; }
	python3 - "$out" <<-'PY' || return 1
		import datetime, glob, json, os, sys
		out = sys.argv[1]
		def when(path):
		    us = int(json.load(open(path))["collectionTimeBegin"])
		    t = datetime.datetime.fromtimestamp(us // 1000000)
		    return t.strftime("%Y-%m-%d %H:%M:%S") + ".%06d" % (us % 1000000)
		want = ["Job Info\tDevice ID\tDir Name\tCollection Time\tModel ID\tIteration Number\t"
		        "Top Time Iteration\tRank ID"]
		for prof in sorted(glob.glob(out + "/PROF_*")):
		    name = os.path.basename(prof)
		    rank = json.load(open(prof + "/host/info.json")).get("rank", "")
		    want.append(f"\t\t{name}/host\t{when(prof + '/host/start_info')}\t\t\t\t{rank}")
		    devs = sorted(int(d.rsplit("_", 1)[1]) for d in glob.glob(prof + "/device_*"))
		    for dev in devs:
		        start = f"{prof}/device_{dev}/start_info.{dev}"
		        want.append(f"\t{dev}\t{name}/device_{dev}\t{when(start)}\t\t\t\t{rank}")
		got = open(out + "/query.tsv").read().split("\n")
		assert got[-1] == "", "no newline at the end"
		assert got[:-1] == want, ("query.tsv", got, "want", want)
		print(f"ok: msprof --query listed {len(want) - 1} folders")
	PY
}

# e2e_reused_ids: after e2e_run with task ids made to wrap
# (E2E_DRIVER_ARGS=task_id_bits=8), some (device, stream, task id) was
# submitted more than once in a window, so the checks above (each life
# cycle exact, flows forward, no task before its submit) saw reused ids.
e2e_reused_ids() {
	python3 - "$out" <<-'PY' || return 1
		import collections, glob, json, sys
		n = collections.Counter()
		for f in glob.glob(sys.argv[1] + "/records/*.jsonl"):
		    for line in open(f):
		        r = json.loads(line)
		        if r["type"] == "task" and r["event"] == "submit":
		            n[(r["device"], r["stream"], r["task_id"])] += 1
		reused = sum(1 for c in n.values() if c > 1)
		assert reused, "no task id was reused in the window"
		print(f"ok: {reused} task ids reused in the window, up to {max(n.values())} times")
	PY
}

# e2e_task_path: after a capture, msprof's log in $out says once which path
# captured device tasks (npuprof.ko, or BPF with E2E_KMOD=0, and why), the
# driver (E2E_DRIVER) and its four tracepoints, and warns of none missing.
e2e_task_path() {
	local driver=${E2E_DRIVER:-npusim} tps line
	case $driver in
	npustub) tps="npustub_sq_submit, npustub_task_exec_begin, npustub_task_exec_end, npustub_sq_sync_done" ;;
	*) tps="npusim_task_submit, npusim_task_start, npusim_task_end, npusim_stream_sync" ;;
	esac
	if [[ ${E2E_KMOD:-1} == 0 ]]; then
		line="npuprof.ko not loaded (no /dev/npuprof); capturing device tasks through BPF: driver $driver, tracepoints $tps"
	else
		line="capturing device tasks through npuprof.ko: driver $driver, tracepoints $tps"
	fi
	[[ $(grep -cF -- "$line" "$out/msprof.log") == 1 ]] ||
		{ echo "msprof.log lacks, once: $line"; return 1; }
	! grep -F "its device task events are not captured" "$out/msprof.log" "$out/msprof.err" ||
		{ echo "msprof warned of a missing tracepoint"; return 1; }
	# info.json keeps the same: backend, module, clock source, task path
	python3 - "$out" "$driver" "$([[ ${E2E_KMOD:-1} == 0 ]] && echo bpf || echo npuprof.ko)" <<-'PY' || return 1
		import glob, json, sys
		out, driver, path = sys.argv[1:]
		clock = "records" if driver == "npustub" else "driver"
		infos = glob.glob(out + "/PROF_*/host/info.json")
		assert infos, "no info.json"
		for f in infos:
		    d = json.load(open(f))["driver"]
		    got = (d["backend"], d["module"], d["clock"], d["taskCapture"]["path"])
		    assert got == (driver, driver, clock, path), (f, got)
		print("ok: info.json driver", driver, clock, path, "in", len(infos), "PROF dirs")
	PY
	echo "ok: $line"
}

# e2e_second_refused MAX_S TEXT: after "second" mode, the second msprof
# exited 1 within MAX_S seconds saying TEXT (an extended regex; FIRST in
# it stands for the first msprof's pid), created nothing, and the first
# msprof exited 0.
e2e_second_refused() {
	local max=$1 want rc first secs
	read -r rc first secs <"$out/second.rc"
	want=${2//FIRST/$first}
	echo "--- second msprof (exit $rc after ${secs}s; first msprof pid $first)"
	cat "$out/second.log"
	[[ $rc == 1 ]] || { echo "second msprof exited $rc, want 1"; return 1; }
	((secs <= max)) || { echo "second msprof took ${secs}s to be refused, want at most $max"; return 1; }
	grep -qE -- "$want" "$out/second.log" || { echo "second.log lacks: $want"; return 1; }
	[[ ! -e $out/second ]] || { echo "the refused msprof created $out/second"; return 1; }
	[[ $(cat "$out/msprof.rc") == 0 ]] || { echo "the first msprof exited $(cat "$out/msprof.rc")"; return 1; }
}
