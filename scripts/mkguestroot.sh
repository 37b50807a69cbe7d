#!/bin/bash
# SPDX-License-Identifier: MIT
#
# Build the root file system a foreign-architecture test VM chroots into,
# and print its path.
#
#   scripts/mkguestroot.sh [--target T]
#
# An amd64 guest chroots into the host's own root (scripts/vm-run.sh); an
# arm64 guest cannot run the host's binaries, so it gets a Debian bookworm
# root of its own architecture holding what the VM and e2e tests run inside
# the guest: a shell and the usual tools, kmod, python3 and the shared
# libraries msprof and the simulated runtime link.  For a target whose
# architecture is the host's, "/" is printed and nothing is built.
#
# The root is unpacked with `mmdebstrap --variant=extract` (packages from
# Debian's registry, unpacked without running their maintainer scripts, so
# no emulation is needed on the host) into $NPUPROF_VM_CACHE/rootfs/ARCH/root;
# the few things maintainer scripts would have done are done below.  It is
# rebuilt only when the package list or this script changes (a key file
# beside it records them).  The host's own root is never touched.

set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=$("$ROOT/scripts/vm-kernel.sh" cache)
ME=mkguestroot
SUITE=bookworm
MIRROR=http://deb.debian.org/debian

# What the guest-side scripts (tests/*/guest/, scripts/guest-capture.sh,
# the test programs) run, and the libraries msprof, ai_task and
# libascendcl.so link (Makefile: LDLIBS_NPUPROF), and libseccomp2 for
# tests/vm/seccomp_deny.
PACKAGES=(
	base-files base-passwd bash coreutils dash diffutils findutils grep
	gzip mawk sed tar util-linux mount procps psmisc iproute2 kmod python3
	libc-bin libbpf1 libelf1 liburing2 libzstd1 libjansson4 zlib1g
	libseccomp2
)

die() { printf '%s: %s\n' "$ME" "$*" >&2; exit 1; }
say() { printf '%s: %s\n' "$ME" "$*" >&2; }

target_args=()
if [[ ${1:-} == --target ]]; then
	target_args=(--target "${2:?--target needs a name}")
	shift 2
fi
ARCH=$("$ROOT/scripts/vm-kernel.sh" "${target_args[@]}" arch) || exit 1
if [[ $ARCH == "$(dpkg --print-architecture)" ]]; then
	printf '/\n'
	exit 0
fi

DEST="$CACHE/rootfs/$ARCH"
OUT="$DEST/root"
key=$( {
	sha256sum <"${BASH_SOURCE[0]}"
	printf '%s\n' "$ARCH" "$SUITE" "${PACKAGES[@]}"
} | sha256sum | cut -d' ' -f1)

if [[ -d $OUT && -f $DEST/key && $(cat "$DEST/key") == "$key" ]]; then
	printf '%s\n' "$OUT"
	exit 0
fi

command -v mmdebstrap >/dev/null || die "mmdebstrap not found; run scripts/install-deps.sh"
[[ $(id -u) == 0 ]] || die "building the $ARCH guest root needs root (file ownership); run scripts/install-deps.sh as root"

# What the skipped maintainer scripts would have set up and the tests use:
# the user and group databases (base-passwd), the awk alternative (mawk).
fix_up() {
	local r=$1
	cp "$r/usr/share/base-passwd/passwd.master" "$r/etc/passwd"
	cp "$r/usr/share/base-passwd/group.master" "$r/etc/group"
	ln -sfn mawk "$r/usr/bin/awk"
	# Mount points the guest's init fills in.
	mkdir -p "$r/lib/modules" "$r/sys/kernel/tracing" "$r/sys/kernel/debug" "$r/sys/fs/bpf"
}

say "building the $ARCH guest root in $OUT (mmdebstrap, ${#PACKAGES[@]} packages)"
mkdir -p "$DEST"
tmp="$DEST/root.tmp.$$"
rm -rf "$tmp"
trap 'rm -rf "$tmp"' EXIT
include=$(IFS=,; printf '%s' "${PACKAGES[*]}")
mmdebstrap --quiet --variant=extract --architectures="$ARCH" --include="$include" \
	"$SUITE" "$tmp" "$MIRROR" </dev/null >&2 || die "mmdebstrap failed"
fix_up "$tmp"
rm -rf "$OUT" "$DEST/key"
mv "$tmp" "$OUT"
printf '%s\n' "$key" >"$DEST/key"
printf '%s\n' "$OUT"
