#!/bin/sh
# Runs inside the test VM: what msprof says and returns when the job's
# libascendcl.so (found through LD_LIBRARY_PATH, app mode, runtime-API
# capture only) is not what it needs: it lacks recorded functions newer
# runtimes have (a warning naming them; the rest captured; info.json lists
# them), lacks a function every runtime has (function missing: named, no
# runtime-API capture), or has a function the kernel refuses a uprobe on
# (attach failed: named, exit 1); with --runtime-api=on, a job that maps
# no libruntime.so is warned of once and captured at the ACL level.  The
# libraries are the stand-ins of tests/unit/acl_lib_fixture.c; the job is
# python3 calling aclInit in it.
# Prints "ok"/"FAIL" per case; exit 1 on any FAIL.
#   tests/e2e/guest/acl_outcomes.sh OUT
set -u
out=$1
msprof=build/bin/msprof
bad=0

ok() { echo "ok   $1"; }
fail() { echo "FAIL $1"; bad=1; }
has() { grep -qF -- "$2" "$1"; }

# run NAME FIXTURE [MSPROF_OPTION]: msprof in app mode on a job calling
# aclInit in FIXTURE
run() {
	rm -rf /tmp/acl && mkdir -p /tmp/acl &&
		cp "build/tests/fixtures/libacl_$2.so" /tmp/acl/libascendcl.so
	LD_LIBRARY_PATH=/tmp/acl $msprof --output="$out/$1" --task-time=off ${3:-} python3 -c \
		"import ctypes; ctypes.CDLL('/tmp/acl/libascendcl.so').aclInit(None)" \
		>"$out/$1.log" 2>&1 </dev/null
}

# 1. an older runtime: the functions it lacks are named once, its aclInit
#    is captured, info.json lists the rest as untracedFunctions.
run partial partial
rc=$?
info=$(ls "$out"/partial/PROF_*/host/info.json 2>/dev/null | head -n 1)
if [ $rc = 0 ] && [ "$(grep -c 'function missing: the profiled libascendcl.so lacks aclrtCreateStream' "$out/partial.log")" = 1 ] &&
	[ -n "$info" ] && python3 -c "import json,sys; d=json.load(open(sys.argv[1])); \
u=d['untracedFunctions']; sys.exit(not (len(u) == 13 and u[0] == 'aclrtCreateStream' and \
u[-1] == 'aclrtBinaryLoadFromFile' and d['drain']['api_records'] == 1))" "$info"; then
	ok "older runtime: missing functions named once, aclInit captured, listed in info.json"
else
	fail "older runtime (rc=$rc)"; cat "$out/partial.log"; [ -n "$info" ] && cat "$info"
fi

# 2. a runtime without aclFinalize, aclrtSetDevice, aclrtResetDevice:
#    named once (not again when the job maps it), no runtime-API capture.
run required required
rc=$?
if [ "$(grep -c "function missing: /tmp/acl/libascendcl.so lacks aclFinalize aclrtSetDevice aclrtResetDevice, which every ACL runtime has: not a supported runtime; runtime API calls are not captured" "$out/required.log")" = 1 ] &&
	[ -z "$(ls "$out"/required/PROF_* 2>/dev/null)" ]; then
	ok "required function missing: named, nothing captured (rc=$rc)"
else
	fail "required function missing (rc=$rc)"; cat "$out/required.log"
fi

# 3. the kernel refuses a uprobe: the start fails naming the library and
#    the errno, exit 1, no PROF dir.
run pastend pastend
rc=$?
if [ $rc = 1 ] &&
	has "$out/pastend.log" "cannot start the capture: attach failed: the kernel refused the probes on /tmp/acl/libascendcl.so: Invalid argument" &&
	[ -z "$(ls "$out"/pastend/PROF_* 2>/dev/null)" ]; then
	ok "attach refused by the kernel: named with its errno, exit 1"
else
	fail "attach refused (rc=$rc)"; cat "$out/pastend.log"
fi
# 4. --runtime-api=on, and the job maps no libruntime.so: one warning, its
#    ACL calls captured, info.json's apiLevels AscendCL alone, exit 0.
run noruntime partial --runtime-api=on
rc=$?
info=$(ls "$out"/noruntime/PROF_*/host/info.json 2>/dev/null | head -n 1)
if [ $rc = 0 ] &&
	[ "$(grep -c -- '--runtime-api=on: the app maps no libruntime.so: runtime API calls (level Runtime) are not captured' "$out/noruntime.log")" = 1 ] &&
	[ -n "$info" ] && python3 -c "import json,sys; d=json.load(open(sys.argv[1])); \
sys.exit(not (d['apiLevels'] == ['AscendCL'] and d['drain']['api_records'] == 1))" "$info"; then
	ok "no libruntime.so: warned once, ACL calls captured, apiLevels AscendCL"
else
	fail "no libruntime.so (rc=$rc)"; cat "$out/noruntime.log"; [ -n "$info" ] && cat "$info"
fi
rm -rf /tmp/acl
exit $bad
