#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Description: a short smoke of one VM target's kernel: boot it, load
# npusim.ko and npuprof.ko built for it, capture the sample AI task through
# msprof in launch mode over a 2-second window and check the capture
# exactly against the app's own counts at both CANN levels, AscendCL and
# Runtime (tests/e2e/lib.bash, as e2e/launch_stub does); then that msprof said once how its uprobes work and
# that info.json's "uprobes" is the best path that kernel offers.  Prints
# the kernel release and the paths taken.
#
#   tests/platform/smoke.sh TARGET       (scripts/vm-kernel.sh targets)
#
# The modules come from build/target/TARGET/kmod/ (make all builds those of
# the Makefile's SMOKE_TARGETS); built here when missing.  Exit 0 pass, 1
# fail, 77 skip (target kernel not fetched, or no qemu).  The thin
# wrappers tests/platform/smoke_<target>.sh are what tests/run.sh runs.

target=${1:?usage: tests/platform/smoke.sh TARGET}
source "$(dirname "$0")/../e2e/lib.bash"
export NPUPROF_VM_TARGET=$target

kver=$(scripts/vm-kernel.sh version 2>/dev/null) ||
	{ echo "smoke $target: SKIP: kernel not fetched (scripts/vm-kernel.sh --target $target fetch)"; exit 77; }
scripts/vm-kernel.sh vmlinuz >/dev/null 2>&1 ||
	{ echo "smoke $target: SKIP: kernel image of $kver not unpacked"; exit 77; }
arch=$(scripts/vm-kernel.sh arch)
qemu=qemu-system-x86_64
[[ $arch == arm64 ]] && qemu=qemu-system-aarch64
command -v $qemu >/dev/null || { echo "smoke $target: SKIP: no $qemu"; exit 77; }
if [[ ! -f build/target/$target/kmod/npuprof.ko ]]; then
	scripts/target-modules.sh "$target" >/dev/null || exit 1
fi
# A target of another architecture runs its own cross-built user space
# (make target TARGET=T; make check builds the tools and the simulated
# runtime and app of its smoke-tested arm64 target).
if [[ $arch != "$(dpkg --print-architecture)" ]]; then
	for f in build/target/$target/bin/msprof build/target/$target/bin/ai_task; do
		[[ -x $f ]] || { echo "smoke $target: SKIP: $f missing (make target TARGET=$target)"; exit 77; }
	done
fi

# The best uprobe path a kernel of release $1 (e.g. 5.10.0-32-amd64)
# offers, as info.json says it: links, inFlight, apiId.
want_path() {
	local major minor v
	IFS=. read -r major minor _ <<<"$1"
	v=$((major * 1000 + minor))
	if ((v < 5015)); then
		echo "perFunction hash program"
	elif ((v < 6006)); then
		echo "perFunction taskStorage cookie"
	else
		echo "uprobe_multi taskStorage cookie"
	fi
}

# Exactly one "uprobes:" line in msprof's log, and every info.json saying
# path $1 (three words, as want_path prints them).
check_path() {
	local want=$1 n
	n=$(grep -c '^\[INFO\] msprof: uprobes: ' "$out/msprof.log")
	[[ $n == 1 ]] || { echo "msprof said how its uprobes work $n times, want once"; return 1; }
	python3 - "$out" "$want" <<-'PY'
		import glob, json, sys
		out, want = sys.argv[1], sys.argv[2].split()
		infos = glob.glob(out + "/PROF_*/host/info.json")
		assert infos, "no info.json"
		for f in infos:
		    u = json.load(open(f))["uprobes"]
		    got = [u["links"], u["inFlight"], u["apiId"]]
		    assert got == want and u["forced"] is False, (f, u, want)
	PY
}

start=$SECONDS
# The app runs for 1 s + 2 s + a margin: steps * step gap (TCG's arm64
# guest is slower per step).
gap=30
[[ $arch == arm64 ]] && gap=50
# With the runtime level too (--runtime-api=on): its uprobes go through
# each kernel's path (5.10: a program per function) and, on arm64, read
# the rt* functions' arguments by AAPCS64; check_capture.py counts both
# levels exactly.
E2E_MSPROF_ARGS=--runtime-api=on E2E_API_LEVELS=AscendCL,Runtime \
	E2E_BEFORE=1 E2E_WINDOW=2 e2e_run launch --steps=120 --step-gap-ms=$gap --threads=2 &&
	e2e_clocks && e2e_task_path || exit 1
got=$(cat "$out/kernel.release")
[[ $got == "$kver" ]] || { echo "smoke $target: the guest ran $got, want $kver"; exit 1; }
want=$(want_path "$kver")
check_path "$want" || exit 1
echo "smoke $target: kernel $kver; $(grep -h '^\[INFO\] msprof: capturing device tasks' "$out/msprof.log" | sed 's/^\[INFO\] msprof: //;s/: driver.*//')"
echo "smoke $target: $(grep -h '^\[INFO\] msprof: uprobes: ' "$out/msprof.log" | sed 's/^\[INFO\] msprof: //')"
echo "smoke $target: info.json uprobes: $want; PASS in $((SECONDS - start)) s"
