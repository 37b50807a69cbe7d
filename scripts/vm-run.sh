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
#   126  the guest kernel logged BUG:/WARNING:/Oops/panic while COMMAND ran
#   130  interrupted (Ctrl-C); qemu is killed
#
# Environment: NPUPROF_VM_TARGET=T boots VM target T's kernel
# (scripts/vm-kernel.sh targets; default amd64-6.1) and shows the guest
# build/target/T/* in place of build/* (see write_binds);
# NPUPROF_VM_ACCEL=kvm uses KVM instead of TCG emulation;
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

qemu_args() {
	local i accel
	accel=${NPUPROF_VM_ACCEL:-tcg}
	QEMU=(qemu-system-x86_64 -nodefaults -no-user-config -display none -no-reboot
		-smp "$smp" -m "$mem")
	if [[ $accel == kvm ]]; then
		QEMU+=(-accel kvm -cpu host)
	else
		QEMU+=(-accel tcg -cpu max)
	fi
	QEMU+=(-kernel "$kernel" -initrd "$initrd"
		-append "console=ttyS0 quiet loglevel=3 panic=-1 oops=panic mitigations=off 8250.nr_uarts=2 ${NPUPROF_VM_APPEND:-}"
		-chardev stdio,id=console,signal=off -serial chardev:console
		-serial "file:$ctl/kmsg"
		-virtfs "local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap"
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

# Print the lines of kernel log $1 that show a kernel bug.
kernel_problems() {
	kernel_log_since_start "$1" |
		grep -E 'BUG:|WARNING:|Oops|Kernel panic|general protection fault|kernel BUG at' || true
}

# Turn what happened into our exit status.
result() {
	local problems klog=$ctl/dmesg
	[[ -f $klog ]] || klog=$ctl/kmsg
	problems=$(kernel_problems "$klog")
	if [[ ! -f $ctl/dmesg && -z $problems ]]; then
		problems=$(grep -E 'Kernel panic|BUG:|Oops|general protection fault' "$ctl/console" 2>/dev/null)
	fi
	if [[ -n ${interrupted:-} ]]; then
		err "interrupted; qemu stopped"
		return 130
	fi
	if [[ -n ${timed_out:-} ]]; then
		err "timed out after ${timeout} s; qemu killed: $command_line"
		[[ -n $problems ]] && printf '%s\n' "$problems" >&2
		return 124
	fi
	if [[ -n $problems ]]; then
		err "guest kernel reported a problem while running: $command_line"
		printf '%s\n' "$problems" >&2
		err "kernel log since the command started (last 300 lines):"
		kernel_log_since_start "$klog" | tail -n 300 >&2
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
	command -v qemu-system-x86_64 >/dev/null ||
		{ err "qemu-system-x86_64 not found; run scripts/install-deps.sh"; exit 125; }
	vmlinuz=$("$ROOT/scripts/vm-kernel.sh" vmlinuz) || exit 125
	# The unpacked ELF boots through its PVH entry and skips decompressing
	# the bzImage, which takes seconds under TCG.
	kernel=$("$ROOT/scripts/gen-vmlinux-h.sh" --vmlinux 2>/dev/null) || kernel=$vmlinuz
	moddir=$("$ROOT/scripts/vm-kernel.sh" moddir) || exit 125
	initrd=$("$ROOT/scripts/mkinitramfs.sh") || { err "building the initramfs failed"; exit 125; }
	ctl=$(mktemp -d "${TMPDIR:-/tmp}/npuprof-vm.XXXXXX") || exit 125
	trap cleanup EXIT
	trap on_signal INT TERM HUP
	write_ctl
	qemu_args
	run_qemu
	result
}

main "$@"
