#!/usr/bin/env bash
# Description: the platform smoke (tests/platform/smoke.sh) on amd64-6.12.
exec "$(dirname "$0")/smoke.sh" amd64-6.12
