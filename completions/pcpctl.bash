# SPDX-License-Identifier: GPL-2.0-or-later
# bash completion for pcpctl(8)                           -*- shell-script -*-
#
# Options may stand before or after the command (popt reorders them); each
# command is offered only the options it accepts.  Column names for
# -o/--output and zone names for --zone complete as comma lists.

# Complete the last item of a comma list in $cur from the words given,
# leaving out items already in the list; matching ignores case, as pcpctl does.
_pcpctl_comma_list()
{
	local item=${cur##*,}
	local head=${cur%"$item"} plus=''
	local w
	if [[ -z $head && $item == +* && $1 == --plus ]]; then
		plus=+
		item=${item#+}
	fi
	[[ $1 == --plus ]] && shift
	COMPREPLY=()
	for w in "$@"; do
		[[ ,${head#+},${plus}, == *,"$w",* ]] && continue
		[[ ${w,,} == "${item,,}"* ]] && COMPREPLY+=("$plus$head$w")
	done
	compopt -o nospace
}

_pcpctl()
{
	local cur prev words cword split
	# Keep START:STOP:STEP (sweep) and --opt=value together.
	_init_completion -s -n : || return

	local -a show_cols=(NODE ZONE CPU COUNT HIGH BATCH HIGH_MIN HIGH_MAX)
	local -a summary_cols=(NODE ZONE CPUS PAGES MAXCOUNT MIB BATCH HIGH FREE_PCT MANAGED
		BATCH_MIN BATCH_MAX HIGH_LO HIGH_HI)
	local -a zones=(DMA DMA32 Normal HighMem Movable Device)
	local commands='show status set reset rollback sweep compare plot export help'
	# Options that take an argument, as they can be spelt in a separate word.
	local with_arg='@(-o|--output|--node|--zone|--cpu|--sysroot|--batch|--fraction|--tasks|--duration|--warmup|--runs|--metric|--metric-json|--metric-unit|--netns|--better|--csv|--plot|--workload-log|--user|--with-batch|--with-fraction|--label|--precision|--max-duration|--interval|--count)'

	# Find the command, whether -s/--summary or --interval was given, and "--"
	# (sweep's COMMAND).
	local cmd='' summary='' interval='' i w skip=''
	for ((i = 1; i < cword; i++)); do
		w=${words[i]}
		if [[ $skip ]]; then
			skip=''
			continue
		fi
		case $w in
		--) break ;;
		--summary) summary=1 ;;
		--interval | --interval=*)
			interval=1
			[[ $w == --interval ]] && skip=1
			;;
		--*=*) ;;
		$with_arg) skip=1 ;;
		--*) ;;
		-*)
			# Bundled short options such as -sJ, or -Jo followed by its LIST.
			[[ $w =~ ^-[JrPnVh]*s ]] && summary=1
			[[ $w =~ ^-[JrPnsVh]*o$ ]] && skip=1
			;;
		*) [[ -z $cmd ]] && cmd=$w ;;
		esac
	done

	if [[ $cmd == sweep ]]; then
		for ((i = 1; i < COMP_CWORD; i++)); do
			if [[ ${COMP_WORDS[i]} == -- ]]; then
				_command_offset $((i + 1))
				return
			fi
		done
	fi

	case $prev in
	-o | --output)
		# export and plot write a file; show takes columns.
		if [[ $cmd == export || $cmd == plot ]]; then
			_filedir
		elif [[ $summary ]]; then
			_pcpctl_comma_list --plus "${summary_cols[@]}"
		else
			_pcpctl_comma_list --plus "${show_cols[@]}"
		fi
		return
		;;
	--zone)
		_pcpctl_comma_list "${zones[@]}"
		return
		;;
	--sysroot)
		_filedir -d
		return
		;;
	--csv | --plot | --workload-log)
		_filedir
		return
		;;
	--user)
		COMPREPLY=($(compgen -u -- "$cur"))
		return
		;;
	--netns)
		COMPREPLY=($(compgen -W "$(ip netns list 2>/dev/null | cut -d' ' -f1)" -- "$cur"))
		return
		;;
	--better)
		COMPREPLY=($(compgen -W "lower higher" -- "$cur"))
		return
		;;
	--node | --cpu | --batch | --fraction | --tasks | --duration | --warmup | --runs | --metric | --metric-json | --metric-unit | \
	--interval | --count | --label | --with-batch | --with-fraction | --precision | --max-duration)
		# Numbers, lists and a regular expression: nothing to offer.
		return
		;;
	esac
	[[ $split == true ]] && return

	local -a common=(-J --json --sysroot -h --help -V --version)
	local -a opts
	case $cmd in
	show)
		if [[ $interval ]]; then
			# --interval prints fixed columns as a table or JSON.
			opts=(-n --noheadings --node --zone --cpu -s --summary --per-cpu --count)
		else
			opts=(-r --raw -P --pairs -o --output --output-all -n --noheadings --node
				--zone --cpu -s --summary --per-cpu --interval --count)
		fi
		;;
	status) opts=() ;;
	rollback) opts=(--discard) ;;
	set) opts=(--batch --fraction --dry-run --persist --persist-only) ;;
	reset) opts=(--dry-run --persist --persist-only) ;;
	compare) opts=(--label --csv --partial) ;;
	plot)
		# An SVG file only: no --json.
		common=(--sysroot -h --help -V --version)
		opts=(-o --output --label)
		;;
	sweep) opts=(--batch --fraction --tasks --duration --warmup --runs --metric --metric-last --metric-json --metric-unit --better --csv --plot --netns
		--workload-log --user --with-batch --with-fraction --precision --max-duration --dry-run) ;;
	export)
		# Prometheus text only: no --json.
		common=(--sysroot -h --help -V --version)
		opts=(-o --output --per-cpu)
		;;
	help)
		# The help of pcpctl or of one command: printed text, no --json.
		common=(--sysroot -h --help -V --version)
		opts=()
		if [[ $cur != -* ]]; then
			local n=0
			for ((i = 1; i < cword; i++)); do
				[[ ${words[i]} != -* ]] && n=$((n + 1))
			done
			# "help" itself is the one word so far: one command to name
			((n == 1)) && COMPREPLY=($(compgen -W "$commands" -- "$cur"))
			return
		fi
		;;
	'')
		if [[ $cur != -* ]]; then
			COMPREPLY=($(compgen -W "$commands" -- "$cur"))
			return
		fi
		# No command yet: options may come first, so offer all of them.
		opts=(-r --raw -P --pairs -o --output --output-all -n --noheadings --node --zone
			--cpu -s --summary --per-cpu --interval --count --batch --fraction --dry-run
			--persist --persist-only --discard --tasks --duration --warmup --runs --metric
			--metric-last --metric-json --metric-unit --better --csv --plot --workload-log
			--user --netns --with-batch
			--with-fraction --label --precision --max-duration --partial)
		;;
	*) return ;;
	esac
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "${common[*]} ${opts[*]}" -- "$cur"))
		[[ ${COMPREPLY-} == *= ]] && compopt -o nospace
	elif [[ $cmd == compare || $cmd == plot ]]; then
		_filedir json
	fi
} &&
	complete -F _pcpctl pcpctl

# ex: filetype=sh
