#!/usr/bin/env bash
# Runtime-API capture (bpf/acl_trace.bpf.c + user/acl_trace.c) in the test
# VM: runs every build/tests/vm/bpf_acl_trace_* program as root on the
# Debian 6.1 kernel, with the simulated NPU driver loaded when it was built
# (the programs pass either way; with a device the calls succeed and their
# out-parameters are real).  Exit 0 all passed, 77 all skipped, 1 otherwise.
set -u
cd "$(dirname "$0")/../.."

tests=(calls tgid enable lost attach_errors straddle mapfiles)
for t in "${tests[@]}"; do
	[[ -x build/tests/vm/bpf_acl_trace_$t ]] || {
		echo "build/tests/vm/bpf_acl_trace_$t missing: run make tests" >&2
		exit 1
	}
done

guest='
pass=0 fail=0 skip=0
[ -f build/kmod/npusim.ko ] && insmod build/kmod/npusim.ko
for t in '"${tests[*]}"'; do
	build/tests/vm/bpf_acl_trace_$t
	rc=$?
	case $rc in
	0) pass=$((pass + 1)); echo "PASS bpf_acl_trace_$t" ;;
	77) skip=$((skip + 1)); echo "SKIP bpf_acl_trace_$t" ;;
	*) fail=$((fail + 1)); echo "FAIL bpf_acl_trace_$t (exit $rc)" ;;
	esac
done
echo "bpf: $pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ] || exit 1
[ $pass -gt 0 ] || exit 77
'
exec scripts/vm-run.sh --timeout 600 -- "$guest"
