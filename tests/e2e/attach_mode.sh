#!/usr/bin/env bash
# Attach mode: the sample AI task runs with PROFILING_MODE=dynamic, msprof
# attaches with --pid; same exactness checks as launch mode, and the export
# says device times were placed by npusim's clock samples.  In the same VM,
# the app run as another user (nobody) with HOME=/srv/job: msprof, as
# root, finds its server in the HOME of its environment (not nobody's
# passwd home) and captures through it, exactly.
source "$(dirname "$0")/lib.bash"

# other_user: the attach-user capture (E2E_ALSO), checked as the main one.
other_user() {
	local top=$out pid
	out=$top/attach-user
	pid=$(cat "$out/app.pid")
	echo "--- attach to pid $pid of another user, HOME=/srv/job"
	cat "$out/msprof.log" "$out/msprof.err"
	[[ $(grep -cxF "dynamic profiling for pid $pid start success" "$out/msprof.log") == 1 ]] ||
		{ echo "no start reply from pid $pid's server, once"; return 1; }
	! grep -F "has no dynamic-profiling server" "$out/msprof.log" ||
		{ echo "msprof did not find the server in /srv/job"; return 1; }
	[[ $(cat "$out/msprof.rc") == 0 ]] || { echo "msprof exited $(cat "$out/msprof.rc"), want 0"; return 1; }
	e2e_check || return 1
	out=$top
	echo "ok: pid $pid captured through its server in /srv/job"
}

export E2E_ALSO=attach-user
e2e_run attach --steps=300 --step-gap-ms=30 --streams=2 && e2e_clocks && e2e_task_path && other_user
