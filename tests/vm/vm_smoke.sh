#!/bin/bash
# SPDX-License-Identifier: MIT
#
# Description: the VM runner boots the VM kernel, returns the command's exit
# status and output, and writes through a --rw directory to the host.
#
# One boot runs `uname -r`, writes two files into a --rw directory that lives
# under the host's /tmp (a tmpfs inside the guest, so the mount point has to
# be made), and exits 3.  Checks: exit status 3, the first output line is
# exactly the VM kernel's release, and the files on the host hold exactly
# the bytes written.  Exit 0 pass, 1 fail, 77 skip (no qemu or VM kernel).

set -u
cd "$(dirname "$0")/../.." || exit 1

fail=0
check() { # check DESCRIPTION COMMAND...
	local what=$1
	shift
	if ! "$@"; then
		echo "vm_smoke: FAIL: $what" >&2
		fail=1
	fi
}

kver=$(scripts/vm-kernel.sh version) || { echo "vm_smoke: SKIP: linux-headers-amd64 not installed"; exit 77; }
scripts/vm-kernel.sh vmlinuz >/dev/null 2>&1 || { echo "vm_smoke: SKIP: VM kernel not unpacked (scripts/install-deps.sh)"; exit 77; }
case $(scripts/vm-kernel.sh arch) in
arm64) qemu=qemu-system-aarch64 ;;
*) qemu=qemu-system-x86_64 ;;
esac
command -v $qemu >/dev/null || { echo "vm_smoke: SKIP: $qemu missing"; exit 77; }

dir=$(mktemp -d "${TMPDIR:-/tmp}/vm_smoke.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
out="$dir/guest-output"

scripts/vm-run.sh --rw "$dir/" --timeout 300 -- \
	"uname -r; printf 'npuprof vm smoke\\n\\tquoted \$HOME=%s\\n' \"\$HOME\" >'$dir/hello'; seq 1 20000 >'$dir/seq'; exit 3" \
	>"$out" 2>&1
status=$?
cat "$out"

check "exit status is 3 (got $status)" test "$status" -eq 3
check "first output line is the VM kernel release $kver" test "$(head -n 1 "$out")" = "$kver"
check "output is exactly one line" test "$(wc -l <"$out")" -eq 1
check "hello written through --rw holds the exact bytes" \
	cmp -s "$dir/hello" <(printf 'npuprof vm smoke\n\tquoted $HOME=/root\n')
check "seq written through --rw holds the exact bytes" cmp -s "$dir/seq" <(seq 1 20000)

if ((fail)); then
	exit 1
fi
echo "vm_smoke: PASS"
exit 0
