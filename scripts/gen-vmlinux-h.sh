#!/bin/bash
# SPDX-License-Identifier: MIT
#
# Write vmlinux.h (kernel types for BPF CO-RE programs) to OUT.
#
#   scripts/gen-vmlinux-h.sh OUT
#
# The types come from the BTF of the kernel the test VM boots (CACHE is
# scripts/vm-kernel.sh cache): the ELF
# vmlinux is unpacked from its compressed bzImage (CACHE/KVER/boot/
# vmlinuz-KVER) into CACHE/KVER/vmlinux and `bpftool btf dump` turns its
# .BTF section into C.  Both are cached beside the image.  When that fails
# (no unpacked image, no python3), the host's /sys/kernel/btf/vmlinux is used
# instead; CO-RE relocations make either work on the VM kernel.
#
# The kernel is that of NPUPROF_VM_TARGET (scripts/vm-kernel.sh).  An arm64
# target's image is a raw Image (gzip'd on some kernels), not an ELF, and
# Debian's image package ships no real System.map to find __start_BTF by;
# the .BTF section is found by its header instead (magic 0xeB9F, version 1,
# a 24-byte header whose type and string lengths give the blob's size, the
# string section right after the types, as the kernel lays it out), cut
# out into CACHE/KVER/vmlinux.btf and dumped the same way.  There is no
# host fallback for a target of another architecture: its pt_regs differ.
#
# `scripts/gen-vmlinux-h.sh --vmlinux` only unpacks and prints the ELF path
# (amd64 targets: the VM boots it); it fails for other architectures.

set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=$("$ROOT/scripts/vm-kernel.sh" cache)
BPFTOOL=${BPFTOOL:-bpftool}

say() { printf 'gen-vmlinux-h: %s\n' "$*" >&2; }

# Unpack the ELF vmlinux from bzImage $1 into $2.  The bzImage header (boot
# protocol >= 2.08) gives the offset and length of the compressed payload;
# when it does not, scan for the XZ or zstd stream magic.  Debian compresses
# 5.10 and 6.1 with XZ (Python's lzma), 6.12 with zstd (the zstd program:
# Python has no zstd module before 3.14).  Exit 0 on an ELF result.
extract_vmlinux() {
	python3 - "$1" "$2" <<'PY'
import lzma, struct, subprocess, sys

src, dst = sys.argv[1], sys.argv[2]
XZ_MAGIC = b"\xfd7zXZ\x00"
ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
img = open(src, "rb").read()

def candidates():
    """(start, length or None) of possible payloads, the header's first."""
    # struct setup_header: "HdrS" at 0x202, version at 0x206, setup_sects
    # at 0x1f1, payload_offset/payload_length at 0x248/0x24c.
    if img[0x202:0x206] == b"HdrS" and struct.unpack_from("<H", img, 0x206)[0] >= 0x208:
        setup_sects = img[0x1f1] or 4
        off, length = struct.unpack_from("<II", img, 0x248)
        yield (setup_sects + 1) * 512 + off, length
    for magic in (XZ_MAGIC, ZSTD_MAGIC):
        at = img.find(magic)
        while at >= 0:
            yield at, None
            at = img.find(magic, at + 1)

def unxz(start, _length):
    # The decompressor stops at the end of the stream and leaves the
    # trailing bytes (size word, padding, signature) unread.
    try:
        return lzma.LZMADecompressor(format=lzma.FORMAT_XZ).decompress(img[start:])
    except lzma.LZMAError:
        return b""

def unzstd(start, length):
    # The build appends the 4-byte uncompressed size to the stream, which
    # the zstd program would take for a frame of an unknown format.
    if length is None:
        return b""
    r = subprocess.run(["zstd", "-qdc"], input=img[start:start + length - 4],
                       capture_output=True)
    return r.stdout if r.returncode == 0 else b""

for start, length in candidates():
    head = img[start:start + 6]
    if head.startswith(XZ_MAGIC):
        elf = unxz(start, length)
    elif head.startswith(ZSTD_MAGIC):
        elf = unzstd(start, length)
    else:
        continue
    if elf[:4] == b"\x7fELF":
        open(dst, "wb").write(elf)
        sys.exit(0)
sys.exit("no XZ- or zstd-compressed ELF payload in " + src)
PY
}

# Cut the vmlinux BTF blob out of raw (or gzip'd) arm64 Image $1 into $2.
# Exit 0 when a blob was found.
extract_image_btf() {
	python3 - "$1" "$2" <<'PY'
import gzip, struct, sys

src, dst = sys.argv[1], sys.argv[2]
img = open(src, "rb").read()
if img[:2] == b"\x1f\x8b":
    img = gzip.decompress(img)
# struct btf_header: magic u16, version u8, flags u8, hdr_len u32, then
# type_off, type_len, str_off, str_len (u32, relative to the header's end).
MAGIC = b"\x9f\xeb\x01\x00"
best = None
at = img.find(MAGIC)
while at >= 0:
    hdr_len, type_off, type_len, str_off, str_len = struct.unpack_from("<5I", img, at + 4)
    size = hdr_len + str_off + str_len
    if (hdr_len == 24 and type_off == 0 and str_off == type_len and str_len
            and at + size <= len(img) and img[at + 24 + str_off] == 0
            and (best is None or size > best[1])):
        best = (at, size)
    at = img.find(MAGIC, at + 1)
if best is None:
    sys.exit("no BTF blob in " + src)
open(dst, "wb").write(img[best[0]:best[0] + best[1]])
PY
}

# Print the path of CACHE/KVER/$1, made from the VM kernel's image by
# function $2 (IMAGE OUT) when missing or older than the image; $3 says
# what is done, for the message.  Fails when the image is not there or $2
# fails.
from_image() {
	local name=$1 make=$2 doing=$3 kver vmlinuz out
	kver=$("$ROOT/scripts/vm-kernel.sh" version) || return 1
	vmlinuz="$CACHE/$kver/boot/vmlinuz-$kver"
	out="$CACHE/$kver/$name"
	[[ -f $vmlinuz ]] || return 1
	if [[ ! -f $out || $out -ot $vmlinuz ]]; then
		say "$doing $vmlinuz"
		"$make" "$vmlinuz" "$out.tmp.$$" || { rm -f "$out.tmp.$$"; return 1; }
		mv -f "$out.tmp.$$" "$out"
	fi
	printf '%s\n' "$out"
}

# The raw BTF of an arm64 VM kernel.
vm_image_btf() {
	from_image vmlinux.btf extract_image_btf "cutting the BTF out of"
}

# The ELF vmlinux of an amd64 VM kernel (fails for other architectures).
vm_vmlinux() {
	[[ $("$ROOT/scripts/vm-kernel.sh" arch) == amd64 ]] || return 1
	from_image vmlinux extract_vmlinux "unpacking vmlinux from"
}

# Dump BTF file $1 as C into $2 (via a temporary file, so $2 is whole).
dump_btf() {
	"$BPFTOOL" btf dump file "$1" format c >"$2.tmp.$$" || { rm -f "$2.tmp.$$"; return 1; }
	mv -f "$2.tmp.$$" "$2"
}

main() {
	local out=${1:-} cached
	if [[ $out == --vmlinux ]]; then
		vm_vmlinux
		return
	fi
	[[ -n $out ]] || { echo "usage: gen-vmlinux-h.sh OUT | --vmlinux" >&2; exit 2; }
	local arch src=""
	arch=$("$ROOT/scripts/vm-kernel.sh" arch)
	if [[ $arch != amd64 ]]; then
		src=$(vm_image_btf) || { say "no BTF from the $arch VM kernel image: run scripts/vm-kernel.sh fetch"; exit 1; }
	else
		src=$(vm_vmlinux) || src=""
	fi
	if [[ -n $src ]]; then
		cached="$(dirname "$src")/vmlinux.h"
		if [[ ! -s $cached || $cached -ot $src ]]; then
			say "dumping BTF of $src"
			dump_btf "$src" "$cached"
		fi
	else
		say "VM kernel image unavailable; using the host's /sys/kernel/btf/vmlinux"
		[[ -r /sys/kernel/btf/vmlinux ]] || { say "no BTF source: run scripts/install-deps.sh"; exit 1; }
		cached="$CACHE/vmlinux-host-$(uname -r).h"
		mkdir -p "$CACHE"
		[[ -s $cached ]] || dump_btf /sys/kernel/btf/vmlinux "$cached"
	fi
	mkdir -p "$(dirname "$out")"
	cp "$cached" "$out.tmp.$$"
	mv -f "$out.tmp.$$" "$out"
}

main "$@"
