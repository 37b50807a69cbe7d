# SPDX-License-Identifier: MIT
# bash completion for npuprof's msprof: its options, their values, pids for
# --pid, paths for --output, --application and --result, and the command
# msprof launches.  Installed as $(DATADIR)/bash-completion/completions/msprof
# and loaded on first use; it needs no helper from bash-completion, and
# hands the launched command to bash-completion's _command_offset when that
# is loaded.
#
# The options and values below are those `msprof --help` prints
# (tools/msprof/options.c); tests/host/completion.sh fails when they differ.

_npuprof_msprof_opts='--dynamic= --pid= --require-server= --output= --ascendcl= --runtime-api= --task-time= --task-trace= --export= --type= --query= --check= --application= --delay= --duration= --storage-limit= --result= --help'

# The option NAME (without "--") stands for: NAME itself, or the one option
# it is a prefix of, as msprof takes unique prefixes (an alias and its
# option count once: --task-trace is --task-time).  Prints nothing when it
# names none or several.
_npuprof_msprof_option()
{
	local o hit=
	for o in $_npuprof_msprof_opts; do
		o=${o#--}
		o=${o%=}
		[[ $o == "$1" ]] && { echo "$o"; return; }
		if [[ $o == "$1"* ]]; then
			o=${o/#task-trace/task-time}
			[[ $hit && $hit != "$o" ]] && return
			hit=$o
		fi
	done
	[[ $hit ]] && echo "$hit"
}

# Candidates for the value VAL of option OPT, into COMPREPLY.
_npuprof_msprof_values()
{
	local opt=$1 val=$2 head p
	local -a pids=()
	case $opt in
	dynamic | ascendcl | runtime-api | require-server | export | query | check)
		COMPREPLY=($(compgen -W 'on off' -- "$val")) ;;
	task-time | task-trace)
		COMPREPLY=($(compgen -W 'on off l0 l1' -- "$val")) ;;
	type)
		COMPREPLY=($(compgen -W 'text db' -- "$val")) ;;
	pid)
		# a list: complete its last element, keep the ones before
		[[ $val == *,* ]] && head=${val%,*},
		for p in /proc/[0-9]*; do
			pids+=("${p#/proc/}")
		done
		COMPREPLY=($(compgen -P "$head" -W "${pids[*]}" -- "${val##*,}")) ;;
	storage-limit)
		COMPREPLY=($(compgen -W '200MB' -- "$val")) ;;
	output)
		compopt -o filenames 2>/dev/null
		COMPREPLY=($(compgen -d -- "$val")) ;;
	application | result)
		compopt -o filenames 2>/dev/null
		COMPREPLY=($(compgen -f -- "$val")) ;;
	*)
		COMPREPLY=() ;; # --delay, --duration: whole seconds
	esac
}

_npuprof_msprof()
{
	local -a words=() at=()
	local i n=${#COMP_WORDS[@]} cword=0 cur opt
	COMPREPLY=()

	# Where '=' is in COMP_WORDBREAKS (the default), bash splits
	# "--pid=12" into "--pid" "=" "12": join them back.  at[]: the index
	# in COMP_WORDS where each joined word starts.
	for ((i = 0; i < n; i++)); do
		if [[ ${COMP_WORDS[i]} == = && ${#words[@]} -gt 1 && ${words[-1]} == --?* &&
			${words[-1]} != *=* ]]; then
			words[-1]+==
			if ((i < COMP_CWORD && i + 1 < n)); then
				((i++))
				words[-1]+=${COMP_WORDS[i]}
			fi
		else
			words+=("${COMP_WORDS[i]}")
			at+=("$i")
		fi
		((i <= COMP_CWORD)) && cword=$((${#words[@]} - 1))
	done
	cur=${words[cword]-}

	# The launched command starts at the first word that is not an
	# option, or after "--"; its words are completed as a command's.
	local app=
	for ((i = 1; i < cword; i++)); do
		[[ ${words[i]} == -- ]] && { app=$((i + 1)); break; }
		[[ ${words[i]} == --* ]] || { app=$i; break; }
	done
	[[ ! $app && -n $cur && $cur != -* ]] && app=$cword
	if [[ $app ]]; then
		if declare -F _command_offset >/dev/null; then
			_command_offset "${at[app]}"
		else
			compopt -o default 2>/dev/null
		fi
		return
	fi

	if [[ $cur == --*=* ]]; then
		opt=${cur%%=*}
		opt=$(_npuprof_msprof_option "${opt#--}")
		[[ $opt ]] || return
		_npuprof_msprof_values "$opt" "${cur#*=}"
		# readline replaces only what follows the '=' when '=' breaks words
		[[ $COMP_WORDBREAKS == *=* ]] || COMPREPLY=("${COMPREPLY[@]/#/${cur%%=*}=}")
		return
	fi
	COMPREPLY=($(compgen -W "$_npuprof_msprof_opts" -- "$cur"))
	[[ ${#COMPREPLY[@]} == 1 && ${COMPREPLY[0]} == *= ]] && compopt -o nospace 2>/dev/null
}

complete -F _npuprof_msprof msprof
