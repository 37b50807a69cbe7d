#!/usr/bin/env bash
# Launch mode: msprof starts the sample AI task itself, start/stop from a
# pipe; every API call and device task of each step inside the window is
# captured exactly once, nothing lost, export passes the layout checker and
# says device times were placed by npusim's clock samples; each device
# folder has CANN's control files (check_capture.py), and msprof --query
# lists every folder with its collection time and rank.  Task ids are 8
# bits here, so the window reuses them: each reuse is its own task.
source "$(dirname "$0")/lib.bash"
export E2E_DRIVER_ARGS=task_id_bits=8
e2e_run launch --steps=300 --step-gap-ms=30 --threads=2 && e2e_clocks && e2e_task_path && e2e_query &&
	e2e_reused_ids
