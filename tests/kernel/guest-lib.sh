# shellcheck shell=sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Guest side of tests/kernel/lib.sh (busybox sh).  Installed as /kt/lib.sh in
# the initramfs of every guest (kt_mk_initramfs) and sourced by its init before
# the guest script; everything the guest prints goes to ttyS1 on the host.
# Below the capture helpers: what the guest scripts share (guest-test.sh,
# guest-hold.sh, guest-debug.sh): the checks, the zoneinfo and pcpctl JSON
# readers and the probe of the batch sysctl's largest value.

# ktg_section NAME CMD [ARG]... : run CMD, framing its stdout+stderr as a block
# the host can extract with kt_section.
ktg_section() {
	_n=$1
	shift
	echo "@@KT-BEGIN $_n@@"
	"$@" 2>&1
	_rc=$?
	echo "@@KT-END $_n rc=$_rc@@"
	return $_rc
}

# ktg_sysctls : name=value of every /proc/sys/vm/percpu_pagelist_* present.
ktg_sysctls() {
	for _f in /proc/sys/vm/percpu_pagelist_*; do
		[ -e "$_f" ] || continue
		echo "${_f##*/}=$(cat "$_f")"
	done
}

# ktg_topology : which CPUs and how much memory each node has.
ktg_topology() {
	echo "online_cpus=$(cat /sys/devices/system/cpu/online)"
	for _d in /sys/devices/system/node/node*; do
		[ -d "$_d" ] || continue
		echo "${_d##*/}_cpus=$(cat "$_d/cpulist")"
		echo "${_d##*/}_memtotal_kb=$(awk '/MemTotal/ { print $4 }' "$_d/meminfo")"
	done
}

# --- checks -----------------------------------------------------------------
# One "PASS name", "FAIL name: why" or "SKIP name: why" line per check; a
# helper that fails leaves its reason in $WHY.
pass() { echo "PASS $1"; }
fail() { echo "FAIL $1: $2"; }
skip() { echo "SKIP $1: $2"; }

# check NAME CMD... : PASS when CMD succeeds, else FAIL with $WHY
check() {
	_name=$1
	shift
	WHY=
	if "$@"; then pass "$_name"; else fail "$_name" "${WHY:-failed}"; fi
}

# run CMD... : run with output in the transcript, exit code in $RC, output in /tmp/out
run() {
	echo "# \$ $*"
	"$@" >/tmp/out 2>&1
	RC=$?
	sed 's/^/# /' /tmp/out
	echo "# [exit $RC]"
	return 0
}

# rc_is N : the last run's exit code was N
rc_is() {
	[ "$RC" = "$1" ] && return 0
	WHY="exit $RC, expected $1: $(head -c 200 /tmp/out | tr '\n' ' ')"
	return 1
}

# sysctl_is FILE VALUE : FILE reads VALUE
sysctl_is() {
	_v=$(cat "$1")
	[ "$_v" = "$2" ] && return 0
	WHY="${1##*/} is $_v, expected $2"
	return 1
}

# --- pagesets ---------------------------------------------------------------
# Pagesets of /proc/zoneinfo: "node zone cpu count high batch high_min
# high_max" per line ("-" for the last two before 6.13).
zi_table() {
	awk '
	function out() { if (cpu != "") print node, zone, cpu, count, high, batch, hmin, hmax; cpu = "" }
	/^Node / { out(); node = $2; sub(",", "", node); zone = $4; next }
	/^ +cpu: / { out(); cpu = $2; hmin = hmax = "-"; next }
	/^ +count: / { count = $2; next }
	/^ +high: / { high = $2; next }
	/^ +batch: / { batch = $2; next }
	/^ +high_min: / { hmin = $2; next }
	/^ +high_max: / { hmax = $2; next }
	/^ +vm stats threshold:/ || /^  pagesets/ || /^ +node_unreclaimable:/ { out() }
	END { out() }' /proc/zoneinfo
}

# cols_as TABLE COLS WHAT : the columns COLS (awk fields after node, zone,
# cpu) of every pageset as in TABLE (a zi_table); WHAT names them in $WHY
cols_as() {
	zi_table | awk "{ print \$1, \$2, \$3, $2 }" >/tmp/ca.now
	awk "{ print \$1, \$2, \$3, $2 }" "$1" >/tmp/ca.ref
	awk 'FILENAME == ARGV[1] { k = $1 " " $2 " " $3; $1 = $2 = $3 = ""; ref[k] = $0; next }
		{ k = $1 " " $2 " " $3; $1 = $2 = $3 = ""; seen[k] = 1
		  if (!(k in ref)) { printf "%s: extra; ", k; bad++ }
		  else if ($0 != ref[k]) { if (bad < 4) printf "node %s:%s (was%s); ", k, $0, ref[k]; bad++ } }
		END { for (k in ref) if (!(k in seen)) { printf "%s: missing; ", k; bad++ }
		      if (bad) printf "%d pagesets", bad; exit bad > 0 }' /tmp/ca.ref /tmp/ca.now >/tmp/why && return 0
	WHY="$3 differ from ${1##*/}: $(cat /tmp/why)"
	return 1
}

# json_table : pagesets of `pcpctl show --json` (stdin), the columns of zi_table
json_table() {
	tr -d ' \t\n' | sed 's/},{/}\n{/g' | awk '
	function v(k,   s) {
		if (!match($0, "\"" k "\":[^,}]*")) return "missing"
		s = substr($0, RSTART + length(k) + 3, RLENGTH - length(k) - 3)
		gsub("\"", "", s)
		return s
	}
	/"cpu":/ { print v("node"), v("zone"), v("cpu"), v("count"), v("high"), v("batch"), v("high_min"), v("high_max") }'
}

# json_val KEY < json : the raw value of "KEY": (quotes dropped)
json_val() {
	tr -d ' \t\n' | sed -n "s/.*\"$1\":\(\"[^\"]*\"\|[^,}]*\).*/\1/p" | tr -d '"'
}

# settings_of < status json : the members of its "settings" object (not "boot"'s)
settings_of() {
	tr -d ' \t\n' | sed -n 's/.*"settings":{\([^}]*\)}.*/\1/p'
}

# --- pcpctl against the kernel ----------------------------------------------
# show_read : /proc/zoneinfo's pagesets (zi_table) in /tmp/zi.before and
# /tmp/zi.after, read around `pcpctl show --json` on CPU 0, whose pagesets are
# in /tmp/show.tbl (json_table)
show_read() {
	zi_table >/tmp/zi.before
	taskset -c 0 pcpctl show --json >/tmp/show.json 2>/tmp/show.err || {
		WHY="pcpctl show --json failed: $(head -c 200 /tmp/show.err)"
		return 1
	}
	zi_table >/tmp/zi.after
	json_table </tmp/show.json >/tmp/show.tbl
	return 0
}

# show_agrees : the guest's show_agrees_once (show_read and its comparison)
# passes within ten attempts: high moves on its own from 6.7 (and can move
# and come back between the two reads around pcpctl); an attempt where
# pcpctl agrees with either read passes.
show_agrees() {
	# wait(a): high is the same in the two reads around pcpctl: 10 tries, not a time, in a guest
	#   that runs nothing else (used by guest-test.sh and guest-hold.sh).
	for _try in 1 2 3 4 5 6 7 8 9 10; do
		show_agrees_once && return 0
	done
	return 1
}

# status_read : `pcpctl status --json` in /tmp/status.json; $WHY empty, or
# naming the kernel it gives when that is not this one
status_read() {
	pcpctl status --json >/tmp/status.json 2>/tmp/status.err || {
		WHY="pcpctl status --json failed: $(head -c 200 /tmp/status.err)"
		return 1
	}
	WHY=
	_k=$(json_val kernel </tmp/status.json)
	[ "$_k" = "$(uname -r)" ] || WHY="kernel '$_k' != '$(uname -r)';"
	return 0
}

# --- the batch sysctl -------------------------------------------------------
# accepted_max : the largest value $BATCH (the guest's path of
# vm.percpu_pagelist_batch) accepts, by a bisection of writes; it is 0 again
# afterwards
accepted_max() {
	_lo=0
	_hi=65536
	while [ $((_hi - _lo)) -gt 1 ]; do
		_mid=$(((_lo + _hi) / 2))
		if (echo "$_mid" >"$BATCH") 2>/dev/null; then _lo=$_mid; else _hi=$_mid; fi
	done
	echo 0 >"$BATCH"
	echo "$_lo"
}
