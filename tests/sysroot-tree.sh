#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The one builder of the fake kernels' trees that every test gives pcpctl as
# --sysroot (lib.sh's sysroot_tree and lib.py's sysroot_tree run it): DIR is
# made anew and printed.
#
# Usage: sysroot-tree.sh DIR ZONEINFO [OPTION...] [KEY=VALUE...]
#   ZONEINFO        proc/zoneinfo's text: a file (/dev/null: empty), or a
#                   name in tests/fixtures/zoneinfo
#   --release R     proc/sys/kernel/osrelease (default 6.1.0-57-pcpctl)
#   --page-kib K    proc/self/smaps's KernelPageSize (default 4; 0: no smaps,
#                   as in a capture that did not record it)
#   --scale-pages   the zoneinfo's page counts divided by K/4: a capture of a
#                   4 KiB kernel as the same memory in K KiB pages
#   --nodes LISTS   node cpulists, ';'-separated (default "0-1;2-3"; a
#                   trailing ';' adds a CPU-less node; "" no node directory,
#                   a kernel without NUMA)
#   --sim           sim/, the simulated kernel's own state (pcpctl-sim)
#   --sysctl-d      etc/sysctl.d, for --persist
#   KEY=VALUE       proc/sys/vm/KEY
set -euo pipefail
fixtures=$(cd "$(dirname "$0")/fixtures/zoneinfo" && pwd)
usage() { echo "usage: sysroot-tree.sh DIR ZONEINFO [--release R] [--page-kib K] [--scale-pages] [--nodes LISTS] [--sim] [--sysctl-d] [KEY=VALUE...]" >&2; exit 2; }
[ $# -ge 2 ] || usage
t=$1 zoneinfo=$2
shift 2
[ -e "$zoneinfo" ] || zoneinfo=$fixtures/$zoneinfo
[ -e "$zoneinfo" ] || { echo "sysroot-tree.sh: no zoneinfo $2" >&2; exit 2; }
release=6.1.0-57-pcpctl kib=4 scale=0 nodes="0-1;2-3" sim=0 sysctl_d=0
while [ $# -gt 0 ]; do
	case $1 in
	--release) release=${2?}; shift 2 ;;
	--page-kib) kib=${2?}; shift 2 ;;
	--scale-pages) scale=1; shift ;;
	--nodes) nodes=${2?}; shift 2 ;;
	--sim) sim=1; shift ;;
	--sysctl-d) sysctl_d=1; shift ;;
	--*) usage ;;
	*=*) break ;;
	*) usage ;;
	esac
done
rm -rf "$t"
mkdir -p "$t/proc/sys/kernel" "$t/proc/sys/vm"
if [ "$scale" = 1 ] && [ "$kib" -gt 4 ]; then
	awk -v f=$((kib / 4)) '/^ +(pages free|min|low|high|spanned|present|managed) +[0-9]+$/ {
		n = $NF; sub(/[0-9]+$/, int(n / f)) } { print }' "$zoneinfo" >"$t/proc/zoneinfo"
else
	cp "$zoneinfo" "$t/proc/zoneinfo"
fi
echo "$release" >"$t/proc/sys/kernel/osrelease"
if [ "$kib" != 0 ]; then
	mkdir -p "$t/proc/self"
	printf '%-16s%8s kB\n' KernelPageSize: "$kib" >"$t/proc/self/smaps"
fi
for kv; do
	case $kv in *=*) ;; *) usage ;; esac
	echo "${kv#*=}" >"$t/proc/sys/vm/${kv%%=*}"
done
if [ -n "$nodes" ]; then
	# The extra ';' keeps a trailing empty list (a CPU-less last node).
	IFS=';' read -ra lists <<<"$nodes;"
	i=0
	for l in "${lists[@]}"; do
		mkdir -p "$t/sys/devices/system/node/node$i"
		echo "$l" >"$t/sys/devices/system/node/node$i/cpulist"
		i=$((i + 1))
	done
fi
[ "$sim" = 0 ] || mkdir "$t/sim"
[ "$sysctl_d" = 0 ] || mkdir -p "$t/etc/sysctl.d"
echo "$t"
