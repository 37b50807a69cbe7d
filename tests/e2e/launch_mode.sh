#!/usr/bin/env bash
# Launch mode: msprof starts the sample AI task itself, start/stop from a
# pipe; every API call and device task of each step inside the window is
# captured exactly once, nothing lost, export passes the layout checker and
# says device times were placed by npusim's clock samples; each device
# folder has CANN's control files (check_capture.py), and msprof --query
# lists every folder with its collection time and rank.  Task ids are 8
# bits here, so the window reuses them: each reuse is its own task.  The
# device clock drifts at 200 ppm (npusim drift_ppm): no task needs a
# correction to start after its launch.  With --storage-limit=200MB,
# info.json says the limit and that nothing was aged out.
# In the same VM, with a HOME so long that the app's socket path passes a
# Unix socket's 107 bytes (its server cannot start, and it runs on):
# --require-server=on refuses before launching (status 2, the one line,
# nothing created); without it, launch mode captures the app from the
# kernel side, says why once, exits 0, and the window is exact; app mode
# (no server needed) captures the whole run exactly.
source "$(dirname "$0")/lib.bash"

# sizes: the drift and storage-limit checks above, on every PROF dir in $out.
sizes() {
	local d
	for d in "$out"/PROF_*; do
		python3 - "$d/host/info.json" <<-'EOF' || return 1
			import json, sys
			got = json.load(open(sys.argv[1])).get("storageLimit")
			want = {"limitBytes": 200 << 20, "agedSlices": 0, "agedBytes": 0, "agedRecords": 0}
			if got != want:
			    sys.exit(f"{sys.argv[1]}: storageLimit {got}, want {want}")
		EOF
		grep -q "^\[INFO\] msprof: $(basename "$d"): device [0-9]*: largest correction applied: none (every task starts after its launch)\$" \
			"$out/export.log" || { echo "$d: a task needed a correction at 200 ppm"; return 1; }
	done
	echo "storage limit and 200 ppm drift: as expected"
}

# too_long LINE PREFIX SUFFIX: LINE is PREFIX, "the socket path P is too
# long for a Unix socket: L bytes, the limit is 107", SUFFIX, with P in
# the long HOME of guest-capture.sh and L its length.
too_long() {
	local re="^$2the socket path (/root/h{100}/dynamic_profiling_socket_[0-9]+) is too long for a Unix socket: ([0-9]+) bytes, the limit is 107$3\$"
	[[ $1 =~ $re ]] && ((${#BASH_REMATCH[1]} == BASH_REMATCH[2]))
}

# long_home: the captures under the long HOME (E2E_ALSO), each checked
# as the main one.
long_home() {
	local top=$out pid
	out=$top/launch-longhome
	echo "--- launch mode, long HOME, --require-server=on"
	cat "$out/required.log"
	[[ $(wc -l <"$out/required.log") == 2 ]] &&
		too_long "$(head -n 1 "$out/required.log")" '\[ERROR\] msprof: Argument --require-server=on: ' \
			', so build/bin/ai_task can have no dynamic-profiling server: set HOME to a short, writable directory, or --require-server=off to capture it from the kernel side\.' ||
		{ echo "required.log is not the one refusal"; return 1; }
	[[ $(cat "$out/required.rc") == 2 && ! -e $out/required ]] ||
		{ echo "--require-server=on: exit $(cat "$out/required.rc"), want 2 and nothing created"; return 1; }
	echo "ok: --require-server=on refused before launching, exit 2"
	echo "--- launch mode, long HOME"
	cat "$out/msprof.log" "$out/msprof.err"
	pid=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["pid"])' "$out/app.json")
	[[ $(grep -c "has no dynamic-profiling server" "$out/msprof.log") == 1 ]] &&
		too_long "$(grep "has no dynamic-profiling server" "$out/msprof.log")" \
			"\[INFO\] msprof: pid $pid has no dynamic-profiling server \(" \
			'; a short, writable HOME gives it one\): capturing it from the kernel side only' ||
		{ echo "msprof.log lacks, once: pid $pid has no dynamic-profiling server (the socket path ...)"; return 1; }
	[[ $(grep -cxF "dynamic profiling for pid $pid start success (kernel side only)" "$out/msprof.log") == 1 ]] ||
		{ echo "no kernel-side start reply for pid $pid, once"; return 1; }
	[[ $(cat "$out/msprof.rc") == 0 ]] || { echo "msprof exited $(cat "$out/msprof.rc"), want 0"; return 1; }
	e2e_check || return 1
	out=$top/app-longhome
	echo "--- app mode, long HOME"
	cat "$out/msprof.log" "$out/msprof.err"
	[[ $(cat "$out/msprof.rc") == 0 ]] || { echo "app mode exited $(cat "$out/msprof.rc"), want 0"; return 1; }
	e2e_check || return 1
	out=$top
	echo "ok: launch and app mode under a long HOME"
}

export E2E_DRIVER_ARGS="task_id_bits=8 drift_ppm=200" E2E_MSPROF_ARGS=--storage-limit=200MB
export E2E_ALSO="launch-longhome app-longhome"
e2e_run launch --steps=300 --step-gap-ms=30 --threads=2 && e2e_clocks && e2e_task_path && e2e_query &&
	e2e_reused_ids && sizes && long_home
