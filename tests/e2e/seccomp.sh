#!/usr/bin/env bash
# Under a container's default seccomp profile that refuses bpf() and
# perf_event_open() (tests/vm/seccomp_deny), in one boot
# (tests/e2e/guest/seccomp.sh):
#  - with npuprof.ko loaded, launch and attach mode capture the device
#    tasks: msprof says once, before the prompt, what is refused and what
#    still works, exits 0, and the capture passes the exactness checks
#    (every device task of the window once, no API record, nothing lost,
#    the export against the layout checker); info.json says why API calls
#    are not captured ("apiNotCaptured", "apiLevels" []) and sample.json
#    asked for none;
#  - without npuprof.ko too, nothing can be captured: msprof says why in
#    one line and exits 1 before the app is launched (launch mode: it never
#    ran) or touched (attach mode: its server saw no client, it ran to
#    its end), leaving no --output behind.
source "$(dirname "$0")/lib.bash"

refused="bpf() and perf_event_open() are refused (blocked by a seccomp filter)"
warn="[WARNING] msprof: $refused: API calls are not captured; device tasks are captured through npuprof.ko; to capture API calls too: allow bpf() and perf_event_open() in the seccomp profile, or give the container CAP_BPF and CAP_PERFMON (the default profiles then allow them)"
error="[ERROR] msprof: $refused and npuprof.ko is not loaded (no /dev/npuprof): neither API calls nor device tasks can be captured; nothing was started: load npuprof.ko (modprobe npuprof), or allow bpf() and perf_event_open() in the seccomp profile, or give the container CAP_BPF and CAP_PERFMON (the default profiles then allow them)"

fail() { echo "FAIL: $*"; exit 1; }

# check_capture MODE: the capture in $top/MODE.
check_capture() {
	out=$top/$1
	echo "--- $1: msprof output"
	cat "$out/msprof.log" "$out/msprof.err"
	[[ $(grep -c 'refused' "$out/msprof.err") == 1 ]] || fail "$1: the refusal said $(grep -c refused "$out/msprof.err") times, want once"
	grep -qxF "$warn" "$out/msprof.err" || fail "$1: no line: $warn"
	e2e_check || fail "$1: capture checks"
	python3 - "$out" "$refused" <<-'PY' || fail "$1: info.json or sample.json"
		import glob, json, sys
		out, refused = sys.argv[1:]
		profs = glob.glob(out + "/PROF_*")
		assert len(profs) == 1, profs
		info = json.load(open(profs[0] + "/host/info.json"))
		assert info["apiNotCaptured"] == refused, info.get("apiNotCaptured")
		assert info["apiLevels"] == [], info["apiLevels"]
		assert "uprobes" not in info and "bpf" not in info["rings"], info["rings"].keys()
		assert info["driver"]["taskCapture"]["path"] == "npuprof.ko", info["driver"]
		sample = json.load(open(profs[0] + "/host/sample.json"))
		assert (sample["acl"], sample["runtimeApi"]) == ("off", "off"), sample
		print(f"ok: info.json says {info['apiNotCaptured']!r}, sample.json acl off")
	PY
}

# check_refused MODE: msprof of $top/fail-MODE said why and did nothing.
check_refused() {
	local f=$top/fail-$1
	echo "--- fail-$1: msprof output"
	cat "$f/msprof.log" "$f/msprof.err"
	[[ $(cat "$f/msprof.rc") == 1 ]] || fail "fail-$1: msprof exited $(cat "$f/msprof.rc"), want 1"
	[[ $(cat "$f/msprof.err") == "$error" ]] || fail "fail-$1: stderr is not exactly: $error"
	[[ ! -s $f/msprof.log ]] || fail "fail-$1: msprof said more on stdout"
	[[ ! -e $f/prof ]] || fail "fail-$1: --output $f/prof was left behind"
}

mkdir -p build/e2e
top=$(mktemp -d "$PWD/build/e2e/seccomp.XXXXXX")
echo "output: $top"
scripts/vm-run.sh --rw "$top" --timeout 600 -- tests/e2e/guest/seccomp.sh "$top" \
	--steps=300 --step-gap-ms=30 || fail "the guest script failed"

check_capture launch
check_capture attach
check_refused launch
[[ ! -e $top/fail-launch/app.started ]] || fail "fail-launch: the app was started"
check_refused attach
f=$top/fail-attach
[[ $(cat "$f/app.rc") == 0 ]] || fail "fail-attach: the app exited $(cat "$f/app.rc")"
grep -q 'dynamic profiling server of pid [0-9]* listening' "$f/app.err" || fail "fail-attach: the app's server did not listen"
! grep -q 'client connected' "$f/app.err" || fail "fail-attach: msprof connected to the app"
grep -q '"steps"' "$f/app.out" || fail "fail-attach: the app did not run to its end"
echo "ok: under seccomp, device tasks captured with npuprof.ko; refused before the app without it"
