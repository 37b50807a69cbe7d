#!/usr/bin/env bash
# Launch mode against the second simulated driver, npustub.ko (other
# tracepoint names and argument order, no clock ioctl): the checks of
# launch_mode.sh, and the export says device times were placed by the fit
# over the task records, since the driver gives no clock samples.
source "$(dirname "$0")/lib.bash"
export E2E_DRIVER=npustub
e2e_run launch --steps=300 --step-gap-ms=30 --threads=2 && e2e_clocks && e2e_task_path
