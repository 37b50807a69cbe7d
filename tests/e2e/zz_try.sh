#!/usr/bin/env bash
source tests/e2e/lib.bash
export E2E_DRIVER=ascendsim E2E_DRIVER_ARGS=${ARGS:-}
e2e_run ${MODE:-launch} --steps=200 --step-gap-ms=30 --threads=2
