#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Every script of scripts/ answers --help with its usage and exit 0, and an
# unknown option with its usage on stderr and exit 2, and neither runs
# anything: no build, no package, no file written in the tree.
# Usage: scripts-help.sh SOURCE_DIR
set -u
src=$(realpath "$1")
. "$(dirname "$(realpath "$0")")/../lib.sh"
workdir
cp -a "$src/scripts" "$work/scripts"
for s in "$work"/scripts/*; do
	name=scripts/${s##*/}
	before=$(find "$work" | sort)
	# wait(b): a script that ignored --help would install, build or test: 10 s bounds it.
	timeout 10 "$s" --help >"$work/out" 2>"$work/err"
	rc=$?
	check "$name --help exits 0 (got $rc)" "[ $rc = 0 ]"
	check "$name --help prints its usage" "grep -qi '^usage: ' $work/out && [ ! -s $work/err ]"
	# wait(b): as above.
	timeout 10 "$s" --no-such-option >"$work/out" 2>"$work/err"
	rc=$?
	check "$name --no-such-option exits 2 (got $rc)" "[ $rc = 2 ]"
	check "$name --no-such-option prints its usage on stderr" "grep -qi 'usage: ' $work/err && [ ! -s $work/out ]"
	rm -f "$work/out" "$work/err"
	check "$name wrote nothing" "[ \"\$(find $work | sort)\" = '$before' ]"
done
finish
