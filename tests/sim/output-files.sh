#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The files root's sweep and compare write: --csv replaced
# atomically, never written through a link; --workload-log opened without
# following one, never another user's file or a hard link, and each made
# 0644 whatever the umask.
# Usage: output-files.sh PCPCTL-SIM FIXTURE_DIR (as root)
set -u
sim=$(realpath "$1")
fixtures=$(realpath "$2")
if [ "$(id -u)" != 0 ]; then
	echo "SKIP: the other user's links take root to plant"
	exit 77
fi
. "$(dirname "$(realpath "$0")")/../lib.sh"
workdir

t=$work/tree
sysroot_tree "$t" "$fixtures/zoneinfo/debian-6.1-4cpu-2node.zoneinfo" --sim percpu_pagelist_batch=0 percpu_pagelist_high_fraction=0 >/dev/null

# Root's file, and a directory of nobody's (not sticky, so the kernel's
# fs.protected_symlinks does not guard it) where nobody planted links to it.
victim=$work/victim
echo "root's own" >"$victim"
pub=$work/pub
mkdir "$pub"
chown nobody "$pub"
chmod 0777 "$pub"
for f in sweep.csv compare.csv log; do
	ln -s "$victim" "$pub/$f"
	chown -h nobody "$pub/$f"
done
untouched() { [ "$(cat "$victim")" = "root's own" ] && [ "$(stat -c %a "$victim")" = 644 ]; }
chmod 0644 "$victim"

"$sim" --sysroot "$t" sweep --fraction 0,8 --tasks 1 --warmup 0 --csv "$pub/sweep.csv" \
	-- true >"$work/out" 2>"$work/err"
check "sweep --csv over nobody's link exits 0" "[ $? = 0 ]"
check "root's file is untouched" "untouched"
check "the link was replaced by the CSV" "[ ! -L $pub/sweep.csv ] && head -1 $pub/sweep.csv | grep -q '^fraction,hmean,'"

"$sim" compare --csv "$pub/compare.csv" "$fixtures/sweep/base.json" "$fixtures/sweep/other.json" \
	>"$work/out" 2>"$work/err"
check "compare --csv over nobody's link exits 0" "[ $? = 0 ]"
check "root's file is untouched" "untouched"
check "the link was replaced by the CSV" "[ ! -L $pub/compare.csv ] && head -1 $pub/compare.csv | grep -q '^tasks,'"

"$sim" --sysroot "$t" sweep --fraction 8 --tasks 1 --warmup 0 --workload-log "$pub/log" \
	-- echo written >"$work/out" 2>"$work/err"
check "--workload-log through a link: exits 1" "[ $? = 1 ]"
check "naming the link" "grep -q 'cannot write $pub/log: a symbolic link' $work/err"
check "root's file is untouched" "untouched"

rm "$pub/log"
ln "$victim" "$pub/log"
"$sim" --sysroot "$t" sweep --fraction 8 --tasks 1 --warmup 0 --workload-log "$pub/log" \
	-- echo written >"$work/out" 2>"$work/err"
check "--workload-log a hard link to root's file: exits 1" "[ $? = 1 ] && grep -q 'more than one hard link' $work/err"
check "root's file is untouched" "untouched"

rm "$pub/log"
echo "nobody's" >"$pub/log"
chown nobody "$pub/log" && chmod 0666 "$pub/log" # one root could open
"$sim" --sysroot "$t" sweep --fraction 8 --tasks 1 --warmup 0 --workload-log "$pub/log" \
	-- echo written >"$work/out" 2>"$work/err"
check "--workload-log another user's file: exits 1" "[ $? = 1 ] && grep -q \"another user's file\" $work/err"
check "which is left as it was" "[ \"\$(cat $pub/log)\" = \"nobody's\" ]"

# Whatever the umask, what pcpctl makes is 0644; its own log is truncated.
echo old >"$work/own.log"
(
	umask 000
	"$sim" --sysroot "$t" sweep --fraction 0,8 --tasks 1 --warmup 0 --csv "$work/new.csv" \
		--workload-log "$work/new.log" -- echo written >"$work/out" 2>"$work/err"
	echo $? >"$work/rc"
	"$sim" compare --csv "$work/cmp.csv" "$fixtures/sweep/base.json" \
		"$fixtures/sweep/other.json" >/dev/null 2>&1
	"$sim" --sysroot "$t" sweep --fraction 8 --tasks 1 --warmup 0 \
		--workload-log "$work/own.log" -- echo written >/dev/null 2>&1
)
check "under umask 000 the sweep exits 0" "[ \"\$(cat $work/rc)\" = 0 ]"
check "its CSV is 0644" "[ \"\$(stat -c %a $work/new.csv)\" = 644 ]"
check "its log is 0644" "[ \"\$(stat -c %a $work/new.log)\" = 644 ]"
check "compare's CSV is 0644" "[ \"\$(stat -c %a $work/cmp.csv)\" = 644 ]"
check "root's own log is truncated and written" "[ \"\$(cat $work/own.log)\" = written ]"

finish
