# Shared by the end-to-end tests (sourced): run a capture in the VM, export
# it on the host, check it against the app's own counts and the documented
# PROF_XXX layout.
set -u
cd "$(dirname "$0")/../.."
shared_checker=../shared/checks/check_prof.py

# e2e_run MODE APP_ARGS...: prints the output directory on success.
e2e_run() {
	local mode=$1
	# out stays set for the caller's own checks
	shift
	mkdir -p build/e2e
	out=$(mktemp -d "$PWD/build/e2e/$mode.XXXXXX")
	echo "output: $out"
	scripts/vm-run.sh --rw "$out" --timeout 600 -- scripts/guest-capture.sh "$mode" "$out" "$@" ||
		{ echo "capture in the VM failed"; cat "$out"/msprof.* 2>/dev/null; return 1; }
	echo "--- msprof output"
	cat "$out/msprof.log" "$out/msprof.err"
	build/bin/msprof --export=on --output="$out" || { echo "export failed"; return 1; }
	python3 tests/e2e/check_capture.py "$out" ${E2E_PROCS:-} || return 1
	if [[ -f $shared_checker ]]; then
		python3 "$shared_checker" "$out" || return 1
	else
		echo "note: $shared_checker not found; layout check skipped"
	fi
}
