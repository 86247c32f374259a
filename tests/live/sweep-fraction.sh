#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# pcpctl sweep --fraction 0,8,16 on this machine's kernel with short points:
# every point measured, and the original fraction back afterwards.
set -u
pcpctl=$1
sysctl=/proc/sys/vm/percpu_pagelist_high_fraction
original=$(cat $sysctl)
trap 'echo "$original" >$sysctl' EXIT
out=$(mktemp)
. "$(dirname "$(realpath "$0")")/../lib.sh"

# wait(c): a point's length; the assertions are relations.
"$pcpctl" sweep --fraction 0,8,16 --duration 1 --warmup 0.2 --json >"$out"
check "live sweep exits 0" "[ $? = 0 ]"
check "three points with throughput" "python3 -c 'import json; d=json.load(open(\"$out\")); assert [p[\"value\"] for p in d[\"points\"]]==[0,8,16] and all(p[\"hmean\"]>0 and p[\"vmstat\"][\"pgfault\"]>0 for p in d[\"points\"])'"
check "restored reported" "$(dirname "$(realpath "$0")")/../schema/flat.py $out | grep -q '\"restored\":true'"
check "original fraction back" "[ \"\$(cat $sysctl)\" = \"$original\" ]"
# Task counts as a second axis on this kernel.
# wait(c): a point's length; the assertions are relations.
"$pcpctl" sweep --fraction 0,8 --tasks 1,2 --duration 1 --warmup 0.2 --json >"$out"
check "2-D live sweep exits 0" "[ $? = 0 ]"
check "a point per (fraction, tasks), the host recorded" "python3 -c '
import json, os
d = json.load(open(\"$out\"))
assert [(p[\"value\"], p[\"tasks\"]) for p in d[\"points\"]] == [(0, 1), (0, 2), (8, 1), (8, 2)]
assert all(p[\"hmean\"] > 0 and p[\"high\"] > 0 for p in d[\"points\"])
assert all(0 <= p[\"lock_pct\"] <= 100 for p in d[\"points\"]), \"no lock share as root on the live kernel\"
# the parts under the pcp refill and drain: numbers where kallsyms has the function
names = {l.split()[2].split(\".\")[0] for l in open(\"/proc/kallsyms\") if l.split()[1] in \"tT\"}
for key, fns in ((\"lock_refill_pct\", (\"rmqueue_bulk\", \"__rmqueue_pcplist\")), (\"lock_drain_pct\", (\"free_pcppages_bulk\",))):
	want = any(f in names for f in fns)
	assert all((p[key] is not None) == want for p in d[\"points\"]), (key, want, d[\"points\"])
assert all((p[\"lock_refill_pct\"] or 0) + (p[\"lock_drain_pct\"] or 0) <= p[\"lock_pct\"] + 0.002 for p in d[\"points\"])
h = d[\"host\"]
assert h[\"name\"] == os.uname().nodename and h[\"kernel\"] == os.uname().release
assert h[\"online_cpus\"] == os.cpu_count() and h[\"numa_nodes\"] >= 1
'"
check "the live sweep's JSON against schema/sweep.json" \
	"$(dirname "$(realpath "$0")")/../schema/run.py --file sweep $out >/dev/null"
# An external workload that prints: its lines on stderr, the JSON intact.
"$pcpctl" sweep --fraction 0,8 --warmup 0 --json -- sh -c 'echo hello; echo oops >&2' \
	>"$out" 2>"$out.err"
check "printing workload exits 0" "[ $? = 0 ]"
check "its --json parses" "python3 -c 'import json; d=json.load(open(\"$out\")); assert len(d[\"points\"])==2'"
check "its lines on stderr" "grep -q '^hello\$' $out.err && grep -q '^oops\$' $out.err"
check "original fraction back after it" "[ \"\$(cat $sysctl)\" = \"$original\" ]"
rm -f "$out" "$out.err"
finish
