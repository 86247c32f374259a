#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The tables of show on a terminal (script(1) gives pcpctl one): each as wide
# as its cells, every line within the terminal's width (COLUMNS first, else
# the terminal's own), the least needed columns left out in the man page's
# order with a note that names them, and nothing left out of a pipe, --raw,
# --pairs or --json.
# Usage: width.sh PCPCTL
set -u
pcpctl=$(realpath "$1")
. "$(dirname "$(realpath "$0")")/../lib.sh"
workdir

sysroot_tree "$work/t618" live-6.18-2cpu.zoneinfo --release 6.18.44-fc-v657 --page-kib 0 --nodes "" percpu_pagelist_high_fraction=0 >/dev/null
sysroot_tree "$work/t612" debian-6.12-4cpu-2node.zoneinfo --release 6.12.117 --page-kib 0 --nodes "" percpu_pagelist_high_fraction=0 >/dev/null
sysroot_tree "$work/t414" synthetic-4.14-2node-sparse.zoneinfo --release 4.14.336 --page-kib 0 --nodes "" percpu_pagelist_fraction=0 >/dev/null

# on_tty COLS ENV... -- ARGS...: pcpctl on a pseudo-terminal of COLS columns,
# stdout and stderr both (a terminal has one screen), with the environment ENV
# (COLUMNS is unset unless ENV sets it).
on_tty() {
	local cols=$1 env=()
	shift
	while [ "$1" != -- ]; do
		env+=("$1")
		shift
	done
	shift
	script -qec "stty cols $cols; env -u COLUMNS ${env[*]} $(printf '%q ' "$pcpctl" "$@")" \
		/dev/null | tr -d '\r'
}

# only_rows ARGS...: ARGS without the choice of columns (--output-all, -o LIST).
only_rows() {
	while [ $# -gt 0 ]; do
		case $1 in
		--output-all) ;;
		-o) shift ;;
		*) echo "$1" ;;
		esac
		shift
	done
}

# fits NAME WIDTH TREE ARGS...: the table of ARGS on a terminal WIDTH wide.
fits() {
	local name=$1 width=$2 t=$3 cols=$2 env=()
	shift 3
	# "60c": COLUMNS=60 on a terminal 200 wide, which COLUMNS must win over.
	if [ "${width%c}" != "$width" ]; then
		width=${width%c} cols=200 env=(COLUMNS="$width")
	fi
	on_tty "$cols" "${env[@]}" -- --sysroot "$work/$t" "$@" >"$work/tty"
	grep '^pcpctl: ' "$work/tty" >"$work/note"
	grep -v '^pcpctl: ' "$work/tty" >"$work/table"
	"$pcpctl" --sysroot "$work/$t" "$@" >"$work/pipe"
	local shown all left rows
	shown=$(head -1 "$work/table" | tr -s ' ' '\n' | grep -v '^$' | paste -sd,)
	all=$(head -1 "$work/pipe" | tr -s ' ' '\n' | grep -v '^$' | paste -sd,)
	# The columns left out, in the table's order, as the note names them.
	left=$(tr , '\n' <<<"$all" | grep -vxF -f <(tr , '\n' <<<"$shown") | paste -sd,)
	left=${left//,/, }
	mapfile -t rows < <(only_rows "$@")
	if [ "$(awk -v w="$width" 'length > w' "$work/table" | wc -l)" != 0 ]; then
		bad "$name: a line is wider than $width: $(awk '{ print length }' "$work/table" | sort -n | tail -1)"
	elif [ "$(wc -l <"$work/table")" != "$(wc -l <"$work/pipe")" ]; then
		bad "$name: $(wc -l <"$work/table") lines, a pipe gets $(wc -l <"$work/pipe")"
	elif [ -z "$left" ] && [ -s "$work/note" ]; then
		bad "$name: a note with nothing left out: $(cat "$work/note")"
	elif [ -n "$left" ] && [ "$(cat "$work/note")" != "pcpctl: note: left out for a terminal of $width columns: $left (--raw or -o shows them)" ]; then
		bad "$name: $left left out, but the note says: $(cat "$work/note")"
	# What stays is what -o of those columns prints through a pipe, byte for byte.
	elif ! "$pcpctl" --sysroot "$work/$t" "${rows[@]}" -o "$shown" |
		diff - "$work/table" >"$work/diff"; then
		bad "$name: the cells differ from -o $shown: $(cat "$work/diff")"
	else
		ok "$name: $(awk '{ print length }' "$work/table" | sort -n | tail -1) columns${left:+, without $left}"
	fi
	# For the caller's own checks.
	echo "$left" >"$work/left"
}

# --- every table at 80 and 200 columns and with COLUMNS=60 ---------------------------
for t in t618 t612 t414; do
	for args in "show -s --output-all" "show --output-all" "show -s" "show"; do
		for w in 80 200 60c; do
			# shellcheck disable=SC2086 # split as written
			fits "$t $args, ${w/c/ by COLUMNS}" "$w" "$t" $args
			[ "$w" = 200 ] && [ -s "$work/note" ] && bad "$t $args: 200 columns left something out"
		done
	done
done

# --- the order the man page gives ------------------------------------------------------
left_is() { [ "$(cat "$work/left")" = "$1" ] || { echo "     left out: $(cat "$work/left")"; false; }; }
fits "6.18's --output-all at 80" 80 t618 show -s --output-all
check "  the empty FREE_PCT, then BATCH_MIN, BATCH_MAX" left_is "FREE_PCT, BATCH_MIN, BATCH_MAX"
fits "at 60" 60 t618 show -s --output-all
check "  then HIGH_LO, HIGH_HI and MIB" left_is "MIB, FREE_PCT, BATCH_MIN, BATCH_MAX, HIGH_LO, HIGH_HI"
fits "at 35" 35 t618 show -s --output-all
check "  NODE, ZONE, PAGES, BATCH and HIGH stay, and only they" \
	[ "$(head -1 "$work/table" | tr -s ' ')" = "NODE ZONE PAGES BATCH HIGH" ]
fits "per CPU at 40" 40 t618 show
check "  HIGH_MIN, then HIGH_MAX" left_is "HIGH_MIN, HIGH_MAX"
fits "-o is cut alike" 30 t612 show -s -o NODE,ZONE,MANAGED,PAGES,HIGH,HIGH_LO,HIGH_HI
check "  HIGH_LO, HIGH_HI, then MANAGED" left_is "MANAGED, HIGH_LO, HIGH_HI"

# --- as wide as the cells: BATCH is 5 wide to print 63 ----------------------------------
on_tty 200 -- --sysroot "$work/t618" show -s >"$work/tty"
check "columns as wide as their heading or widest cell" \
	grep -q '^NODE ZONE   CPUS PAGES MAXCOUNT  MIB BATCH       HIGH MANAGED$' "$work/tty"
check "  (BATCH 5 wide for 63)" grep -q '^   0 DMA32     2     0        0  0.0    63     0-4171  772917$' \
	"$work/tty"

# --- never cut: a pipe, --raw, --pairs, --json ---------------------------------------------
COLUMNS=20 "$pcpctl" --sysroot "$work/t618" show -s --output-all >"$work/out" 2>"$work/err"
check "a pipe gets every column, whatever COLUMNS says, and no note" \
	[ "$(head -1 "$work/out" | wc -w) $(wc -c <"$work/err")" = "14 0" ]
for fmt in --raw --pairs --json; do
	on_tty 40 -- --sysroot "$work/t618" show -s --output-all "$fmt" >"$work/tty"
	"$pcpctl" --sysroot "$work/t618" show -s --output-all "$fmt" >"$work/pipe"
	check "$fmt on a 40-column terminal: all of it, no note" cmp -s "$work/tty" "$work/pipe"
done

finish
