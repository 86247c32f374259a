#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Full and read-only file systems under the simulated kernel (root: mounts
# small tmpfs instances in its tree).  /run/pcpctl full: the change is
# refused before the kernel is touched, or, when the journal fits but its
# commit record does not, rolled back.  /etc/sysctl.d read-only or full
# with --persist: refused before the kernel is written when read-only,
# rolled back when full.  Each time with a message naming the path
# and the cause, and the sysctls and the sysctl.d file as before.
# Usage: disk-full.sh PCPCTL-SIM FIXTURE_DIR
set -u
sim=$(realpath "$1")
fixtures=$(realpath "$2")/zoneinfo
. "$(dirname "$0")/lib.sh"
if [ "$(id -u)" != 0 ]; then echo "SKIP: needs root to mount tmpfs"; exit 77; fi
mounts=()
at_exit 'for m in "${mounts[@]}"; do umount "$m"; done'
# small DIR PAGES: a tmpfs of that many pages at DIR
small() { mount -t tmpfs -o "size=$(($2 * 4))k,mode=0700" chaos "$1" && mounts=("$1" "${mounts[@]}"); }
# fill DIR PAGES_LEFT: take every page but PAGES_LEFT
fill() {
	dd if=/dev/zero of="$1/filler" bs=4k 2>/dev/null
	[ "$2" = 0 ] || truncate -s "-$(($2 * 4))k" "$1/filler"
}
# expect NAME WANT_EXIT PATTERN TREE ARGS...: exit, message and nothing changed
expect() {
	local name=$1 want=$2 pattern=$3 t=$4 before rc
	shift 4
	before=$(snapshot "$t")
	"$sim" --sysroot "$t" "$@" >"$work/out" 2>"$work/err"
	rc=$?
	[ $rc = "$want" ] || { bad "$name: exit $rc, expected $want"; sed 's/^/    /' "$work/err"; }
	grep -q -- "$pattern" "$work/err" || { bad "$name: no \"$pattern\" in:"; sed 's/^/    /' "$work/err"; }
	[ "$(snapshot "$t")" = "$before" ] || bad "$name: the settings changed"
	[ "$(cat "$t/sim/writes" 2>/dev/null || echo 0)" = "${writes:-0}" ] ||
		bad "$name: the kernel was written $(cat "$t/sim/writes") times, expected ${writes:-0}"
	ok
}

t=$work/full-run
simtree "$t"
mkdir -p "$t/run/pcpctl" && small "$t/run/pcpctl" 4 && fill "$t/run/pcpctl" 0
writes=0 expect "/run/pcpctl full: refused before any write" 1 \
	"cannot .*run/pcpctl/journal.*No space left on device" "$t" set --fraction 8 --batch 100
rm -f "$t/sim/writes"
# The journal's page fits, the commit record's page does not: rolled back.
rm "$t/run/pcpctl/filler" && fill "$t/run/pcpctl" 1
writes=4 expect "/run/pcpctl full at the commit: rolled back" 1 \
	"cannot write the journal .*run/pcpctl/journal: No space left on device" "$t" \
	set --fraction 8 --batch 100
grep -q 'the old settings were restored' "$work/out" || bad "the commit failure's report does not say it rolled back"
[ -z "$(leftovers "$t")" ] || bad "left $(leftovers "$t")"
rm "$t/run/pcpctl/filler" && rm -f "$t/sim/writes"
"$sim" --sysroot "$t" set --fraction 8 >/dev/null 2>&1 || bad "set fails with the space back"

t=$work/ro-sysctld
simtree "$t"
small "$t/etc/sysctl.d" 4 && mount -o remount,ro "$t/etc/sysctl.d"
# Found up front, as --persist-only finds it: the dry run says what the change would.
writes=0 expect "/etc/sysctl.d read-only: a dry run of --persist is refused" 4 \
	"cannot write to .*etc/sysctl.d: Read-only file system" "$t" set --fraction 8 --persist --dry-run
writes=0 expect "/etc/sysctl.d read-only: refused before any write" 4 \
	"cannot write to .*etc/sysctl.d: Read-only file system" "$t" set --fraction 8 --persist
writes=0 expect "/etc/sysctl.d read-only: reset --persist likewise" 4 \
	"cannot write to .*etc/sysctl.d: Read-only file system" "$t" reset --persist --dry-run
[ -z "$(leftovers "$t")" ] || bad "left $(leftovers "$t")"

t=$work/full-sysctld
simtree "$t"
small "$t/etc/sysctl.d" 4 && fill "$t/etc/sysctl.d" 0
writes=2 expect "/etc/sysctl.d full: rolled back" 1 \
	"cannot write .*etc/sysctl.d/90-pcpctl.conf: No space left on device" "$t" set --fraction 8 --persist
[ -z "$(leftovers "$t")" ] || bad "left $(leftovers "$t")"
finish
