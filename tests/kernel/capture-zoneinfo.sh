#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Boot Debian's stock 6.1 and 6.12 cloud kernels under QEMU (TCG) in three
# machine shapes and record /proc/zoneinfo before and after
# `echo 8 > /proc/sys/vm/percpu_pagelist_high_fraction` (written from CPU 0),
# as fixtures for the zoneinfo parser tests.
#
# usage: tests/kernel/capture-zoneinfo.sh [SERIES...]     (default: 6.1 6.12)
# env:   PCPCTL_KCACHE  cache of kernel packages (default /var/cache/pcpctl-kernel)
#        KT_OUT         where to write fixtures (default tests/fixtures/zoneinfo)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/kernel/lib.sh
. "$here/lib.sh"

out=${KT_OUT:-$here/../fixtures/zoneinfo}
mkdir -p "$out"
out=$(cd "$out" && pwd)
series_list=("$@")
[ ${#series_list[@]} -gt 0 ] || series_list=(6.1 6.12)
topologies=(1cpu 4cpu-2node cpuless-node)

kt_need_boot_tools
work=$(mktemp -d "${TMPDIR:-/tmp}/kt-capture.XXXXXX")
trap 'rm -rf "$work"' EXIT

initrd=$work/initrd.gz
kt_mk_initramfs "$initrd" "$here/capture-guest.sh"

write_meta() { # FILE RUN_DIR SYSCTL_SECTION KERNEL NOTE
	local f=$1 d=$2 sec=$3 k=$4 note=$5
	{
		echo "# $note"
		echo "uname_r=$(kt_section "$d/data.log" uname)"
		echo "debian_package=$(kt_debian_kernel_desc "$k")"
		kt_section "$d/data.log" "$sec"
		kt_section "$d/data.log" topology
		# temporary paths replaced by placeholders
		echo "qemu=$(sed -e "s|$d/|\$OUT/|g" -e "s|$work/|\$WORK/|g" \
			-e "s|$KT_CACHE/|\$PCPCTL_KCACHE/|g" "$d/qemu.cmdline")"
	} >"$f"
}

failed=0
for series in "${series_list[@]}"; do
	kernel=$(kt_debian_kernel "$series")
	for topo in "${topologies[@]}"; do
		name=debian-$series-$topo
		d=$work/$name
		kt_log "booting $name ($kernel)"
		if ! kt_boot "$kernel" "$initrd" "$d" "$topo"; then
			kt_log "$name: guest did not finish; console tail:"
			tail -n 30 "$d/console.log" >&2
			failed=1
			continue
		fi
		if ! grep -q '^@@KT-END write-frac8 rc=0@@$' "$d/data.log"; then
			kt_log "$name: writing percpu_pagelist_high_fraction failed"
			failed=1
		fi
		kt_section "$d/data.log" zoneinfo >"$out/$name.zoneinfo"
		kt_section "$d/data.log" zoneinfo-frac8 >"$out/$name-frac8.zoneinfo"
		write_meta "$out/$name.meta" "$d" sysctl "$kernel" \
			"/proc/zoneinfo at boot, read on CPU 0"
		write_meta "$out/$name-frac8.meta" "$d" sysctl-frac8 "$kernel" \
			"/proc/zoneinfo after echo 8 > percpu_pagelist_high_fraction; write and read on CPU 0"
		kt_log "$name: $(grep -c '^ *cpu: ' "$out/$name.zoneinfo") pagesets"
	done
done
exit $failed
