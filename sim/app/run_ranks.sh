#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# The "wrapper script starts the ranks" form of a multi-process job, as the
# run.sh of many training jobs does it: start N ranks of the sample AI task
# with &, rank r as
#     RANK=r LOCAL_RANK=r WORLD_SIZE=N ai_task --rank=r --device=D+r [OPTION]...
# and wait for all of them.  (ai_task --ranks=N is the same job started by a
# launcher program instead.)  make installs this script next to ai_task.
#
#   run_ranks.sh N [AI_TASK OPTION]...
#
# N is 1..64; D is the value of a --device=D among the options (0 if none),
# the other options go to every rank unchanged.  SIGINT or SIGTERM sends
# SIGTERM to the ranks still running (ranks started with & ignore SIGINT).
# Exit status: 0 when every rank exited 0; 1 when one did not (each such
# rank named on stderr); 2 bad usage.
# Environment: AI_TASK, the program to run (default: ai_task beside this
# script).

set -u
me=run_ranks.sh
app=${AI_TASK:-$(dirname "$0")/ai_task}

usage() {
	echo "$me: $1" >&2
	echo "usage: $me N [AI_TASK OPTION]...   (N ranks, 1..64; see ai_task --help)" >&2
	exit 2
}

(($#)) || usage "no rank count given"
if ! [[ $1 =~ ^[0-9]+$ ]] || (($1 < 1 || $1 > 64)); then
	usage "$1: expected a rank count from 1 to 64"
fi
n=$1
shift
base=0
opts=()
for a in "$@"; do
	case $a in
	--device=*) base=${a#--device=}
		[[ $base =~ ^[0-9]+$ ]] || usage "$a: expected a device id" ;;
	--device) usage "--device: write it as --device=D" ;;
	--rank=* | --ranks=* | --spawn=* | --devices=*)
		usage "${a%%=*}: not for ranks this script starts (it gives rank r --rank=r --device=D+r)" ;;
	*) opts+=("$a") ;;
	esac
done
[[ -x $app ]] || usage "$app: no such program; set AI_TASK or install $me next to ai_task"

signals=0
pids=()
# shellcheck disable=SC2317 # run by the trap
stop_ranks() {
	signals=$((signals + 1))
	kill -TERM "${pids[@]}" 2>/dev/null
}
trap stop_ranks INT TERM

for ((r = 0; r < n; r++)); do
	RANK=$r LOCAL_RANK=$r WORLD_SIZE=$n "$app" --rank="$r" --device=$((base + r)) "${opts[@]}" &
	pids+=($!)
done

# The exit status of rank $1; a wait cut short by a trapped signal is
# waited again (bash keeps the status of a rank that ended meanwhile).
rank_status() {
	local seen st
	while :; do
		seen=$signals
		wait "${pids[$1]}"
		st=$?
		((signals == seen)) && return "$st"
	done
}

failed=0
for ((r = 0; r < n; r++)); do
	rank_status "$r"
	st=$?
	((st == 0)) && continue
	failed=1
	why="exit status $st"
	# bash reports death by signal S as 128+S
	((st > 128)) && sig=$(kill -l $((st - 128)) 2>/dev/null) && why+=" (SIG$sig?)"
	echo "$me: rank $r (pid ${pids[r]}, device $((base + r))) failed: $why" >&2
done
exit "$failed"
