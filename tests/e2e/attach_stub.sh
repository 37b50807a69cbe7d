#!/usr/bin/env bash
# Attach mode against the second simulated driver, npustub.ko: the checks
# of attach_mode.sh, and the export says device times were placed by the
# fit over the task records (the driver has no clock ioctl).
source "$(dirname "$0")/lib.bash"
export E2E_DRIVER=npustub
e2e_run attach --steps=300 --step-gap-ms=30 --streams=2 && e2e_clocks && e2e_task_path
