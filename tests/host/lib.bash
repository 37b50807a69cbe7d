# SPDX-License-Identifier: MIT
# Helpers of the host shell tests (tests/host/*.sh): tests that need no VM
# and run in seconds, with the unit tests (tests/run.sh --unit).  Sourced,
# not run; it moves to the repository root.
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
BUILD=${BUILD:-build}
MSPROF=$BUILD/bin/msprof

fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*"; exit 77; }

need_msprof() {
	[[ -x $MSPROF ]] || skip "$MSPROF is not built (make tools)"
}

# The options msprof accepts, from its --help (the option table of
# tools/msprof/options.c), one per line: NAME TAKES_VALUE VALUES, where
# VALUES is the value list when the option takes one of fixed words
# ("on off"), else "-".  An alias ("msprof's alias of --X") gets X's values.
msprof_help_options() {
	"$MSPROF" --help | awk '
	!/^  --[a-z]/ { next }
	{
		line = substr($0, 5)
		match(line, /^[a-z-]+/)
		name = substr(line, 1, RLENGTH)
		rest = substr(line, RLENGTH + 1)
		takes = substr(rest, 1, 1) == "=" ? 1 : 0
		spec = substr(rest, 2)
		sub(/  .*/, "", spec)
		vals = "-"
		if (takes && spec ~ /^[a-z0-9]+(\|[a-z0-9]+)*$/) {
			vals = spec
			gsub(/\|/, " ", vals)
		}
		if (match(rest, /alias of --[a-z-]+/))
			alias[name] = substr(rest, RSTART + 11, RLENGTH - 11)
		order[++n] = name; tk[name] = takes; v[name] = vals
	}
	END {
		for (i = 1; i <= n; i++) {
			name = order[i]
			if (name in alias) v[name] = v[alias[name]]
			print name, tk[name], v[name]
		}
	}'
}

# The candidates msprof's bash completion offers, one per line, sorted:
# the arguments are COMP_WORDS as bash splits the line (with '=' in
# COMP_WORDBREAKS, "--pid=1" is "--pid" "=" "1"), the last being the word
# under the cursor.  Source completion/msprof.bash first.
msprof_complete() {
	local COMP_WORDS=("$@") COMP_CWORD=$(($# - 1)) COMP_LINE="$*" COMP_POINT COMPREPLY=()
	COMP_POINT=${#COMP_LINE}
	_npuprof_msprof msprof
	((${#COMPREPLY[@]})) && printf '%s\n' "${COMPREPLY[@]}" | LC_ALL=C sort
}

# Fail unless the output of "$@" (sorted lines) is the words of $1.
expect_words() {
	local want=$1 got
	shift
	got=$("$@" | tr '\n' ' ')
	want=$(tr ' ' '\n' <<<"$want" | grep -v '^$' | LC_ALL=C sort | tr '\n' ' ')
	[[ $got == "$want" ]] || fail "$*: got [${got% }], want [${want% }]"
}
