#!/bin/bash
# SPDX-License-Identifier: MIT
#
# Tell which Debian kernel a test VM target boots, where its unpacked files
# are, and fetch them.
#
#   vm-kernel.sh [--target T] COMMAND
#
# A target is an architecture and a kernel line, all from Debian's package
# registry (apt sources added by scripts/install-deps.sh):
#
#   amd64-6.1       bookworm's kernel (the default; its headers are installed
#                   on the host as linux-headers-amd64)
#   amd64-5.10      bullseye's kernel
#   amd64-6.12      bookworm-backports' kernel
#   arm64-6.1       bookworm's arm64 kernel
#   arm64-6.12-16k  bookworm-backports' arm64 kernel with 16 KiB pages
#
# T defaults to $NPUPROF_VM_TARGET, else amd64-6.1.
#
# Commands:
#   targets   print the known targets, one a line: NAME ARCH SUITE META
#   version   KVER of T, e.g. 6.1.0-57-amd64.  For amd64-6.1 the kernel the
#             installed linux-headers-amd64 depends on; for the others the
#             one `fetch` recorded.  Exits 1 without a word when unknown
#             (the Makefile asks at parse time).
#   arch      Debian architecture of T (amd64, arm64)
#   vmlinuz   path of the unpacked kernel image
#   moddir    path of the unpacked /lib/modules/KVER
#   kdir      kernel build tree for out-of-tree modules (for amd64-6.1
#             /lib/modules/KVER/build; for the others the headers packages
#             unpacked under the cache, never installed on the host)
#   fetch [--refresh]
#             download T's kernel image (and, for the non-default targets,
#             its headers) with `apt-get download` and unpack them under the
#             cache; quick when already done.  A non-default target keeps
#             the kernel it was first fetched with; --refresh asks apt for
#             the newest one of its suite (its modules then rebuild).
#
# Images are never installed into the host: the host keeps its own kernel.
#   cache     the cache directory: $NPUPROF_VM_CACHE when set; else, for
#             root, /var/cache/npuprof/vm, one for every clone on the
#             machine (the unpacked kernels and the arm64 root are large
#             and the same for all: a fresh clone, as CI's, reuses them);
#             else REPO/.cache/vm.  Every script asks this command.

set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [[ -n ${NPUPROF_VM_CACHE:-} ]]; then
	CACHE=$NPUPROF_VM_CACHE
elif [[ $(id -u) == 0 ]]; then
	CACHE=/var/cache/npuprof/vm
else
	CACHE=$ROOT/.cache/vm
fi
ME=vm-kernel.sh
DEFAULT_TARGET=amd64-6.1

# NAME ARCH SUITE META: META is the package whose newest version in SUITE
# (a regular expression over apt's suite names) depends on the image.
TARGETS="\
amd64-6.1 amd64 bookworm(-security|-updates)? linux-image-amd64
amd64-5.10 amd64 bullseye(-security|-updates)? linux-image-amd64
amd64-6.12 amd64 bookworm-backports linux-image-amd64
arm64-6.1 arm64 bookworm(-security|-updates)? linux-image-arm64
arm64-6.12-16k arm64 bookworm-backports linux-image-arm64-16k"

die() { printf '%s: %s\n' "$ME" "$*" >&2; exit 1; }
say() { printf '%s: %s\n' "$ME" "$*" >&2; }

target=${NPUPROF_VM_TARGET:-$DEFAULT_TARGET}
if [[ ${1:-} == --target ]]; then
	target=${2:?--target needs a name}
	shift 2
fi

row=$(awk -v t="$target" '$1 == t' <<<"$TARGETS")
if [[ -z $row ]]; then
	die "unknown target '$target'; known: $(awk '{printf "%s%s", s, $1; s=", "}' <<<"$TARGETS")"
fi
read -r _ ARCH SUITE META <<<"$row"
HOST_ARCH=$(dpkg --print-architecture)
# apt's name of a package of the target's architecture.
pkg() { if [[ $ARCH == "$HOST_ARCH" ]]; then printf '%s' "$1"; else printf '%s:%s' "$1" "$ARCH"; fi; }

# KVER of the default target: the kernel linux-headers-amd64 depends on.
default_kver() {
	local st dep v
	st=$(dpkg-query -W -f='${db:Status-Abbrev}' linux-headers-amd64 2>/dev/null) || return 1
	[[ $st == ii* ]] || return 1
	# Depends: "linux-headers-6.1.0-57-amd64 (= 6.1.192-3)"
	dep=$(dpkg-query -W -f='${Depends}' linux-headers-amd64 2>/dev/null) || return 1
	v=$(tr ',' '\n' <<<"$dep" | sed -n 's/^ *linux-headers-\([^ ]*\).*/\1/p' | head -n 1)
	[[ -n $v ]] || return 1
	printf '%s\n' "$v"
}

record() { printf '%s/targets/%s\n' "$CACHE" "$target"; }

kver() {
	if [[ $target == "$DEFAULT_TARGET" ]]; then
		default_kver
	else
		[[ -s $(record) ]] || return 1
		cat "$(record)"
	fi
}

# Resolve KVER from apt's lists: the newest version of META in SUITE and the
# linux-image-KVER it depends on.
resolve_kver() {
	local ver dep
	ver=$(apt-cache madison "$(pkg "$META")" 2>/dev/null |
		awk -F'|' -v re="^($SUITE)/" '{ split($3, w, " "); if (w[2] ~ re) { gsub(/ /, "", $2); print $2; exit } }')
	[[ -n $ver ]] || return 1
	dep=$(apt-cache show "$(pkg "$META")=$ver" 2>/dev/null | sed -n 's/^Depends: //p' | head -n 1)
	tr ',' '\n' <<<"$dep" | sed -n 's/^ *linux-image-\([^ ]*\).*/\1/p' | sed 's/-unsigned$//' | head -n 1
}

# Make sure apt knows about the target's suite and architecture.
apt_ready() {
	if [[ -z $(resolve_kver) ]]; then
		apt-get update -qq </dev/null || true
	fi
}

# Print the path of a downloaded .deb of package NAME for ARCH, of VERSION
# when given (else any), looking in the cache and apt's archive first,
# downloading when missing.  A version matters for packages whose name
# stays across kernel updates (linux-kbuild-6.1).
fetch_deb() {
	local name=$1 arch=$2 ver=${3:-} deb dl file want
	file=${name%%:*}
	want=${ver:-*}
	want=${want//:/%3a}
	# Architecture-independent packages (the headers' common part) are _all.
	for deb in "$CACHE/debs/${file}_"$want"_"{"$arch",all}.deb \
		/var/cache/apt/archives/"${file}_"$want"_"{"$arch",all}.deb; do
		[[ -f $deb ]] && { printf '%s\n' "$deb"; return 0; }
	done
	[[ -n $ver ]] && name="$name=$ver"
	dl="$CACHE/debs/download.$$"
	mkdir -p "$dl"
	# apt-get download drops root to _apt; give it a directory it can write.
	if [[ $(id -u) == 0 ]] && id _apt >/dev/null 2>&1; then chown _apt "$dl"; fi
	say "downloading $name"
	if ! (cd "$dl" && apt-get download -qq "$name" </dev/null >&2); then
		rm -rf "$dl"
		return 1
	fi
	for deb in "$dl/${file}_"*.deb; do
		[[ -f $deb ]] || continue
		mv -f "$deb" "$CACHE/debs/"
		rm -rf "$dl"
		deb="$CACHE/debs/$(basename "$deb")"
		# Keep a copy where the next fresh clone (CI) finds it.
		[[ -w /var/cache/apt/archives ]] && cp -f "$deb" /var/cache/apt/archives/ 2>/dev/null
		printf '%s\n' "$deb"
		return 0
	done
	rm -rf "$dl"
	return 1
}

# Download and unpack the image of KVER into $CACHE/KVER with a modules.dep.
fetch_image() {
	local kver=$1 dest="$CACHE/$1" tmp deb="" name l
	[[ -f $dest/boot/vmlinuz-$kver && -f $dest/lib/modules/$kver/modules.dep ]] && return 0
	for name in "linux-image-$kver" "linux-image-$kver-unsigned"; do
		deb=$(fetch_deb "$(pkg "$name")" "$ARCH") && break
	done
	[[ -n $deb ]] || die "could not download linux-image-$kver (nor -unsigned) for $ARCH; check apt sources"
	say "unpacking $(basename "$deb")"
	tmp="$dest.tmp.$$"
	rm -rf "$tmp"
	mkdir -p "$tmp"
	dpkg-deb -x "$deb" "$tmp"
	depmod -b "$tmp" "$kver"
	if [[ $target == "$DEFAULT_TARGET" ]]; then
		# The headers package put build/source links in the host's
		# /lib/modules; the unpacked tree gets the same.
		for l in build source; do
			[[ -L /lib/modules/$kver/$l ]] &&
				ln -sfn "$(readlink "/lib/modules/$kver/$l")" "$tmp/lib/modules/$kver/$l"
		done
	fi
	[[ -f $tmp/boot/vmlinuz-$kver ]] || die "$deb has no boot/vmlinuz-$kver"
	# A headers tree unpacked earlier stays.
	[[ -d $dest/headers ]] && mv "$dest/headers" "$tmp/headers"
	rm -rf "$dest"
	mv "$tmp" "$dest"
}

# Download and unpack linux-headers-KVER and the headers/kbuild packages it
# depends on into $CACHE/KVER/headers, a private root.  Debian's headers
# Makefile includes the common tree by absolute path; that path is pointed
# into the private root.  The kbuild package (host tools: fixdep, modpost)
# is Multi-Arch: foreign, so the host's architecture is taken for it.
fetch_headers() {
	local kver=$1 dest="$CACHE/$1/headers" tmp deps d deb hdrs
	hdrs="$dest/usr/src/linux-headers-$kver"
	# Done unless the tree was unpacked under another cache path (the
	# Makefile's include names it).
	[[ -f $hdrs/Makefile && -f $dest/.complete ]] &&
		grep -q "^include $dest/usr/src/" "$hdrs/Makefile" && return 0
	tmp="$dest.tmp.$$"
	rm -rf "$tmp"
	mkdir -p "$tmp"
	deb=$(fetch_deb "$(pkg "linux-headers-$kver")" "$ARCH") || die "could not download linux-headers-$kver"
	dpkg-deb -x "$deb" "$tmp"
	# "linux-headers-6.1.0-57-common (= 6.1.192-3), linux-kbuild-6.1 (>= ...)":
	# the version named, also for >= (the one built with these headers)
	deps=$(dpkg-deb -f "$deb" Depends | tr ',' '\n' |
		sed -n 's/^ *\(linux-\(headers\|kbuild\)-[^ :]*\)\( *(>\?= *\([^)]*\))\)\?.*/\1 \4/p')
	while read -r d v; do
		[[ -n $d ]] || continue
		deb=$(fetch_deb "$d" "$HOST_ARCH" "$v") ||
			die "could not download $d $v (needed by linux-headers-$kver)"
		dpkg-deb -x "$deb" "$tmp"
	done <<<"$deps"
	sed -i "s|/usr/src/|$dest/usr/src/|g" "$tmp/usr/src/linux-headers-$kver/Makefile"
	touch "$tmp/.complete"
	rm -rf "$dest"
	mkdir -p "$(dirname "$dest")"
	mv "$tmp" "$dest"
	# The image's module tree finds its build tree, as an installed one would.
	ln -sfn "$hdrs" "$CACHE/$kver/lib/modules/$kver/build"
}

fetch() {
	local kver
	mkdir -p "$CACHE/debs" "$CACHE/targets"
	if [[ $target == "$DEFAULT_TARGET" ]]; then
		kver=$(default_kver) || die "linux-headers-amd64 is not installed; cannot tell which kernel the VM boots"
		fetch_image "$kver"
	else
		# A target keeps the kernel it was first fetched with (asking apt
		# takes seconds per target at every make check); --refresh looks
		# for a newer one.
		kver=""
		[[ $refresh == 1 ]] || kver=$(kver 2>/dev/null) || true
		if [[ -z $kver ]]; then
			apt_ready
			kver=$(resolve_kver) || true
		fi
		[[ -n $kver ]] || die "no $META for $ARCH in suites '$SUITE'; are the apt sources of scripts/install-deps.sh there?"
		fetch_image "$kver"
		fetch_headers "$kver"
		# Rewritten only when the kernel changed: its age tells make
		# when the target's modules are out of date.
		if [[ ! -f $(record) || $(cat "$(record)") != "$kver" ]]; then
			printf '%s\n' "$kver" >"$(record).tmp.$$"
			mv -f "$(record).tmp.$$" "$(record)"
		fi
	fi
	say "$target: kernel $kver in $CACHE/$kver"
}

# Print PATH if it exists, else say what to run and fail.
existing() {
	[[ -e $1 ]] || die "$1 missing; run scripts/vm-kernel.sh --target $target fetch (or scripts/install-deps.sh)"
	printf '%s\n' "$1"
}

need_kver() {
	kver || die "kernel of target $target unknown; run scripts/vm-kernel.sh --target $target fetch (or scripts/install-deps.sh)"
}

case ${1:-} in
cache) printf '%s\n' "$CACHE" ;;
targets) printf '%s\n' "$TARGETS" ;;
version) kver || exit 1 ;;
arch) printf '%s\n' "$ARCH" ;;
vmlinuz) v=$(need_kver); existing "$CACHE/$v/boot/vmlinuz-$v" ;;
moddir) v=$(need_kver); existing "$CACHE/$v/lib/modules/$v" ;;
kdir)
	v=$(need_kver)
	if [[ $target == "$DEFAULT_TARGET" ]]; then
		existing "/lib/modules/$v/build"
	else
		existing "$CACHE/$v/headers/usr/src/linux-headers-$v"
	fi
	;;
fetch)
	refresh=0
	[[ ${2:-} == --refresh ]] && refresh=1
	fetch
	;;
*)
	echo "usage: $ME [--target T] cache|targets|version|arch|vmlinuz|moddir|kdir|fetch [--refresh]" >&2
	exit 2
	;;
esac
