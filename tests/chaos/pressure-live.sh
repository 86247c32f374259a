#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# set and reset cycles on the live kernel while stress-ng's vm stressors
# keep kswapd busy (watermark boosts come and go) and, on a virtual machine
# whose host adds memory as the guest uses it (virtio-mem, as CI's), four
# hogs started one after another grow it: managed pages and every limit
# derived from them move under the changes.  Every change verifies, none is
# a false verification failure; the managed pages before and after show
# whether the machine moved.  Run under flock /tmp/pcpctl-live.lock.
# Usage: pressure-live.sh PCPCTL [CYCLES]
set -u
pcpctl=$(realpath "$1")
. "$(dirname "$0")/lib.sh"
live_sysctl
command -v stress-ng >/dev/null || { echo "FAIL stress-ng is missing (scripts/deps --test)"; exit 1; }
orig=$(cat $sysctl)
stress= hogs=
# wait(a): the stopped stress-ng and hogs are reaped.
at_exit '[ -n "$stress$hogs" ] && kill $stress $hogs 2>/dev/null; wait 2>/dev/null
	"$pcpctl" rollback >/dev/null 2>&1; "$pcpctl" set --fraction "$orig" >/dev/null 2>&1'
chaos_seed
cycles=$(scaled "${2:-500}")
# One stressor, a fifth of the memory, so that the machine's other users keep theirs.
# It runs until the last cycle, however long a loaded machine makes them: the
# trap stops it, and --pdeathsig if this script is killed.
# wait(c): the pressure is the tested condition (no --timeout); the trap or pdeathsig stops it.
setpriv --pdeathsig TERM -- stress-ng --vm 1 --vm-bytes 20% --vm-method all --quiet >/dev/null 2>&1 &
stress=$!
# Started once its stressor runs: a child of stress-ng (or it has exited).
# wait(a): stress-ng's stressor child exists, or stress-ng exited; 300 s, polled every 0.1 s.
end=$((SECONDS + 300))
until pgrep -P $stress >/dev/null || ! kill -0 $stress 2>/dev/null || [ $SECONDS -ge $end ]; do
	sleep 0.1
done
pgrep -P $stress >/dev/null || { echo "FAIL stress-ng did not start"; exit 1; }
managed() { awk '$1 == "managed" { s += $2 } END { print s }' /proc/zoneinfo; }
# The memory the host may still add: present pages that are not yet managed.
present=$(awk '$1 == "present" { s += $2 } END { print s }' /proc/zoneinfo)
managed_before=$(managed)
unplugged_kib=$(((present - managed_before) * $(getconf PAGESIZE) / 1024))
# The machine adds memory to a zone only once its free pages run short:
# four hogs take, a quarter each, the zones' free pages and half of what may
# still be added, so that half of it is left.  A machine that adds none
# (present = managed) gets no hog.
free_kib=$(($(awk '$1 == "pages" && $2 == "free" { s += $3 } END { print s }' /proc/zoneinfo) *
	$(getconf PAGESIZE) / 1024))
hog_kib=$(((free_kib + unplugged_kib / 2) / 4))
[ "$unplugged_kib" -ge 1048576 ] || hog_kib=0
failures=0 boosted=0 moved=0 last=$managed_before
for ((i = 1; i <= cycles; i++)); do
	if [ "$hog_kib" -ge 131072 ] && [ $((i % (cycles / 5 + 1))) = 0 ] && [ "${#hogs}" -lt 40 ]; then
		# wait(c): the hogs (--vm-keep --vm-populate, no --timeout) are the tested pressure;
		#   the trap or pdeathsig stops them.
		setpriv --pdeathsig TERM -- stress-ng --vm 1 --vm-bytes "${hog_kib}k" --vm-keep \
			--vm-populate --quiet >/dev/null 2>&1 &
		hogs="$hogs $!"
		# A sweep while the hog grows the machine: its restore at the end
		# finds limits the kernel recomputed for more memory.
		grown=$(managed)
		# wait(c): a point's length; the check is the restore, not the time.
		if ! "$pcpctl" sweep --fraction 0,8 --duration 1 --warmup 0 >/dev/null 2>"$work/err"; then
			failures=$((failures + 1))
			bad "cycle $i: a sweep while memory grew failed:"; sed 's/^/    /' "$work/err"
		fi
		echo "# cycle $i: a sweep while a hog ran: managed pages $grown before it, $(managed) after"
	fi
	f=$(rand 9 300)
	for cmd in "set --fraction $f" reset; do
		# shellcheck disable=SC2086
		if ! "$pcpctl" $cmd >/dev/null 2>"$work/err"; then
			failures=$((failures + 1))
			bad "cycle $i: $cmd failed:"; sed 's/^/    /' "$work/err"
		fi
	done
	grep -q '^ *boost *[1-9]' /proc/zoneinfo && boosted=$((boosted + 1))
	now=$(managed)
	[ "$now" != "$last" ] && moved=$((moved + 1))
	last=$now
	ok
done
kill $stress $hogs 2>/dev/null
echo "# $cycles set/reset cycles under stress-ng --vm: $failures verification failures; a watermark boost seen after $boosted cycles"
echo "# managed pages $managed_before before, $(managed) after (present $present); they moved during $moved cycles;" \
	"hogs of ${hog_kib} KiB: $(echo $hogs | wc -w)"
finish
