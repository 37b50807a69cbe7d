#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Description: the man pages (man/*.1) format without a single warning
# from groff (-ww: every warning) nor from mandoc -Tlint, and there is one
# for each installed tool (msprof, npuprof-dump).
source "$(dirname "$0")/lib.bash"
command -v groff >/dev/null || skip "groff is not installed (scripts/install-deps.sh)"
linters="groff -ww"
command -v mandoc >/dev/null && linters+=" and mandoc -Tlint"

for tool in msprof npuprof-dump; do
	[[ -f man/$tool.1 ]] || fail "no man page man/$tool.1"
done
for page in man/*.1; do
	out=$(groff -man -Tutf8 -ww -z "$page" 2>&1)
	[[ -z $out ]] || fail "groff: $page: $out"
	if [[ $linters == *mandoc* ]]; then
		out=$(mandoc -Tlint "$page" 2>&1)
		[[ -z $out ]] || fail "mandoc: $page: $out"
	fi
	# the page's name line is what man -k (apropos) indexes
	name=$(basename "$page" .1)
	grep -qx "${name//-/\\\\-} \\\\- .*" "$page" || fail "$page: no NAME line '$name \\- ...'"
done
echo "man pages: $(ls man/*.1 | wc -l), clean under $linters"
