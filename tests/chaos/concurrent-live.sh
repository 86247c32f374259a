#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# 8 processes run set, reset, show and status in a loop on the live kernel
# for 60 s, each command at least once.  Every change is serialised by the
# lock and verified (exit 0, after as many waits for the lock as it takes),
# no reader warns of an interruption that did not happen or sees a damaged
# journal, and the fraction at the end is the one of the change that
# finished last: the last change to hold the lock ended after every other
# change started, so it is among the changes that did.  Run under flock
# /tmp/pcpctl-live.lock.
# Usage: concurrent-live.sh PCPCTL [SECONDS]
set -u
pcpctl=$(realpath "$1")
. "$(dirname "$0")/lib.sh"
live_sysctl
orig=$(cat $sysctl)
at_exit '"$pcpctl" rollback >/dev/null 2>&1; "$pcpctl" set --fraction "$orig" >/dev/null 2>&1'
chaos_seed
# wait(c): seconds (60, 10 with CHAOS_QUICK): the length of the concurrency; workers loop until
#   EPOCHREALTIME passes the end.
seconds=${2:-60}
[ "${CHAOS_QUICK:-0}" = 1 ] && seconds=$(((seconds + 5) / 6))

# one COMMAND VALUE: run it, its output dropped.
one() {
	case $1 in
	set) "$pcpctl" set --fraction "$2" ;;
	reset) "$pcpctl" reset ;;
	show) "$pcpctl" show --json ;;
	status) "$pcpctl" status ;;
	esac >/dev/null
}

# worker N: each command once, then random ones until the deadline (so every
# command runs however few fit in the time); one log line per command:
# START END COMMAND VALUE EXIT (microseconds), and its stderr in
# $work/err.N.COUNT when not empty.
worker() {
	local n=$1 end=$2 count=0 cmd value rc start
	RANDOM=$(((seed + n * 7919) % 32768))
	# wait(a): each worker runs each command once first, then random ones until the end (class
	#   c): every command runs at least once whatever the window.
	while [ "$count" -lt 4 ] || [ "${EPOCHREALTIME/./}" -lt "$end" ]; do
		count=$((count + 1))
		start=${EPOCHREALTIME/./}
		case $((count <= 4 ? (count + n) % 4 : RANDOM % 4)) in
		0) cmd=set value=$((8 + RANDOM % 200)) ;;
		1) cmd=reset value=0 ;;
		2) cmd=show value=- ;;
		3) cmd=status value=- ;;
		esac
		# A change that gave up after pcpctl's 10 s of tries (8 at once on a
		# loaded machine) wrote nothing: it tries again, so it waits for the
		# lock to come free, not for a time.  (300 s past the end ends a
		# lock that is never freed.)  Its logged start stays the first
		# try's: the last change still ended after every other one started.
		while one "$cmd" "$value" 2>"$work/e.$n"
			# wait(a): the lock comes free: a change that exits 1 with only the lock's
			#   messages runs again, up to 300 s past the end; every change must exit 0.
			rc=$?
			[ "$rc" = 1 ] && [ -s "$work/e.$n" ] &&
				! grep -v -e 'waiting up to 10 s for another pcpctl to finish' \
					-e 'another pcpctl is changing the pcp settings' "$work/e.$n" >/dev/null &&
				[ "${EPOCHREALTIME/./}" -lt $((end + 300000000)) ]
		do
			echo "$cmd" >>"$work/retries.$n"
		done
		echo "$start ${EPOCHREALTIME/./} $cmd $value $rc" >>"$work/log.$n"
		[ -s "$work/e.$n" ] && mv "$work/e.$n" "$work/err.$n.$count"
	done
}

end=$((${EPOCHREALTIME/./} + seconds * 1000000))
# wait(a): the 8 workers end (their windows and retries bound them).
for n in 1 2 3 4 5 6 7 8; do worker $n $end & done
wait
cat "$work"/log.* | sort -n -k2 >"$work/all"
total=$(wc -l <"$work/all")
for cmd in set reset show status; do
	runs=$(awk -v c=$cmd '$3 == c' "$work/all" | wc -l)
	failed=$(awk -v c=$cmd '$3 == c && $5 != 0' "$work/all" | wc -l)
	echo "# $cmd: $runs runs, $failed failed"
	[ "$failed" = 0 ] || bad "$failed of $runs $cmd runs failed"
	[ "$runs" -gt 0 ] || bad "no $cmd ran"
done
# Notes of a change in progress are expected; nothing else from readers or changes.
notes=$(cat "$work"/err.* 2>/dev/null | grep -c 'note: a pcpctl change is in progress')
if cat "$work"/err.* 2>/dev/null | grep -v 'note: a pcpctl change is in progress' |
	grep -v 'waiting up to 10 s for another pcpctl' >"$work/unexpected" && [ -s "$work/unexpected" ]; then
	bad "unexpected messages:"; sort "$work/unexpected" | uniq -c | head -20
fi
grep -l interrupted "$work"/err.* >/dev/null 2>&1 && bad "a run warned of an interruption"
changes=$(awk '$3 == "set" || $3 == "reset"' "$work/all")
last_start=$(echo "$changes" | sort -n -k1 | tail -1 | cut -d' ' -f1)
last=$(echo "$changes" | awk -v s="$last_start" '$2 >= s { print $3 " " $4 }' | sort -u | tr '\n' ',')
now=$(cat $sysctl)
case ",$last" in
*",set $now,"* | *",reset $now,"*) ;;
*) bad "the fraction is $now; the changes that may have been last: $last" ;;
esac
[ -e /run/pcpctl/journal ] && bad "a journal is left"
retries=$(cat "$work"/retries.* 2>/dev/null | wc -l)
echo "# $total commands by 8 processes in $seconds s; $retries tries again after 10 s without the lock;" \
	"$notes in-progress notes; last change: $last"
ok
finish
