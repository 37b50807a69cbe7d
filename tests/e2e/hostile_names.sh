#!/usr/bin/env bash
# Names are bytes (issue 6): msprof launches an app whose kernels are named
# Mat"Mul, back\slash, x,y, <01>ctl, bad<ff><fe>utf and n<c3><a4>me and
# which calls itself names<ff><01> (tests/vm/helper_names_app.c).  The
# export succeeds; the timeline, every CSV, the console summary,
# npuprof-dump and info.json carry each name as its exact text
# (check_names.py, Python's json and csv); the layout checker finds nothing.
source "$(dirname "$0")/lib.bash"
export E2E_APP=build/tests/vm/helper_names_app E2E_BEFORE=2 E2E_WINDOW=2
e2e_capture launch 6 || exit 1
build/bin/msprof --export=on --output="$out" >"$out/export.log" ||
	{ echo "export failed"; cat "$out/export.log"; exit 1; }
cat "$out/export.log"
python3 tests/e2e/check_names.py "$out" --comm 'names\xff\x01' --console "$out/export.log" || exit 1
e2e_layout "$out"
