#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Description: tests/vm/seccomp_deny (the VM tests' stand-in for a
# container's default seccomp profile) makes exactly the named calls fail
# with the chosen errno, in the command and in its children, and lets the
# rest through: under --deny=io_uring,bpf,perf_event_open io_uring_setup,
# io_uring_enter, io_uring_register, bpf and perf_event_open fail with EPERM
# while getpid works; --errno=ENOSYS answers ENOSYS; a child process of the
# command is filtered too; an unknown name or no command is exit 2; a
# command that cannot be run is exit 127.
source "$(dirname "$0")/lib.bash"
TOOL=$BUILD/tests/vm/seccomp_deny
[[ -x $TOOL ]] || skip "$TOOL is not built (make tests)"

# Each call with zero arguments, its result and errno name, one a line.
# The numbers: x86_64's and arm64's tables (io_uring's are the same in all).
probe='
import ctypes, errno, os, sys
nrs = {"x86_64": {"io_uring_setup": 425, "io_uring_enter": 426, "io_uring_register": 427,
                  "bpf": 321, "perf_event_open": 298, "getpid": 39},
       "aarch64": {"io_uring_setup": 425, "io_uring_enter": 426, "io_uring_register": 427,
                   "bpf": 280, "perf_event_open": 241, "getpid": 172}}[os.uname().machine]
libc = ctypes.CDLL(None, use_errno=True)
for name in sys.argv[1:]:
    ctypes.set_errno(0)
    r = libc.syscall(nrs[name], 0, 0, 0, 0, 0)
    print(name, "ok" if r >= 0 else errno.errorcode[ctypes.get_errno()])
'
calls="io_uring_setup io_uring_enter io_uring_register bpf perf_event_open getpid"

got=$("$TOOL" --deny=io_uring,bpf,perf_event_open -- python3 -c "$probe" $calls) ||
	fail "seccomp_deny exited $?"
want="io_uring_setup EPERM
io_uring_enter EPERM
io_uring_register EPERM
bpf EPERM
perf_event_open EPERM
getpid ok"
[[ $got == "$want" ]] || fail "under --deny=io_uring,bpf,perf_event_open: got
$got
want
$want"

got=$("$TOOL" --deny=io_uring --errno=ENOSYS -- python3 -c "$probe" io_uring_setup getpid)
[[ $got == $'io_uring_setup ENOSYS\ngetpid ok' ]] || fail "--errno=ENOSYS: got [$got]"

# A child of the command (sh -> python3) inherits the filter.
got=$("$TOOL" --deny=bpf -- sh -c 'python3 -c "$1" bpf' sh "$probe")
[[ $got == "bpf EPERM" ]] || fail "child of the command: got [$got]"

rc=0
"$TOOL" --deny=no_such_call -- true 2>"$BUILD/seccomp_deny.err" || rc=$?
((rc == 2)) || fail "unknown call name: exit $rc, want 2"
grep -qx "seccomp_deny: --deny: 'no_such_call' is not a system call libseccomp knows" \
	"$BUILD/seccomp_deny.err" || fail "unknown call name: message: $(cat "$BUILD/seccomp_deny.err")"
rc=0
"$TOOL" --deny=bpf 2>/dev/null || rc=$?
((rc == 2)) || fail "no command: exit $rc, want 2"
rc=0
"$TOOL" --deny=bpf --errno=EBOGUS -- true 2>/dev/null || rc=$?
((rc == 2)) || fail "--errno=EBOGUS: exit $rc, want 2"
rc=0
"$TOOL" --deny=bpf -- /nonexistent/cmd 2>/dev/null || rc=$?
((rc == 127)) || fail "a command that cannot run: exit $rc, want 127"
rm -f "$BUILD/seccomp_deny.err"
echo "ok: seccomp_deny refuses exactly the named calls"
