#!/usr/bin/env bash
# Launch mode without npuprof.ko (E2E_KMOD=0): msprof says it captures
# device tasks through BPF, and the capture passes the same exactness
# checks as launch_mode.sh (every API call and device task of the window
# once, nothing lost, the export against the layout checker).
source "$(dirname "$0")/lib.bash"
export E2E_KMOD=0
e2e_run launch --steps=300 --step-gap-ms=30 --threads=2 && e2e_clocks && e2e_task_path
