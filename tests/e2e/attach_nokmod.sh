#!/usr/bin/env bash
# Attach mode without npuprof.ko (E2E_KMOD=0): msprof says it captures
# device tasks through BPF, and the capture passes the same exactness
# checks as attach_mode.sh.
source "$(dirname "$0")/lib.bash"
export E2E_KMOD=0
e2e_run attach --steps=300 --step-gap-ms=30 --streams=2 && e2e_clocks && e2e_task_path
