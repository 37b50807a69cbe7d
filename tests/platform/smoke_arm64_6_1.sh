#!/usr/bin/env bash
# Description: the platform smoke (tests/platform/smoke.sh) on arm64-6.1:
# Debian 12's arm64 kernel under qemu-system-aarch64 (TCG), with the
# cross-built modules, tools and simulated runtime (make check builds them).
exec "$(dirname "$0")/smoke.sh" arm64-6.1
