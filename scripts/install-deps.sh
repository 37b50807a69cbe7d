#!/bin/bash
# SPDX-License-Identifier: MIT
#
# Install what npuprof needs to build and test on Debian 12, and unpack the
# Debian kernel the test VM boots.
#
# Idempotent and quick when everything is there: packages are checked with
# dpkg-query first, and apt-get only runs for the ones that are missing.
# The kernel image matching the installed linux-headers-amd64 is fetched
# with `apt-get download` and unpacked under .cache/vm/KVER/ in the repo; it
# is never installed into the host (the host keeps its own kernel).
#
# Runs unattended (CI=true, no stdin).  Needs root for apt-get install.

set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${NPUPROF_VM_CACHE:-$ROOT/.cache/vm}
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

# KVER: the kernel release linux-headers-amd64 points at, e.g. 6.1.0-57-amd64.
kernel_version() {
	"$ROOT/scripts/vm-kernel.sh" version ||
		die "linux-headers-amd64 is not installed; cannot tell which kernel the VM boots"
}

# Find linux-image-KVER (or the -unsigned flavour) in a local cache or
# download it into $CACHE; set KERNEL_DEB to the path of the .deb.
fetch_kernel_deb() {
	local kver=$1 name deb dl
	for name in "linux-image-$kver" "linux-image-$kver-unsigned"; do
		for deb in "$CACHE/${name}_"*.deb /var/cache/apt/archives/"${name}_"*.deb; do
			[[ -f $deb ]] && { KERNEL_DEB=$deb; return 0; }
		done
	done
	dl="$CACHE/download"
	mkdir -p "$dl"
	# apt-get download drops root to _apt; give it a directory it can write.
	if [[ $(id -u) == 0 ]] && id _apt >/dev/null 2>&1; then
		chown _apt "$dl"
	fi
	for name in "linux-image-$kver" "linux-image-$kver-unsigned"; do
		say "downloading $name"
		if (cd "$dl" && apt-get download -qq "$name" </dev/null) ||
		   { apt-get update -qq </dev/null && (cd "$dl" && apt-get download -qq "$name" </dev/null); }; then
			for deb in "$dl/${name}_"*.deb; do
				[[ -f $deb ]] || continue
				mv "$deb" "$CACHE/"
				deb="$CACHE/$(basename "$deb")"
				# Keep a copy where the next fresh clone (CI) finds it.
				if [[ -w /var/cache/apt/archives ]]; then
					cp -f "$deb" /var/cache/apt/archives/ 2>/dev/null || true
				fi
				rmdir "$dl" 2>/dev/null || true
				KERNEL_DEB=$deb
				return 0
			done
		fi
	done
	die "could not download linux-image-$kver (nor -unsigned); check apt sources"
}

# Unpack the kernel image into $CACHE/KVER and make its module tree usable:
# modules.dep (the package leaves that to depmod at install time) and the
# build/source links the headers package put in the host's /lib/modules.
extract_kernel() {
	local kver=$1 dest="$CACHE/$1" moddir deb tmp l
	moddir="$dest/lib/modules/$kver"
	if [[ -f $dest/boot/vmlinuz-$kver && -f $moddir/modules.dep ]]; then
		say "VM kernel $kver: $dest"
		return 0
	fi
	mkdir -p "$CACHE"
	fetch_kernel_deb "$kver"
	deb=$KERNEL_DEB
	say "unpacking $(basename "$deb")"
	tmp="$dest.tmp.$$"
	rm -rf "$tmp"
	mkdir -p "$tmp"
	dpkg-deb -x "$deb" "$tmp"
	depmod -b "$tmp" "$kver"
	for l in build source; do
		if [[ -L /lib/modules/$kver/$l ]]; then
			ln -sfn "$(readlink "/lib/modules/$kver/$l")" "$tmp/lib/modules/$kver/$l"
		fi
	done
	[[ -f $tmp/boot/vmlinuz-$kver ]] || die "$deb has no boot/vmlinuz-$kver"
	rm -rf "$dest"
	mv "$tmp" "$dest"
	say "VM kernel $kver: $dest"
}

main() {
	install_packages
	extract_kernel "$(kernel_version)"
	# The ELF vmlinux: BTF for vmlinux.h, and the VM boots it directly.
	"$ROOT/scripts/gen-vmlinux-h.sh" --vmlinux >/dev/null
}

main "$@"
