#!/bin/bash
# SPDX-License-Identifier: MIT
#
# Install what npuprof needs to build and test on Debian 12, and unpack the
# Debian kernel the test VM boots.
#
# Idempotent and quick when everything is there: packages are checked with
# dpkg-query first, and apt-get only runs for the ones that are missing.
# The kernel image matching the installed linux-headers-amd64 is fetched
# with `apt-get download` and unpacked under the VM cache (scripts/
# vm-kernel.sh cache: /var/cache/npuprof/vm for root); it
# is never installed into the host (the host keeps its own kernel).
#
# Runs unattended (CI=true, no stdin).  Needs root for apt-get install.

set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=$("$ROOT/scripts/vm-kernel.sh" cache)
export DEBIAN_FRONTEND=noninteractive

# libclang-rt-14-dev: libFuzzer and the sanitizer runtimes of Debian 12's
# clang (make fuzz); clang only recommends it.  bpftrace, trace-cmd,
# linux-perf: the baselines make bench measures npuprof against.
# groff-base, mandoc: the man pages' lint (tests/host/man_pages.sh); dkms:
# building npuprof.ko from its installed source (tests/pkg/dkms_build.sh).
PKGS=(
	build-essential clang llvm bpftool libbpf-dev liburing-dev libzstd-dev
	zstd libjansson-dev libelf-dev zlib1g-dev pkg-config qemu-system-x86
	busybox-static linux-headers-amd64 cpio kmod python3 xz-utils
	libclang-rt-14-dev bpftrace trace-cmd linux-perf
	groff-base mandoc dkms
	# The export's database (msprof_<stamp>.db) and the CLI to look into it.
	libsqlite3-dev sqlite3
	# The arm64 targets: cross compiler, the :arm64 libraries the Makefile
	# links (LDLIBS_NPUPROF), the emulator, and the tool that unpacks the
	# guest's arm64 root (scripts/mkguestroot.sh).
	gcc-aarch64-linux-gnu qemu-system-arm mmdebstrap
	# pahole: writes the BTF 6.12's module build asks for.
	dwarves
	# tests/vm/seccomp_deny.c: a container's default seccomp profile.
	libseccomp-dev
	libbpf-dev:arm64 liburing-dev:arm64 libzstd-dev:arm64 libelf-dev:arm64
	zlib1g-dev:arm64 libjansson-dev:arm64 libsqlite3-dev:arm64 libseccomp-dev:arm64
)

say() { printf 'install-deps: %s\n' "$*"; }
die() { printf 'install-deps: %s\n' "$*" >&2; exit 1; }

# Print the packages of PKGS that are not fully installed.
missing_packages() {
	local p st
	for p in "${PKGS[@]}"; do
		st=$(dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null || true)
		[[ $st == ii* ]] || printf '%s\n' "$p"
	done
}

install_packages() {
	local missing
	mapfile -t missing < <(missing_packages)
	if ((${#missing[@]} == 0)); then
		say "packages: all ${#PKGS[@]} installed"
		return 0
	fi
	say "installing: ${missing[*]}"
	[[ $(id -u) == 0 ]] || die "need root to install ${missing[*]}; run as root or install them by hand"
	apt-get update -qq </dev/null
	apt-get install -y -qq --no-install-recommends "${missing[@]}" </dev/null
}

# The other kernels the VM tests boot come from bullseye (5.10) and
# bookworm-backports (6.12), arm64 ones from the arm64 foreign architecture.
# Only kernel images and headers are fetched from them (never installed, see
# scripts/vm-kernel.sh); bullseye is pinned low so that no host package is
# ever taken from it.
APT_SOURCES=/etc/apt/sources.list.d/npuprof-kernels.sources
APT_PIN=/etc/apt/preferences.d/npuprof-kernels
add_apt_sources() {
	local changed=0 want pin
	want="Types: deb
URIs: http://deb.debian.org/debian
Suites: bullseye bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg"
	if [[ ! -f $APT_SOURCES || $(cat "$APT_SOURCES") != "$want" ]]; then
		[[ $(id -u) == 0 ]] || die "need root to add $APT_SOURCES"
		printf '%s\n' "$want" >"$APT_SOURCES"
		changed=1
	fi
	pin=$'Package: *\nPin: release n=bullseye\nPin-Priority: 100'
	if [[ ! -f $APT_PIN || $(cat "$APT_PIN") != "$pin" ]]; then
		[[ $(id -u) == 0 ]] || die "need root to write $APT_PIN"
		printf '%s\n' "$pin" >"$APT_PIN"
		changed=1
	fi
	if ! dpkg --print-foreign-architectures | grep -qx arm64; then
		[[ $(id -u) == 0 ]] || die "need root to add the arm64 architecture"
		dpkg --add-architecture arm64
		changed=1
	fi
	if ((changed)); then
		say "apt sources: bullseye, bookworm-backports, arm64 added"
		apt-get update -qq </dev/null
	fi
}

# The VM targets install-deps fetches (scripts/vm-kernel.sh targets lists
# them all; make check-all fetches the rest on demand).
VM_TARGETS=(amd64-6.1 amd64-5.10 amd64-6.12 arm64-6.1)

main() {
	add_apt_sources
	install_packages
	local t
	for t in "${VM_TARGETS[@]}"; do
		"$ROOT/scripts/vm-kernel.sh" --target "$t" fetch
	done
	# The ELF vmlinux: BTF for vmlinux.h, and the VM boots it directly.
	"$ROOT/scripts/gen-vmlinux-h.sh" --vmlinux >/dev/null
	# The arm64 guest: its root (built once per package list) and its
	# initramfs with the arm64 busybox.
	"$ROOT/scripts/mkguestroot.sh" --target arm64-6.1 >/dev/null
	NPUPROF_VM_TARGET=arm64-6.1 "$ROOT/scripts/mkinitramfs.sh" >/dev/null
}

main "$@"
