#!/bin/bash
# SPDX-License-Identifier: MIT
#
# Build the initramfs of the test VM and print its path.
#
# The initramfs holds busybox-static, the kernel modules needed to reach the
# host's files over virtio-9p (resolved with their dependencies from the
# unpacked kernel's modules.dep), and an /init that mounts the host root
# read-only, the --rw shares writable, the pseudo file systems and tmpfs,
# chroots into the host root, runs the command and powers off.  A guest of
# another architecture than the host's (NPUPROF_VM_TARGET=arm64-...) gets
# that architecture's busybox-static (downloaded from Debian, unpacked under
# the cache, never installed) and chroots into a root of its own
# architecture (scripts/mkguestroot.sh) instead, with the host paths the
# tests use shown at the same paths.  The protocol
# with scripts/vm-run.sh is a 9p share tagged "ctl" that holds:
#   cwd     directory to run in            (host -> guest)
#   cmd     shell command for /bin/sh -c   (host -> guest)
#   env     NAME=VALUE lines to export     (host -> guest)
#   rw      "TAG PATH" lines, one per --rw (host -> guest)
#   moddir  host path of the unpacked /lib/modules/KVER (host -> guest)
#   guestroot  host path of the root to chroot into; absent: the host root
#              itself                                          (host -> guest)
#   mirror  host paths shown at the same path inside a guestroot, one a
#           line (the repository, ../shared, the working directory)
#                                                              (host -> guest)
#   binds   "SRC DST" lines: host paths (no spaces), SRC bind-mounted over
#           DST inside the root after everything else (host -> guest;
#           optional)
#   status  exit status of the command     (guest -> host)
#   dmesg   kernel log after the command   (guest -> host)
# The command's output goes to the kernel console ttyS0 (a tty, so programs
# line-buffer; hvc0 was tried and is ~20x slower under TCG), and the second
# serial port ttyS1 streams /dev/kmsg while the command runs.  On arm64 the
# console is the virt machine's PL011, ttyAMA0, and there is no second
# port: the kernel log comes back through ctl/dmesg only (a panic still
# shows on the console).
#
# The archive is rebuilt only when an input changes (this script, busybox,
# the module files): its name carries a hash of them.

set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=$("$ROOT/scripts/vm-kernel.sh" cache)
# Top-level modules; their dependencies are added from modules.dep.
MODULES=(virtio_pci 9pnet_virtio 9p)

die() { printf 'mkinitramfs: %s\n' "$*" >&2; exit 1; }

KVER=$("$ROOT/scripts/vm-kernel.sh" version) || die "linux-headers-amd64 not installed; run scripts/install-deps.sh"
MODDIR=$("$ROOT/scripts/vm-kernel.sh" moddir)
ARCH=$("$ROOT/scripts/vm-kernel.sh" arch)

# Print the path of a busybox-static binary of architecture $1, downloading
# and unpacking Debian's package under the cache the first time.
foreign_busybox() {
	local arch=$1 dir="$CACHE/busybox/$1" dl
	if [[ ! -x $dir/bin/busybox ]]; then
		dl=$(mktemp -d "${TMPDIR:-/tmp}/npuprof-busybox.XXXXXX")
		# apt-get download drops root to _apt; give it a directory it can write.
		if [[ $(id -u) == 0 ]] && id _apt >/dev/null 2>&1; then chown _apt "$dl"; fi
		(cd "$dl" && apt-get download -qq "busybox-static:$arch" </dev/null >&2) ||
			{ rm -rf "$dl"; die "could not download busybox-static:$arch; check apt sources (scripts/install-deps.sh)"; }
		rm -rf "$dir.tmp"
		mkdir -p "$dir.tmp"
		dpkg-deb -x "$dl"/busybox-static_*.deb "$dir.tmp" || { rm -rf "$dl"; die "cannot unpack busybox-static:$arch"; }
		rm -rf "$dl" "$dir"
		mv "$dir.tmp" "$dir"
	fi
	[[ -x $dir/bin/busybox ]] || die "no bin/busybox in busybox-static:$arch"
	printf '%s\n' "$dir/bin/busybox"
}

if [[ $ARCH == "$(dpkg --print-architecture)" ]]; then
	BUSYBOX=${BUSYBOX:-/bin/busybox}
else
	BUSYBOX=$(foreign_busybox "$ARCH") || exit 1
fi

# Print the modules.dep path of module NAME (matching .ko, .ko.xz, .ko.zst).
module_path() {
	awk -F: -v n="$1" '{
		b = $1; sub(/.*\//, "", b); sub(/\.ko(\.xz|\.zst|\.gz)?$/, "", b)
		gsub(/-/, "_", b)
		if (b == n) { print $1; exit }
	}' "$MODDIR/modules.dep"
}

# Print the dependencies of module file PATH as listed by modules.dep.
module_deps() {
	awk -F: -v p="$1" '$1 == p { print $2; exit }' "$MODDIR/modules.dep" | tr ' ' '\n' | sed '/^$/d'
}

declare -A SEEN=()
ORDER=()
# Append PATH after all its dependencies (depth first), once.
add_module() {
	local p=$1 d
	[[ -n ${SEEN[$p]:-} ]] && return 0
	SEEN[$p]=1
	for d in $(module_deps "$p"); do
		add_module "$d"
	done
	ORDER+=("$p")
}

for m in "${MODULES[@]}"; do
	p=$(module_path "$m")
	if [[ -z $p ]]; then
		# Built into the kernel: nothing to load.
		grep -q "/$m.ko" "$MODDIR/modules.builtin" 2>/dev/null && continue
		die "module $m not found in $MODDIR/modules.dep"
	fi
	add_module "$p"
done

key=$( {
	sha256sum "${BASH_SOURCE[0]}"
	stat -L -c '%n %s %Y' "$BUSYBOX"
	for p in "${ORDER[@]}"; do stat -c '%n %s %Y' "$MODDIR/$p"; done
} | sha256sum | cut -d' ' -f1)

# Named by its inputs: runners of different versions of this script (other
# clones sharing the cache) never overwrite each other's archive.
OUT="$CACHE/$KVER/initramfs-${key:0:16}.cpio"
if [[ -f $OUT ]]; then
	printf '%s\n' "$OUT"
	exit 0
fi

stage=$(mktemp -d "${TMPDIR:-/tmp}/npuprof-initramfs.XXXXXX")
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage"/{bin,dev,proc,sys,ctl,newroot,etc,lib/modules}
cp "$BUSYBOX" "$stage/bin/busybox"
for p in "${ORDER[@]}"; do
	n=$(basename "$p")
	n=${n%.xz}; n=${n%.zst}; n=${n%.gz}
	case $p in
	*.ko.xz) xz -dc "$MODDIR/$p" >"$stage/lib/modules/$n" ;;
	*.ko.zst) zstd -qdc "$MODDIR/$p" >"$stage/lib/modules/$n" ;;
	*.ko.gz) gzip -dc "$MODDIR/$p" >"$stage/lib/modules/$n" ;;
	*) cp "$MODDIR/$p" "$stage/lib/modules/$n" ;;
	esac
	printf '%s\n' "$n" >>"$stage/etc/modules"
done

cat >"$stage/init" <<'INIT'
#!/bin/busybox sh
# PID 1 of the npuprof test VM: mount the host, run the command, power off.
/bin/busybox --install -s /bin
export PATH=/bin

fail() {
	echo "vm-init: $*" >&2
	poweroff -f
}

# Mount FSTYPE on DIR (creating DIR), failing the boot when it does not work.
must_mount() {
	mkdir -p "$3" 2>/dev/null
	mount -t "$1" -o "$2" "$1" "$3" || fail "cannot mount $1 on $3"
}

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
exec </dev/null >/dev/console 2>&1

while read -r m; do
	insmod "/lib/modules/$m" || fail "insmod $m failed"
done </etc/modules

p9="trans=virtio,version=9p2000.L,msize=262144"
mount -t 9p -o "$p9,cache=none" ctl /ctl || fail "cannot mount the ctl share"
# cache=loose: pages and metadata are cached in the guest, which saves 9p
# round trips (slow under TCG); exec, mmap of shared libraries and uprobes on
# them work.  Changes the host makes while the VM runs may go unseen.
r=/newroot
if [ -f /ctl/guestroot ]; then
	# A root of the guest's own architecture: tmpfs at the top (so mount
	# points can be made), the guest root's directories bound into it
	# read-only, the host root kept at /host for the mirrored paths.
	mkdir -p /host
	mount -t 9p -o "ro,$p9,cache=loose" hostroot /host || fail "cannot mount the host root over 9p"
	read -r groot </ctl/guestroot
	[ -d "/host$groot/usr" ] || fail "no guest root at $groot (scripts/mkguestroot.sh)"
	keep=/host
	# A guest root directory shadowed by a tmpfs holding binds of its
	# entries, so that a new mount point can be made in it (the binds are
	# read-only).  $1: the directory, "" for the top.
	shadow() {
		mount -t tmpfs -o mode=0755 tmpfs "$r$1" || return 1
		for d in "/host$groot$1"/* "/host$groot$1"/.[!.]*; do
			[ -e "$d" ] || [ -L "$d" ] || continue
			n=${d##*/}
			if [ -L "$d" ]; then
				cp -a "$d" "$r$1/$n"
			elif [ -d "$d" ]; then
				mkdir "$r$1/$n" && mount --bind "$d" "$r$1/$n"
			else
				: >"$r$1/$n" && mount --bind "$d" "$r$1/$n"
			fi || return 1
		done
	}
	# The top: a tmpfs with the guest root's entries bound in.
	shadow "" || fail "cannot lay out the guest root $groot in $r"
	# Make $r$1 a directory a host path can be mounted on, whatever of it
	# the guest root already has (a clone under /home or /var, say): walk
	# down, and where a component cannot be made in a read-only guest
	# directory, shadow that directory first.
	mount_point() {
		at= rest=${1#/}
		while [ -n "$rest" ]; do
			c=${rest%%/*}
			case $rest in */*) rest=${rest#*/} ;; *) rest= ;; esac
			if [ ! -e "$r$at/$c" ] && ! mkdir "$r$at/$c" 2>/dev/null; then
				shadow "$at" && mkdir "$r$at/$c" || return 1
			fi
			at=$at/$c
		done
	}
else
	mount_point() { mkdir -p "$r$1" 2>/dev/null; return 0; }
	
	mount -t 9p -o "ro,$p9,cache=loose" hostroot $r || fail "cannot mount the host root over 9p"
	keep=/keep
fi

must_mount proc nosuid,nodev,noexec $r/proc
must_mount sysfs nosuid,nodev,noexec $r/sys
must_mount devtmpfs mode=0755 $r/dev
must_mount devpts gid=5,mode=620,ptmxmode=666 $r/dev/pts
mkdir -p $r/dev/shm && mount -t tmpfs -o mode=1777 shm $r/dev/shm
must_mount tracefs mode=0700 $r/sys/kernel/tracing
must_mount debugfs mode=0700 $r/sys/kernel/debug
must_mount bpf mode=0700 $r/sys/fs/bpf
# The host's /tmp, /run and /root stay the host's: the guest gets empty
# tmpfs there.  A working directory below them (a clone in /tmp, say) is
# carried over from the plain host root kept at /keep.
[ $keep = /host ] || { mkdir -p /keep && mount --bind $r /keep; } || fail "cannot bind the host root"
mount -t tmpfs -o mode=1777 tmpfs $r/tmp || fail "cannot mount tmpfs on /tmp"
mount -t tmpfs -o mode=0755 tmpfs $r/run || fail "cannot mount tmpfs on /run"
mount -t tmpfs -o mode=0700 tmpfs $r/root || fail "cannot mount tmpfs on /root"
read -r cwd </ctl/cwd
case $cwd in
/tmp/* | /run/* | /root/*)
	mkdir -p "$r$cwd" && mount --bind "$keep$cwd" "$r$cwd" ||
		fail "cannot make $cwd visible in the guest"
	;;
esac

# The unpacked modules of this kernel, so modprobe works inside.
read -r moddir </ctl/moddir
read -r kver </proc/sys/kernel/osrelease
if [ $keep = /host ]; then
	# Host paths the tests use, at the same paths in the guest root.
	if [ -f /ctl/mirror ]; then
		while IFS= read -r p; do
			[ -e "$r$p" ] && continue
			mount_point "$p" && mount --bind "/host$p" "$r$p" || fail "cannot show $p in the guest root"
		done </ctl/mirror
	fi
	mount -t tmpfs -o mode=0755 tmpfs $r/lib/modules &&
		mkdir -p "$r/lib/modules/$kver" &&
		mount --bind "/host$moddir" "$r/lib/modules/$kver" || fail "cannot bind $moddir"
elif [ -d "$r$moddir" ] && [ -d "$r/lib/modules/$kver" ]; then
	mount --bind "$r$moddir" "$r/lib/modules/$kver"
fi

if [ -f /ctl/rw ]; then
	while read -r tag dir; do
		mount_point "$dir" || fail "cannot make a mount point for --rw $dir"
		mount -t 9p -o "$p9,cache=loose" "$tag" "$r$dir" || fail "cannot mount --rw $dir"
	done </ctl/rw
fi

if [ -f /ctl/binds ]; then
	while read -r src dst; do
		mount --bind "$r$src" "$r$dst" || fail "cannot bind $src over $dst"
	done </ctl/binds
fi

hostname npuprof-vm
ip link set lo up 2>/dev/null
# BPF memory is charged to memcg on 6.1; lift the old limit anyway for
# perf buffers and older libbpf.
ulimit -l unlimited

set -- PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
	HOME=/root USER=root LOGNAME=root SHELL=/bin/sh NPUPROF_VM=1
if [ -f /ctl/env ]; then
	while IFS= read -r kv; do set -- "$@" "$kv"; done </ctl/env
fi

(while :; do cat /dev/kmsg; sleep 1; done) >/dev/ttyS1 2>/dev/null &
kmsg_pid=$!
echo "npuprof-vm: running command" >/dev/kmsg

env -i "$@" chroot $r /bin/sh -c 'cd "$1" && exec /bin/sh -c "$2"' sh \
	"$(cat /ctl/cwd)" "$(cat /ctl/cmd)"
status=$?

echo "npuprof-vm: command exited $status" >/dev/kmsg
dmesg >/ctl/dmesg
kill $kmsg_pid 2>/dev/null
sync
echo $status >/ctl/status
sync
poweroff -f
INIT
chmod 755 "$stage/init"

# Write a newc cpio of the stage plus the device nodes the kernel opens
# before /init runs (so no root is needed to mknod).
python3 - "$stage" "$OUT.tmp.$$" <<'PY'
import os, stat, sys

stage, out = sys.argv[1], sys.argv[2]
ino = [1]

def entry(f, name, mode, data=b"", rdev=(0, 0), mtime=0):
    hdr = "070701" + "".join("%08X" % v for v in (
        ino[0], mode, 0, 0, 1, mtime, len(data), 0, 0, rdev[0], rdev[1],
        len(name) + 1, 0))
    ino[0] += 1
    f.write(hdr.encode() + name.encode() + b"\0")
    f.write(b"\0" * (-(110 + len(name) + 1) % 4))
    f.write(data)
    f.write(b"\0" * (-len(data) % 4))

with open(out, "wb") as f:
    for top, dirs, files in os.walk(stage):
        dirs.sort()
        rel = os.path.relpath(top, stage)
        if rel != ".":
            entry(f, rel, stat.S_IFDIR | 0o755)
        for n in sorted(files):
            p = os.path.join(top, n)
            st = os.lstat(p)
            name = os.path.normpath(os.path.join(rel, n))
            if stat.S_ISLNK(st.st_mode):
                entry(f, name, stat.S_IFLNK | 0o777, os.readlink(p).encode())
            else:
                with open(p, "rb") as src:
                    entry(f, name, stat.S_IFREG | (st.st_mode & 0o777), src.read())
    entry(f, "dev/console", stat.S_IFCHR | 0o600, rdev=(5, 1))
    entry(f, "dev/null", stat.S_IFCHR | 0o666, rdev=(1, 3))
    entry(f, "TRAILER!!!", 0)
PY
mv -f "$OUT.tmp.$$" "$OUT"
printf '%s\n' "$OUT"
