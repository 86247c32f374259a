# shellcheck shell=sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Guest side of tests/kernel/lib.sh (busybox sh).  Installed as /kt/lib.sh in
# the initramfs; everything the guest prints goes to ttyS1 on the host.

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
