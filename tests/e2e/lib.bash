# Shared by the end-to-end tests (sourced): run a capture in the VM, export
# it on the host, check it against the app's own counts and the documented
# PROF_XXX layout.
set -u
cd "$(dirname "$0")/../.."
shared_checker=../shared/checks/check_prof.py

# e2e_capture MODE APP_ARGS...: the capture alone, into a new directory
# $out (it stays set for the caller's own checks).
e2e_capture() {
	local mode=$1
	shift
	mkdir -p build/e2e
	out=$(mktemp -d "$PWD/build/e2e/$mode.XXXXXX")
	echo "output: $out"
	scripts/vm-run.sh --rw "$out" --timeout 600 -- scripts/guest-capture.sh "$mode" "$out" "$@" ||
		{ echo "capture in the VM failed"; cat "$out"/msprof.* 2>/dev/null; return 1; }
	echo "--- msprof output"
	cat "$out/msprof.log" "$out/msprof.err"
}

# e2e_layout DIR: the PROF dirs in DIR against the documented layout.
e2e_layout() {
	if [[ -f $shared_checker ]]; then
		python3 "$shared_checker" "$1"
	else
		echo "note: $shared_checker not found; layout check skipped"
	fi
}

# e2e_run MODE APP_ARGS...: capture, export, check against the sample
# app's counts and the layout checker.
e2e_run() {
	e2e_capture "$@" || return 1
	build/bin/msprof --export=on --output="$out" || { echo "export failed"; return 1; }
	python3 tests/e2e/check_capture.py "$out" ${E2E_PROCS:-} || return 1
	e2e_layout "$out"
}

# e2e_task_path_bpf: after a capture without npuprof.ko (E2E_KMOD=0),
# msprof's log in $out says once that device tasks went through BPF, and why.
e2e_task_path_bpf() {
	local line="npuprof.ko not loaded (no /dev/npuprof); capturing device tasks through BPF"
	[[ $(grep -cF -- "$line" "$out/msprof.log") == 1 ]] ||
		{ echo "msprof.log lacks, once: $line"; return 1; }
	echo "ok: $line"
}
