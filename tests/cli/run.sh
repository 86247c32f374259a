#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# CLI tests: run pcpctl over fixture trees and compare stdout, stderr and the
# exit code with the expected files.  Usage: run.sh PCPCTL [--update]
# PCPCTL_PATCHDIR: where that build installs the kernel patches (CTest sets
# it); the expected files say PATCHDIR instead, as they say ROOT.
# PCPCTL_SOURCE_PATCHDIR: the source's folder the build names when the
# installed one is absent (CTest sets it); empty in a package build
# (debian/rules), which names the installed folder only, before it exists.
set -u
patchdir=${PCPCTL_PATCHDIR:?the patch directory of this build}
source_patchdir=${PCPCTL_SOURCE_PATCHDIR-unset}
here=$(cd "$(dirname "$0")" && pwd)
pcpctl=$(realpath "$1")
update=${2:-}
fixtures=$here/../fixtures/zoneinfo
srcpatches=$(cd "$here/../../patches" && pwd)
. "$(dirname "$(realpath "$0")")/../lib.sh"
workdir

# tree NAME ZONEINFO RELEASE [SYSCTL=VALUE...]: no page size, no nodes.
tree() {
	local name=$1 zoneinfo=$2 release=$3
	shift 3
	sysroot_tree "$work/$name" "$zoneinfo" --release "$release" --page-kib 0 --nodes "" "$@" >/dev/null
}
tree t612 "$fixtures/debian-6.12-4cpu-2node.zoneinfo" 6.12.117+deb12-cloud-amd64 \
	percpu_pagelist_high_fraction=0
tree t61 "$fixtures/debian-6.1-cpuless-node.zoneinfo" 6.1.0-57-cloud-amd64 \
	percpu_pagelist_high_fraction=0
tree t618 "$fixtures/live-6.18-2cpu.zoneinfo" 6.18.44-fc-v657 percpu_pagelist_high_fraction=0
tree t414 "$fixtures/synthetic-4.14-2node-sparse.zoneinfo" 4.14.336 percpu_pagelist_fraction=0
tree patched "$fixtures/debian-6.12-4cpu-2node.zoneinfo" 6.12.117-pcpctl \
	percpu_pagelist_batch=310 percpu_pagelist_high_fraction=8
tree truncated /dev/null 6.12.0
head -n 40 "$fixtures/debian-6.12-4cpu-2node.zoneinfo" | head -c 1500 >"$work/truncated/proc/zoneinfo"
tree nozoneinfo /dev/null 6.12.0
rm "$work/nozoneinfo/proc/zoneinfo"
tree crlf /dev/null 6.18.0 percpu_pagelist_high_fraction=0
sed 's/$/\r/' "$fixtures/live-6.18-2cpu.zoneinfo" >"$work/crlf/proc/zoneinfo"
# The sysctl file the release says this kernel has is missing.
tree nohf "$fixtures/live-6.18-2cpu.zoneinfo" 6.18.0
tree nofrac "$fixtures/synthetic-4.14-2node-sparse.zoneinfo" 4.14.336
tree badsysctl "$fixtures/live-6.18-2cpu.zoneinfo" 6.18.0 percpu_pagelist_high_fraction=abc
# A sysctl.d file named in Latin-1: its name is no UTF-8, and JSON must be.
tree latin1 "$fixtures/live-6.18-2cpu.zoneinfo" 6.18.0 percpu_pagelist_high_fraction=0
mkdir -p "$work/latin1/etc/sysctl.d"
echo 'vm.percpu_pagelist_high_fraction = 8' >"$work/latin1/etc/sysctl.d/50-caf"$'\xe9'".conf"

# tuned installed: its daemon alone (reapply_sysctl by default), or its
# configuration turning reapply_sysctl off.
tree tuned "$fixtures/live-6.18-2cpu.zoneinfo" 6.18.0 percpu_pagelist_high_fraction=0
mkdir -p "$work/tuned/usr/sbin"
: >"$work/tuned/usr/sbin/tuned"
tree tunedoff "$fixtures/live-6.18-2cpu.zoneinfo" 6.18.0 percpu_pagelist_high_fraction=0
mkdir -p "$work/tunedoff/etc/tuned"
printf '%s\n' '# Global tuned configuration file.' 'reapply_sysctl = 1' \
	'reapply_sysctl = No  # the profile wins' >"$work/tunedoff/etc/tuned/tuned-main.conf"

while IFS=$'\t' read -r name want tree args; do
	case $name in '#'*|'') continue ;; esac
	root=$work/$tree
	# shellcheck disable=SC2086 # args are split as written in cases
	"$pcpctl" --sysroot "$root" $args >"$work/out" 2>"$work/err"
	got=$?
	# The patch directory a message names must exist: installed, or in a
	# build tree the source's, which the expected files call PATCHDIR alike.
	for named in $(sed -n 's#.*kernel patch \(in\|from\) \(/[^ ]*\)/.*#\2#p' "$work/out" "$work/err"); do
		[ -d "$named" ] || { [ -z "$source_patchdir" ] && [ "$named" = "$patchdir" ]; } ||
			bad "$name: names $named, which does not exist"
	done
	sed -i "s|$work/$tree|ROOT|g; s|$patchdir|PATCHDIR|g; s|$srcpatches|PATCHDIR|g" "$work/err"
	sed -i "s|$work/$tree|ROOT|g; s|$patchdir|PATCHDIR|g; s|$srcpatches|PATCHDIR|g" "$work/out"
	if [ "$update" = --update ]; then
		cp "$work/out" "$here/expected/$name.out"
		cp "$work/err" "$here/expected/$name.err"
	fi
	# JSON is UTF-8 (RFC 8259): a parser that decodes strictly takes every document.
	if [[ " $args " == *" --json "* || " $args " == *" -J "* ]] && [ "$got" = 0 ] && [[ " $args " != *" --help "* ]] &&
	   ! python3 -c 'import json, sys; json.loads(sys.stdin.buffer.read().decode("utf-8", "strict"))' \
		<"$work/out" 2>"$work/json-err"; then
		bad "$name: not strict JSON: $(tail -1 "$work/json-err")"
	elif [ "$got" != "$want" ]; then
		bad "$name: exit $got, expected $want"; cat "$work/err"
	elif ! diff -u "$here/expected/$name.out" "$work/out" ||
	     ! diff -u "$here/expected/$name.err" "$work/err"; then
		bad "$name: output differs"
	else
		ok "$name"
	fi
done <"$here/cases"
# The man page's "pcpctl show" examples work on every era's tree: exit 0, no
# column twice, no empty field at the end of a raw line.  (--interval's run
# until stopped: tests/cli/watch.sh has them.)
man=$here/../../man/pcpctl.8
# wait(c): not a wait: the man page's --interval examples are left out (they run until stopped;
#   tests/cli/watch.sh has them).
examples=$(sed -n '/^\.SH EXAMPLES/,/^\.SH /p' "$man" | sed -n 's/\\-/-/g; s/^pcpctl \(show .*\)/\1/p' | grep -v -- --interval)
[ -n "$examples" ] || bad "no show examples in $man"
while read -r example; do
	for t in t618 t612 t414; do
		# shellcheck disable=SC2086 # split as the page writes it
		"$pcpctl" --sysroot "$work/$t" $example >"$work/out" 2>"$work/err"
		rc=$?
		if [ $rc != 0 ]; then
			bad "man example '$example' on $t: exit $rc"; cat "$work/err"
		elif head -1 "$work/out" | tr -s ' ' '\n' | grep -v '^$' | sort | uniq -d | grep -q .; then
			bad "man example '$example' on $t: a column twice: $(head -1 "$work/out")"
		elif [[ $example == *--raw* ]] && grep -q ' $' "$work/out"; then
			bad "man example '$example' on $t: empty trailing fields"
		else
			ok "man example '$example' on $t"
		fi
	done
done <<<"$examples"
finish
