#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Description: msprof's bash completion (completion/msprof.bash) offers
# exactly the expected candidates: options by prefix, values after an
# abbreviated option, pids for --pid (each element of a list), directories
# for --output and files for --result and --application, with '=' in
# COMP_WORDBREAKS and without; and leaves the launched command's words to
# command completion.  (tests/host/msprof_options_documented.sh checks the
# lists against msprof --help.)
source "$(dirname "$0")/lib.bash"
source completion/msprof.bash

tmp=$(mktemp -d)
sleep 60 &
sleeper=$!
trap 'kill $sleeper 2>/dev/null; rm -rf "$tmp"' EXIT
mkdir "$tmp/a" "$tmp/b"
: >"$tmp/f"

expect_words '--delay= --duration= --dynamic=' msprof_complete msprof --d
expect_words '--task-time= --task-trace= --type=' msprof_complete msprof --t
expect_words '--help' msprof_complete msprof --h
# a prefix of an option and its alias takes their values
expect_words 'on off l0 l1' msprof_complete msprof --tas = ""
expect_words 'off' msprof_complete msprof --dynamic = on --ex = of
expect_words '' msprof_complete msprof --delay = ""
expect_words '' msprof_complete msprof --no-such = ""
expect_words "$tmp/a $tmp/b" msprof_complete msprof --output = "$tmp/"
expect_words "$tmp/a $tmp/b $tmp/f" msprof_complete msprof --result = "$tmp/"
expect_words "$tmp/f" msprof_complete msprof --application = "$tmp/f"

# --pid: every candidate is a live pid with the typed digits, after the
# elements already given
got=$(msprof_complete msprof --pid = "1,$sleeper")
grep -qx "1,$sleeper" <<<"$got" || fail "--pid=1,$sleeper: $sleeper not offered: [$got]"
bad=$(grep -vx "1,$sleeper[0-9]*" <<<"$got")
[[ -z $bad ]] || fail "--pid=1,$sleeper: offered $bad"

# the launched command: nothing of msprof's (bash's default completion)...
expect_words '' msprof_complete msprof --dynamic = on ./train.sh --ep
expect_words '' msprof_complete msprof -- --d
# ...or bash-completion's command completion, from the command's first word
_command_offset() { COMPREPLY=("offset=$1"); }
expect_words 'offset=4' msprof_complete msprof --dynamic = on ./train.sh --ep
expect_words 'offset=2' msprof_complete msprof -- --d
expect_words 'offset=1' msprof_complete msprof ./tr
unset -f _command_offset

# without '=' in COMP_WORDBREAKS the word is whole, and so are candidates
COMP_WORDBREAKS=$' \t\n'
expect_words '--export=off --export=on' msprof_complete msprof --export=o
expect_words '--task-trace=l0 --task-trace=l1' msprof_complete msprof --task-trace=l
got=$(msprof_complete msprof "--pid=$sleeper")
grep -qx -- "--pid=$sleeper" <<<"$got" || fail "--pid=$sleeper (whole word): not offered: [$got]"
echo "completion: every case as expected"
