#!/usr/bin/env bash
# Runtime-API capture (bpf/acl_trace.bpf.c + user/acl_trace.c) in the test
# VM: every tests/vm/bpf_acl_trace_*.c program as root on the Debian 6.1
# kernel, with the simulated NPU driver loaded (with a device the calls
# succeed and their out-parameters are real).  First, those that keep calls
# in flight run again with NPUPROF_BPF_INFLIGHT=hash: the BPF hash map the
# loader falls back to on kernels without task storage for uprobes (before
# 5.12, or without BTF), which 6.1 would otherwise never load.  Exit 0 all
# passed, 77 all skipped, 1 otherwise.
source "$(dirname "$0")/lib.bash"
mapfile -t names < <(suite_names bpf_acl_trace_ "$@")
hash=()
for n in "${names[@]}"; do
	[[ $n =~ ^bpf_acl_trace_(calls|enable|nested|straddle)$ ]] &&
		hash+=("build/tests/vm/$n")
done
# Then the calls' fields and the nesting counts once more with
# NPUPROF_BPF_API_ID=program: a program per function, the API id a constant
# in it, as the loader picks on kernels without BPF cookies (5.10).  (The
# runtime layer's counts on that path: tests/platform/smoke_amd64_5_10.sh,
# on a 5.10 kernel.)
program=()
for n in "${names[@]}"; do
	[[ $n =~ ^bpf_acl_trace_(calls|nested)$ ]] && program+=("build/tests/vm/$n")
done
prep="insmod build/kmod/npusim.ko"
((${#hash[@]})) &&
	prep+=" && NPUPROF_BPF_INFLIGHT=hash tests/vm/guest/run-suite bpf-hash 120 ${hash[*]}"
((${#program[@]})) &&
	prep+=" && NPUPROF_BPF_API_ID=program tests/vm/guest/run-suite bpf-program 120 ${program[*]}"
vm_suite bpf 600 "$prep" "${names[@]}"
