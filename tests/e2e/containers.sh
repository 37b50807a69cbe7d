#!/usr/bin/env bash
# Host to container: four sample apps, each pid 1 of a pid namespace of its
# own, built with unshare (no container engine).  Containers 0, 1 and 3
# have mount and network namespaces too and a private root with their own
# copy of the runtime libraries at /opt/npu-app (a path the host does not
# have) and HOME=/home/app, but 0 has no HOME in its environment and its
# /etc/passwd gives root a home long enough that its socket, seen through
# /proc/P/root, passes sun_path's 108 bytes; container 2 is a pid namespace
# alone.  0 has a dynamic-profiling server, 1 and 2 have none, and a decoy
# process (not 2's server) listens at the socket name 2's inner pid gives
# in 2's HOME.  One msprof on the host attaches to 0, 1 and 2 by their
# host pids: 0's server is found in the home its own passwd gives, through
# /proc/P/root, reached through its directory's descriptor, and answers;
# 1 is captured from the kernel side, the socket it lacks named where its
# server would put it (the HOME of its environment); 2 too, the decoy
# named as another process's socket and never sent a command.  Container 3 runs the same
# work at the same inner pid and is not attached: none of its records may
# appear.  Each attached app gets its own PROF dir with exactly its own
# API calls and device tasks of every step inside the window (its thread
# ids mapped to the host's), nothing lost, msprof exits 0, --result has
# one complete line each, and info.json names both pids (nsPid: host,
# inner).  The device container 1 holds open is seen through its own
# /dev.  Then msprof runs inside a container (a pid namespace with its own
# /proc) next to an app and attaches to it by the pid the app sees: exact
# counts again, nsPid [host, inner]; launching a job from there, or
# attaching from a pid namespace that sees the host's /proc, is refused,
# naming what to do instead.
source "$(dirname "$0")/lib.bash"
export E2E_PROCS=3
e2e_run containers --steps=400 --step-gap-ms=30 || exit 1
rc=$(cat "$out/msprof.rc")
[[ $rc == 0 ]] || { echo "msprof exited $rc, want 0"; exit 1; }
c0=$(cat "$out/cpid.0") c1=$(cat "$out/cpid.1") c2=$(cat "$out/cpid.2") c3=$(cat "$out/cpid.3")
decoy=$(cat "$out/decoy")
log=$(cat "$out/msprof.log" "$out/msprof.err")
# want LINE WHAT: msprof printed LINE (a whole line, exactly)
want() {
	grep -qxF -- "$1" <<<"$log" || { echo "$2: msprof did not print: $1"; exit 1; }
}
want "dynamic profiling for pid $c0 start success" "container 0 (pid $c0), through its server"
want "[INFO] msprof: pid $c1 has no dynamic-profiling server (no socket /proc/$c1/root/home/app/dynamic_profiling_socket_1): capturing it from the kernel side only" \
	"container 1 (pid $c1)"
want "dynamic profiling for pid $c1 start success (kernel side only)" "container 1 (pid $c1)"
want "[INFO] msprof: pid $c2 has no dynamic-profiling server ($HOME/dynamic_profiling_socket_1 is served by pid $decoy, another process): capturing it from the kernel side only" \
	"container 2 (pid $c2), a decoy at its socket name"
want "dynamic profiling for pid $c2 start success (kernel side only)" "container 2 (pid $c2)"
! grep -q "pid $c1 has not opened an NPU device yet" <<<"$log" ||
	{ echo "container 1 (pid $c1) holds its device open, but msprof said it has none"; exit 1; }
grep -q '^{' "$out/app.3.out" || { echo "container 3 (pid $c3) did not finish its work"; exit 1; }
python3 tests/e2e/check_result.py "$out" 3 0 || exit 1
# msprof inside the container, attached by the pid the app sees there:
# exact counts, the records keyed by the host's pid that nsPid names
in=$out/inside
cat "$in/msprof.log" "$in/msprof.err"
[[ $(cat "$in/msprof.rc") == 0 ]] || { echo "msprof inside the container exited $(cat "$in/msprof.rc"), want 0"; exit 1; }
build/bin/msprof --export=on --output="$in" >"$in/export.log" 2>&1 || { cat "$in/export.log"; echo "export of the inside capture failed"; exit 1; }
python3 tests/e2e/check_capture.py "$in" 1 || exit 1
e2e_layout "$in" || exit 1
python3 - "$in" <<'PY' || exit 1
import glob, json, sys
d = glob.glob(sys.argv[1] + "/PROF_*")[0]
info = json.load(open(d + "/host/info.json"))
host = int(open(sys.argv[1] + "/host.pid").read())
if info.get("nsPid") != [host, info["pid"]]:
    sys.exit(f"{d}: info.json nsPid {info.get('nsPid')!r}, want [{host}, {info['pid']}] (host pid, the app's)")
PY
# attaching from a pid namespace with the host's /proc: refused by name, exit 1, nothing written
hostproc="[ERROR] msprof: msprof runs in a pid namespace of its own, but /proc is another namespace's: mount the namespace's own /proc (unshare --pid --fork --mount-proc), or run msprof on the host"
[[ $(cat "$out/inside-hostproc.rc") == 1 && $(cat "$out/inside-hostproc.log") == "$hostproc" && ! -e $out/inside-hostproc ]] ||
	{ echo "msprof in a pid namespace with the host's /proc: exit $(cat "$out/inside-hostproc.rc"), output:"; cat "$out/inside-hostproc.log"; echo "want exit 1 and: $hostproc"; exit 1; }
# launching a job from a pid namespace of its own: refused by name, exit 1, nothing written
inside="[ERROR] msprof: msprof runs in a pid namespace of its own (a container): launching a job needs the host's, as the capture follows its processes by the host's pids; run msprof on the host, or start the job and attach with --pid"
[[ $(cat "$out/inside-launch.rc") == 1 && $(cat "$out/inside-launch.log") == "$inside" && ! -e $out/inside-launch ]] ||
	{ echo "msprof launching in a pid namespace: exit $(cat "$out/inside-launch.rc"), output:"; cat "$out/inside-launch.log"; echo "want exit 1 and: $inside, no $out/inside-launch"; exit 1; }
python3 - "$out" "$c3" <<'PY'
import glob, json, sys
out, c3 = sys.argv[1], int(sys.argv[2])
bad = []
for d in sorted(glob.glob(out + "/PROF_*")):
    info = json.load(open(d + "/host/info.json"))
    if info.get("nsPid") != [info["pid"], 1]:
        bad.append(f"{d}: info.json nsPid {info.get('nsPid')!r}, want [{info['pid']}, 1]")
    name = d.rsplit("/", 1)[1]
    for line in open(f"{out}/records/{name}.jsonl"):
        r = json.loads(line)
        if r.get("pid") == c3:
            bad.append(f"{d}: a record of container 3 (pid {c3}): {line.strip()}")
            break
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
PY
