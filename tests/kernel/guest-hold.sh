# shellcheck shell=sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Guest half of tests/kernel/run.sh for the guests that prove the lock-hold bound
# on other page sizes and CONFIG_PCP_BATCH_SCALE_MAX values (arm64-16k,
# arm64-64k, scale0; busybox sh, sourced by the initramfs init).
#
# /kt/env sets KT_LABEL, KT_SCALE_MAX (CONFIG_PCP_BATCH_SCALE_MAX of the
# kernel, from its .config) and KT_PAGE_KB (the page size it was built with).  pcpctl, when the host provided one, is
# /usr/bin/pcpctl.  Prints one "PASS name", "FAIL name: why" or "SKIP name:
# why" line per check; lines starting with "# " are transcript; the line
# "# holds: ..." carries the figures the host tabulates.
#
# The bound: the unpatched kernel moves at most its default batch <<
# CONFIG_PCP_BATCH_SCALE_MAX pages under one zone->lock hold (drain_pages_zone
# and the scaled free and refill counts).  The default batch is the one this
# boot gave the largest zones, so the bound follows the page size.

# shellcheck source=/dev/null
. /kt/env
SYS=/proc/sys/vm
BATCH=$SYS/percpu_pagelist_batch
FRAC=$SYS/percpu_pagelist_high_fraction
TRACE=/sys/kernel/tracing
WHY=

# pass, fail, skip, check, run, rc_is, sysctl_is, zi_table, cols_as,
# json_table, json_val, settings_of, show_read, show_agrees, status_read and
# accepted_max: guest-lib.sh (/kt/lib.sh)

# small_zones_keep : pagesets whose boot batch is below the largest keep it
small_zones_keep() {
	zi_table >/tmp/zi
	awk -v big="$BOOT_BATCH" 'FILENAME == ARGV[1] { b[$1 " " $2 " " $3] = $6; next }
		{ k = $1 " " $2 " " $3 } b[k] < big && $6 != b[k] { printf "%s batch %s (boot %s) ", k, $6, b[k]; bad++ }
		END { exit bad > 0 }' /tmp/boot.tbl /tmp/zi >/tmp/why && return 0
	WHY=$(cat /tmp/why)
	return 1
}

# show_agrees_once : pcpctl show --json gives every pageset's batch, high_min
# and high_max as zoneinfo read around it (high moves on its own: either read;
# pcpctl runs on CPU 0, and show_agrees retries an attempt where high moved
# twice)
show_agrees_once() {
	show_read || return 1
	awk 'FILENAME == ARGV[1] { k = $1 " " $2 " " $3; r[k] = $6 " " $7 " " $8; h1[k] = $5; keys[k] = 1; next }
		FILENAME == ARGV[2] { h2[$1 " " $2 " " $3] = $5; next }
		{
			k = $1 " " $2 " " $3; seen[k] = 1
			if (!(k in keys)) { print "extra pageset " k; bad++; next }
			if ($6 " " $7 " " $8 != r[k]) { print k ": " $6 " " $7 " " $8 " != " r[k]; bad++ }
			if ($5 != h1[k] && $5 != h2[k]) { print k " high " $5; bad++ }
		}
		END {
			for (k in keys) if (!(k in seen)) { print "missing pageset " k; bad++ }
			exit bad > 0
		}' /tmp/zi.before /tmp/zi.after /tmp/show.tbl >/tmp/show.diff && return 0
	WHY="$(head -n 4 /tmp/show.diff | tr '\n' ';')"
	return 1
}

# status_agrees : pcpctl status --json names this kernel and the sysctl values
status_agrees() {
	status_read || return 1
	for _s in percpu_pagelist_batch percpu_pagelist_high_fraction; do
		_j=$(settings_of </tmp/status.json | json_val "$_s")
		[ "$_j" = "$(cat "$SYS/$_s")" ] || WHY="$WHY $_s json '$_j' file '$(cat "$SYS/$_s")';"
	done
	[ -z "$WHY" ]
}

# --- pages per zone->lock hold ----------------------------------------------
# One hold is one free_pcppages_bulk() call (its count, a kprobe) or one
# refill (rmqueue_bulk(), inlined: the pages __rmqueue_smallest() hands out
# for the lists, kmem:mm_page_alloc_zone_locked with percpu_refill=1, between
# two calls of __rmqueue_pcplist, which refills at most once).  Drains also
# record the pages moved (kmem:mm_page_pcpu_drain), which a last high-order
# block may take past the count.
trace_setup() {
	mount -t tracefs nodev "$TRACE" 2>/dev/null
	[ -w "$TRACE/kprobe_events" ] || { WHY="no tracefs kprobe_events"; return 1; }
	# shellcheck disable=SC2016 # $arg2 is the kprobe's fetch argument
	echo 'p:kt/fbulk free_pcppages_bulk count=$arg2:s32' >>"$TRACE/kprobe_events" ||
		{ WHY="no kprobe on free_pcppages_bulk"; return 1; }
	if echo 'p:kt/rmq __rmqueue_pcplist' >>"$TRACE/kprobe_events" 2>/dev/null; then
		DELIM=rmq
	else
		# an inlined __rmqueue_pcplist: every allocation ends in mm_page_alloc
		DELIM=mm_page_alloc
		echo 1 >"$TRACE/events/kmem/mm_page_alloc/enable"
	fi
	echo 'percpu_refill == 1' >"$TRACE/events/kmem/mm_page_alloc_zone_locked/filter"
	if ! { echo 1 >"$TRACE/events/kmem/mm_page_alloc_zone_locked/enable" &&
		echo 1 >"$TRACE/events/kmem/mm_page_pcpu_drain/enable" &&
		echo 1 >"$TRACE/events/kt/enable" &&
		echo 8192 >"$TRACE/buffer_size_kb"; }; then
		WHY="cannot enable the events"
		return 1
	fi
	echo "# hold events: kt/fbulk, kmem/mm_page_pcpu_drain, kmem/mm_page_alloc_zone_locked (refill), delimiter $DELIM"
}

# holds : "drain_count drain_moved refill" maxima of the trace, per CPU
holds() {
	awk -v delim="$DELIM" '
	function pages(s,   n, r) { # the 2^order pages of an event (busybox awk has no ^)
		if (!match(s, /order=[0-9]+/)) return 0
		n = substr(s, RSTART + 6, RLENGTH - 6) + 0
		for (r = 1; n > 0; n--) r *= 2
		return r
	}
	function close_(c) {
		if (kind[c] == "d" && moved[c] > dmoved) dmoved = moved[c]
		if (kind[c] == "r" && moved[c] > refill) refill = moved[c]
		kind[c] = ""; moved[c] = 0
	}
	/^#/ { next }
	{
		if (!match($0, /\[[0-9]+\]/)) next
		c = substr($0, RSTART + 1, RLENGTH - 2) + 0
		if (index($0, " fbulk: ")) {
			close_(c); kind[c] = "d"
			if (match($0, /count=-?[0-9]+/) && substr($0, RSTART + 6, RLENGTH - 6) + 0 > dcount)
				dcount = substr($0, RSTART + 6, RLENGTH - 6) + 0
		} else if (index($0, " mm_page_pcpu_drain: ")) {
			if (kind[c] == "d") moved[c] += pages($0)
		} else if (index($0, " mm_page_alloc_zone_locked: ")) {
			if (kind[c] != "r") { close_(c); kind[c] = "r" }
			moved[c] += pages($0)
		} else if (index($0, " " delim ": ")) close_(c)
	}
	END { for (c in kind) close_(c); printf "%d %d %d\n", dcount, dmoved, refill }' "$TRACE/trace"
}

# fill_free : every online CPU fills tmpfs with at least 64 MiB and 8192
# pages and frees it, then CPU 1 goes offline (its lists drain) and back
fill_free() {
	_mb=$((8192 * PAGE_KB / 1024))
	[ "$_mb" -ge 64 ] || _mb=64
	for _c in $(seq 0 $(($(nproc) - 1))); do
		taskset -c "$_c" dd if=/dev/zero of=/tmp/fill bs=1M count="$_mb" 2>/dev/null
		taskset -c "$_c" rm -f /tmp/fill
	done
	echo 0 >/sys/devices/system/cpu/cpu1/online && echo 1 >/sys/devices/system/cpu/cpu1/online
}

# holds_within B : fill and free at the current batch (B names it); the
# largest count and refill under one hold stay within $BOUND
holds_within() {
	: >"$TRACE/trace"
	fill_free
	holds >/tmp/holds
	# shellcheck disable=SC2046
	set -- "$1" $(cat /tmp/holds) 0 0 0
	echo "# holds: batch $1: largest drain count $2 (pages moved $3), largest refill $4, bound $BOUND"
	HOLDS="$HOLDS $1=$(($2 > $4 ? $2 : $4))"
	[ "$2" -gt 0 ] || { WHY="no drain recorded"; return 1; }
	[ "$2" -le "$BOUND" ] && [ "$4" -le "$BOUND" ] && return 0
	WHY="largest drain count $2, refill $4 over the bound $BOUND"
	return 1
}

# ---------------------------------------------------------------------------
PAGE_KB=$(awk '/^KernelPageSize:/ { print $2; exit }' /proc/self/smaps)
echo "# kernel $(uname -r), $KT_LABEL, $(uname -m), page ${PAGE_KB} KiB, $(nproc) cpus, CONFIG_PCP_BATCH_SCALE_MAX=$KT_SCALE_MAX"
ktg_section uname uname -r
ktg_section topology ktg_topology
ktg_section zoneinfo-boot cat /proc/zoneinfo
check page-size test "$PAGE_KB" = "$KT_PAGE_KB"
zi_table >/tmp/boot.tbl
check boot-pagesets test -s /tmp/boot.tbl
BOOT_BATCH=$(awk '$6 > m { m = $6 } END { print m + 0 }' /tmp/boot.tbl)
BOUND=$((BOOT_BATCH << KT_SCALE_MAX))
echo "# default batch $BOOT_BATCH, unpatched worst case per hold $BOOT_BATCH << $KT_SCALE_MAX = $BOUND"
check sysctl-present test -e "$BATCH"
check sysctl-default-0 sysctl_is "$BATCH" 0

# The stock values to come back to, brought up to date by a fraction
# change and its undo (boot computes them before the last memory arrives)
echo 8 >"$FRAC"
echo 0 >"$FRAC"
zi_table >/tmp/stock.tbl
MAX=$(accepted_max)
echo "# largest accepted batch: $MAX"
if [ "$MAX" -ge "$BOOT_BATCH" ]; then
	pass kernel-max-accepted
else
	fail kernel-max-accepted "largest accepted $MAX, below the default $BOOT_BATCH"
fi
if [ -e "$SYS/percpu_pagelist_batch_max" ]; then
	check kernel-max-file-agrees sysctl_is "$SYS/percpu_pagelist_batch_max" "$MAX"
fi

HAVE_PCPCTL=0
HAVE_SET=0
if [ -x /usr/bin/pcpctl ]; then
	HAVE_PCPCTL=1
	pcpctl set --help >/tmp/out 2>&1 && grep -q -e '--batch' /tmp/out && HAVE_SET=1
	check pcpctl-show-json show_agrees
	check pcpctl-status-json status_agrees
else
	skip pcpctl "no pcpctl binary given; sysctl-level checks only"
fi

# set MAX, by pcpctl where it can (the rule checks), else by the sysctl
set_max() {
	if [ "$HAVE_SET" = 1 ]; then
		run pcpctl set --batch "$MAX"
		check pcpctl-set-max-exit rc_is 0
	fi
	# the hold counts are the kernel's: measured at MAX even where pcpctl failed
	if [ "$(cat "$BATCH")" != "$MAX" ]; then
		[ "$HAVE_SET" = 0 ] || echo "# pcpctl did not set $MAX: written to the sysctl for the hold counts"
		echo "$MAX" >"$BATCH"
	fi
	check set-max-sysctl sysctl_is "$BATCH" "$MAX"
	check set-max-small-zones-keep-batch small_zones_keep
	# the batch must not lift the floor: high_min as the unpatched kernel computes it
	# shellcheck disable=SC2016 # awk's fields
	check set-max-high-min-as-stock cols_as /tmp/stock.tbl '$7' high_min
	if [ "$HAVE_PCPCTL" = 1 ]; then
		check pcpctl-show-max show_agrees
		check pcpctl-status-max status_agrees
	fi
}

HOLDS=
if trace_setup; then
	check holds-batch-0 holds_within 0
	set_max
	check holds-batch-max holds_within "$MAX"
	echo 0 >"$TRACE/events/kt/enable"
	echo 0 >"$TRACE/events/kmem/enable"
else
	fail holds "$WHY"
	set_max
fi
echo "# holds-summary: $KT_LABEL page ${PAGE_KB}k scale $KT_SCALE_MAX default $BOOT_BATCH bound $BOUND max $MAX largest$HOLDS"

if [ "$HAVE_SET" = 1 ]; then
	zi_table >/tmp/ref.tbl
	# 2: pcpctl knew the range; 1: it did not (no kernel config to read the
	# bound from) and the kernel's EINVAL was reported
	run pcpctl set --batch $((MAX + 1))
	if [ "$RC" = 2 ] || [ "$RC" = 1 ]; then
		pass pcpctl-set-max+1-refused
	else
		fail pcpctl-set-max+1-refused "exit $RC, expected 2 (pcpctl's range) or 1 (the kernel's EINVAL)"
	fi
	# shellcheck disable=SC2016 # awk's fields
	check pcpctl-set-max+1-unchanged cols_as /tmp/ref.tbl '$6' batches
	run pcpctl reset
	check pcpctl-reset-exit rc_is 0
	check pcpctl-reset-sysctl sysctl_is "$BATCH" 0
else
	[ "$HAVE_PCPCTL" = 0 ] || skip pcpctl-set "pcpctl set --help does not describe --batch"
	echo 0 >"$BATCH"
fi
# shellcheck disable=SC2016 # awk's fields
check reset-batches-as-boot cols_as /tmp/boot.tbl '$6' batches
# shellcheck disable=SC2016 # awk's fields
check reset-high-min-max-as-stock cols_as /tmp/stock.tbl '$6, $7, $8' 'batch, high_min, high_max'
