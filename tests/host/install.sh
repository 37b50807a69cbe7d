#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Description: make install DESTDIR=D PREFIX=/usr puts exactly the expected
# files in D, with their modes, and writes nothing outside D (as root it
# runs as nobody, who may write only there); it rebuilds nothing.  The
# installed msprof runs and carries its BPF object inside (the skeleton's
# embedded ELF: there is no object file to find); a program builds against
# the installed headers and libnpuprof.a through the installed npuprof.pc;
# the directory variables move what they name; make uninstall leaves no
# file behind.  The headers installed are the public API: not the tools'
# plumbing (msg.h, bpf_log.h, name_text.h, prof_fs.h, loss_json.h,
# prof_control.h, clock.h).  No VM.
source "$(dirname "$0")/lib.bash"
need_msprof

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
dest=$tmp/dest
mkdir "$dest"
: >"$tmp/marker" # what is newer, this test wrote

# make, isolated from a make that runs the tests (its flags and jobserver);
# as nobody when we are root, so a write outside DESTDIR fails.  A tree
# nobody cannot read (a clone under /root, mode 0700) runs as root: the
# check below of what is newer than the marker still finds stray writes.
nobody=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
run_make() {
	local as=()
	if [[ $(id -u) == 0 ]] && "${nobody[@]}" test -r Makefile -a -x "$BUILD"; then
		chown -R nobody: "$tmp"
		as=("${nobody[@]}")
	fi
	"${as[@]}" env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s BUILD="$BUILD" "$@"
}

inst=(bin/msprof bin/npuprof-dump lib/libnpuprof.a)
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -q BUILD="$BUILD" "${inst[@]/#/$BUILD/}" ||
	fail "the build is not up to date: run make tools libs first (install must not build)"
run_make install DESTDIR="$dest" PREFIX=/usr || fail "make install failed"

# What must be there: the tree the sources say, nothing more.
src=$(cd "$dest/usr/src" && ls -d npuprof-*)
[[ $(wc -w <<<"$src") == 1 ]] || fail "usr/src: want one npuprof-VERSION, got: $src"
grep -qx "PACKAGE_VERSION=\"${src#npuprof-}\"" "$dest/usr/src/$src/dkms.conf" ||
	fail "dkms.conf's PACKAGE_VERSION is not the directory's ${src#npuprof-}"
{
	echo "755 usr/bin/msprof"
	echo "755 usr/bin/npuprof-dump"
	echo "644 usr/lib/libnpuprof.a"
	echo "644 usr/lib/pkgconfig/npuprof.pc"
	# the public API only: the tools' plumbing headers stay in the tree
	for h in include/npuprof/*.h user/include/*/npuprof/*.h; do
		case ${h##*/} in
		msg.h | bpf_log.h | name_text.h | prof_fs.h | loss_json.h | prof_control.h | clock.h | \
			ascend_hal.h | devlog.h) continue ;;
		esac
		echo "644 usr/include/npuprof/${h##*/}"
	done
	for m in man/*.1; do
		echo "644 usr/share/man/man1/${m##*/}"
	done
	echo "644 usr/share/bash-completion/completions/msprof"
	echo "644 usr/src/$src/dkms.conf"
	for f in kmod/Kbuild kmod/*.[ch] include/npuprof/*.h include/npuprof/drv/*.h; do
		[[ $f == *.mod.c ]] || echo "644 usr/src/$src/$f"
	done
} | LC_ALL=C sort >"$tmp/want"
(cd "$dest" && find . -mindepth 1 ! -type d -printf '%m %P\n') | LC_ALL=C sort >"$tmp/got"
diff -u "$tmp/want" "$tmp/got" >&2 || fail "the installed tree differs (- expected, + installed)"
bad=$(cd "$dest" && find . -mindepth 1 -type d ! -perm 755 -printf '%m %P\n')
[[ -z $bad ]] || fail "directories not 0755: $bad"

# Nothing written outside DESTDIR: not in the tree (the runner's logs
# aside), nor where PREFIX=/usr or the default /usr/local would put it.
written=$(find . \( -path ./.git -o -path "./$BUILD/test-logs" \) -prune -o -newer "$tmp/marker" -print
	find /usr/local /usr/bin /usr/lib /usr/include /usr/share/man /usr/share/bash-completion \
		/usr/src -maxdepth 3 -newer "$tmp/marker" -print 2>/dev/null)
[[ -z $written ]] || fail "make install wrote outside DESTDIR: $written"

# The installed msprof runs, and its BPF programs are inside it: an ELF
# object for EM_BPF (247) holding acl_trace.bpf.c's programs.
out=$("$dest/usr/bin/msprof" --help) || fail "installed msprof --help failed"
[[ $out == "$("$MSPROF" --help)" ]] || fail "installed msprof --help differs from $MSPROF's"
python3 - "$dest/usr/bin/msprof" <<'PY' || fail "installed msprof has no embedded BPF object"
import struct, sys
data = open(sys.argv[1], "rb").read()
at = data.find(b"\x7fELF\x02\x01\x01", 1)
while at > 0:
    machine, = struct.unpack_from("<H", data, at + 18)
    shoff, = struct.unpack_from("<Q", data, at + 0x28)
    entsize, count = struct.unpack_from("<HH", data, at + 0x3a)
    obj = data[at:at + shoff + entsize * count]
    if machine == 247 and b"acl_task_submit" in obj and b"acl_enter" in obj:
        print("embedded BPF object: %d bytes at offset %d" % (len(obj), at))
        sys.exit(0)
    at = data.find(b"\x7fELF\x02\x01\x01", at + 1)
sys.exit(1)
PY

# A program built against what was installed, through npuprof.pc: every
# public header compiles on its own terms, and the library links.
for h in "$dest"/usr/include/npuprof/*.h; do
	echo "#include <npuprof/${h##*/}>"
done >"$tmp/prog.c"
cat >>"$tmp/prog.c" <<'C'
#include <stdio.h>
int main(void)
{
	char name[NPUPROF_PROF_SERIES_SIZE];

	if (npuprof_series_name(name, sizeof(name), 3))
		return 1;
	puts(name);
	return 0;
}
C
pc=(env PKG_CONFIG_PATH="$dest/usr/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$dest"
	PKG_CONFIG_ALLOW_SYSTEM_CFLAGS=1 PKG_CONFIG_ALLOW_SYSTEM_LIBS=1 pkg-config)
flags=$("${pc[@]}" --cflags --libs npuprof) || fail "pkg-config npuprof failed"
cc -std=gnu11 -Wall -Werror -D_GNU_SOURCE -o "$tmp/prog" "$tmp/prog.c" $flags ||
	fail "a program using the installed headers and library does not build"
[[ $("$tmp/prog") == npuprof.task.3 ]] || fail "the linked program printed $("$tmp/prog")"

# The directory variables are honoured.
run_make install DESTDIR="$tmp/alt" PREFIX=/opt/np MANDIR=/opt/np/man BINDIR=/opt/bin ||
	fail "make install with PREFIX, MANDIR, BINDIR failed"
for f in opt/bin/msprof opt/np/man/man1/msprof.1 opt/np/lib/libnpuprof.a \
	opt/np/share/bash-completion/completions/msprof "opt/np/src/$src/dkms.conf"; do
	[[ -f $tmp/alt/$f ]] || fail "PREFIX=/opt/np MANDIR=/opt/np/man BINDIR=/opt/bin: no $f"
done
grep -qx 'libdir=/opt/np/lib' "$tmp/alt/opt/np/lib/pkgconfig/npuprof.pc" || fail "npuprof.pc: libdir is not /opt/np/lib"

# make uninstall removes every file, and npuprof's own directories.
run_make uninstall DESTDIR="$dest" PREFIX=/usr || fail "make uninstall failed"
left=$(cd "$dest" && find . ! -type d; find . -path '*npuprof*')
[[ -z $left ]] || fail "make uninstall left: $left"
echo "install: $(wc -l <"$tmp/want") files with their modes, msprof runs, uninstall leaves nothing"
