#!/bin/bash
# SPDX-License-Identifier: MIT
#
# Build every kernel module the tests use for one VM target's kernel.
#
#   scripts/target-modules.sh TARGET
#
# TARGET is a name of scripts/vm-kernel.sh (amd64-5.10, arm64-6.1, ...).
# The modules (npuprof.ko, npusim.ko, npustub.ko, ascendsim.ko, npuprof_tp_stub.ko) are
# built against `vm-kernel.sh --target TARGET kdir` and copied to
# build/target/TARGET/kmod/, the same file names as build/kmod/.
#
# Kbuild writes its objects next to the sources of an external module, so
# the build happens in a shadow tree, build/target/TARGET/src/: the module
# sources as symbolic links (refreshed at each run, so a removed file does
# not linger), the objects as real files.  The in-tree build of the default
# kernel (make modules) is never touched.
#
# Compiler: Debian's headers name the gcc their kernel was built with
# (.kernelvariables: gcc-10 for 5.10, gcc-12 for 6.x).  When that one is
# not installed, the host's $CROSS_COMPILE"gcc" builds instead (gcc-12 for
# 5.10's modules: fine for out-of-tree modules).  For arm64 targets
# ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- (gcc-aarch64-linux-gnu).
#
# MAKE (from make's recipe) carries the jobserver; KBUILD_VERBOSE passes on.

set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ME=target-modules
MAKE=${MAKE:-make}

die() { printf '%s: %s\n' "$ME" "$*" >&2; exit 1; }

# The directories of module sources, relative to ROOT: the top Kbuild
# builds kmod/ and sim/driver/ (whose headers include sim/include/);
# tp_stub is its own external module.
SRC_DIRS=(kmod sim/driver sim/include tests/kmod/tp_stub include)

# Mirror the sources into shadow tree $1 as symbolic links.  Only sources
# are linked (Kbuild, *.c, *.h, not Kbuild's generated *.mod.c): linking an
# in-tree object would make Kbuild write through the link into the tree.
shadow_tree() {
	local shadow=$1 d f
	mkdir -p "$shadow"
	find "$shadow" -type l -delete
	ln -sfn "$ROOT/Kbuild" "$shadow/Kbuild"
	for d in "${SRC_DIRS[@]}"; do
		while IFS= read -r -d '' f; do
			mkdir -p "$shadow/$(dirname "$f")"
			ln -sfn "$ROOT/$f" "$shadow/$f"
		done < <(cd "$ROOT" && find "$d" -type f \( -name Kbuild -o -name '*.h' -o \
			\( -name '*.c' ! -name '*.mod.c' \) \) -print0)
	done
}

# Print the compiler make variables for kernel build tree $1 and arch $2.
compiler_args() {
	local kdir=$1 arch=$2 cross="" want
	[[ $arch == arm64 ]] && cross=aarch64-linux-gnu-
	[[ -n $cross ]] && printf '%s\n' ARCH=arm64 "CROSS_COMPILE=$cross"
	# "CC = $(if ...) $(CROSS_COMPILE)gcc-10": the last word, crossed.
	want=$(sed -n 's/^CC *= *.*\$(CROSS_COMPILE)\([^ ]*\) *$/\1/p' "$kdir/.kernelvariables" 2>/dev/null | head -n 1)
	if [[ -z $want ]] || ! command -v "$cross$want" >/dev/null; then
		command -v "${cross}gcc" >/dev/null ||
			die "${cross}gcc not found; run scripts/install-deps.sh"
		printf '%s\n' "CC=${cross}gcc"
	fi
}

main() {
	local target=${1:-} kdir arch shadow out cc_args args
	[[ -n $target ]] || die "usage: target-modules.sh TARGET"
	kdir=$("$ROOT/scripts/vm-kernel.sh" --target "$target" kdir) || exit 1
	arch=$("$ROOT/scripts/vm-kernel.sh" --target "$target" arch)
	out="$ROOT/build/target/$target"
	shadow="$out/src"
	shadow_tree "$shadow"
	cc_args=$(compiler_args "$kdir" "$arch") || exit 1
	mapfile -t args < <(printf '%s' "$cc_args")
	$MAKE -C "$kdir" M="$shadow" "${args[@]}" modules
	$MAKE -C "$kdir" M="$shadow/tests/kmod/tp_stub" "${args[@]}" modules
	mkdir -p "$out/kmod"
	cp "$shadow/kmod/npuprof.ko" "$shadow/sim/driver/npusim.ko" \
		"$shadow/sim/driver/npustub.ko" "$shadow/sim/driver/ascendsim.ko" \
		"$shadow/tests/kmod/tp_stub/npuprof_tp_stub.ko" "$out/kmod/"
}

main "$@"
