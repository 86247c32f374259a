#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Another writer on the live kernel: a process that waits for the fraction
# pcpctl writes and at once writes its own.  pcpctl must never overwrite
# it: it exits 0 (its verification came first) or 6 naming the other
# writer's value, and that value is what the kernel keeps, every time.
# The race is real, so attempts go on (up to ATTEMPTS) until the other
# writer has come between pcpctl's write and its verification 3 times.
# Run under flock /tmp/pcpctl-live.lock.  Usage: foreign-live.sh PCPCTL [ATTEMPTS]
set -u
pcpctl=$(realpath "$1")
. "$(dirname "$0")/lib.sh"
name=vm.percpu_pagelist_high_fraction
live_sysctl
orig=$(cat $sysctl)
at_exit '"$pcpctl" rollback >/dev/null 2>&1; "$pcpctl" set --fraction "$orig" >/dev/null 2>&1'
# wait(a): up to 500 attempts until 3 exit 6, at least 1 exit 6: the other writer lands between
#   pcpctl's write and its verification; a count, not a time.
attempts=${2:-500}
declare -A exits=()
shown=0
for ((i = 1; i <= attempts && ${exits[6]:-0} < 3; i++)); do
	ours=$((40 + i % 400)) theirs=$((500 + i))
	"$pcpctl" set --fraction 20 >/dev/null || bad "attempt $i: set --fraction 20 failed"
	# The other writer: polls without forking, writes once pcpctl's value shows
	# (which a set that succeeds leaves; the bound only ends a writer gone wrong).
	# wait(a): pcpctl's value appears in the sysctl, then the writer writes and exits (wait
	#   $writer); 300 s.
	timeout 300 bash -c 'while read -r v <"$1" && [ "$v" != "$2" ]; do :; done; echo "$3" >"$1"' \
		writer $sysctl $ours $theirs &
	writer=$!
	"$pcpctl" set --fraction $ours >"$work/out" 2>"$work/err"
	rc=$?
	wait $writer || bad "attempt $i: the writer never saw $ours"
	exits[$rc]=$((${exits[$rc]:-0} + 1))
	now=$(cat $sysctl)
	[ "$now" = $theirs ] || bad "attempt $i (exit $rc): the fraction is $now, not the other writer's $theirs"
	case $rc in
	0) ;;
	6)
		grep -q "$name is $theirs, which pcpctl did not write (it wrote $ours)" "$work/err" ||
			bad "attempt $i: exit 6 without naming $name = $theirs"
		grep -q "left $name = $theirs as another writer set it" "$work/out" ||
			bad "attempt $i: the report does not say what was left"
		[ -e /run/pcpctl/journal ] && bad "attempt $i: journal left after exit 6"
		if [ $shown = 0 ]; then
			shown=1
			echo "# transcript of attempt $i:"
			echo "\$ pcpctl set --fraction $ours    # another writer sets $theirs after pcpctl's write"
			cat "$work/out" "$work/err"
			echo "exit status 6"
		fi ;;
	*) bad "attempt $i: exit $rc:"; sed 's/^/    /' "$work/err" ;;
	esac
	ok
done
echo "# $((i - 1)) attempts, exits: $(for c in "${!exits[@]}"; do printf '%s x%s ' "$c" "${exits[$c]}"; done)"
[ "${exits[6]:-0}" -gt 0 ] || bad "the other writer never came between pcpctl's write and its verification"
finish
