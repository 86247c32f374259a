#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# SIGKILL at random moments of 'pcpctl set' on the simulated kernel, whose
# random delays spread every step of the transaction over time, then
# 'pcpctl rollback'.  After each iteration the sysctls and the sysctl.d file
# are exactly as before or exactly as asked, never a mix, no journal or
# temporary file is left, and the next set works.
# Usage: kill-set-sim.sh PCPCTL-SIM FIXTURE_DIR [ITERATIONS]
set -u
sim=$(realpath "$1")
fixtures=$(realpath "$2")/zoneinfo
. "$(dirname "$0")/lib.sh"
chaos_seed
iterations=$(scaled "${3:-1000}")
header="# Written by pcpctl; pcpctl reset --persist removes it."

t=$work/tree
simtree "$t"
# Persisted settings, tracked to tell what the file must hold.
pb="" pf=""
# expected BATCH FRACTION PERSIST: the snapshot a completed set leaves.
expected() {
	local b=${1:-$(cat "$t/proc/sys/vm/percpu_pagelist_batch")}
	local f=${2:-$(cat "$t/proc/sys/vm/percpu_pagelist_high_fraction")}
	local xb=$pb xf=$pf
	echo "percpu_pagelist_batch=$b"
	echo "percpu_pagelist_high_fraction=$f"
	if [ "$3" = 1 ]; then
		[ -n "$1" ] && xb=$1
		[ -n "$2" ] && xf=$2
	fi
	if [ -z "$xb$xf" ]; then echo "(no sysctl.d file)"; return; fi
	echo "$header"
	[ -n "$xb" ] && echo "vm.percpu_pagelist_batch = $xb"
	[ -n "$xf" ] && echo "vm.percpu_pagelist_high_fraction = $xf"
}

# How long an undisturbed set takes with the delays: the kill window, so
# that most kills land inside a run and some after it.
# wait(c): the simulator's delay fault, up to 2 ms per step; 5 timed sets with it give the kill
#   window.
echo "delay 2000 $seed" >"$t/sim/faults"
start=$(date +%s%N)
for i in 1 2 3 4 5; do "$sim" --sysroot "$t" set --batch $((i * 10)) --fraction $((8 + i)) >/dev/null; done
window=$((($(date +%s%N) - start) / 5 / 1000))
"$sim" --sysroot "$t" reset >/dev/null
echo "# $iterations iterations, kills within ${window} us"

declare -A outcome=()
for ((i = 1; i <= iterations; i++)); do
	# wait(c): the simulator's delay fault, up to 2 ms per step.
	echo "delay 2000 $((seed + i))" >"$t/sim/faults"
	b="" f="" args=() persist=0
	case $(rand 0 2) in
	0) f=$(rand 8 64) ;;
	1) b=$(rand 0 400) ;;
	2) b=$(rand 0 400); f=$(rand 8 64) ;;
	esac
	[ "$f" = 8 ] && f=0		# now and then the default again
	[ -n "$b" ] && args+=(--batch "$b")
	[ -n "$f" ] && args+=(--fraction "$f")
	[ "$(rand 0 1)" = 1 ] && { args+=(--persist); persist=1; }
	before=$(snapshot "$t")
	want=$(expected "$b" "$f" "$persist")

	killed_within "$window" "$sim" --sysroot "$t" set "${args[@]}"
	what="iteration $i (set ${args[*]}, exit $rc)"
	outcome[exit-$rc]=$((${outcome[exit-$rc]:-0} + 1))
	case $rc in
	0) [ "$(snapshot "$t")" = "$want" ] || bad "$what: completed set left another state" ;;
	137) ;;
	*) bad "$what: set failed:"; sed 's/^/    /' "$work/err" ;;
	esac
	: >"$t/sim/faults"	# the rollback without delays: it is not under test
	"$sim" --sysroot "$t" rollback >"$work/out" 2>"$work/err"
	rb=$?
	[ $rb = 0 ] || { bad "$what: rollback exit $rb:"; sed 's/^/    /' "$work/err"; }
	now=$(snapshot "$t")
	if [ "$now" = "$want" ]; then
		outcome[asked]=$((${outcome[asked]:-0} + 1))
	elif [ "$now" = "$before" ]; then
		outcome[before]=$((${outcome[before]:-0} + 1))
		[ $rc = 0 ] && bad "$what: rollback undid a completed set"
	else
		bad "$what: a mix of before and after:"
		diff <(echo "$before") <(echo "$now") | sed 's/^/    /'
		diff <(echo "$want") <(echo "$now") | sed 's/^/    /'
	fi
	left=$(leftovers "$t")
	[ -z "$left" ] || { bad "$what: left $left"; rm -f $left; }
	ok
	# What the file persists now, for the next expectation.
	pb=$(sed -n 's/^vm.percpu_pagelist_batch = //p' "$t/etc/sysctl.d/90-pcpctl.conf" 2>/dev/null)
	pf=$(sed -n 's/^vm.percpu_pagelist_high_fraction = //p' "$t/etc/sysctl.d/90-pcpctl.conf" 2>/dev/null)
done
rm "$t/sim/faults"
"$sim" --sysroot "$t" set --batch 123 --fraction 45 >/dev/null 2>"$work/err" ||
	bad "the set after the last iteration failed: $(cat "$work/err")"
echo "# ${outcome[exit-137]:-0} killed, ${outcome[exit-0]:-0} finished first; after the rollback ${outcome[before]:-0} as before, ${outcome[asked]:-0} as asked"
echo "# violations: $fail"
finish
