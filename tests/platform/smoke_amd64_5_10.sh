#!/usr/bin/env bash
# Description: the platform smoke (tests/platform/smoke.sh) on amd64-5.10.
exec "$(dirname "$0")/smoke.sh" amd64-5.10
