#!/bin/bash
# SPDX-License-Identifier: MIT
#
# Run a command inside a throw-away VM booted from Debian's stock kernel.
#
#   scripts/vm-run.sh [--rw DIR]... [--timeout SEC] [--smp N] [--mem MB] -- COMMAND...
#
# The guest sees the host's root file system read-only at the same paths
# (virtio-9p), each --rw DIR writable, tmpfs on /tmp /run /root, and proc,
# sysfs, devtmpfs, tracefs, debugfs and bpffs mounted.  COMMAND (its words
# joined by spaces) runs as root through /bin/sh -c in the caller's current
# directory (carried over even from below /tmp, /run or /root, whose other
# contents the guest does not see), with stdin from /dev/null; its stdout and
# stderr, merged, stream to our stdout as it runs (guest serial console, a
# tty, ~100 KB/s under TCG).  Kernel
# modules of the VM kernel are at /lib/modules/KVER, so modprobe works.
#
# Exit status: COMMAND's, or
#   124  timed out (default 600 s; qemu is killed)
#   125  the VM could not boot or set up its mounts
#   126  the guest kernel logged BUG:/WARNING:/Oops/panic or an RCU stall
#        while COMMAND ran; a soft lockup or an RCU stall panics the guest
#        (at ~20 s of spinning, not at the timeout), the panic replaying
#        the kernel log on the console; the first report's call trace is
#        printed last
#   130  interrupted (Ctrl-C); qemu is killed
#
# Environment: NPUPROF_VM_TARGET picks the kernel and architecture
# (scripts/vm-kernel.sh targets).  An arm64 target boots under
# qemu-system-aarch64 (virt machine) and chroots into an arm64 root built by
# scripts/mkguestroot.sh instead of the host's, where the repository, its
# ../shared, the working directory and the --rw dirs are at their host
# paths; the kernel log comes back at the end only (no second serial port).
# For any target with a build/target/T/ tree, each of its top-level
# directories is bind-mounted over build/<same name> inside the guest, so the
# tests run that target's build unchanged.
# NPUPROF_VM_ACCEL=kvm uses KVM instead of TCG emulation;
# NPUPROF_VM_TCG_THREAD=single|multi: TCG's vCPUs share one host thread
# (default) or have one each.  Single, because Debian 12's qemu (7.2) with
# one thread per vCPU can leave a vCPU running a stale translation of code
# the guest kernel re-patched (an int3 of a static key already removed):
# the guest froze within seconds of switching tracepoints while they fired
# in hardirq (tests/vm/kmod_toggle_live.c; kfuzz once in CI).  It costs
# make check's VM tests about 8% (907 s against ~835 s on 2 host cores);
# NPUPROF_VM_APPEND adds words to the guest kernel's command line (e.g.
# slub_debug=FZPU for a test that hunts memory bugs);
# NPUPROF_VM_KEEP=1 keeps the control directory (logs) and prints its path.
# CI, TERM, NPUPROF_* and E2E_* (the test scripts' knobs) pass into the guest.

set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ME=vm-run

timeout=600
smp=2
mem=1024
rw_dirs=()

usage() {
	echo "usage: $ME [--rw DIR]... [--timeout SEC] [--smp N] [--mem MB] -- COMMAND..." >&2
	exit 125
}

err() { printf '%s: %s\n' "$ME" "$*" >&2; }

number_arg() {
	[[ ${2:-} =~ ^[0-9]+$ && $2 -gt 0 ]] || { err "$1 needs a positive number, got '${2:-}'"; usage; }
}

parse_args() {
	while (($#)); do
		case $1 in
		--rw) [[ -d ${2:-} ]] || { err "--rw ${2:-}: not a directory"; exit 125; }
		      rw_dirs+=("$(realpath -e "$2")"); shift 2 ;;
		--timeout) number_arg "$1" "${2:-}"; timeout=$2; shift 2 ;;
		--smp) number_arg "$1" "${2:-}"; smp=$2; shift 2 ;;
		--mem) number_arg "$1" "${2:-}"; mem=$2; shift 2 ;;
		--) shift; break ;;
		*) err "unknown option '$1'"; usage ;;
		esac
	done
	(($#)) || { err "no COMMAND given"; usage; }
	command_line="$*"
}

# Fill the ctl share: what to run, where, with which environment.
write_ctl() {
	local i v
	printf '%s' "$PWD" >"$ctl/cwd"
	printf '%s' "$command_line" >"$ctl/cmd"
	printf '%s\n' "$moddir" >"$ctl/moddir"
	: >"$ctl/env"
	for v in CI TERM $(compgen -e NPUPROF_) $(compgen -e E2E_); do
		[[ -n ${!v+x} && ${!v} != *$'\n'* ]] && printf '%s=%s\n' "$v" "${!v}" >>"$ctl/env"
	done
	for i in "${!rw_dirs[@]}"; do
		printf 'rw%d %s\n' "$i" "${rw_dirs[$i]}" >>"$ctl/rw"
	done
	write_binds
	write_guestroot
}

# The build for a non-default target T lives in build/target/T/, laid out
# like build/ for the parts that differ (kmod/ for amd64 targets, the whole
# tree for arm64 ones).  The guest sees each of its top-level directories in
# place of build/<same name>, so every test runs unchanged on T.  A
# directory with no counterpart in build/ is left out (the guest's root is
# read-only: nothing to mount over), as is src/, the modules' shadow tree.
write_binds() {
	local target=${NPUPROF_VM_TARGET:-} d name
	[[ -n $target && -d $ROOT/build/target/$target ]] || return 0
	for d in "$ROOT/build/target/$target"/*/; do
		d=${d%/}
		name=${d##*/}
		[[ $name != src && -d $ROOT/build/$name ]] || continue
		printf '%s %s\n' "$d" "$ROOT/build/$name" >>"$ctl/binds"
	done
}

# A guest of another architecture chroots into its own root: which, and
# the host paths shown at the same paths in it (the repository, the
# ../shared checks next to it, the working directory).
write_guestroot() {
	[[ $guestroot != / ]] || return 0
	printf '%s\n' "$guestroot" >"$ctl/guestroot"
	{
		printf '%s\n' "$ROOT"
		[[ -d $ROOT/../shared ]] && realpath "$ROOT/../shared"
		printf '%s\n' "$PWD"
	} >"$ctl/mirror"
}

# The qemu binary, machine, CPU and console of the target's architecture.
# arm64 under TCG: cortex-a76 (no pointer authentication or SVE to emulate)
# boots faster than -cpu max, and unlike cortex-a72 it has the 16 KiB
# translation granule the -16k kernels need (on an a72 they hang before
# the console).  NPUPROF_VM_CPU overrides it.
qemu_machine() {
	local accel=${NPUPROF_VM_ACCEL:-tcg} cpu
	case $arch in
	amd64)
		QEMU=(qemu-system-x86_64)
		cpu=max
		console=ttyS0
		;;
	arm64)
		QEMU=(qemu-system-aarch64 -M virt)
		cpu=${NPUPROF_VM_CPU:-cortex-a76}
		console=ttyAMA0
		;;
	*) err "no qemu known for architecture $arch"; exit 125 ;;
	esac
	QEMU+=(-nodefaults -no-user-config -display none -no-reboot -smp "$smp" -m "$mem")
	if [[ $accel == kvm ]]; then
		QEMU+=(-accel kvm -cpu host)
	else
		QEMU+=(-accel "tcg,thread=${NPUPROF_VM_TCG_THREAD:-single}" -cpu "$cpu")
	fi
}

qemu_args() {
	local i
	qemu_machine
	QEMU+=(-kernel "$kernel" -initrd "$initrd"
		-append "console=$console quiet loglevel=3 panic=-1 oops=panic softlockup_panic=1 softlockup_all_cpu_backtrace=1 sysctl.kernel.panic_on_rcu_stall=1 panic_print=0x20 mitigations=off 8250.nr_uarts=2 ${NPUPROF_VM_APPEND:-}"
		-chardev stdio,id=console,signal=off -serial chardev:console)
	# A second serial port streams the kernel log (amd64 only: the arm64
	# virt machine of Debian's qemu has one PL011).
	[[ $arch == amd64 ]] && QEMU+=(-serial "file:$ctl/kmsg")
	QEMU+=(-virtfs "local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap"
		-virtfs "local,path=$ctl,mount_tag=ctl,security_model=none"
		-pidfile "$ctl/qemu.pid")
	for i in "${!rw_dirs[@]}"; do
		QEMU+=(-virtfs "local,path=${rw_dirs[$i]},mount_tag=rw$i,security_model=none,multidevs=remap")
	done
}

stop_qemu() {
	[[ -n ${qemu_pid:-} ]] && kill "$qemu_pid" 2>/dev/null
}

cleanup() {
	stop_qemu
	[[ -n ${filter_pid:-} ]] && wait "$filter_pid" 2>/dev/null
	if [[ -n ${NPUPROF_VM_KEEP:-} ]]; then
		err "logs kept in $ctl"
	else
		rm -rf "$ctl"
	fi
}

on_signal() {
	interrupted=1
	stop_qemu
}

# Boot qemu in the background, the guest's console (ttyS0: the command's
# output and kernel errors) going through a filter that drops carriage
# returns and power-off noise and keeps a copy; poll until qemu exits or the
# deadline passes.
run_qemu() {
	local deadline
	mkfifo "$ctl/console.fifo"
	sed -u -e 's/\r$//' -e '/^\[ *[0-9.]*\] reboot: Power down$/d' <"$ctl/console.fifo" |
		tee "$ctl/console" &
	filter_pid=$!
	"${QEMU[@]}" </dev/null >"$ctl/console.fifo" &
	qemu_pid=$!
	deadline=$((SECONDS + timeout))
	while kill -0 "$qemu_pid" 2>/dev/null && [[ -z ${interrupted:-} ]]; do
		if ((SECONDS >= deadline)); then
			timed_out=1
			stop_qemu
			break
		fi
		sleep 0.1
	done
	# qemu quits on SIGTERM; if it hangs instead, do not hang with it.
	deadline=$((SECONDS + 5))
	while kill -0 "$qemu_pid" 2>/dev/null && ((SECONDS < deadline)); do
		sleep 0.1
	done
	kill -KILL "$qemu_pid" 2>/dev/null
	wait "$qemu_pid" 2>/dev/null
	qemu_status=$?
	qemu_pid=
	wait "$filter_pid" 2>/dev/null
	filter_pid=
}

# Print the kernel log logged after the command started.  $1: a kernel log
# (dmesg text or /dev/kmsg records).
kernel_log_since_start() {
	[[ -f $1 ]] || return 0
	sed 's/\r$//' "$1" | awk '
		# /dev/kmsg records "prio,seq,usec,flags;text" read as dmesg lines;
		# their " KEY=value" continuation lines are dropped.
		match($0, /^[0-9]+,[0-9]+,[0-9]+,[^;]*;/) {
			split(substr($0, 1, RLENGTH - 1), f, ",")
			$0 = sprintf("[%12.6f] %s", f[3] / 1e6, substr($0, RLENGTH + 1))
		}
		/^ / { next }
		/npuprof-vm: running command/ { on = 1; next }
		on'
}

# A kernel log line that shows a kernel bug (an RCU stall too: a CPU spun
# in the kernel with preemption off for 21 s).
KERNEL_PROBLEM='BUG:|WARNING:|Oops|Kernel panic|general protection fault|kernel BUG at|rcu: INFO: .*stall'

# Print the lines of kernel log $1 that show a kernel bug.
kernel_problems() {
	kernel_log_since_start "$1" |
		grep -E "$KERNEL_PROBLEM" || true
}

# Print the first kernel bug report of log $1 (its first 40 lines without
# code bytes and registers but RIP: the message, where each CPU was and
# its call trace), last, so that the tail a test summary shows holds where
# the kernel was.
first_report() {
	local report log
	# A panic replays the whole kernel log on the console (panic_print=0x20),
	# traces included, which the streamed log may not have caught up with;
	# without a replay (or a cut one) the log itself.
	for log in "$ctl/console" "$1"; do
		[[ $log == "$ctl/console" ]] && ! grep -q 'Kernel panic' "$log" 2>/dev/null && continue
		report=$(kernel_log_since_start "$log" |
			KERNEL_PROBLEM=$KERNEL_PROBLEM awk '
				!on && $0 ~ ENVIRON["KERNEL_PROBLEM"] { on = 1 }
				# registers but RIP, code bytes, unreliable frames: noise here
				/\] +(RAX|RBX|RCX|RDX|RSI|RDI|RBP|RSP|R[0-9]+|Code|FS|CS|CR2|PKRU):/ || /\] +\? / { next }
				on && n++ < 40')
		[[ -n $report ]] && break
	done
	[[ -n $report ]] || return 0
	err "first kernel report:"
	printf '%s\n' "$report"
}

# Turn what happened into our exit status.
result() {
	local problems klog=$ctl/dmesg
	[[ -f $klog ]] || klog=$ctl/kmsg
	problems=$(kernel_problems "$klog")
	if [[ ! -f $ctl/dmesg && -z $problems ]]; then
		# the console holds the command's own output too: the fatal ones only
		problems=$(grep -E 'Kernel panic|BUG:|Oops|general protection fault' "$ctl/console" 2>/dev/null)
	fi
	if [[ -n ${interrupted:-} ]]; then
		err "interrupted; qemu stopped"
		return 130
	fi
	if [[ -n ${timed_out:-} ]]; then
		err "timed out after ${timeout} s; qemu killed: $command_line"
		if [[ -n $problems ]]; then
			printf '%s\n' "$problems" >&2
			first_report "$klog" >&2
		fi
		return 124
	fi
	if [[ -n $problems ]]; then
		err "guest kernel reported a problem while running: $command_line"
		printf '%s\n' "$problems" >&2
		err "kernel log since the command started (last 300 lines):"
		kernel_log_since_start "$klog" | tail -n 300 >&2
		first_report "$klog" >&2
		return 126
	fi
	if [[ ! -f $ctl/status ]]; then
		err "the VM did not run the command (qemu exit $qemu_status); see its console output above"
		return 125
	fi
	return "$(cat "$ctl/status")"
}

main() {
	parse_args "$@"
	arch=$("$ROOT/scripts/vm-kernel.sh" arch) || exit 125
	qemu_machine
	command -v "${QEMU[0]}" >/dev/null ||
		{ err "${QEMU[0]} not found; run scripts/install-deps.sh"; exit 125; }
	vmlinuz=$("$ROOT/scripts/vm-kernel.sh" vmlinuz) || exit 125
	# The unpacked ELF boots through its PVH entry and skips decompressing
	# the bzImage, which takes seconds under TCG.
	kernel=$("$ROOT/scripts/gen-vmlinux-h.sh" --vmlinux 2>/dev/null) || kernel=$vmlinuz
	moddir=$("$ROOT/scripts/vm-kernel.sh" moddir) || exit 125
	initrd=$("$ROOT/scripts/mkinitramfs.sh") || { err "building the initramfs failed"; exit 125; }
	guestroot=$("$ROOT/scripts/mkguestroot.sh") || { err "building the guest root failed"; exit 125; }
	ctl=$(mktemp -d "${TMPDIR:-/tmp}/npuprof-vm.XXXXXX") || exit 125
	trap cleanup EXIT
	trap on_signal INT TERM HUP
	write_ctl
	qemu_args
	run_qemu
	result
}

main "$@"
