#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Description: every option msprof --help lists (its parser's table) is an
# item of msprof.1's OPTIONS, with its fixed values spelled as the code
# takes them, and is what the bash completion offers, with the same values;
# and neither names an option msprof does not accept.  So the man page and
# the completion cannot drift from tools/msprof/options.c.
source "$(dirname "$0")/lib.bash"
need_msprof
source completion/msprof.bash

# The tags of the .TP items of msprof.1's OPTIONS section, as rendered
# ("--task-time={on|off|l0|l1}"): font macros' arguments joined as roff
# joins them (alternating macros without blanks), escapes dropped.
man_option_tags() {
	awk '
	/^\.SH / { in_opts = ($2 == "OPTIONS"); next }
	!in_opts { next }
	/^\.TP/ { tag = 1; next }
	!tag { next }
	{
		tag = 0
		line = $0
		gsub(/\\-/, "-", line); gsub(/\\c$/, "", line); gsub(/\\f[A-Z]/, "", line)
		if (!sub(/^\.[A-Z]+ /, "", line)) { print line; next }
		macro = $1
		out = ""
		while (line != "") {
			if (substr(line, 1, 1) == "\"") {
				match(line, /^"[^"]*"/)
				arg = substr(line, 2, RLENGTH - 2)
			} else {
				match(line, /^[^ ]+/)
				arg = substr(line, 1, RLENGTH)
			}
			line = substr(line, RLENGTH + 1)
			sub(/^ +/, "", line)
			out = out ((macro == ".B" || macro == ".I") && out != "" ? " " : "") arg
		}
		print out
	}' man/msprof.1
}

help=$(msprof_help_options)
[[ $(wc -l <<<"$help") -ge 10 ]] || fail "msprof --help lists too few options: $help"

tags=$(man_option_tags)
names=$(cut -d' ' -f1 <<<"$help" | LC_ALL=C sort)
man_names=$(sed -n 's/^--\([a-z-]*\).*/\1/p' <<<"$tags" | LC_ALL=C sort)
[[ $names == "$man_names" ]] ||
	fail "msprof.1 OPTIONS items differ from msprof --help: $(diff <(echo "$names") <(echo "$man_names") | grep '^[<>]' | tr '\n' ' ')"

while read -r name takes vals; do
	tag=$(grep -m1 "^--$name[={ ]\|^--$name\$" <<<"$tags")
	# fixed values in the tag, unless it points to another option ("...")
	if [[ $vals != - && $tag != *... ]]; then
		want="--$name={${vals// /|}}"
		[[ $vals == *" "* ]] || want="--$name=$vals"
		[[ $tag == "$want" ]] || fail "msprof.1: item '$tag', want '$want'"
	fi
	[[ $takes == 0 || $tag == --$name=* ]] || fail "msprof.1: item '$tag' does not show a value"
	# the completion: the option itself, and its values
	want=--$name
	((takes)) && want+==
	msprof_complete msprof "--$name" | grep -qx -- "$want" || fail "completion does not offer $want"
	[[ $vals == - ]] || expect_words "$vals" msprof_complete msprof "--$name" = ""
done <<<"$help"

want=$(awk '{ print "--" $1 ($2 == 1 ? "=" : "") }' <<<"$help")
expect_words "$want" msprof_complete msprof --
echo "$(wc -l <<<"$help") options: in msprof.1 and the completion, with their values"
