#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A word that looks like an option is never a file or a COMMAND's unless it
# follows "--", POSIXLY_CORRECT or not, and sweep's COMMAND follows "--"
# (without that, "sweep ... /bin/echo --dry-run" under POSIXLY_CORRECT
# measured and wrote for real).
# Usage: posix-options.sh PCPCTL-SIM FIXTURE_DIR
set -u
sim=$(realpath "$1")
fixtures=$(realpath "$2")
. "$(dirname "$(realpath "$0")")/../lib.sh"
workdir && chmod 0755 "$work" # the COMMAND may run as nobody

t=$work/tree
sysroot_tree "$t" "$fixtures/zoneinfo/debian-6.1-4cpu-2node.zoneinfo" --sim percpu_pagelist_batch=0 percpu_pagelist_high_fraction=0 >/dev/null
untouched() { [ "$(cat "$t/proc/sys/vm/percpu_pagelist_high_fraction")" = 0 ] && [ ! -e "$t/run/pcpctl/journal" ]; }

for env in POSIXLY_CORRECT=1 POSIX_ME_HARDER=1 ""; do
	name=${env:-neither}
	pcpctl() { env -u POSIXLY_CORRECT -u POSIX_ME_HARDER ${env:+"$env"} "$sim" "$@"; }
	# wait(c): a dry run: nothing runs.
	pcpctl --sysroot "$t" sweep --fraction 8 --duration 1 /bin/echo --dry-run >"$work/out" 2>"$work/err"
	check "$name: a COMMAND before -- is a usage error" "[ $? = 2 ]"
	check "$name: that says where it goes" "grep -q 'COMMAND after --' $work/err"
	check "$name: no sweep ran" "untouched && [ ! -s $work/out ]"
	pcpctl --sysroot "$t" sweep --fraction 8 /bin/echo --csv "$work/x.csv" >"$work/out" 2>"$work/err"
	check "$name: an option after it is no lost value" "[ $? = 2 ] && ! grep -q 'out of memory' $work/err"
done

POSIXLY_CORRECT=1 "$sim" --sysroot "$t" sweep --fraction 8 --tasks 1 --warmup 0 --dry-run \
	-- /bin/echo --dry-run >"$work/out" 2>"$work/err"
check "after --, a COMMAND's own --dry-run is its own: a dry run of echo --dry-run" \
	"[ $? = 0 ] && grep -qx 'workload: /bin/echo --dry-run' $work/out && untouched"
POSIXLY_CORRECT=1 "$sim" --sysroot "$t" sweep --fraction 8 --tasks 1 --warmup 0 \
	--workload-log "$work/log" -- sh -c 'echo "env=$POSIXLY_CORRECT"' >"$work/out" 2>"$work/err"
check "the COMMAND still gets POSIXLY_CORRECT" "[ $? = 0 ] && grep -qx 'env=1' $work/log"

# The options before the command's name are the command's, POSIXLY_CORRECT or
# not: popt reads them with every command's, and stores them as the command's.
POSIXLY_CORRECT=1 "$sim" --sysroot "$t" --fraction 8 --dry-run set >"$work/out" 2>"$work/err"
check "set's options before its name: a dry run of fraction 8" \
	"[ $? = 0 ] && grep -q 'percpu_pagelist_high_fraction' $work/out && untouched"
POSIXLY_CORRECT=1 "$sim" --label first --label second compare "$fixtures/sweep/base.json" \
	"$fixtures/sweep/other.json" >"$work/out" 2>"$work/err"
check "compare's --label, twice before its name: both columns named" \
	"[ $? = 0 ] && grep -q first $work/out && grep -q second $work/out"

POSIXLY_CORRECT=1 "$sim" compare "$fixtures/sweep/base.json" --csv "$work/c.csv" \
	"$fixtures/sweep/other.json" >"$work/out" 2>"$work/err"
check "compare: an option after a FILE under POSIXLY_CORRECT is a usage error" \
	"[ $? = 2 ] && grep -q -- '--csv: an option after an argument' $work/err && [ ! -e $work/c.csv ]"
"$sim" compare "$fixtures/sweep/base.json" --csv "$work/c.csv" "$fixtures/sweep/other.json" \
	>"$work/out" 2>"$work/err"
check "and without it an option" "[ $? = 0 ] && [ -s $work/c.csv ]"

finish
