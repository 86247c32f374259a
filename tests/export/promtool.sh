#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# pcpctl export against Debian's promtool, on every zoneinfo fixture (zone
# gauges and per-CPU series), and its failures: nothing half-written, the
# documented exit codes.
# Usage: promtool.sh PCPCTL
set -u
here=$(cd "$(dirname "$0")" && pwd)
pcpctl=$(realpath "$1")
. "$(dirname "$(realpath "$0")")/../lib.sh"
workdir

need prometheus || { echo "FAIL cannot install prometheus (promtool)"; exit 1; }

fixtures=$here/../fixtures/zoneinfo
for f in "$fixtures"/*.zoneinfo; do
	name=$(basename "$f" .zoneinfo)
	case $name in
	synthetic-4.14*) sysctls=(percpu_pagelist_fraction=0) ;;
	patched-*batch310) sysctls=(percpu_pagelist_batch=310 percpu_pagelist_high_fraction=0) ;;
	*frac8) sysctls=(percpu_pagelist_high_fraction=8) ;;
	*) sysctls=(percpu_pagelist_high_fraction=0) ;;
	esac
	sysroot_tree "$work/$name" "$name.zoneinfo" --release 6.0 --page-kib 0 --nodes "" "${sysctls[@]}" >/dev/null
	for flag in '' --per-cpu; do
		# shellcheck disable=SC2086 # flag is empty or one word
		if ! "$pcpctl" --sysroot "$work/$name" export $flag >"$work/out" 2>"$work/err" ||
		   [ -s "$work/err" ]; then
			bad "$name export $flag: $(cat "$work/err")"
		elif msg=$(promtool check metrics <"$work/out" 2>&1) && [ -z "$msg" ]; then
			ok "$name export $flag: promtool check metrics passes ($(grep -c '^pcpctl_' "$work/out") series)"
		else
			bad "$name export $flag: promtool: $msg"
		fi
	done
done

t=$work/debian-6.12-4cpu-2node
# expect CODE MESSAGE-PATTERN ARGS...: exit code and stderr of one run.
expect() {
	local want=$1 pattern=$2
	shift 2
	"$pcpctl" "$@" >"$work/out" 2>"$work/err"
	local got=$?
	if [ "$got" = "$want" ] && grep -q -- "$pattern" "$work/err"; then
		ok "pcpctl $* exits $want: $(cat "$work/err")"
	else
		bad "pcpctl $*: exit $got, want $want; stderr: $(cat "$work/err")"
	fi
}
expect 1 "cannot write $work/missing/pcpctl.prom: No such file or directory" \
	--sysroot "$t" export --output "$work/missing/pcpctl.prom"
expect 2 '--output: give a file name' --sysroot "$t" export --output ''
expect 2 'export does not take --json' --sysroot "$t" export --json
expect 2 'unexpected argument' --sysroot "$t" export extra

# A failed read leaves the file that was there as it was.
mkdir "$work/textfile"
"$pcpctl" --sysroot "$t" export --output "$work/textfile/pcpctl.prom"
cp "$work/textfile/pcpctl.prom" "$work/before"
head -c 1500 "$t/proc/zoneinfo" >"$work/cut" && mv "$work/cut" "$t/proc/zoneinfo"
expect 1 'zoneinfo' --sysroot "$t" export --output "$work/textfile/pcpctl.prom"
cmp -s "$work/before" "$work/textfile/pcpctl.prom" && [ "$(ls -A "$work/textfile")" = pcpctl.prom ] &&
	ok "after the failure the old file is unchanged and nothing else is there" ||
	bad "the failed export touched the textfile directory: $(ls -A "$work/textfile")"
rm "$t/proc/sys/vm/percpu_pagelist_high_fraction"
mkdir "$t/proc/sys/vm/percpu_pagelist_high_fraction"
cp "$fixtures/debian-6.12-4cpu-2node.zoneinfo" "$t/proc/zoneinfo"
expect 1 'cannot read vm.percpu_pagelist_high_fraction' --sysroot "$t" export

finish
