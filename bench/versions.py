#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Print the versions of the baseline tools as a JSON object (make bench
records them with every row); a tool that is not installed is null."""
import json
import subprocess

TOOLS = {
    "bpftrace": ["bpftrace", "--version"],
    "perf": ["perf", "--version"],
    "trace-cmd": ["trace-cmd", "--version"],
    "zstd": ["zstd", "--version"],
    "bpftool": ["bpftool", "version"],
    "gcc": ["gcc", "--version"],
}


def first_line(cmd):
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return None
    for line in (out.stdout + "\n" + out.stderr).splitlines():
        if line.strip():
            return line.strip()
    return None


print(json.dumps({name: first_line(cmd) for name, cmd in TOOLS.items()}))
