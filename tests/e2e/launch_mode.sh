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

export E2E_DRIVER_ARGS="task_id_bits=8 drift_ppm=200" E2E_MSPROF_ARGS=--storage-limit=200MB
e2e_run launch --steps=300 --step-gap-ms=30 --threads=2 && e2e_clocks && e2e_task_path && e2e_query &&
	e2e_reused_ids && sizes
