#!/usr/bin/env bash
# io_uring refused as a container's default seccomp profile refuses it
# (io_uring_setup, io_uring_enter and io_uring_register answered with
# EPERM): msprof runs under build/tests/vm/seccomp_deny in launch mode,
# attach mode and app mode (a 4-rank job).  Each capture is complete on the
# fallback writer: the exact checks of launch_mode, attach_mode and
# ranks_app (check_capture.py: every call and task of each step in the
# window, nothing lost), the layout checker clean, msprof's first line the
# one that says why io_uring is not used (before anything is launched or
# attached) and said once, "writer": "pwrite" in every PROF dir's
# info.json, no start failed, exit 0.
# NO_IO_URING_SYSCTL=1 (tests/platform/no_io_uring_amd64_6_12.sh): no
# filter; the guest kernel boots with kernel.io_uring_disabled=2 instead.
source "$(dirname "$0")/lib.bash"

if [[ ${NO_IO_URING_SYSCTL:-0} == 1 ]]; then
	export NPUPROF_VM_APPEND="${NPUPROF_VM_APPEND:-} sysctl.kernel.io_uring_disabled=2"
	cause='EPERM: kernel.io_uring_disabled=2 allows it to nobody'
else
	export E2E_MSPROF_WRAP="build/tests/vm/seccomp_deny --deny=io_uring --"
	cause="EPERM: blocked by a seccomp filter, as a container's default profile does"
fi
line="[INFO] msprof: io_uring unavailable ($cause): writing with the fallback writer (pwrite from a writer thread)"

# fallback: after e2e_run, the checks above on $out.
fallback() {
	local n d
	n=$(cat "$out/msprof.log" "$out/msprof.err" | grep -cxF "$line")
	[[ $n == 1 ]] || { echo "said $n times, want once: $line"; return 1; }
	[[ $(head -n 1 "$out/msprof.log") == "$line" ]] ||
		{ echo "msprof's first line is not the fallback's: $(head -n 1 "$out/msprof.log")"; return 1; }
	! grep -q "cannot start" "$out/msprof.log" "$out/msprof.err" || { echo "a start failed"; return 1; }
	for d in "$out"/PROF_*; do
		python3 -c 'import json, sys
w = json.load(open(sys.argv[1]))["drain"].get("writer")
sys.exit(0 if w == "pwrite" else f"{sys.argv[1]}: drain writer {w}, want pwrite")' "$d/host/info.json" ||
			return 1
	done
	echo "fallback writer said once, first; $(ls -d "$out"/PROF_* | wc -l) PROF dir(s) written by pwrite"
}

e2e_run launch --steps=300 --step-gap-ms=30 --threads=2 && fallback || exit 1
e2e_run attach --steps=300 --step-gap-ms=30 --streams=2 && fallback || exit 1
export E2E_PROCS=4 E2E_BEFORE=3 E2E_WINDOW=4
e2e_run app-ranks --steps=300 --step-gap-ms=30 && fallback || exit 1
rc=$(cat "$out/msprof.rc")
[[ $rc == 0 ]] || { echo "app mode: msprof exited $rc, want 0"; exit 1; }
python3 tests/e2e/check_result.py "$out" 4 0
