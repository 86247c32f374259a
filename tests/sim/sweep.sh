#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# pcpctl sweep on the simulated kernel: a whole sweep with tiny points, the
# settings restored after an error, a signal, and (through rollback) kill -9.
# Usage: sweep.sh PCPCTL-SIM FIXTURE_DIR
set -u
sim=$(realpath "$1")
fixtures=$(realpath "$2")/zoneinfo
. "$(dirname "$(realpath "$0")")/../lib.sh"
workdir && chmod 0777 "$work" # the COMMANDs keep their state here, as nobody as root
# await (tests/lib.sh) polls here for: batch 31 set, batch 310 set, the killed sweep is gone, its workload
# is gone.
batch_is() { [ "$(cat "$1/proc/sys/vm/percpu_pagelist_batch")" = "$2" ]; } # batch_is TREE VALUE
# The JSON report with no blanks between tokens, for grep.
flat=$(dirname "$(realpath "$0")")/../schema/flat.py

tree() { sysroot_tree "$work/$1" "$fixtures/debian-6.1-4cpu-2node.zoneinfo" --sim percpu_pagelist_batch=0 percpu_pagelist_high_fraction=0; }
settings() { cat "$1"/proc/sys/vm/*; "$sim" --sysroot "$1" show -r -n -o BATCH,HIGH; }

t=$(tree whole)
orig=$(settings "$t")
# wait(c): a point's length; the assertions are counts and hmean > 0.
"$sim" --sysroot "$t" sweep --batch 31:93:31 --tasks 1 --duration 0.3 --warmup 0 --runs 2 \
	--json --csv "$work/s.csv" --plot "$work/s.svg" >"$work/out" 2>"$work/err"
check "whole sweep exits 0" "[ $? = 0 ]"
check "json names the parameter, the unit, the runs and their seconds" "$flat $work/out | grep -q '\"parameter\":\"batch\",\"workload\":\"page_fault1\",\"unit\":\"ops/s\",\"runs\":2,\"duration\":0.3,\"tasks\":1'"
check "three points" "[ \$($flat $work/out | grep -o '\"value\":' | wc -l) = 5 ]"
check "restored, and complete" "$flat $work/out | grep -q '\"restored\":true,\"complete\":true}'"
check "json parses" "python3 -c 'import json,sys; d=json.load(open(\"$work/out\")); assert [p[\"value\"] for p in d[\"points\"]]==[31,62,93]; assert all(len(p[\"samples\"])>=2 and p[\"hmean\"]>0 for p in d[\"points\"])'"
check "settings as before" "[ \"\$(settings $t)\" = \"\$orig\" ]"
check "no journal left" "[ ! -e $t/run/pcpctl/journal ]"
check "csv has a row per point" "[ \$(wc -l <$work/s.csv) = 4 ]"
# pcpctl(8)'s --csv paragraph names the header's columns, all and in order
man=$(dirname "$(realpath "$0")")/../../man/pcpctl.8
man_cols=$(awk '/^\.BI \\-\\-csv " FILE"/ { on = 1; next } on && /^\.TP/ { exit } on' "$man" |
	sed -n '/header/,$p' |
	sed -n 's/^\.BR\? \([a-z0-9]*\).*/\1/p' | grep -v '^fraction$' | paste -sd,)
check "the man page's --csv columns are the header's: $man_cols" "[ \"$man_cols\" = \"\$(head -1 $work/s.csv)\" ]"
check "svg is well-formed XML" "xmllint --noout $work/s.svg"
check "svg has one point per value" "[ \$(xmllint --xpath 'count(//*[local-name()=\"circle\"][contains(@class,\"point\")])' $work/s.svg) = 3 ]"

# Task counts as a second axis, the fraction pinned, the host recorded.
t=$(tree twod)
orig=$(settings "$t")
# wait(c): a point's length; the assertions are counts and hmean > 0.
"$sim" --sysroot "$t" sweep --batch 96,310 --with-fraction 8 --tasks 1,50%,2 --duration 0.3 \
	--warmup 0 --json --csv "$work/2d.csv" --plot "$work/2d.svg" >"$work/out" 2>"$work/err"
check "2-D sweep exits 0" "[ $? = 0 ]"
check "2-D --plot: a panel per task count, as plot draws the JSON" \
	"[ \"\$(xmllint --xpath '//*[@class=\"panel\"]/@id' $work/2d.svg | tr -d ' \\n')\" = 'id=\"tasks-1\"id=\"tasks-2\"' ] && xmllint --xpath '//*[@class=\"subtitle\"]/text()' $work/2d.svg | grep -qx '1 run of 0.3 s per point, fraction pinned at 8'"
check "2-D sweep: a point per (value, tasks), the pin and the host in JSON" "python3 -c '
import json
d = json.load(open(\"$work/out\"))
assert [(p[\"value\"], p[\"tasks\"]) for p in d[\"points\"]] == [(96, 1), (96, 2), (310, 1), (310, 2)], d[\"points\"]
assert d[\"task_counts\"] == [1, 2] and d[\"tasks\"] == 2
assert d[\"pinned\"] == {\"fraction\": 8}
# fraction 8 of this fixture gives one high whatever the batch: the point of pinning
assert len({p[\"high\"] for p in d[\"points\"]}) == 1 and d[\"points\"][0][\"high\"] > 0
assert [b[\"tasks\"] for b in d[\"best_by_tasks\"]] == [1, 2] and d[\"best\"][\"value\"] in (96, 310)
h = d[\"host\"]
assert h[\"kernel\"] == \"6.1.0-57-pcpctl\" and h[\"numa_nodes\"] == 2 and h[\"name\"] is None and h[\"online_cpus\"] is None
assert d[\"pcpctl_version\"]
'"
check "no lock share under --sysroot: null, and a warning says why" "python3 -c 'import json; assert all(p[\"lock_pct\"] is None and p[\"lock_refill_pct\"] is None and p[\"lock_drain_pct\"] is None for p in json.load(open(\"$work/out\"))[\"points\"])' && grep -q 'zone lock contention is not sampled (LOCK% and lock_pct are null): --sysroot: the live kernel alone' $work/err"
check "2-D csv: tasks and high per line" "[ \$(wc -l <$work/2d.csv) = 5 ] && head -1 $work/2d.csv | grep -q ',tasks,high,mean,p50,p99\$'"
check "2-D sweep restored batch and fraction" "[ \"\$(settings $t)\" = \"\$orig\" ]"
echo myhost >"$t/proc/sys/kernel/hostname"
printf 'processor\t: 0\nmodel name\t: Test CPU @ 2.0GHz\n\nprocessor\t: 1\nmodel name\t: Test CPU @ 2.0GHz\n' >"$t/proc/cpuinfo"
mkdir -p "$t/sys/devices/system/cpu" && echo 0-3 >"$t/sys/devices/system/cpu/online"
# wait(c): a point's length; the assertions are counts and hmean > 0.
"$sim" --sysroot "$t" sweep --batch 96 --tasks 1 --duration 0.2 --warmup 0 >"$work/txt" 2>/dev/null
check "text: TASKS and HIGH columns" "grep -q '^   BATCH TASKS    HIGH ' $work/txt"
check "one value, one task: singular" "grep -q '^sweep of batch over 1 value: page_fault1, 1 task, 1 run per point; HMEAN, MIN and MAX in ops/s\$' $work/txt"
"$sim" --sysroot "$t" sweep --batch 96,310 --tasks 1,2 --runs 2 --warmup 0 -- true >"$work/txt" 2>/dev/null
check "a COMMAND is told the task count, not said to run that many tasks" "grep -q '^sweep of batch over 2 values: true with PCPCTL_TASKS=1,2, 2 runs per point; HMEAN, MIN and MAX in runs/s\$' $work/txt && ! grep -q task $work/txt"
"$sim" --sysroot "$t" sweep --batch 96 --tasks 1 --duration 0.2 --warmup 0 --json >"$work/out" 2>/dev/null
check "host read through the sysroot" "python3 -c 'import json; h=json.load(open(\"$work/out\"))[\"host\"]; assert h==dict(name=\"myhost\", kernel=\"6.1.0-57-pcpctl\", cpu_model=\"Test CPU @ 2.0GHz\", online_cpus=4, numa_nodes=2), h'"
"$sim" --sysroot "$t" sweep --fraction 8 --tasks 1,2 --warmup 0 --runs 1 --metric 't=([0-9]+)' --json \
	-- sh -c 'echo t=$PCPCTL_TASKS' >"$work/out" 2>/dev/null
check "a COMMAND gets PCPCTL_TASKS" "python3 -c 'import json; assert [p[\"hmean\"] for p in json.load(open(\"$work/out\"))[\"points\"]]==[1,2]'"

# --precision: at least --duration, at most --max-duration, the interval reported.
# wait(c): counts of 1-s samples (seconds == len(samples)), not wall time.
"$sim" --sysroot "$t" sweep --fraction 8 --tasks 1 --precision 100% --duration 2 --max-duration 4 \
	--warmup 0 --json >"$work/out" 2>"$work/err"
# (how soon it stops depends on the noise: test_workload checks the stopping rule)
check "--precision: between --duration and --max-duration, with its interval" "python3 -c 'import json; p=json.load(open(\"$work/out\"))[\"points\"][0]; assert 2<=p[\"seconds\"]<=4 and len(p[\"samples\"])==p[\"seconds\"] and p[\"ci95_pct\"]>=0, p'"
"$sim" --sysroot "$t" sweep --fraction 8 --tasks 1 --precision 0.01% --duration 1 --max-duration 3 \
	--warmup 0 --json >"$work/out" 2>"$work/err"
check "a tight one stops at --max-duration" "python3 -c 'import json; p=json.load(open(\"$work/out\"))[\"points\"][0]; assert p[\"seconds\"]==3 or p[\"ci95_pct\"]<=0.01, p'"
check "and says so on stderr" "grep -q 'fraction 8 with 1 task: +-[0-9.]*% after [1-3] s\$' $work/err"

# --precision with a COMMAND: each run is a sample.  This one prints 110,
# 100, 110, ...: the interval is +-5.47% after 6 runs and +-4.74% after 7
# (Student's t of the mean of 1/x), so 5% takes exactly 7.
rm -f "$work/n"
# shellcheck disable=SC2016
alt='n=$(($(cat '"$work"'/n 2>/dev/null || echo 0) + 1)); echo $n >'"$work"'/n; echo r=$((100 + n % 2 * 10))'
"$sim" --sysroot "$t" sweep --fraction 8 --tasks 1 --precision 5% --warmup 0 --metric 'r=([0-9]+)' \
	--json -- sh -c "$alt" >"$work/out" 2>"$work/err"
check "--precision with a COMMAND exits 0" "[ $? = 0 ]"
check "it runs until the interval is within 5%: 7 runs" "python3 -c 'import json; p=json.load(open(\"$work/out\"))[\"points\"][0]; assert p[\"samples\"]==[110,100,110,100,110,100,110] and abs(p[\"ci95_pct\"]-4.740)<0.002 and p[\"seconds\"]>0, p'"
check "and says so on stderr" "grep -q '^pcpctl: fraction 8 with PCPCTL_TASKS=1: +-4.74% after [0-9.]* s, 7 runs\$' $work/err"
rm -f "$work/n"
"$sim" --sysroot "$t" sweep --fraction 8 --tasks 1 --precision 100% --warmup 0 --metric 'r=([0-9]+)' \
	--json -- sh -c "$alt" >"$work/out" 2>"$work/err"
check "an interval needs 2 runs" "python3 -c 'import json; assert json.load(open(\"$work/out\"))[\"points\"][0][\"samples\"]==[110,100]'"
rm -f "$work/n"
"$sim" --sysroot "$t" sweep --fraction 8 --tasks 1 --precision 100% --runs 4 --warmup 0 --metric 'r=([0-9]+)' \
	--json -- sh -c "$alt" >"$work/out" 2>"$work/err"
check "--runs is the least number of runs" "python3 -c 'import json; assert len(json.load(open(\"$work/out\"))[\"points\"][0][\"samples\"])==4'"
rm -f "$work/n"
# Each run notes when it starts and ends on the monotonic clock, as pcpctl
# times its runs (and takes 0.2 s at least).  Its own span lies inside its
# wall (fork to exit), and --max-duration caps the sum of the walls before
# another run starts, from the third on (an interval needs two runs, which
# always happen): so, however slow the machine (forks, pcpctl's gaps between
# runs), with more than two runs the spans of all but the last sum to less
# than 1 s, and those of all runs to no more than "seconds".  The runs go on
# past 1 s, and the last one is whole.
stamp="python3 -c 'import time; print(time.monotonic())'"
# wait(c): the sleep 0.2 is a run's length; the runs' own spans (CLOCK_MONOTONIC) lie inside their
#   walls, so with more than two runs the spans of all but the last sum to less than 1 s, and all of
#   them to at most seconds: a relation no delay can break.
"$sim" --sysroot "$t" sweep --fraction 8 --tasks 1 --precision 0.01% --max-duration 1 --warmup 0 \
	--metric 'r=([0-9]+)' --json -- sh -c "$stamp >>$work/starts; sleep 0.2; $alt; $stamp >>$work/ends" \
	>"$work/out" 2>"$work/err"
check "--max-duration ends a COMMAND's runs, the last one whole" "python3 -c 'import json; p=json.load(open(\"$work/out\"))[\"points\"][0]; s=[float(l) for l in open(\"$work/starts\")]; e=[float(l) for l in open(\"$work/ends\")]; d=[b-a for a,b in zip(s,e)]; assert p[\"seconds\"]>=1 and len(p[\"samples\"])==len(s)==len(e)>=2 and (len(s)==2 or sum(d[:-1])<1) and sum(d)<=p[\"seconds\"]+0.0005 and p[\"ci95_pct\"]>0.01, (p, s, e)'"
rm -f "$work/n"

t=$(tree error)
orig=$(settings "$t")
# Writes: journal-free session; point 1 writes once, point 2's write is the 2nd.
echo "fail-write 2 EIO" >"$t/sim/faults"
# wait(c): a point's length; the assertions are counts.
"$sim" --sysroot "$t" sweep --batch 31,63,93 --tasks 1 --duration 0.2 --warmup 0 --json \
	>"$work/out" 2>"$work/err"
check "a failed point exits 1" "[ $? = 1 ]"
check "the first point was still reported" "$flat $work/out | grep -q '\"value\":31'"
check "restored after the error" "$flat $work/out | grep -q '\"restored\":true'"
check "a sweep cut short says so" "$flat $work/out | grep -q '\"complete\":false}'"
cp "$work/out" "$work/short.json"
"$sim" compare "$work/short.json" "$work/short.json" >"$work/cmp" 2>"$work/err"
rc=$?
check "compare refuses a sweep cut short: exit 2 (got $rc)" \
	"[ $rc = 2 ] && grep -q 'short.json is a sweep cut short' $work/err && [ ! -s $work/cmp ]"
"$sim" compare --partial "$work/short.json" "$work/short.json" >"$work/cmp" 2>"$work/err"
rc=$?
check "compare --partial takes it (exit $rc)" "[ $rc = 0 ] && grep -q '^Hmean *1 *31 ' $work/cmp"
rm "$t/sim/faults"
check "settings as before after the error" "[ \"\$(settings $t)\" = \"\$orig\" ]"

t=$(tree signal)
orig=$(settings "$t")
# wait(c): the sweep that is SIGTERMed (it reaps its workers before it exits): its 30 s never run
#   out; wait returns once it has.
"$sim" --sysroot "$t" sweep --batch 31,63 --tasks 1 --duration 30 --warmup 0 \
	>"$work/out" 2>"$work/err" &
pid=$!
await batch_is "$t" 31 || bad "the sweep never set the first point"
kill -TERM $pid
wait $pid
check "SIGTERM exits 1" "[ $? = 1 ]"
check "SIGTERM message" "grep -q 'interrupted by signal 15; the settings from before were restored' $work/err"
check "settings as before after SIGTERM" "[ \"\$(settings $t)\" = \"\$orig\" ]"
check "no workload process left" "! pgrep -f -- '$t' >/dev/null"

t=$(tree kill)
orig_sysctls=$(cat "$t"/proc/sys/vm/*)
# wait(c): the sweep that is SIGKILLed: its 30 s never run out.
"$sim" --sysroot "$t" sweep --batch 310,63 --tasks 1 --duration 30 --warmup 0 >/dev/null 2>&1 &
pid=$!
disown $pid # no job notice for the kill below
await batch_is "$t" 310 || bad "the sweep never set the first point"
kill -KILL $pid
await eval "! kill -0 $pid 2>/dev/null" || bad "the sweep outlived kill -9"
await eval "! pgrep -f -- '$t' >/dev/null" || bad "the workload outlived the sweep"
check "kill -9 leaves the batch changed" "[ \"\$(cat $t/proc/sys/vm/percpu_pagelist_batch)\" = 310 ]"
check "kill -9 leaves a journal" "[ -e $t/run/pcpctl/journal ]"
"$sim" --sysroot "$t" rollback >"$work/out" 2>&1
check "rollback after kill -9 exits 0" "[ $? = 0 ]"
check "rollback restored the sysctls" "[ \"\$(cat $t/proc/sys/vm/*)\" = \"\$orig_sysctls\" ]"
check "the workload died with its parent" "! pgrep -f -- '$t' >/dev/null"

t=$(tree external)
"$sim" --sysroot "$t" sweep --fraction 0,8 --warmup 0 --runs 2 --metric 'result=([0-9.]+)' --json \
	-- /bin/sh -c 'echo result=42.5' >"$work/out" 2>"$work/err"
check "external workload exits 0" "[ $? = 0 ]"
check "external metric read" "$flat $work/out | grep -q '\"hmean\":42.500'"
check "external workload named" "$flat $work/out | grep -q '\"workload\":\"/bin/sh\"'"
# A jitter in ms keeps its figures in the table, the best line, JSON and CSV.
"$sim" --sysroot "$t" sweep --fraction 0,8 --warmup 0 --runs 2 --metric 'jitter=([0-9.]+)' --json \
	--csv "$work/small.csv" -- /bin/sh -c 'echo jitter=0.0123' >"$work/out" 2>"$work/err"
check "a small metric keeps three figures in JSON" "$flat $work/out | grep -q '\"hmean\":0.0123,\"min\":0.0123,\"max\":0.0123'"
check "and in the CSV" "grep -q '^8,0.0123,0.0123,0.0123,' $work/small.csv"
cp "$work/out" "$work/small.json"
"$sim" compare "$work/small.json" "$work/small.json" >"$work/out" 2>"$work/err"
check "and in compare's cells" "grep -q ' 0.0123 ( *+0.00%)' $work/out"
"$sim" --sysroot "$t" sweep --fraction 0,8 --warmup 0 --runs 2 --metric 'jitter=([0-9.]+)' \
	-- /bin/sh -c 'echo jitter=0.0123' >"$work/out" 2>"$work/err"
check "and in the table and the last line" \
	"grep -Eq '^ +8 .* 0\.0123 +0\.0123 +0\.0123 ' $work/out && grep -q 'Hmean, 0.0123 ' $work/out"
# A latency lowest at fraction 8: 52.0, 52.1, 52.2 us in turn there, 101.0 to 101.2 at 0.
lat='f=$(cat "$1"/proc/sys/vm/percpu_pagelist_high_fraction); n=$(cat "$2" 2>/dev/null || echo 0)
echo $((n + 1)) >"$2"; [ "$f" = 8 ] && l=52 || l=101; echo "latency $l.$((n % 3)) us"'
lower() { # lower ARGS...: sweep fractions 0 and 8 of that latency, 3 runs each
	rm -f "$work/lat.n"
	"$sim" --sysroot "$t" sweep --fraction 0,8 --warmup 0 --runs 3 --metric 'latency ([0-9.]+) us' "$@" \
		-- /bin/sh -c "$lat" sh "$t" "$work/lat.n"
}
lower --better lower --plot "$work/lat.svg" >"$work/out" 2>"$work/err"
check "--better lower exits 0" "[ $? = 0 ]"
check "  the table has MEAN, P50 and P99, lower is better" \
	"grep -q '; MEAN, P50 and P99 in us, lower is better' $work/out && grep -Eq '^ *FRACTION .* MEAN +P50 +P99 ' $work/out"
check "  fraction 8 gains +48.5%" "grep -Eq '^ +8 +[0-9]+ +[0-9-]+ +52\.1 +52\.1 +52\.2 .* \+48\.5 ' $work/out"
check "  and is named best" \
	"grep -q '^best: fraction 8, 52.1 us (mean, lower is better), better than fraction 0 (Welch p = ' $work/out"
check "  the chart names a cost, lower is better" \
	"grep -q 'cost (lower is better) against pcp high fraction' $work/lat.svg && grep -q 'us, lower is better' $work/lat.svg"
lower >"$work/out" 2>"$work/err"
check "the same latency taken as higher is better names fraction 0" \
	"grep -q '^best: fraction 0, 101.1 us, better than fraction 8' $work/out"
lower --better lower --json --csv "$work/lat.csv" >"$work/lat.json" 2>"$work/err"
check "--better lower in JSON: the direction, the command, the regex, mean, P50, P99" "python3 -c '
import json
d = json.load(open(\"$work/lat.json\"))
assert d[\"better\"] == \"lower\" and d[\"unit\"] == \"us\" and d[\"metric\"] == \"latency ([0-9.]+) us\"
assert d[\"command\"][:2] == [\"/bin/sh\", \"-c\"] and d[\"command\"][-1] == \"$work/lat.n\"
assert d[\"best\"][\"value\"] == 8 and d[\"best\"][\"significant\"] and d[\"best\"][\"mean\"] == 52.1
p = d[\"points\"][1]
assert (p[\"mean\"], p[\"p50\"], p[\"p99\"]) == (52.1, 52.1, 52.198), p
'"
check "  and in the CSV: mean, p50, p99 last" "head -1 $work/lat.csv | grep -q ',high,mean,p50,p99\$' && grep -q '^8,.*,52.100,52.100,52.198\$' $work/lat.csv"
"$sim" compare "$work/lat.json" "$work/lat.json" >"$work/out" 2>"$work/err"
check "compare of a lower-is-better sweep shows Mean rows" "[ \$(grep -c '^Mean ' $work/out) = 2 ] && grep -Eq '^Mean +[0-9]+ +8 +52.10 ' $work/out"
lower --better sideways >"$work/out" 2>"$work/err"
check "--better sideways exits 2" "[ $? = 2 ] && grep -q 'give lower (a latency, a cost) or higher' $work/err"
"$sim" --sysroot "$t" sweep --fraction 0,8 --better lower -- /bin/true >"$work/out" 2>"$work/err"
check "--better without --metric exits 2" "[ $? = 2 ] && grep -q 'is the direction of a --metric' $work/err"
"$sim" --sysroot "$t" sweep --fraction 8 --warmup 0 -- /bin/false >"$work/out" 2>"$work/err"
check "a failing workload exits 1" "[ $? = 1 ]"
check "and says so" "grep -q 'exited with status 1' $work/err"

# --metric reads the output as lines, as iperf3 prints them.
printf '%s\n' '[  5]   0.00-1.00   sec   100 MBytes   838 Mbits/sec' \
	'[SUM]   0.00-1.00   sec  1000 MBytes  8000 Mbits/sec' \
	'[SUM]   0.00-2.00   sec  2100 MBytes  9000 Mbits/sec                  receiver' >"$work/iperf.txt"
for m in 'SUM.* ([0-9.]+) Mbits/sec=8000.000' '^\[SUM\].* ([0-9.]+) Mbits/sec +receiver$=9000.000'; do
	"$sim" --sysroot "$t" sweep --fraction 8 --warmup 0 --metric "${m%=*}" --json \
		-- cat "$work/iperf.txt" >"$work/out" 2>"$work/err"
	check "--metric '${m%=*}' takes ${m##*=}" "$flat $work/out | grep -q '\"hmean\":${m##*=},'"
done
# --metric-last: the last line that matches, here the final SUM.
"$sim" --sysroot "$t" sweep --fraction 8 --warmup 0 --metric 'SUM.* ([0-9.]+) Mbits/sec' --metric-last \
	--json -- cat "$work/iperf.txt" >"$work/out" 2>"$work/err"
check "--metric-last takes the last SUM line, 9000" \
	"$flat $work/out | grep -q '\"hmean\":9000.000,' && $flat $work/out | grep -q '\"metric_last\":true,'"
# --metric-json: iperf3 -J's receiver rate, named by its last key.
printf '{"start": {}, "end": {"sum_sent": {"bits_per_second": 9.5e9},\n "sum_received": {"bits_per_second": 9.4e9}}}\n' \
	>"$work/iperf.json"
"$sim" --sysroot "$t" sweep --fraction 0,8 --warmup 0 --runs 2 \
	--metric-json end.sum_received.bits_per_second --json -- cat "$work/iperf.json" >"$work/out" 2>"$work/err"
check "--metric-json takes end.sum_received.bits_per_second" \
	"$flat $work/out | grep -q '\"unit\":\"bits_per_second\",' && $flat $work/out | grep -q '\"hmean\":9400000000.000,' && $flat $work/out | grep -q '\"metric\":null,\"metric_last\":false,\"metric_json\":\"end.sum_received.bits_per_second\"'"
"$sim" --sysroot "$t" sweep --fraction 8 --warmup 0 --metric-json end.sum_received.jitter_ms \
	-- cat "$work/iperf.json" >"$work/out" 2>"$work/err"
check "--metric-json at a path the output lacks exits 1 and names it" \
	"[ $? = 1 ] && grep -q \"printed JSON with nothing at --metric-json 'end.sum_received.jitter_ms'\" $work/err"
"$sim" --sysroot "$t" sweep --fraction 8 --warmup 0 --metric-json end.x -- cat "$work/iperf.txt" \
	>"$work/out" 2>"$work/err"
check "--metric-json of text that is no JSON exits 1" "[ $? = 1 ] && grep -q 'printed no JSON, or no number' $work/err"
for bad in "--metric-json end..x" "--metric-json x --metric y" "--metric-last" "--metric-json x --metric-last"; do
	# shellcheck disable=SC2086 # the options are words
	"$sim" --sysroot "$t" sweep --fraction 8 --warmup 0 $bad -- true >"$work/out" 2>"$work/err"
	check "$bad exits 2" "[ $? = 2 ] && [ -s $work/err ] && [ ! -s $work/out ]"
done

# --metric-unit names the number; a unit that cannot be one is refused.
"$sim" --sysroot "$t" sweep --fraction 8 --warmup 0 --metric 'percentile 99.000 = +([0-9.]+)' \
	--metric-unit usec --json -- echo 'percentile 99.000 =   20.124' >"$work/out" 2>"$work/err"
check "--metric-unit usec is the unit" "$flat $work/out | grep -q '\"unit\":\"usec\",' && $flat $work/out | grep -q '\"hmean\":20.124,'"
for bad in "--metric-unit usec" "--metric x --metric-unit" "--metric x --metric-unit ''" \
	"--metric x --metric-unit $(printf '%032d' 0)"; do
	eval "set -- $bad"
	"$sim" --sysroot "$t" sweep --fraction 8 --warmup 0 "$@" -- true >"$work/out" 2>"$work/err"
	check "$bad exits 2" "[ $? = 2 ] && [ -s $work/err ] && [ ! -s $work/out ]"
done

# --netns: a namespace that is not there, or no namespace, is found before anything runs.
for ns in "nope=there is no /run/netns/nope; make it with ip netns add nope" \
	"fake=/run/netns/fake is no network namespace" "../x=give the name of a namespace"; do
	mkdir -p "$t/run/netns" && : >"$t/run/netns/fake"
	for dry in --dry-run ''; do
		"$sim" --sysroot "$t" sweep --fraction 8 --warmup 0 --netns "${ns%%=*}" $dry -- true \
			>"$work/out" 2>"$work/err"
		check "--netns ${ns%%=*} ${dry:-(a run)} exits 2 and says why" \
			"[ $? = 2 ] && grep -q -- '${ns#*=}' $work/err && [ ! -s $work/out ]"
	done
done
"$sim" --sysroot "$t" sweep --fraction 8 --warmup 0 --netns fake >"$work/out" 2>"$work/err"
check "--netns without a COMMAND exits 2" "[ $? = 2 ] && grep -q 'give it after --' $work/err"
check "and nothing was written" "batch_is $t 0 && [ ! -e $t/run/pcpctl/journal ]"

# The workload's output stays out of the report, on stderr or in --workload-log.
"$sim" --sysroot "$t" sweep --fraction 0,8 --warmup 1 --json -- sh -c 'echo hello; echo oops >&2' \
	>"$work/out" 2>"$work/err"
check "a printing workload exits 0" "[ $? = 0 ]"
check "its --json parses" "python3 -c 'import json; json.load(open(\"$work/out\"))'"
check "its lines on stderr, warmup too" "[ \$(grep -c '^hello\$' $work/err) = 4 ] && grep -q '^oops\$' $work/err"
"$sim" --sysroot "$t" sweep --fraction 0,8 --warmup 0 --metric 'r=([0-9]+)' -- sh -c 'echo r=7; echo hello' \
	>"$work/out" 2>"$work/err"
check "with --metric the table has no workload line" "! grep -q 'r=7\|hello' $work/out && grep -q '^hello\$' $work/err"
"$sim" --sysroot "$t" sweep --fraction 0 --warmup 0 --workload-log "$work/wl" --json \
	-- sh -c 'echo hello; echo oops >&2' >"$work/out" 2>"$work/err"
check "--workload-log gets both streams" "[ \"\$(cat $work/wl)\" = \"\$(printf 'hello\noops')\" ]"
check "and neither is elsewhere" "! grep -qx 'hello\|oops' $work/out $work/err"
"$sim" --sysroot "$t" sweep --fraction 0 --warmup 0 -- sh -c 'echo bad input >&2; echo "no file: x" >&2; exit 3' \
	>"$work/out" 2>"$work/err"
check "a workload exiting 3 exits 1" "[ $? = 1 ]"
check "it is named with its status and last stderr line" \
	"grep -qF \"pcpctl: the workload \\\"sh -c 'echo bad input >&2; echo \\\"no file: x\\\" >&2; exit 3'\\\" exited with status 3; its last line on stderr: no file: x\" $work/err"
check "and no errno is made up" "! grep -q 'No child processes' $work/err"
check "after the failure, the report says the settings are restored" \
	"[ \"\$(tail -n 1 $work/out)\" = 'the settings from before are restored' ]"
"$sim" --sysroot "$t" sweep --fraction 0 --warmup 0 --metric 'r=([0-9]+)' -- echo nothing >"$work/out" 2>"$work/err"
check "a metric not printed is named" "grep -qF 'the workload \"echo nothing\" printed nothing that matches --metric' $work/err"
# A bad --metric or a COMMAND that cannot run: exit 2 before anything is written.
# (the lock file is created to take the lock, as set --dry-run does)
snap() { cat "$1"/proc/sys/vm/* "$1/proc/zoneinfo"; ls -A "$1/run/pcpctl" 2>/dev/null | grep -vx lock; cat "$1/run/pcpctl/journal" 2>/dev/null; }
before=$(snap "$t")
"$sim" --sysroot "$t" sweep --fraction 0,8 --warmup 0 --metric '([' -- echo hello >"$work/out" 2>"$work/err"
check "a bad --metric exits 2" "[ $? = 2 ]"
check "and blames the regex, not the workload" "grep -q '^pcpctl: --metric \"(\[\": not a regular expression: ' $work/err && ! grep -q workload $work/err"
check "and nothing was written or run" "[ \"\$(snap $t)\" = \"\$before\" ] && [ ! -s $work/out ]"
"$sim" --sysroot "$t" sweep --fraction 0,8 --warmup 0 -- /nonexistent/wl >"$work/out" 2>"$work/err"
check "a missing command exits 2" "[ $? = 2 ]"
check "a missing command is named" "grep -qF 'the workload \"/nonexistent/wl\" cannot be run: No such file or directory' $work/err"
"$sim" --sysroot "$t" sweep --fraction 0,8 --warmup 0 -- pcpctl-no-such-bench >"$work/out" 2>"$work/err"
check "a command not on \$PATH exits 2, saying where it was looked for" "[ $? = 2 ] && grep -qF 'the workload \"pcpctl-no-such-bench\" cannot be run: No such file or directory (looked up in \$PATH)' $work/err"
"$sim" --sysroot "$t" sweep --fraction 0,8 --warmup 0 -- "$work" >"$work/out" 2>"$work/err"
check "a directory as COMMAND exits 2" "[ $? = 2 ] && grep -qF 'cannot be run: Is a directory' $work/err"
check "and nothing was written" "[ \"\$(snap $t)\" = \"\$before\" ]"

# best only when Welch's t-test finds it better than the runner-up.  The
# workload reads the fraction it runs at, and a counter gives the spread.
frac=$t/proc/sys/vm/percpu_pagelist_high_fraction
# shellcheck disable=SC2016
wl='n=$(($(cat '"$work"'/n 2>/dev/null || echo 0) + 1)); echo $n >'"$work"'/n; echo r=$(($1 * $(cat '"$frac"') + 100 + n % 3 * 2))'
"$sim" --sysroot "$t" sweep --fraction 0,8 --warmup 0 --runs 3 --metric 'r=([0-9]+)' --json \
	-- sh -c "$wl" sh 10 >"$work/out" 2>"$work/err"
check "clearly apart: significant best" "python3 -c 'import json; b=json.load(open(\"$work/out\"))[\"best\"]; assert b[\"value\"]==8 and b[\"significant\"] is True and b[\"runner_up\"]==0 and b[\"p\"]<0.001, b'"
rm -f "$work/n"
"$sim" --sysroot "$t" sweep --fraction 0,8 --warmup 0 --runs 3 --metric 'r=([0-9]+)' --plot "$work/w.svg" \
	-- sh -c "$wl" sh 10 >"$work/out" 2>"$work/err"
check "and its text names it, in what the --metric regex calls its number" "grep -q '^best: fraction 8, 182.0 r, better than fraction 0 (Welch p = ' $work/out"
check "the table's header names the unit; its column is HMEAN" "grep -q '; HMEAN, MIN and MAX in r\$' $work/out && grep -q '^FRACTION TASKS    HIGH          HMEAN ' $work/out"
check "a change that rounds to nothing is +0.0" "! grep -q -- ' -0\.0 ' $work/out"
check "and the chart marks it" "[ \$(grep -c 'class=\"best\"' $work/w.svg) = 1 ]"
rm -f "$work/n"
wl2='n=$(($(cat '"$work"'/n 2>/dev/null || echo 0) + 1)); echo $n >'"$work"'/n; echo r=$((100 + n * 2))'
"$sim" --sysroot "$t" sweep --fraction 0,8 --warmup 0 --runs 3 --metric 'r=([0-9]+)' --json \
	-- sh -c "$wl2" >"$work/out" 2>"$work/err"
# fraction 0: 102,104,106; fraction 8: 108,110,112 -> t = -3.674, df = 4, p = 0.02131
check "a steady trend is significant" "python3 -c 'import json; b=json.load(open(\"$work/out\"))[\"best\"]; assert b[\"value\"]==8 and b[\"significant\"] is True and abs(b[\"p\"]-0.0213116)<1e-6, b'"
rm -f "$work/n"
wl3='n=$(($(cat '"$work"'/n 2>/dev/null || echo 0) + 1)); echo $n >'"$work"'/n; echo r=$((100 + n % 3 * 4 + n / 4))'
"$sim" --sysroot "$t" sweep --fraction 0,8 --warmup 0 --runs 3 --metric 'r=([0-9]+)' --json --plot "$work/w.svg" \
	-- sh -c "$wl3" >"$work/out" 2>"$work/err"
# fraction 0: 104,108,100; fraction 8: 105,109,101 -> t = -0.3062, df = 4, p = 0.7747
check "overlapping: best not significant" "python3 -c 'import json; b=json.load(open(\"$work/out\"))[\"best\"]; assert b[\"value\"]==8 and b[\"significant\"] is False and abs(b[\"p\"]-0.774738)<1e-6, b'"
check "and the chart marks none" "! grep -q 'class=\"best\"' $work/w.svg"
rm -f "$work/n"
"$sim" --sysroot "$t" sweep --fraction 0,8 --warmup 0 --runs 3 --metric 'r=([0-9]+)' \
	-- sh -c "$wl3" >"$work/out" 2>"$work/err"
check "and the text says so" "grep -q '^no fraction was significantly better: fraction 8 has the highest Hmean, 104.9 r, but against fraction 0 Welch p = 0.775\$' $work/out"
check "and then, on a line of its own, that the settings are restored" "[ \"\$(tail -n 1 $work/out)\" = 'the settings from before are restored' ]"
# wait(c): one sample: "fewer than 2 samples" is a count.
"$sim" --sysroot "$t" sweep --fraction 0,8 --warmup 0 --metric 'r=([0-9]+)' -- echo r=5 >"$work/out" 2>"$work/err"
check "one sample each: untested" "grep -q 'untested: a point has fewer than 2 samples' $work/out"
check "a COMMAND's advice is more --runs: --duration is page_fault1's" "grep -q 'untested: a point has fewer than 2 samples; use more --runs$' $work/out && ! grep -q -- --duration $work/out"
"$sim" --sysroot "$t" sweep --fraction 0,8 --tasks 1 --duration 0.01 --warmup 0 >"$work/out" 2>"$work/err"
check "page_fault1's advice names --duration too" "grep -q 'untested: a point has fewer than 2 samples; use a longer --duration or more --runs' $work/out"

# --dry-run: the plan and its time; the checks of a real sweep; nothing written.
t=$(tree dryrun)
before=$(snap "$t")
# wait(c): a dry run: nothing runs or is measured.
"$sim" --sysroot "$t" sweep --fraction 0,8,16 --tasks 1,2 --runs 2 --duration 5 --warmup 1 --dry-run \
	>"$work/out" 2>"$work/err"
check "sweep --dry-run exits 0" "[ $? = 0 ]"
check "it prints the plan" "grep -qx 'dry run: sweep of fraction over 3 values x 2 task counts x 2 runs = 6 points' $work/out && grep -qx 'values: 0,8,16' $work/out && grep -qx 'tasks: 1,2' $work/out"
check "and the time it takes: 6 points x 2 runs x 6 s" "grep -qx 'time: about 1 min 12 s (per run 1 s warm-up and 5 s measured)' $work/out"
check "and runs nothing, measures nothing" "! grep -q 'value 1/' $work/err && ! grep -q FRACTION $work/out"
check "nothing written: sysctls, zoneinfo, journal" "[ \"\$(snap $t)\" = \"\$before\" ]"
"$sim" --sysroot "$t" sweep --fraction 8 --tasks 1 --precision 5% --runs 3 --dry-run -- sh -c 'echo r=1' \
	>"$work/out" 2>"$work/err"
check "a COMMAND's plan counts runs" "[ $? = 0 ] && grep -qx 'time: 4 runs of the COMMAND at least, a warm-up run per point included; more until +-5% or 1 min 0 s of runs per point' $work/out && grep -qx \"workload: sh -c 'echo r=1'\" $work/out"
check "a COMMAND does not run in a dry run" "! grep -q 'r=1' $work/err"
"$sim" --sysroot "$t" sweep --fraction 8 --dry-run --workload-log "$work/never.log" -- true >/dev/null 2>&1
check "--workload-log is not created by a dry run" "[ $? = 0 ] && [ ! -e $work/never.log ]"
"$sim" --sysroot "$t" sweep --fraction 8 --dry-run --workload-log /nonexistent/dir/log -- true >/dev/null 2>"$work/err"
check "an unwritable --workload-log fails the dry run as the sweep" "[ $? = 1 ] && grep -q 'cannot write /nonexistent/dir/log' $work/err"
# The command table's check before a sweep only reads: an existing
# --workload-log keeps its content and mtime through a dry run and through a
# sweep refused before it starts (no batch sysctl: exit 3).
printf 'an earlier sweep\n' >"$work/kept.log"
touch -d '2020-01-02 03:04:05' "$work/kept.log"
kept=$(stat -c '%s %Y' "$work/kept.log")
"$sim" --sysroot "$t" sweep --fraction 8 --dry-run --workload-log "$work/kept.log" -- true >/dev/null 2>&1
check "a dry run leaves an existing --workload-log as it was" "[ $? = 0 ] && [ \"\$(stat -c '%s %Y' $work/kept.log)\" = '$kept' ] && grep -qx 'an earlier sweep' $work/kept.log"
t2=$(tree nobatch)
rm "$t2/proc/sys/vm/percpu_pagelist_batch"
"$sim" --sysroot "$t2" sweep --batch 31 --workload-log "$work/kept.log" -- true >/dev/null 2>&1
check "a refused sweep leaves an existing --workload-log as it was" "[ $? = 3 ] && [ \"\$(stat -c '%s %Y' $work/kept.log)\" = '$kept' ] && grep -qx 'an earlier sweep' $work/kept.log"
# each check fails the dry run as it fails the sweep
dry() { # dry NAME WANT ARGS...: the dry run and the real sweep exit alike, nothing written
	local name=$1 want=$2 b rc1 rc2
	shift 2
	b=$(snap "$t")
	"$sim" --sysroot "$t" sweep --dry-run "$@" >/dev/null 2>"$work/err1"; rc1=$?
	check "dry run: $name exits $want" "[ $rc1 = $want ]"
	check "dry run: $name writes nothing" "[ \"\$(snap $t)\" = \"\$b\" ]"
	"$sim" --sysroot "$t" sweep "$@" >/dev/null 2>"$work/err2"; rc2=$?
	check "real sweep: $name exits $want too, with the same message" "[ $rc2 = $want ] && diff <(grep -v 'lock contention' $work/err1) <(grep -v 'lock contention\|value 1/' $work/err2 | head -n \$(grep -vc 'lock contention' $work/err1))"
}
# wait(c): refused sweeps: nothing runs or is measured; the refusal is the tested thing.
dry "value out of range" 2 --fraction 0,4 --tasks 1 --duration 0.1 --warmup 0
dry "bad metric" 2 --fraction 8 --metric '(' -- echo r=1
dry "missing COMMAND" 2 --fraction 8 -- /nonexistent/bench
rm "$t/proc/sys/vm/percpu_pagelist_batch"
dry "batch on a kernel without it" 3 --batch 31 --tasks 1 --duration 0.1 --warmup 0
echo 0 >"$t/proc/sys/vm/percpu_pagelist_batch"
mkdir -p "$t/run/pcpctl"
printf 'garbage\n' >"$t/run/pcpctl/journal"
# wait(c): refused sweeps: nothing runs or is measured; the refusal is the tested thing.
dry "a journal left" 1 --fraction 8 --tasks 1 --duration 0.1 --warmup 0
rm -f "$t/run/pcpctl/journal"
# root without capabilities: the file's owner bits decide, as in the kernel
chmod 0444 "$t/proc/sys/vm/percpu_pagelist_high_fraction"
dry "no write access" 4 --fraction 8 --tasks 1 --duration 0.1 --warmup 0
chmod 0644 "$t/proc/sys/vm/percpu_pagelist_high_fraction"
"$sim" --sysroot "$t" sweep --fraction 8 --dry-run --json >/dev/null 2>"$work/err"
check "--dry-run --json exits 2" "[ $? = 2 ] && grep -q 'leave out --json' $work/err"

# The workload inherits what pcpctl keeps: no capability, and no_new_privs.
probe='echo caps=$(grep -c "^CapEff:[[:space:]]*0*$" /proc/self/status) nnp=$(grep -c "^NoNewPrivs:[[:space:]]*1$" /proc/self/status)'
"$sim" --sysroot "$t" sweep --fraction 8 --warmup 0 --metric 'caps=([0-9]+)' --json \
	-- /bin/sh -c "$probe" >"$work/out" 2>"$work/err"
check "pcpctl runs with no effective capability" "$flat $work/out | grep -q '\"hmean\":1.000'"
"$sim" --sysroot "$t" sweep --fraction 8 --warmup 0 --metric 'nnp=([0-9]+)' --json \
	-- /bin/sh -c "$probe" >"$work/out" 2>"$work/err"
check "pcpctl sets no_new_privs" "$flat $work/out | grep -q '\"hmean\":1.000'"

# wait(c): usage errors (--duration 0, abc; --max-duration 5, 3): exit 2 is the tested thing.
for args in "--batch 5:1:1" "--batch 1:9:0" "--batch 31,x" "--batch 1:100000:1" "--fraction 4" \
	"--batch 1,2 --fraction 8" "" "--batch 31 --tasks 0" "--batch 31 --tasks 99999" \
	"--batch 31 --duration 0" "--batch 31 --duration abc" "--batch 31 --runs 0" \
	"--batch 31 --metric x" "--batch 31 --workload-log $work/x" "--batch 31 --tasks 1,x" \
	"--batch 31 --tasks 0%" "--batch 31 --tasks 101%" "--batch 31 --plot $work/x.png" "--batch 31 --plot -" \
	"--batch 31 --with-batch 8" "--fraction 8 --with-fraction 8" "--batch 31 --with-fraction 4" \
	"--fraction 8 --with-batch 4033" "--batch 31 --precision 2x" "--batch 31 --precision 0%" \
	"--batch 31 --max-duration 5" "--batch 31 --precision 2% --duration 5 --max-duration 3"; do
	# shellcheck disable=SC2086
	"$sim" --sysroot "$t" sweep $args >/dev/null 2>&1
	check "sweep $args exits 2" "[ $? = 2 ]"
done

# The session restores the settings from before it at its end, checked
# against what the zones showed then: here memory is onlined at every change
# (the simulator's "move" fault), so high_max at fraction 0 is no longer what
# was observed, and the restore is checked by the rules for today's memory.
for k in 6.18 6.1; do
	if [ $k = 6.18 ]; then
		t=$(sysroot_tree "$work/moving-618" "$fixtures/live-6.18-2cpu.zoneinfo" --release 6.18.44-fc-v657 \
			--nodes "" --sim percpu_pagelist_high_fraction=0)
	else
		t=$(tree moving-61)
	fi
	echo "move verify managed 0 DMA32 32768" >"$t/sim/faults"
	if "$sim" --sysroot "$t" sweep --fraction 0,8,16 --runs 2 --warmup 0 -- true >/dev/null 2>"$work/err"
	then ok "$k: a sweep while memory is onlined at every change exits 0"
	else bad "$k: a sweep while memory is onlined at every change: exit $?"; sed 's/^/    /' "$work/err"; fi
	check "$k: the sweep removed its journal" "[ ! -e $t/run/pcpctl/journal ]"
	check "$k: the sweep restored fraction 0" \
		"[ \"\$(cat $t/proc/sys/vm/percpu_pagelist_high_fraction)\" = 0 ]"
done

# HIGH is the limit each value set, not the previous point's high: from 6.7
# a CPU sets its high only when it next frees, so the simulator, as the
# kernel, leaves every CPU but the writing one at the high it had.
for k in 7.3 6.12; do
	case $k in 7.3) rel=7.3.4-amd64 ;; 6.12) rel=6.12.38+deb13-amd64 ;; esac
	t=$(sysroot_tree "$work/lazy-$k" "$fixtures/debian-$k-4cpu-2node.zoneinfo" --release $rel \
		--sim percpu_pagelist_high_fraction=0)
	want=$(for v in 64 8 64; do
		"$sim" --sysroot "$t" set --dry-run --json --fraction $v |
			python3 -c 'import json,sys; print(max(e["high_max"] for e in json.load(sys.stdin)["expected"]))'
	done | paste -sd,)
	# wait(c): a point's length; the assertion is on HIGH.
	got=$("$sim" --sysroot "$t" sweep --json --fraction 64,8,64 --tasks 1 --duration 0.2 --warmup 0 \
		--runs 1 2>"$work/err" | python3 -c 'import json,sys; print(",".join(str(p["high"]) for p in json.load(sys.stdin)["points"]))')
	check "$k: sweep --fraction 64,8,64 has HIGH $want, the high_max each value sets (got $got)" \
		"[ '$got' = '$want' ] && [ \$(echo '$want' | tr , '\\n' | sort -u | wc -l) = 2 ]"
done
finish
