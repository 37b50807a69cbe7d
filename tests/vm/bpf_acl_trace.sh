#!/usr/bin/env bash
# Runtime-API capture (bpf/acl_trace.bpf.c + user/acl_trace.c) in the test
# VM: every tests/vm/bpf_acl_trace_*.c program as root on the Debian 6.1
# kernel, with the simulated NPU driver loaded (with a device the calls
# succeed and their out-parameters are real).  Exit 0 all passed, 77 all
# skipped, 1 otherwise.
source "$(dirname "$0")/lib.bash"
mapfile -t names < <(suite_names bpf_acl_trace_ "$@")
vm_suite bpf 600 "insmod build/kmod/npusim.ko" "${names[@]}"
