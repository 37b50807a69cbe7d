# Shared by the VM test wrappers (sourced): the programs a suite runs are
# built by `make tests` (tests/vm/*.c -> build/tests/vm/*) and the modules
# by `make modules` (build/kmod/*.ko); the wrapper only checks they are
# there and runs them in one VM boot with tests/vm/guest/run-suite.
set -u
cd "$(dirname "$0")/../.." || exit 1

# vm_built PATH: PATH (build/...) as the guest will see it exists.  With
# NPUPROF_VM_TARGET=T, scripts/vm-run.sh puts each top-level directory of
# build/target/T/ over build/<same name>; the file is looked for there.
vm_built() {
	local top=${1#build/}
	top=${top%%/*}
	local t=build/target/${NPUPROF_VM_TARGET:-none}
	if [[ -d $t/$top ]]; then
		[[ -e $t/${1#build/} ]]
	else
		[[ -e $1 ]]
	fi
}

# vm_suite LABEL VM_TIMEOUT_S PREP NAME...: PREP is a guest shell command
# run first (e.g. loading a module, or ":"); NAMEs are build/tests/vm
# programs, each given 120 s.
vm_suite() {
	local label=$1 limit=$2 prep=$3 progs=() n
	shift 3
	for n in "$@"; do
		vm_built "build/tests/vm/$n" || { echo "build/tests/vm/$n missing: run make" >&2; exit 1; }
		progs+=("build/tests/vm/$n")
	done
	scripts/vm-run.sh --timeout "$limit" --smp "${VM_SMP:-2}" -- \
		"$prep && tests/vm/guest/run-suite $label 120 ${progs[*]}"
}

# The suite's programs: build/tests/vm/PREFIX*, or the names given.
suite_names() {
	local prefix=$1
	shift
	if (($#)); then
		printf '%s\n' "$@"
	else
		ls tests/vm/"$prefix"*.c | sed 's|.*/||; s|\.c$||'
	fi
}
