#!/usr/bin/env bash
# msprof's outcomes when the job's libascendcl.so lacks functions or the
# kernel refuses its uprobes (see guest/acl_outcomes.sh), in the VM.
set -u
cd "$(dirname "$0")/../.."
mkdir -p build/e2e
out=$(mktemp -d "$PWD/build/e2e/acl_outcomes.XXXXXX")
scripts/vm-run.sh --rw "$out" --timeout 300 -- tests/e2e/guest/acl_outcomes.sh "$out"
