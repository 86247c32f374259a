# shellcheck shell=sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Guest half of tests/kernel/run.sh's "debug" guest (busybox sh, sourced by the
# initramfs init): a patched kernel with lockdep, atomic-sleep checks and
# KCSAN, booted with memory blocks left offline (memhp_default_state=offline,
# QEMU pc-dimms).  A loop writes vm.percpu_pagelist_batch (0, the largest
# accepted value, a middle one) and vm.percpu_pagelist_high_fraction (8, 0)
# while CPUs go offline and online (which drains their lists; another writer
# changes the batch meanwhile), memory blocks
# are onlined (and one movable block offlined and onlined again, which
# disables and re-enables the zone's pagesets) and each CPU allocates and
# frees; at the end every block it onlined goes offline and online again
# twice, emptying the Movable zones, while another task writes the batch.
# Before that loop, pcpctl itself sets, resets and rolls back changes while
# blocks are onlined and CPUs cycled beside it (moving-pcpctl,
# moving-journals, "# moving-summary: ...").
# The host reads the console for lockdep, KCSAN and other reports;
# the guest prints "PASS|FAIL name" lines and "# debug-summary: ...".
#
# /kt/env sets KT_LABEL and KT_CYCLES (loop iterations).

# shellcheck source=/dev/null
. /kt/env
SYS=/proc/sys/vm
BATCH=$SYS/percpu_pagelist_batch
FRAC=$SYS/percpu_pagelist_high_fraction
MEM=/sys/devices/system/memory

writes=0
write_fails=0
cpu_cycles=0
cpu_fails=0
onlined=0
online_fails=0
offlined=0
zone_cycles=0

wr() { # FILE VALUE
	if (echo "$2" >"$1") 2>/dev/null; then
		writes=$((writes + 1))
	else
		write_fails=$((write_fails + 1))
		echo "# write of $2 to ${1##*/} failed"
	fi
}

cpu_cycle() { # CPU : offline (drains its lists) and online again
	if echo 0 >"/sys/devices/system/cpu/cpu$1/online" && echo 1 >"/sys/devices/system/cpu/cpu$1/online"; then
		cpu_cycles=$((cpu_cycles + 1))
	else
		cpu_fails=$((cpu_fails + 1))
		echo 1 >"/sys/devices/system/cpu/cpu$1/online" 2>/dev/null
	fi
}

# the next offline memory block goes online (movable, so it can go offline
# again); with none left, the first block this guest onlined goes offline
# and online again
mem_step() {
	for _b in "$MEM"/memory*; do
		[ "$(cat "$_b/state")" = offline ] || continue
		if echo online_movable >"$_b/state" 2>/dev/null; then
			onlined=$((onlined + 1))
			[ -n "$FIRST_BLOCK" ] || FIRST_BLOCK=$_b
			echo "$_b" >>/tmp/ours
		else
			online_fails=$((online_fails + 1))
		fi
		return
	done
	[ -n "$FIRST_BLOCK" ] || return
	if echo offline >"$FIRST_BLOCK/state" 2>/dev/null; then
		offlined=$((offlined + 1))
		echo online_movable >"$FIRST_BLOCK/state" 2>/dev/null && onlined=$((onlined + 1))
	fi
}

# every block this guest onlined goes offline, which empties the nodes'
# Movable zones, and online again, so setup_zone_pageset() sets the zones'
# pagesets up anew (it reads the batch setting without pcp_batch_high_lock)
# while another task writes the batch; KCSAN watches every 50th access
# meanwhile instead of every 4000th
zone_cycle() {
	_kw=/sys/module/kcsan/parameters/skip_watch
	_old=$(cat "$_kw" 2>/dev/null)
	[ -z "$_old" ] || echo 50 >"$_kw"
	touch /tmp/bg.run
	(while [ -e /tmp/bg.run ]; do bg_writer; done) &
	while read -r _b; do
		echo offline >"$_b/state" 2>/dev/null && offlined=$((offlined + 1))
	done </tmp/ours
	while read -r _b; do
		if echo online_movable >"$_b/state" 2>/dev/null; then
			onlined=$((onlined + 1))
		else
			online_fails=$((online_fails + 1))
		fi
	done </tmp/ours
	# wait(a): the background writers end once /tmp/bg.run is removed.
	rm -f /tmp/bg.run
	wait
	[ -z "$_old" ] || echo "$_old" >"$_kw"
	zone_cycles=$((zone_cycles + 1))
}

verdict() { # NAME WHY CONDITION... : PASS when CONDITION holds
	_n=$1 _w=$2
	shift 2
	if "$@"; then echo "PASS $_n"; else echo "FAIL $_n: $_w"; fi
}

managed() { awk '$1 == "managed" { s += $2 } END { print s }' /proc/zoneinfo; }

# pcpctl on a machine that moves: in each cycle, while a memory block is
# onlined (managed pages grow and the kernel recomputes every zone's limits)
# and a CPU goes offline and online in the background, pcpctl sets the
# fraction and the batch and resets them; then a change is killed midway
# while another CPU goes offline and online, a block comes online and a CPU
# goes offline, and pcpctl rollback restores it before the CPU comes back.
# Every command must succeed and no journal may be left.
moving() { # CYCLES
	_fails=0 _left=0 _kills=0 _j=0 _m0=$(managed)
	: >/tmp/moves
	while [ $_j -lt "$1" ]; do
		# wait(c): the machine moves (memory, CPUs) while pcpctl changes; wait: the move of
		#   this cycle ends. KT_CYCLES is a count.
		(mem_step; cpu_cycle $((_j % 3 + 1)); echo m >>/tmp/moves) &
		for _cmd in "set --fraction $((8 + _j * 17))" "set --batch $MID" reset; do
			# shellcheck disable=SC2086 # the words of the command
			pcpctl $_cmd >/tmp/moving.out 2>&1 ||
				{ _fails=$((_fails + 1)); echo "# moving: pcpctl $_cmd failed:"; cat /tmp/moving.out; }
		done
		wait
		cpu_cycle $((_j % 3 + 1)) &
		if [ -f /usr/lib/killafter.so ]; then
			# Killed right after its write (the build's LD_PRELOAD shim).
			KILLAFTER_PATH=$FRAC LD_PRELOAD=/usr/lib/killafter.so \
				pcpctl set --fraction 9 >/dev/null 2>&1
			[ $? = 137 ] && [ -e /run/pcpctl/journal ] && _kills=$((_kills + 1))
		else
			# wait(c): a moment of 0.1 to 0.9 s to interrupt the change at, with nothing
			#   asserted on when it lands (the rollback must work wherever it does);
			#   wait reaps the killed set at once, then the CPU cycle ends.
			pcpctl set --fraction 9 >/dev/null 2>&1 &
			_pid=$!
			sleep "0.$((_j % 9 + 1))"
			kill -9 "$_pid" 2>/dev/null && _kills=$((_kills + 1))
			wait "$_pid"
		fi
		# wait(a): this cycle's CPU cycle ends.
		wait
		# Between the kill and the rollback the machine moves: a block
		# comes online and a CPU stays offline until the rollback is done.
		_off=$((_j % 3 + 1))
		(mem_step; echo m >>/tmp/moves)
		echo 0 >"/sys/devices/system/cpu/cpu$_off/online"
		pcpctl rollback >/tmp/moving.out 2>&1 ||
			{ _fails=$((_fails + 1)); echo "# moving: pcpctl rollback failed:"; cat /tmp/moving.out; }
		echo 1 >"/sys/devices/system/cpu/cpu$_off/online"
		[ ! -e /run/pcpctl/journal ] || _left=$((_left + 1))
		# What a failed rollback left: the next cycle starts clean.
		[ ! -e /run/pcpctl/journal ] || pcpctl rollback >/dev/null 2>&1 ||
			pcpctl rollback --discard >/dev/null 2>&1
		pcpctl reset >/dev/null 2>&1 || _fails=$((_fails + 1))
		_j=$((_j + 1))
	done
	verdict moving-pcpctl "$_fails pcpctl commands failed" test "$_fails" = 0
	verdict moving-journals "$_left journals left" test "$_left" = 0
	echo "# moving-summary: $1 cycles, $(wc -l </tmp/moves) memory blocks onlined beside pcpctl (managed pages $_m0 -> $(managed)), $((3 * $1)) CPU offline/online cycles, $((4 * $1)) pcpctl changes, $_kills killed midway and rolled back with a block onlined and a CPU offline since, $_fails failures, $_left journals left"
}

churn() { # CPU : allocate and free 16 MiB there
	taskset -c "$1" dd if=/dev/zero of=/tmp/churn bs=1M count=16 2>/dev/null
	taskset -c "$1" rm -f /tmp/churn
}

echo "# kernel $(uname -r), $KT_LABEL, $(nproc) cpus"
ktg_section topology ktg_topology
FIRST_BLOCK=
blocks_off=$(cat "$MEM"/memory*/state 2>/dev/null | grep -c '^offline$')
echo "# memory blocks offline at boot: $blocks_off of $(cat "$MEM"/memory*/state 2>/dev/null | wc -l)"
if [ "$blocks_off" -gt 0 ]; then
	echo "PASS boot-blocks-offline"
else
	echo "FAIL boot-blocks-offline: no offline memory block (pc-dimm, memhp_default_state=offline)"
fi
MAX=$(accepted_max) # guest-lib.sh (/kt/lib.sh)
MID=$((MAX / 2))
echo "# largest accepted batch $MAX, middle $MID"
# a writer that keeps changing the batch while a CPU goes offline and
# online (the handler and CPU hotplug both take cpus_read_lock and
# pcp_batch_high_lock); one line per accepted write
bg_writer() {
	for _v in "$MAX" "$MID" 0; do
		echo "$_v" >"$BATCH" 2>/dev/null && echo w >>/tmp/bgwrites
	done
}

: >/tmp/bgwrites
: >/tmp/ours
# A quarter of the cycles with pcpctl while memory and CPUs come and go (a
# block each), before the loop below onlines the rest of the blocks.
if [ -x /usr/bin/pcpctl ]; then
	moving $((KT_CYCLES / 4))
else
	echo "SKIP moving-pcpctl: no pcpctl in this guest"
fi
t0=$(date +%s)
i=0
while [ $i -lt "$KT_CYCLES" ]; do
	cpu=$((i % 3 + 1))
	next=$((cpu % 3 + 1))
	wr "$BATCH" "$MAX"
	churn "$cpu"
	# wait(a): the writers and the churn end with the CPU cycle.
	bg_writer &
	churn 0 &
	cpu_cycle "$cpu"
	wait
	wr "$FRAC" 8
	mem_step
	wr "$BATCH" "$MID"
	churn "$next"
	wr "$FRAC" 0
	cpu_cycle "$next"
	wr "$BATCH" 0
	mem_step
	i=$((i + 1))
done
# twice: the Movable zones emptied and set up again
zone_cycle
zone_cycle
t1=$(date +%s)
verdict debug-sysctls-restored "batch $(cat "$BATCH"), fraction $(cat "$FRAC")" \
	test "$(cat "$BATCH") $(cat "$FRAC")" = "0 0"
verdict debug-writes "$write_fails writes failed" test "$write_fails" = 0
verdict debug-cpu-hotplug "$cpu_fails cycles failed" test "$cpu_fails" = 0
verdict debug-memory-online "$onlined onlined, $online_fails failed" \
	test "$onlined" -gt 0 -a "$online_fails" = 0
writes=$((writes + $(wc -l </tmp/bgwrites)))
# the checkers must have been on: lockdep still validating (it turns itself
# off after its first report) and KCSAN started
_dl=$(awk '/debug_locks:/ { print $2 }' /proc/lockdep_stats 2>/dev/null)
verdict debug-lockdep-on "debug_locks is '${_dl:-missing}' in /proc/lockdep_stats" test "$_dl" = 1
verdict debug-kcsan-on "dmesg has no 'kcsan: enabled early'" sh -c "dmesg | grep -q 'kcsan: enabled early'"
echo "# debug-summary: $KT_CYCLES cycles in $((t1 - t0)) s, $writes sysctl writes ($write_fails failed), $cpu_cycles CPU offline/online cycles ($cpu_fails failed), $onlined memory blocks onlined ($online_fails failed), $offlined offlined again, $zone_cycles times all of them (Movable zones emptied and set up again)"
ktg_section zoneinfo-end cat /proc/zoneinfo
