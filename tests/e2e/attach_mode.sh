#!/usr/bin/env bash
# Attach mode: the sample AI task runs with PROFILING_MODE=dynamic, msprof
# attaches with --pid; same exactness checks as launch mode, and the export
# says device times were placed by npusim's clock samples.
source "$(dirname "$0")/lib.bash"
e2e_run attach --steps=300 --step-gap-ms=30 --streams=2 && e2e_clocks && e2e_task_path
