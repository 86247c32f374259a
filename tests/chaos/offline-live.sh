#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A change killed right after its write, then the machine moves before the
# rollback: a CPU goes offline (high is split over one CPU fewer, so no
# zone shows what the journal observed), or min_free_kbytes is raised (the
# low watermark, and high_min with it, move).  rollback restores the
# fraction and exits 0, and once the machine is back, has nothing to do.
# The fraction, the CPU and min_free_kbytes are put back at the end.
# Run under flock /tmp/pcpctl-live.lock.  Usage: offline-live.sh PCPCTL KILLAFTER_SHIM
set -u
pcpctl=$(realpath "$1")
shim=$(realpath "$2")
. "$(dirname "$0")/lib.sh"
cpu=/sys/devices/system/cpu/cpu1/online
mfk=/proc/sys/vm/min_free_kbytes
live_sysctl '[ -w $cpu ]' "a second CPU that can go offline ($cpu)"
if [ -e /run/pcpctl/journal ]; then
	echo "SKIP: /run/pcpctl/journal exists: another change is running or was interrupted"
	exit 77
fi
orig=$(cat $sysctl) orig_mfk=$(cat $mfk)
at_exit 'echo 1 >$cpu; echo "$orig_mfk" >$mfk; "$pcpctl" rollback >/dev/null 2>&1
	"$pcpctl" set --fraction "$orig" >/dev/null 2>&1'
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0

# interrupted: set --fraction 9 from 202, killed right after its write.
interrupted() {
	"$pcpctl" set --fraction 202 >/dev/null || bad "set --fraction 202 failed"
	# The outer subshell keeps bash's "Killed" notice off the log.
	( (KILLAFTER_PATH=$sysctl LD_PRELOAD=$shim exec "$pcpctl" set --fraction 9 >/dev/null 2>&1)
		exit $?) 2>/dev/null
	local rc=$?
	[ $rc = 137 ] && [ "$(cat $sysctl)" = 9 ] && [ -e /run/pcpctl/journal ] ||
		bad "set --fraction 9 was to be killed after its write: exit $rc, fraction $(cat $sysctl)"
}

for move in cpu watermark; do
	interrupted
	managed=$(awk '$1 == "managed" { s += $2 } END { print s }' /proc/zoneinfo)
	case $move in
	cpu) echo 0 >$cpu ;;
	watermark) echo $((orig_mfk * 2)) >$mfk ;;
	esac
	if "$pcpctl" rollback >"$work/out" 2>"$work/err"; then ok "$move moved: rollback exits 0"
	else bad "$move moved: rollback exit $?:"; sed 's/^/    /' "$work/out" "$work/err"; fi
	grep -q "restored vm.percpu_pagelist_high_fraction = 202 (was 9)" "$work/out" &&
		ok "$move moved: it says it restored 202" || bad "$move moved: $(cat "$work/out")"
	[ "$(cat $sysctl)" = 202 ] && ok "$move moved: the fraction is 202" ||
		bad "$move moved: the fraction is $(cat $sysctl)"
	[ -e /run/pcpctl/journal ] && bad "$move moved: the journal is left" || ok "$move moved: no journal"
	sed 's/^/    /' "$work/err"
	echo 1 >$cpu
	echo "$orig_mfk" >$mfk
	"$pcpctl" rollback >"$work/out" 2>&1 && grep -q "nothing to roll back" "$work/out" &&
		ok "$move back: rollback has nothing to do" || bad "$move back: $(cat "$work/out")"
	echo "# $move: managed pages $managed before, $(awk '$1 == "managed" { s += $2 } END { print s }' /proc/zoneinfo) after"
done
finish
