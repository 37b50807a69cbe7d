#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Description: the three layers (README, Architecture) keep their include
# rules.  The PROF format's sources (the Makefile's PROF_SRCS), the
# exporter (tools/export/) and npuprof-dump include no recorder header:
# none of user/include/recorder/npuprof/, no private header of a recorder
# file in user/, no BPF skeleton, no name with ".." in it; an exporter
# file's own "x.h" is one of tools/export/ (no "dir/x.h"); a test that
# includes an exporter header (itself or through a tests/unit header) is
# one of the export tests (EXPORT_TEST_SRCS), linked with the exporter
# alone; and, when the libraries are built, nothing the exporter or the
# PROF format leaves undefined is defined by a recorder object of
# libnpuprof.a.  Product code (user/ kmod/ bpf/ tools/ wire/) includes no
# simulator header (sim/), but for the npusim driver backend
# (user/drv_npusim.c), which speaks that driver's clock ioctl.  And the
# build enforces the first rule: a file including <npuprof/session.h>
# does not compile with the exporter's flags.  Each breach is named by
# file:line.
source "$(dirname "$0")/lib.bash"

layers=$(make -s --no-print-directory print-layers) || fail "make print-layers"
prof_srcs=$(sed -n 's/^PROF_SRCS=//p' <<<"$layers")
export_srcs=$(sed -n 's/^EXPORT_SRCS=//p' <<<"$layers")
export_cflags=$(sed -n 's/^EXPORT_CFLAGS=//p' <<<"$layers")
export_tests=" $(sed -n 's/^EXPORT_TEST_SRCS=//p' <<<"$layers") "
[[ -n $prof_srcs && -n $export_srcs ]] || fail "make print-layers gave no sources: $layers"

bad=0
breach() { echo "layer breach: $*" >&2; bad=1; }

# Header names a file of the PROF format or the exporter may not include.
recorder_hdrs=" $(cd user/include/recorder/npuprof && echo *.h) "
# user/'s private headers of the PROF format: x.h of a PROF_SRCS x.c, and
# x_int.h, what the parts of x share among themselves.
prof_private=" "
for c in $prof_srcs; do
	[[ -f ${c%.c}.h ]] && prof_private+="$(basename "${c%.c}.h") "
	[[ -f ${c%.c}_int.h ]] && prof_private+="$(basename "${c%.c}_int.h") "
done

# check_file FILE KIND: KIND prof (a user/ PROF source or its header) or export.
check_file() {
	local f=$1 kind=$2 n line name
	local re='^[[:space:]]*#[[:space:]]*include[[:space:]]*(["<])([^">]+)[">]'
	n=0
	while IFS= read -r line; do
		n=$((n + 1))
		[[ $line =~ $re ]] || continue
		name=${BASH_REMATCH[2]}
		if [[ $name == *..* ]]; then
			breach "$f:$n: includes $name: a path out of the layer's folders"
			continue
		fi
		case $name in
		*.skel.h) breach "$f:$n: includes the BPF skeleton $name (the recorder's)" ;;
		npuprof/*)
			[[ $recorder_hdrs == *" ${name#npuprof/} "* ]] &&
				breach "$f:$n: includes the recorder's <$name>" ;;
		esac
		[[ ${BASH_REMATCH[1]} == '"' ]] || continue
		if [[ $kind == export ]]; then
			[[ $name != */* && -f tools/export/$name ]] ||
				breach "$f:$n: includes \"$name\", not a header of tools/export/"
		elif [[ $kind == dump ]]; then
			breach "$f:$n: includes \"$name\": npuprof-dump uses the PROF format's headers only"
		elif [[ $prof_private != *" $name "* ]]; then
			breach "$f:$n: includes \"$name\", not a header of the PROF format"
		fi
	done <"$f"
}

for c in $prof_srcs; do
	check_file "$c" prof
	[[ -f ${c%.c}.h ]] && check_file "${c%.c}.h" prof
done
for h in user/include/prof/npuprof/*.h; do
	check_file "$h" prof
done
for f in tools/export/*.[ch]; do
	check_file "$f" export
done
for f in tools/npuprof-dump/*.c; do
	check_file "$f" dump
done
for s in $export_srcs; do
	[[ $s == tools/export/* ]] || breach "EXPORT_SRCS holds $s, outside tools/export/"
done

# A test that includes an exporter header is an export test.
exporter_hdr() { [[ $1 != */* && -f tools/export/$1 ]]; }
quoted() { sed -nE 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"([^"]+)".*/\1/p' "$1"; }
for t in tests/unit/test_*.c; do
	uses=""
	for h in $(quoted "$t"); do
		if exporter_hdr "$h"; then
			uses=$h
		elif [[ -f tests/unit/$h ]]; then
			for h2 in $(quoted "tests/unit/$h"); do
				exporter_hdr "$h2" && uses="$h2 (through $h)"
			done
		fi
		[[ -n $uses ]] && break
	done
	[[ -z $uses || $export_tests == *" $t "* ]] ||
		breach "$t includes the exporter's $uses but is not in EXPORT_TEST_SRCS (it would link the recorder)"
done

# Linked: what the report side needs from libnpuprof.a is the PROF format.
lib=$BUILD/lib
link_check="skipped: $lib/libnpuprof{,_export,_prof}.a not all built"
if [[ -f $lib/libnpuprof_export.a && -f $lib/libnpuprof_prof.a && -f $lib/libnpuprof.a ]]; then
	prof_objs=" "
	for c in $prof_srcs; do prof_objs+="$(basename "${c%.c}.o") "; done
	# symbol -> the recorder object of libnpuprof.a that defines it
	declare -A recorder_sym
	while read -r member sym; do
		[[ $prof_objs == *" $member "* ]] || recorder_sym[$sym]=$member
	done < <(nm -A --defined-only "$lib/libnpuprof.a" 2>/dev/null |
		awk '$(NF-1) ~ /^[TDBR]$/ { split($1, a, ":"); print a[2], $NF }')
	while read -r sym; do
		[[ -n ${recorder_sym[$sym]:-} ]] &&
			breach "the exporter or the PROF format needs $sym, defined by the recorder's ${recorder_sym[$sym]}"
	done < <(nm -u "$lib/libnpuprof_export.a" "$lib/libnpuprof_prof.a" 2>/dev/null | awk 'NF == 2 { print $2 }' | sort -u)
	link_check="the report side's libraries need no recorder symbol"
fi

# No simulator header in product code.
sim_hdrs=$(cd sim && find . -name '*.h' | sed 's|^\./||; s|^include/||')
while IFS= read -r hit; do
	f=${hit%%:*}
	[[ $f == user/drv_npusim.c && $hit == *'<npusim_ioctl.h>'* ]] && continue
	breach "$hit: product code includes a simulator header"
done < <(for h in $sim_hdrs; do
		grep -rnE "^[[:space:]]*#[[:space:]]*include[[:space:]]*[\"<]([^\">]*/)?${h//./\\.}[\">]" \
			user kmod bpf tools wire --include='*.[ch]' || true
	done | sort -u)

# The build itself refuses: the recorder's headers are not on the path.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '#include <npuprof/session.h>\nint x;\n' >"$tmp/probe.c"
# shellcheck disable=SC2086 # the flags are words
if ${CC:-cc} $export_cflags -c "$tmp/probe.c" -o "$tmp/probe.o" 2>/dev/null; then
	breach "<npuprof/session.h> compiles with the exporter's flags ($export_cflags)"
fi
printf '#include <npuprof/slice.h>\nint x;\n' >"$tmp/probe.c"
# shellcheck disable=SC2086
${CC:-cc} $export_cflags -c "$tmp/probe.c" -o "$tmp/probe.o" ||
	breach "<npuprof/slice.h> (the PROF format) does not compile with the exporter's flags"

((bad)) && fail "the layers' include rules are broken (above)"
echo "layers: includes: $(wc -w <<<"$prof_srcs") PROF format sources, $(wc -w <<<"$export_srcs") exporter sources and npuprof-dump: no recorder header"
echo "layers: product code: no simulator header (but the npusim backend's ioctl header)"
echo "layers: build: a recorder header does not compile with the exporter's flags"
echo "layers: tests: every test that includes an exporter header is an export test"
echo "layers: links: $link_check"
