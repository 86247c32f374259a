#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# SIGKILL at random moments of 'pcpctl set --fraction' on this machine's
# live kernel (root), then 'pcpctl rollback': the fraction is exactly as
# before or as asked, no journal or temporary file is left, and the next
# set works.  The original fraction is written back at the end.
# Run under flock /tmp/pcpctl-live.lock (ctest's RESOURCE_LOCK live_kernel).
# Usage: kill-set-live.sh PCPCTL [ITERATIONS]
set -u
pcpctl=$(realpath "$1")
. "$(dirname "$0")/lib.sh"
live_sysctl
if [ -e /run/pcpctl/journal ]; then
	echo "SKIP: /run/pcpctl/journal exists: another change is running or was interrupted"
	exit 77
fi
orig=$(cat $sysctl)
at_exit '"$pcpctl" rollback >/dev/null 2>&1; "$pcpctl" set --fraction "$orig" >/dev/null 2>&1'
chaos_seed
iterations=$(scaled "${2:-200}")
# wait(c): 3 timed sets give the kill window.
start=$(date +%s%N)
for f in 11 12 13; do "$pcpctl" set --fraction $f >/dev/null; done
window=$((($(date +%s%N) - start) / 3 / 1000 * 3 / 2))
echo "# $iterations iterations, kills within ${window} us"

declare -A outcome=()
for ((i = 1; i <= iterations; i++)); do
	f=$(rand 8 200)
	[ "$f" = 8 ] && f=0
	before=$(cat $sysctl)
	killed_within "$window" "$pcpctl" set --fraction "$f"
	what="iteration $i (set --fraction $f from $before, exit $rc)"
	outcome[exit-$rc]=$((${outcome[exit-$rc]:-0} + 1))
	case $rc in
	0) [ "$(cat $sysctl)" = "$f" ] || bad "$what: completed set left $(cat $sysctl)" ;;
	137) ;;
	*) bad "$what: set failed:"; sed 's/^/    /' "$work/err" ;;
	esac
	"$pcpctl" rollback >/dev/null 2>"$work/err" ||
		{ bad "$what: rollback failed:"; sed 's/^/    /' "$work/err"; }
	now=$(cat $sysctl)
	if [ "$now" = "$f" ]; then outcome[asked]=$((${outcome[asked]:-0} + 1))
	elif [ "$now" = "$before" ]; then outcome[before]=$((${outcome[before]:-0} + 1))
		[ $rc = 0 ] && [ "$before" != "$f" ] && bad "$what: rollback undid a completed set"
	else bad "$what: the fraction is $now, neither $before nor $f"; fi
	left=$(ls /run/pcpctl/journal /run/pcpctl/journal.tmp 2>/dev/null)
	[ -z "$left" ] || bad "$what: left $left"
	ok
done
"$pcpctl" set --fraction 77 >/dev/null 2>"$work/err" || bad "the set after the last iteration failed"
echo "# ${outcome[exit-137]:-0} killed, ${outcome[exit-0]:-0} finished first; after the rollback ${outcome[before]:-0} as before, ${outcome[asked]:-0} as asked"
echo "# violations: $fail"
finish
