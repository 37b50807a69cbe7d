#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Description: the DKMS source that make install writes (make dkms-src)
# builds npuprof.ko with `dkms add` and `dkms build` for each kernel of
# dkms_kernels, in a private DKMS tree: dkms reports it built, and the
# module it keeps is npuprof.ko with that kernel's vermagic.  Nothing of the
# host's DKMS state (/var/lib/dkms, /usr/src/npuprof-*, the modules' updates/
# directories) is touched.  About 40 s
# per kernel on 2 cores: run by tests/run.sh --pkg (make check-all), not by
# make check.
#
# The default list is every amd64 VM target whose kernel is fetched
# (scripts/vm-kernel.sh: Debian's 5.10, 6.1 and 6.12), each with its own
# headers.  DKMS_KERNELS="KVER KDIR;KVER KDIR..." (kernel release and its
# headers' build tree) replaces it.
set -u
cd "$(dirname "$0")/../.." || exit 1

fail() { echo "FAIL: $*" >&2; exit 1; }

# One "KVER KDIR" per line.
dkms_kernels() {
	local kver
	if [[ -n ${DKMS_KERNELS:-} ]]; then
		tr ';' '\n' <<<"$DKMS_KERNELS" | sed '/^ *$/d'
		return
	fi
	local t arch kdir
	while read -r t arch _; do
		[[ $arch == "$(dpkg --print-architecture)" ]] || continue
		kver=$(scripts/vm-kernel.sh --target "$t" version) || continue
		kdir=$(scripts/vm-kernel.sh --target "$t" kdir 2>/dev/null) || continue
		echo "$kver $kdir"
	done < <(scripts/vm-kernel.sh targets)
}

command -v dkms >/dev/null || { echo "SKIP: dkms is not installed (scripts/install-deps.sh)"; exit 77; }
[[ $(id -u) == 0 ]] || { echo "SKIP: dkms build needs root"; exit 77; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
: >"$tmp/marker"
make -s dkms-src DESTDIR="$tmp/dest" PREFIX=/usr || fail "make dkms-src failed"
src=$tmp/dest/usr/src
pkg=$(cd "$src" && ls -d npuprof-*)
version=${pkg#npuprof-}
# dkms signs what it builds (the kernels have CONFIG_MODULE_SIG) and would
# make its key in the host's /var/lib/dkms: dkms 3 takes the key's paths
# from its environment when /etc/dkms/framework.conf sets none.
dk=(env mok_signing_key="$tmp/mok.key" mok_certificate="$tmp/mok.der"
	dkms --dkmstree "$tmp/tree" --sourcetree "$src")
mkdir "$tmp/tree"
"${dk[@]}" add -m npuprof -v "$version" >"$tmp/add.log" 2>&1 ||
	{ cat "$tmp/add.log"; fail "dkms add failed"; }

n=0
while read -r kver kdir; do
	[[ -d $kdir ]] || fail "$kver: no kernel build tree at $kdir"
	start=$(date +%s)
	# Debian's headers name the gcc their kernel was built with (5.10:
	# gcc-10, which this Debian 12 machine does not have); dkms calls it by
	# that name.  Where it is missing, the host's gcc stands in, as
	# scripts/target-modules.sh does: a module built on a real 5.10 host
	# gets gcc-10 from its own Debian.
	cc=$(sed -n 's/^CC .*)\(gcc-[0-9]*\)$/\1/p' "$kdir/.kernelvariables" 2>/dev/null)
	path=$PATH
	if [[ -n $cc ]] && ! command -v "$cc" >/dev/null; then
		mkdir -p "$tmp/cc-$kver"
		ln -sf "$(command -v gcc)" "$tmp/cc-$kver/$cc"
		path=$tmp/cc-$kver:$PATH
		echo "$kver: $cc not installed, gcc builds instead"
	fi
	if ! PATH=$path "${dk[@]}" build -m npuprof -v "$version" -k "$kver" --kernelsourcedir "$kdir" \
		-j 2 >"$tmp/build.log" 2>&1; then
		cat "$tmp/build.log"
		cat "$tmp/tree/npuprof/$version/build/make.log" 2>/dev/null
		fail "$kver: dkms build failed"
	fi
	status=$("${dk[@]}" status -m npuprof -v "$version" -k "$kver")
	[[ $status == "npuprof/$version, $kver, "*": built" ]] || fail "$kver: dkms status says: $status"
	ko=$(echo "$tmp/tree/npuprof/$version/$kver"/*/module/npuprof.ko)
	[[ -f $ko ]] || fail "$kver: dkms kept no npuprof.ko"
	[[ $(modinfo -F name "$ko") == npuprof ]] || fail "$kver: $ko is not npuprof"
	magic=$(modinfo -F vermagic "$ko")
	[[ ${magic%% *} == "$kver" ]] || fail "$kver: npuprof.ko's vermagic is $magic"
	echo "$kver: built by dkms in $(($(date +%s) - start)) s"
	n=$((n + 1))
done < <(dkms_kernels)
((n)) || fail "no kernel to build for"

# where dkms keeps state and puts modules and sources by default
touched=$(find /var/lib/dkms /etc/dkms /usr/src/npuprof-* /lib/modules/*/updates \
	-newer "$tmp/marker" 2>/dev/null)
[[ -z $touched ]] || fail "dkms wrote outside its private tree: $touched"
echo "npuprof $version: built through dkms for $n kernel(s)"
