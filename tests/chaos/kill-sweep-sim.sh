#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# SIGTERM, SIGINT or SIGKILL at random moments of 'pcpctl sweep' on the
# simulated kernel with random delays, then 'pcpctl rollback' where a journal
# is left.  A caught signal must restore the settings itself; after any
# signal and the rollback the settings are exactly as before the sweep and
# no journal or temporary file is left.
# Usage: kill-sweep-sim.sh PCPCTL-SIM FIXTURE_DIR [ITERATIONS]
set -u
sim=$(realpath "$1")
fixtures=$(realpath "$2")/zoneinfo
. "$(dirname "$0")/lib.sh"
chaos_seed
iterations=$(scaled "${3:-120}")

t=$work/tree
simtree "$t"
sweep=(sweep --warmup 0 --runs 2 --metric 'x=([0-9]+)')
workload=(-- /bin/sh -c 'echo x=1')
# wait(c): the simulator's delay fault, up to 2 ms per step, as in kill-set-sim.
echo "delay 2000 $seed" >"$t/sim/faults"
start=$(date +%s%N)
"$sim" --sysroot "$t" "${sweep[@]}" --batch 31,63,93 "${workload[@]}" >/dev/null 2>&1
window=$((($(date +%s%N) - start) / 1000 * 3 / 2))
echo "# $iterations iterations, signals within ${window} us"

declare -A seen=()
signals=(TERM INT KILL)
for ((i = 1; i <= iterations; i++)); do
	# wait(c): the simulator's delay fault, as in kill-set-sim.
	echo "delay 2000 $((seed + i))" >"$t/sim/faults"
	sig=${signals[$(rand 0 2)]}
	"$sim" --sysroot "$t" set --batch "$(rand 0 300)" --fraction "$(rand 8 40)" >/dev/null 2>&1
	before=$(snapshot "$t")
	if [ "$(rand 0 1)" = 1 ]; then param=(--batch "$(rand 1 300),$(rand 1 300),$(rand 1 300)")
	else param=(--fraction "$(rand 8 99),$(rand 8 99),$(rand 8 99)"); fi
	# A signal can land between the fork and the exec, while the job is
	# still a copy of this shell: without its EXIT trap, which would
	# remove $work.
	# wait(c): the signal moment (TERM, INT or KILL); every exit is accepted; wait reaps the
	#   sweep once it has exited.
	(trap - EXIT; exec "$sim" --sysroot "$t" "${sweep[@]}" "${param[@]}" "${workload[@]}") \
		>/dev/null 2>"$work/err" &
	pid=$!
	sleep "$(moment "$window")"
	kill -"$sig" $pid 2>/dev/null
	wait $pid 2>/dev/null
	rc=$?
	what="iteration $i (sweep ${param[*]}, SIG$sig, exit $rc)"
	seen[$sig-$rc]=$((${seen[$sig-$rc]:-0} + 1))
	case $sig-$rc in
	*-0 | TERM-1 | INT-1 | TERM-143 | INT-130 | KILL-137) ;;
	*) bad "$what: unexpected exit:"; sed 's/^/    /' "$work/err" ;;
	esac
	# A caught signal restores by itself: nothing for rollback to do.
	if [ "$rc" = 1 ] && [ -e "$t/run/pcpctl/journal" ]; then
		bad "$what: a caught signal left the journal"
	fi
	if [ "$rc" != 137 ] && [ "$(snapshot "$t")" != "$before" ]; then
		bad "$what: settings changed without SIGKILL"
	fi
	"$sim" --sysroot "$t" rollback >"$work/out" 2>"$work/err" ||
		{ bad "$what: rollback failed:"; sed 's/^/    /' "$work/err"; }
	[ "$(snapshot "$t")" = "$before" ] || bad "$what: settings differ after rollback"
	left=$(leftovers "$t")
	[ -z "$left" ] || { bad "$what: left $left"; rm -f $left; }
	ok
done
echo "# signal-exit counts: $(for k in "${!seen[@]}"; do printf '%s:%s ' "$k" "${seen[$k]}"; done)"
echo "# violations: $fail"
finish
