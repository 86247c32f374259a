#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The bash, zsh and fish completions, driven for real: bash-completion is
# sourced and _pcpctl called with COMP_WORDS/COMP_CWORD as bash sets them; zsh
# runs interactively in a pseudo terminal and completes on Tab (zsh-complete);
# fish completes each line with its own `complete -C`.
# What they offer is checked against the program itself: the commands of
# `pcpctl --help`, the options and columns of each command's --help, and for
# each command the options that pcpctl accepts (probed by running it against
# an empty --sysroot).
#
# Usage: completion.sh PCPCTL              the files in completions/
#        completion PCPCTL --installed  the files installed where bash-completion,
#                                       zsh and fish look for them (tests/doc/deb-install.sh)
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
pcpctl=$(realpath "$1")
installed=${2:-}
. "$(dirname "$(realpath "$0")")/../lib.sh"
workdir

need bash-completion zsh fish || { echo "FAIL cannot install bash-completion, zsh and fish"; exit 1; }

# --- what the program says -----------------------------------------------------
# pcpctl --help lists the commands; each command's --help its options (and
# show's the columns and zones).
help=$("$pcpctl" --help)
commands=$(sed -n '/^Commands:/,/^$/s/^ \([a-z]\+\)  .*/\1/p' <<<"$help" | sort)
for c in $commands; do
	help+=$'\n'$("$pcpctl" "$c" --help)
done
show_cols=$(sed -n '/^Columns of show:/,/^$/s/^ *\([A-Z][A-Z_]*\)  .*/\1/p' <<<"$help" | sort)
summary_cols=$(sed -n '/^Columns of show --summary:/,/^$/s/^ *\([A-Z][A-Z_]*\)  .*/\1/p' <<<"$help" | sort)
zones=$(sed -n 's/^ *--zone NAMES .*(\(.*\)).*/\1/p' <<<"$help" | tr -d ' ' | tr ',' '\n' | sort)
# Option lines: "--name" or "-x, --name", with a METAVAR or the list of its
# words (lower|higher) when it takes a value.
options=$(grep -oE '^ +(-[A-Za-z], )?--[a-z][a-z-]*( [A-Z]+| [a-z]+(\|[a-z]+)+)?' <<<"$help" |
	sed -E 's/^ +(-[A-Za-z], )?//' | sort -u)
[ -n "$commands" ] && [ -n "$show_cols" ] && [ -n "$summary_cols" ] && [ -n "$zones" ] &&
	[ -n "$options" ] && ok "--help lists commands, columns, zones and options" ||
	bad "cannot read commands, columns, zones or options from --help"

# accepted CMD: the long options CMD takes, found by trying each on an empty
# root (nothing there to read, so nothing runs, and nothing is written).
mkdir -p "$work/empty"
accepted() {
	local cmd=$1 name arg
	while read -r name arg; do
		(cd "$work" && "$pcpctl" --sysroot "$work/empty" "$cmd" "$name" ${arg:+1}) 2>&1 |
			grep -q 'does not take' || echo "$name"
	done <<<"$options"
}
all_long=$(cut -d' ' -f1 <<<"$options" | sort -u)

# --- the queries, asked of both shells --------------------------------------
mkdir -p "$work/tree"
: >"$work/afile"
cat >"$work/queries" <<'EOF'
pcpctl 
pcpctl --
pcpctl show --
pcpctl status --
pcpctl set --
pcpctl reset --
pcpctl rollback --
pcpctl sweep --
pcpctl --json st
pcpctl status --sysroot /tmp --j
pcpctl show -o 
pcpctl show -s -o 
pcpctl -s show --output=
pcpctl show -sJ -o 
pcpctl show -o NODE,Z
pcpctl show -o NODE,ZONE,
pcpctl show -o +hi
pcpctl show --summary --output MANAGED,BATCH_
pcpctl show --zone 
pcpctl show --zone Normal,d
pcpctl show --cpu 
pcpctl sweep --better 
pcpctl --sysroot 
pcpctl sweep --batch 1 --csv a
pcpctl sweep --fraction 8,16 --plot t
pcpctl sweep --batch 31:527:31 -- ech
pcpctl export --
pcpctl export --output a
pcpctl show --interval 1 --
pcpctl --interval=0.5 show -
pcpctl help --
pcpctl help 
pcpctl help set 
EOF
# --- bash ----------------------------------------------------------------------
# Split a line into COMP_WORDS as bash does (blanks separate words; "=" and
# ":" of COMP_WORDBREAKS are words of their own), call _pcpctl, print COMPREPLY.
bash_complete() {
	local line=$1 w='' c i
	COMP_WORDS=()
	for ((i = 0; i < ${#line}; i++)); do
		c=${line:i:1}
		case $c in
		' ') [ -n "$w" ] && COMP_WORDS+=("$w"); w='' ;;
		'=' | ':') [ -n "$w" ] && COMP_WORDS+=("$w"); w=''; COMP_WORDS+=("$c") ;;
		*) w+=$c ;;
		esac
	done
	case $line in *[=:]) ;; *) COMP_WORDS+=("$w") ;; esac
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMP_LINE=$line
	COMP_POINT=${#line}
	COMPREPLY=()
	_pcpctl pcpctl "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}" 2>/dev/null
	printf '%s\n' "${COMPREPLY[@]}" | sed '/^$/d' | sort -u
}

(
	# bash-completion wants an interactive-like shell: no nounset.
	set +u
	# shellcheck disable=SC1091
	. /usr/share/bash-completion/bash_completion
	if [ "$installed" = --installed ]; then
		# Load it the way bash-completion does on first Tab: from its completionsdir.
		_completion_loader pcpctl
	else
		# shellcheck disable=SC1091
		. "$src/completions/pcpctl.bash"
	fi
	complete -p pcpctl
	cd "$work" || exit 1
	while IFS= read -r q; do
		printf '%s\t%s\n' "$q" "$(bash_complete "$q" | tr '\n' ' ' | sed 's/ $//')"
	done
) <"$work/queries" >"$work/bash.out" 2>"$work/bash.err" &
# wait(a): the bash completions end; bound: the test's own (CTest's default 1500 s).
bash_pid=$!
wait $bash_pid
if grep -q -- '-F _pcpctl pcpctl' "$work/bash.out"; then
	ok "bash: complete -F _pcpctl pcpctl is registered${installed:+ (loaded by bash-completion)}"
else
	bad "bash: _pcpctl not registered"; sed 's/^/    /' "$work/bash.err" | head -5
fi

if [ "$installed" = --installed ]; then
	zdir=''
else
	zdir=$src/completions
fi
# wait(a): zsh ends after its queries; 1200 s.
# The bound only ends a zsh that hangs: each completion has 120 s of its own.
(cd "$work" && timeout 1200 zsh -f "$here/zsh-complete.zsh" "$zdir" "$work" <"$work/queries" \
	>"$work/zsh.out" 2>"$work/zsh.err")
[ -s "$work/zsh.out" ] && ok "zsh: completion ran in an interactive zsh" ||
	{ bad "zsh: no output"; sed 's/^/    /' "$work/zsh.err" | head -5; }
# A completion function that fails prints "function:line: message" on the
# terminal and may still add candidates, so the candidates alone miss it.
if errs=$(tr '\r' '\n' <"$work/zscreen" | grep -aE '^_[A-Za-z_]+:[0-9]+: '); then
	bad "zsh: completion functions printed errors:"; sed 's/^/    /' <<<"$errs" | sort -u | head -5
else
	ok "zsh: no completion function printed an error"
fi

# fish: the completion sourced, or once installed found in vendor_completions.d,
# which fish searches only with its configuration read (an empty home keeps
# the user's out); a candidate's description (after a tab) and a directory's
# trailing slash taken off, as the other shells show neither.
fish_file=$src/completions/pcpctl.fish
fish=(fish --no-config)
if [ "$installed" = --installed ]; then
	fish_file=''
	mkdir -p "$work/fishhome"
	fish=(env HOME="$work/fishhome" XDG_CONFIG_HOME="$work/fishhome" XDG_DATA_HOME="$work/fishhome" fish)
fi
(
	cd "$work" || exit 1
	while IFS= read -r q; do
		# shellcheck disable=SC2016 # fish expands $argv
		printf '%s\t%s\n' "$q" "$("${fish[@]}" -c \
			'test -n "$argv[1]"; and source $argv[1]; complete -C $argv[2]' "$fish_file" "$q" |
			cut -f1 | sed 's|/$||' | sort -u | tr '\n' ' ' | sed 's/ $//')"
	done
) <"$work/queries" >"$work/fish.out" 2>"$work/fish.err"
if [ -s "$work/fish.err" ]; then
	bad "fish: completion printed errors:"; sed 's/^/    /' "$work/fish.err" | head -5
else
	ok "fish: completion ran without an error"
fi

# got SHELL QUERY: the candidates, one per line, "--output=" taken off (zsh
# shows it, bash completes after it).
got() {
	grep -F -- "$2"$'\t' "$work/$1.out" | head -1 | cut -f2 | tr ' ' '\n' |
		sed 's/^--output=//; /^$/d' | sort -u
}
completes() { # completes SHELL NAME QUERY WANT
	local have
	have=$(got "$1" "$3")
	if [ "$have" = "$4" ]; then ok "$1: $2"; else
		bad "$1: $2"
		diff <(echo "$4") <(echo "$have") | sed -n 's/^[<>]/    &/p' | head -8
		echo "    (< expected, > offered)"
	fi
}
offers() { # offers SHELL NAME QUERY WORD
	if got "$1" "$3" | grep -qx -- "$4"; then ok "$1: $2"; else
		bad "$1: $2: no \"$4\" in: $(got "$1" "$3" | tr '\n' ' ')"
	fi
}
lacks() { # lacks SHELL NAME QUERY WORD
	if got "$1" "$3" | grep -qx -- "$4"; then bad "$1: $2: \"$4\" offered"; else ok "$1: $2"; fi
}

except() { grep -vxF -f <(tr ' ' '\n' <<<"$1") <<<"$2"; }
prefixed() { sed "s/^/$1/" <<<"$2" | sort; }

for sh in bash zsh fish; do
	completes $sh "commands match --help" 'pcpctl ' "$commands"
	completes $sh "without a command, every option of --help" 'pcpctl --' "$all_long"
	for c in show status set reset rollback sweep export help; do
		completes $sh "$c: exactly the options pcpctl $c accepts" "pcpctl $c --" "$(accepted $c | sort -u)"
	done
	completes $sh "a command after an option" 'pcpctl --json st' status
	completes $sh "help: the commands" 'pcpctl help ' "$commands"
	completes $sh "help COMMAND: nothing more" 'pcpctl help set ' ''

	completes $sh "an option after a command and its option argument" \
		'pcpctl status --sysroot /tmp --j' --json
	completes $sh "-o: the columns of show" 'pcpctl show -o ' "$show_cols"
	completes $sh "-s -o: the columns of show --summary" 'pcpctl show -s -o ' "$summary_cols"
	completes $sh "--output= after -s before the command: summary columns" \
		'pcpctl -s show --output=' "$summary_cols"
	completes $sh "-sJ (bundled) -o: summary columns" 'pcpctl show -sJ -o ' "$summary_cols"
	completes $sh "-o completes the last item of a comma list" 'pcpctl show -o NODE,Z' 'NODE,ZONE'
	completes $sh "-o leaves out the columns already listed" 'pcpctl show -o NODE,ZONE,' \
		"$(prefixed NODE,ZONE, "$(except 'NODE ZONE' "$show_cols")")"
	completes $sh "-o +LIST, any case" 'pcpctl show -o +hi' \
		"$(grep '^HIGH' <<<"$show_cols" | sed 's/^/+/')"
	completes $sh "--summary --output LIST,: summary columns" \
		'pcpctl show --summary --output MANAGED,BATCH_' \
		"$(grep '^BATCH_' <<<"$summary_cols" | sed 's/^/MANAGED,/')"
	completes $sh "--zone: the zones of --help" 'pcpctl show --zone ' "$zones"
	completes $sh "--zone: a comma list, any case" 'pcpctl show --zone Normal,d' \
		"$(grep -i '^d' <<<"$zones" | sed 's/^/Normal,/')"
	completes $sh "--cpu: nothing to offer" 'pcpctl show --cpu ' ''
	completes $sh "--better: the words of its --help" 'pcpctl sweep --better ' \
		"$(grep -oE '^ +--better [a-z|]+' <<<"$help" | sed 's/.* //' | tr '|' '\n' | sort)"
	offers $sh "--sysroot: directories" 'pcpctl --sysroot ' tree
	lacks $sh "--sysroot: no plain files" 'pcpctl --sysroot ' afile
	offers $sh "--csv: files" 'pcpctl sweep --batch 1 --csv a' afile
	offers $sh "--plot: files and directories" 'pcpctl sweep --fraction 8,16 --plot t' tree
	offers $sh "sweep -- COMMAND: command names" 'pcpctl sweep --batch 31:527:31 -- ech' echo
	offers $sh "export --output: files" 'pcpctl export --output a' afile
	# wait(c): not a wait: --interval here is query text; nothing runs.
	for q in 'pcpctl show --interval 1 --' 'pcpctl --interval=0.5 show -'; do
		for o in --raw --pairs --output --output-all --interval; do
			lacks $sh "$q: no $o, which --interval refuses" "$q" $o
		done
		for o in --json --noheadings --count --per-cpu --zone; do
			offers $sh "$q: $o" "$q" $o
		done
	done
done

# zsh describes each command in the words of pcpctl --help.
if [ "$installed" = --installed ]; then
	zfile=$(find /usr/share/zsh /usr/local/share/zsh -name _pcpctl 2>/dev/null | head -1)
else
	zfile=$src/completions/_pcpctl
fi
zdescs=$(sed -n "s/^    '\([a-z]*\):\(.*\)'\$/\1 \2/p" "$zfile" | sed "s/'\\\\''/'/g" | sort)
hdescs=$(sed -n '/^Commands:/,/^$/s/^ \([a-z]\+\)  \+\(.*\)/\1 \2/p' <<<"$help" | sort)
if [ -n "$zdescs" ] && [ "$zdescs" = "$hdescs" ]; then
	ok "zsh: the commands' descriptions are those of --help"
else
	bad "zsh: the commands' descriptions differ from --help"
	diff <(echo "$hdescs") <(echo "$zdescs") | sed -n 's/^[<>]/    &/p' | head -8
fi

finish
