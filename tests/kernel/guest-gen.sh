# shellcheck shell=sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Guest half of tests/kernel/run.sh's generation guests (Debian's prebuilt
# kernels of every generation, architecture and page size; busybox sh,
# sourced by the initramfs init).
#
# /kt/env sets KT_ARCH (amd64|arm64|ppc64el).  Every write, echo's and
# pcpctl's, runs pinned to CPU 0 with /proc/zoneinfo read on CPU 0 before
# and after it: blocks NN-NAME.before, NN-NAME.after and NN-NAME.step (the
# golden captures, see tests/fixtures/golden/README.md).  Each pcpctl
# command's exit code is an "EXIT name rc" line of block exits, and a
# "PASS name" or "FAIL name: why" line says whether it is the right one.

. /kt/env
SYS=/proc/sys/vm
FRAC=$SYS/percpu_pagelist_high_fraction
[ -e "$FRAC" ] || FRAC=$SYS/percpu_pagelist_fraction

gen_meta() {
	echo "uname_r=$(uname -r)"
	echo "arch=$KT_ARCH"
	echo "page_size=$(awk '/^KernelPageSize:/ { print $2 * 1024; exit }' /proc/self/smaps)"
	echo "nodes=$(ls -d /sys/devices/system/node/node* | wc -l)"
	echo "cpus=$(grep -c '^processor' /proc/cpuinfo)"
	if [ -e "$SYS/percpu_pagelist_batch" ]; then echo patched=1; else echo patched=0; fi
	echo "hpage_pmd_size=$(cat /sys/kernel/mm/transparent_hugepage/hpage_pmd_size 2>/dev/null)"
}

# sysctls PREFIX : PREFIX.name=value of every percpu_pagelist_* sysctl
sysctls() {
	for _f in "$SYS"/percpu_pagelist_*; do
		[ -e "$_f" ] || continue
		echo "$1.${_f##*/}=$(cat "$_f")"
	done
}

# step NN NAME BY COMMAND : run COMMAND (a shell line) on CPU 0 with the
# zoneinfo and sysctls around it; its exit code in $RC
step() {
	_nn=$1 _name=$2 _by=$3 _cmd=$4
	ktg_section "$_nn-$_name.before" taskset -c 0 cat /proc/zoneinfo
	sysctls before >/tmp/step.before
	echo "# \$ $_cmd"
	taskset -c 0 sh -c "$_cmd" >/tmp/out 2>&1
	RC=$?
	sed 's/^/# /' /tmp/out
	echo "# [exit $RC]"
	ktg_section "$_nn-$_name.after" taskset -c 0 cat /proc/zoneinfo
	{
		echo "by=$_by"
		echo "command=$_cmd"
		echo "cpu=0"
		echo "exit=$RC"
		cat /tmp/step.before
		sysctls after
	} >/tmp/step
	ktg_section "$_nn-$_name.step" cat /tmp/step
}

# run_cpu0 NAME COMMAND : a pcpctl command without capture, pinned to CPU 0
# (not guest-lib.sh's run CMD...)
run_cpu0() {
	echo "# \$ $2"
	taskset -c 0 sh -c "$2" >/tmp/out 2>&1
	RC=$?
	sed 's/^/# /' /tmp/out
	echo "# [exit $RC]"
}

# expect NAME WANT : record the exit code of the last command and judge it
expect() {
	echo "EXIT $1 $RC" >>/tmp/exits
	if [ "$RC" = "$2" ]; then
		echo "PASS $1: exit $RC"
	else
		echo "FAIL $1: exit $RC, expected $2: $(head -c 300 /tmp/out | tr '\n' ' ')"
	fi
}

# settle VALUE : before a command that must not inherit a failed one's state,
# the fraction back to VALUE and any journal left behind discarded, said in
# the transcript (a failure above stays failed; this keeps each exit code
# about its own command)
settle() {
	if [ "$(cat "$FRAC")" != "$1" ]; then
		echo "# settle: ${FRAC##*/} is $(cat "$FRAC"), writing $1"
		echo "$1" >"$FRAC"
	fi
	if pcpctl rollback --discard >/tmp/out 2>&1; then
		grep -qi 'nothing to discard' /tmp/out || sed 's/^/# settle: /' /tmp/out
	else
		sed 's/^/# settle: /' /tmp/out
	fi
}

frac_is() { # NAME VALUE
	_v=$(cat "$FRAC")
	if [ "$_v" = "$2" ]; then echo "PASS $1: ${FRAC##*/} $_v"; else echo "FAIL $1: ${FRAC##*/} is $_v, expected $2"; fi
}

# ---------------------------------------------------------------------------
echo "# kernel $(uname -r), $KT_ARCH, $(grep -c '^processor' /proc/cpuinfo) cpus, nodes: $(ls -d /sys/devices/system/node/node* | sed 's/.*node//' | tr '\n' ' ')"
ktg_section meta gen_meta
ktg_section topology ktg_topology
: >/tmp/exits

# the kernel alone
step 01 echo-8 echo "echo 8 >$FRAC"
step 02 echo-0 echo "echo 0 >$FRAC"
step 03 echo-100 echo "echo 100 >$FRAC"
step 04 echo-0 echo "echo 0 >$FRAC"

if [ -x /usr/bin/pcpctl ]; then
	run_cpu0 show "pcpctl show"
	expect show 0
	run_cpu0 status "pcpctl status"
	expect status 0
	step 05 pcpctl-fraction-8 pcpctl "pcpctl set --fraction 8"
	expect set-fraction-8 0
	frac_is set-fraction-8-sysctl 8
	step 06 pcpctl-fraction-100 pcpctl "pcpctl set --fraction 100"
	expect set-fraction-100 0
	frac_is set-fraction-100-sysctl 100
	step 07 pcpctl-reset pcpctl "pcpctl reset"
	expect reset 0
	frac_is reset-sysctl 0
	settle 0
	run_cpu0 dry-run "pcpctl set --fraction 8 --dry-run"
	expect dry-run 0
	frac_is dry-run-unchanged 0
	# A write that fails: vm.overcommit_memory reads 0 like the real file
	# and refuses 8 (its range is 0..2), so pcpctl gets past its checks and
	# the kernel says no.  pcpctl must restore and exit 1.
	settle 0
	if mount --bind "$SYS/overcommit_memory" "$FRAC"; then
		run_cpu0 forced-failure "pcpctl set --fraction 8"
		expect forced-failure 1
		umount "$FRAC"
	else
		RC=none
		expect forced-failure 1
	fi
	frac_is forced-failure-unchanged 0
	run_cpu0 rollback "pcpctl rollback"
	expect rollback 0
	frac_is rollback-sysctl 0
	run_cpu0 status-after "pcpctl status"
	expect status-after 0
else
	echo "SKIP pcpctl: no pcpctl binary for $KT_ARCH"
fi
ktg_section exits cat /tmp/exits
