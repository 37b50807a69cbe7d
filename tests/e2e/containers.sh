#!/usr/bin/env bash
# Host to container: three sample apps, each in a container of its own
# built with unshare (mount, pid and network namespaces, a private root
# with its own copy of the runtime libraries at /opt/npu-app, a path the
# host does not have), each pid 1 inside.  Container 0 has a
# dynamic-profiling server, 1 has none; one msprof on the host attaches to
# both by their host pids: 0's server is reached through /proc/P/root and
# answers, 1 is captured from the kernel side.  Container 2 runs the same
# work at the same inner pid and is not attached: none of its records may
# appear.  Each attached app gets its own PROF dir with exactly its own API
# calls and device tasks of every step inside the window (its thread ids
# mapped to the host's), nothing lost, msprof exits 0, --result has one
# complete line each, and info.json names both pids (nsPid: host, inner).
# The device container 1 holds open is seen through its own /dev.  msprof
# run in a pid namespace of its own is refused, naming what to do instead.
source "$(dirname "$0")/lib.bash"
export E2E_PROCS=2
e2e_run containers --steps=400 --step-gap-ms=30 || exit 1
rc=$(cat "$out/msprof.rc")
[[ $rc == 0 ]] || { echo "msprof exited $rc, want 0"; exit 1; }
c0=$(cat "$out/cpid.0") c1=$(cat "$out/cpid.1") c2=$(cat "$out/cpid.2")
log=$(cat "$out/msprof.log" "$out/msprof.err")
grep -q "^dynamic profiling for pid $c0 start success$" <<<"$log" ||
	{ echo "container 0 (pid $c0): no start answered by its server"; exit 1; }
grep -q "pid $c1 has no dynamic-profiling server (no socket /proc/$c1/root/root/dynamic_profiling_socket_1): capturing it from the kernel side only" <<<"$log" ||
	{ echo "container 1 (pid $c1): msprof did not say it has no server, naming the socket inside"; exit 1; }
grep -q "^dynamic profiling for pid $c1 start success (kernel side only)$" <<<"$log" ||
	{ echo "container 1 (pid $c1): no kernel-side start"; exit 1; }
! grep -q "pid $c1 has not opened an NPU device yet" <<<"$log" ||
	{ echo "container 1 (pid $c1) holds its device open, but msprof said it has none"; exit 1; }
grep -q '^{' "$out/app.2.out" || { echo "container 2 (pid $c2) did not finish its work"; exit 1; }
python3 tests/e2e/check_result.py "$out" 2 0 || exit 1
# msprof inside a pid namespace: refused by name, exit 1, nothing written
inside="[ERROR] msprof: msprof runs in a pid namespace of its own (a container): the capture knows processes by the host's pids; run msprof on the host with the app's host pid (docker inspect -f '{{.State.Pid}}' CONTAINER, or pgrep on the host)"
[[ $(cat "$out/inside.rc") == 1 && $(cat "$out/inside.log") == "$inside" && ! -e $out/inside ]] ||
	{ echo "msprof in a pid namespace: exit $(cat "$out/inside.rc"), output:"; cat "$out/inside.log"; echo "want exit 1 and: $inside, no $out/inside"; exit 1; }
python3 - "$out" "$c2" <<'PY'
import glob, json, sys
out, c2 = sys.argv[1], int(sys.argv[2])
bad = []
for d in sorted(glob.glob(out + "/PROF_*")):
    info = json.load(open(d + "/host/info.json"))
    if info.get("nsPid") != [info["pid"], 1]:
        bad.append(f"{d}: info.json nsPid {info.get('nsPid')!r}, want [{info['pid']}, 1]")
    name = d.rsplit("/", 1)[1]
    for line in open(f"{out}/records/{name}.jsonl"):
        r = json.loads(line)
        if r.get("pid") == c2:
            bad.append(f"{d}: a record of container 2 (pid {c2}): {line.strip()}")
            break
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
PY
