#!/usr/bin/env bash
# Device tasks through BPF, without npuprof.ko (bpf/acl_trace.bpf.c's task
# programs, user/acl_trace.c's npuprof_acl_trace_attach_tasks()) in the
# test VM: every tests/vm/bpf_task_*.c program as root on the Debian 6.1
# kernel.  Each loads the stub driver (tests/kmod/tp_stub, the npusim
# tracepoint names with known fields) itself; npusim.ko, whose tracepoints
# have the same names, stays unloaded.  Exit 0 all passed, 77 all skipped,
# 1 otherwise.
source "$(dirname "$0")/lib.bash"
mapfile -t names < <(suite_names bpf_task_ "$@")
vm_suite bpf_task 600 : "${names[@]}"
