#!/usr/bin/env bash
# Launch mode against the second simulated driver, npustub.ko (other
# tracepoint names and argument order, no clock ioctl), with the runtime
# level too (--runtime-api=on): the checks of launch_mode.sh, every step's
# runtime calls counted exactly from the app's ACL calls (check_capture.py
# RUNTIME_OF; info.json apiLevels AscendCL and Runtime), and the export
# says device times were placed by the fit over the task records, since
# the driver gives no clock samples.
source "$(dirname "$0")/lib.bash"
export E2E_DRIVER=npustub E2E_MSPROF_ARGS=--runtime-api=on E2E_API_LEVELS=AscendCL,Runtime
e2e_run launch --steps=300 --step-gap-ms=30 --threads=2 && e2e_clocks && e2e_task_path
