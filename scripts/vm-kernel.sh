#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Tell which Debian kernel the test VM boots and where its unpacked files are.
#
#   vm-kernel.sh version   KVER, e.g. 6.1.0-57-amd64: the kernel that the
#                          installed linux-headers-amd64 depends on.  Exits 1
#                          without a word when the headers are not installed
#                          (the Makefile asks at parse time).
#   vm-kernel.sh vmlinuz   path of the unpacked bzImage (install-deps.sh)
#   vm-kernel.sh moddir    path of the unpacked /lib/modules/KVER
#
# NPUPROF_VM_CACHE overrides the cache directory (default REPO/.cache/vm).

set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
cache=${NPUPROF_VM_CACHE:-$root/.cache/vm}

kver() {
	st=$(dpkg-query -W -f='${db:Status-Abbrev}' linux-headers-amd64 2>/dev/null) || return 1
	case $st in ii*) ;; *) return 1 ;; esac
	# Depends: "linux-headers-6.1.0-57-amd64 (= 6.1.192-3)"
	dep=$(dpkg-query -W -f='${Depends}' linux-headers-amd64 2>/dev/null) || return 1
	v=$(printf '%s\n' "$dep" | tr ',' '\n' |
		sed -n 's/^ *linux-headers-\([^ ]*\).*/\1/p' | head -n 1)
	[ -n "$v" ] || return 1
	printf '%s\n' "$v"
}

# Print PATH if it exists, else say what to run and fail.
existing() {
	if [ -e "$1" ]; then
		printf '%s\n' "$1"
	else
		echo "vm-kernel.sh: $1 missing; run scripts/install-deps.sh" >&2
		exit 1
	fi
}

case ${1:-} in
version)
	kver || exit 1
	;;
vmlinuz)
	v=$(kver) || { echo "vm-kernel.sh: linux-headers-amd64 not installed; run scripts/install-deps.sh" >&2; exit 1; }
	existing "$cache/$v/boot/vmlinuz-$v"
	;;
moddir)
	v=$(kver) || { echo "vm-kernel.sh: linux-headers-amd64 not installed; run scripts/install-deps.sh" >&2; exit 1; }
	existing "$cache/$v/lib/modules/$v"
	;;
*)
	echo "usage: vm-kernel.sh version|vmlinuz|moddir" >&2
	exit 2
	;;
esac
