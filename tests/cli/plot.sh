#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# pcpctl plot over the sweep JSON of tests/fixtures/sweep, read back with
# xmllint: well-formed, a panel per task count with a line per file, a
# legend entry per file, min-max bars, a best ringed only where its sweep
# found it significant, a lock panel exactly where a file has lock_pct; and
# the errors, which leave the chart as it was.
# Usage: plot.sh PCPCTL FIXTURE_DIR
set -u
pcpctl=$(realpath "$1")
fx=$(realpath "$2")/sweep
. "$(dirname "$(realpath "$0")")/../lib.sh"
workdir
# x FILE XPATH: what the XPath gives, elements matched by local name (SVG's namespace)
x() { xmllint --xpath "$2" "$1" 2>/dev/null; }
count() { x "$1" "count($2)"; }
panel() { echo "//*[local-name()='g'][@class='panel'][@id='$1']"; }
# ids FILE XPATH: the ids of the elements, in document order, on one line
ids() { x "$1" "$2/@id" | sed 's/.*id="\(.*\)"/\1/' | paste -sd' '; }
lines() { count "$1" "$(panel "$2")/*[local-name()='polyline'][@class='trend']"; }

cd "$fx" || exit 1
# --- two files of one task count, no lock share ------------------------------
"$pcpctl" plot base.json other.json -o "$work/a.svg" >"$work/out" 2>"$work/err"
check "plot exits 0" "[ $? = 0 ]"
check "nothing on stdout or stderr" "[ ! -s $work/out ] && [ ! -s $work/err ]"
check "well-formed SVG" "xmllint --noout $work/a.svg"
check "one panel, of 2 tasks" "[ \$(count $work/a.svg \"//*[@class='panel']\") = 1 ] && [ \$(count $work/a.svg \"$(panel tasks-2)\") = 1 ]"
check "a line per file" "[ \$(lines $work/a.svg tasks-2) = 2 ]"
check "a legend entry per file: the path, else host and kernel" \
	"[ \"\$(x $work/a.svg \"//*[@class='legend-entry']/*[local-name()='text']/text()\")\" = \"base.json
ex 6.1.0-57-amd64\" ]"
check "a point per value of each file" "[ \$(count $work/a.svg \"//*[local-name()='circle'][@class='point']\") = 5 ]"
check "each point with its min-max bar" "[ \$(count $work/a.svg \"//*[local-name()='line'][@class='range']\") = 15 ]"
check "the bar of base.json fraction 0 runs from 99 to 101" \
	"x $work/a.svg \"//*[local-name()='title'][starts-with(.,'base.json, pcp high fraction 0:')]/text()\" | grep -qx 'base.json, pcp high fraction 0: 99.995 ops/s (min 99, max 101)'"
check "other.json's bars from its samples (it has no min and max)" \
	"x $work/a.svg \"//*[local-name()='title'][starts-with(.,'ex 6.1.0-57-amd64, pcp high fraction 0:')]/text()\" | grep -q '(min 99, max 104)'"
check "the significant best of base.json ringed and labelled, other.json has none" \
	"[ \$(count $work/a.svg \"//*[local-name()='circle'][@class='best']\") = 1 ] && x $work/a.svg \"//*[@class='best-label']/text()\" | grep -qx 'best: base.json, pcp high fraction = 8, 110.0 ops/s'"
check "no lock panel without lock_pct" "[ \$(count $work/a.svg \"//*[starts-with(@id,'lock-')]\") = 0 ]"
check "the title names workload and parameter" "x $work/a.svg \"//*[@class='title']/text()\" | grep -qx 'page_fault1 throughput against pcp high fraction'"

sed 's/"significant":true/"significant":false/' base.json >"$work/nosig.json"
"$pcpctl" plot "$work/nosig.json" other.json -o "$work/n.svg"
check "a best that is not significant is not marked" \
	"[ \$? = 0 ] && [ \$(count $work/n.svg \"//*[@class='best' or @class='best-label']\") = 0 ]"

# --- two task counts, a lock share in one file -------------------------------
"$pcpctl" plot --label first --label second tasks-db1.json tasks-db2.json -o "$work/t.svg"
check "two task counts: exit 0, well-formed" "[ \$? = 0 ] && xmllint --noout $work/t.svg"
check "a throughput panel per task count, in order" \
	"[ \"\$(ids $work/t.svg \"//*[@class='panel'][starts-with(@id,'tasks-')]\")\" = 'tasks-1 tasks-2' ]"
check "a line per file in each" "[ \$(lines $work/t.svg tasks-1) = 2 ] && [ \$(lines $work/t.svg tasks-2) = 2 ]"
check "--label names the legend entries" \
	"[ \"\$(x $work/t.svg \"//*[@class='legend-entry']/*[local-name()='text']/text()\")\" = \"first
second\" ]"
check "a lock panel after each, as db1 has lock_pct with both task counts" \
	"[ \"\$(ids $work/t.svg \"//*[@class='panel']\")\" = 'tasks-1 lock-tasks-1 tasks-2 lock-tasks-2' ]"
check "the lock panels have db1's line only, without bars" \
	"[ \$(lines $work/t.svg lock-tasks-1) = 1 ] && [ \$(lines $work/t.svg lock-tasks-2) = 1 ] && [ \$(count $work/t.svg \"$(panel lock-tasks-1)//*[@class='range']\") = 0 ]"
check "lock_pct drawn per point" \
	"x $work/t.svg \"$(panel lock-tasks-2)//*[local-name()='title']/text()\" | grep -qx 'first, pcp high fraction 0: 30.25 % in spinlock slowpath'"
check "bests: first with 1 task, second with 2, each where significant" \
	"[ \"\$(x $work/t.svg \"//*[@class='panel']/*[@class='best-label']/text()\")\" = 'best: first, pcp high fraction = 8, 110.0 ops/s
best: second, pcp high fraction = 8, 240.0 ops/s' ]"
check "  the first in the 1-task panel" "[ \$(count $work/t.svg \"$(panel tasks-1)/*[@class='best']\") = 1 ]"

python3 -c '
import json, sys
d = json.load(open("tasks-db1.json"))
for p in d["points"]:
    if p["tasks"] == 2:
        p["lock_pct"] = None
json.dump(d, open(sys.argv[1], "w"))' "$work/lock1.json"
"$pcpctl" plot "$work/lock1.json" tasks-db2.json -o "$work/l.svg"
check "a lock panel only for the task count that has lock_pct" \
	"[ \$? = 0 ] && [ \"\$(ids $work/l.svg \"//*[starts-with(@id,'lock-')]\")\" = lock-tasks-1 ]"

# --- a real sweep of this machine, alone --------------------------------------
"$pcpctl" plot vm-2d.json -o "$work/v.svg"
check "a real 2-D sweep alone: a panel per task count and a lock panel each" \
	"[ \$? = 0 ] && [ \$(count $work/v.svg \"//*[@class='panel']\") = 4 ] && [ \$(lines $work/v.svg tasks-1) = 1 ] && [ \$(lines $work/v.svg lock-tasks-2) = 1 ]"
check "  its best only with 2 tasks, where Welch found it (p = 0.032)" \
	"[ \$(count $work/v.svg \"$(panel tasks-2)/*[@class='best']\") = 1 ] && [ \$(count $work/v.svg \"$(panel tasks-1)/*[@class='best']\") = 0 ]"
check "  one legend entry: host and kernel" "[ \"\$(x $work/v.svg \"//*[@class='legend-entry']//text()\")\" = 'vm 6.18.44-fc-v669' ]"

# --- the x axis, the labels, the units and the subtitle ----------------------
# A wide sweep (0 and 8..1024) of two files, one without lock data, with the
# runs, seconds and pin a sweep records, and a label too long for the canvas.
python3 - "$work" <<'PY'
import json, sys
def mk(host, base, lock, best):
    pts = []
    for t in (1, 4):
        for v in (0, 8, 16, 32, 64, 128, 256, 512, 1024):
            h = base * t * (1.2 if v == best else 1.0 + v / 100000)
            s = [h * 0.99, h, h * 1.01]
            pts.append({"value": v, "tasks": t, "hmean": 3 / sum(1 / x for x in s),
                        "samples": s, "lock_pct": (5 + v / 100) if lock else None})
    bb = [{"tasks": t, "value": best, "significant": True} for t in (1, 4)]
    return {"parameter": "fraction", "workload": "page_fault1", "unit": "ops/s", "runs": 3,
            "duration": 10, "tasks": 4, "pinned": {"batch": 310}, "points": pts,
            "host": {"name": host, "kernel": "6.18.44"}, "best_by_tasks": bb}
json.dump(mk("alpha", 400000, True, 64), open(sys.argv[1] + "/w1.json", "w"))
json.dump(mk("beta-" + "long-" * 20 + "name", 380000, False, 1024), open(sys.argv[1] + "/w2.json", "w"))
PY
"$pcpctl" plot "$work/w1.json" "$work/w2.json" -o "$work/w.svg" 2>"$work/err"
check "a wide sweep is drawn" "[ $? = 0 ] && xmllint --noout $work/w.svg"
xt() { x "$1" "$(panel "$2")/*[@class='xticks']/*[local-name()='text'][not(@class)]/text()" | paste -sd' '; }
check "fraction 0 is drawn apart as 'default', ticks at powers of two on a log2 axis" \
	"[ \"\$(xt $work/w.svg tasks-1)\" = 'default 8 16 32 64 128 256 512 1024' ] && [ \$(count $work/w.svg \"$(panel tasks-1)//*[@class='axis-scale']\") = 1 ]"
check "  and joined to the line by a dashed step only" \
	"[ \$(count $work/w.svg \"$(panel tasks-1)//*[@class='to-default']\") = 2 ]"
check "a narrow sweep has a tick per value and no log2 scale" \
	"[ \"\$(xt $work/a.svg tasks-2)\" = 'default 8 16' ] && [ \$(count $work/a.svg \"//*[@class='axis-scale']\") = 0 ]"
check "the x axis's name matches the title" \
	"[ \"\$(x $work/w.svg \"$(panel tasks-1)/*[@class='xlabel']/text()\")\" = 'pcp high fraction' ] && x $work/w.svg \"//*[@class='title']/text()\" | grep -q 'against pcp high fraction\$'"
check "the y axis names the unit the files record" \
	"[ \"\$(x $work/w.svg \"$(panel tasks-1)/*[@class='ylabel']/text()\")\" = 'ops/s' ]"
check "a subtitle with the runs, their seconds and the pinned setting" \
	"[ \"\$(x $work/w.svg \"//*[@class='subtitle']/text()\")\" = '3 runs of 10 s per point, batch pinned at 310' ]"
check "the lock panel names the file it leaves out" \
	"x $work/w.svg \"$(panel lock-tasks-1)/*[@class='panel-title']/text()\" | grep -q '^zone lock contention, 1 task; not sampled in beta-long-'"
# Text stays in the canvas (at most ~7.5 px a character of 12 px bold) and the
# best labels above the plot area, off every line and point.
check "best labels start inside the canvas and end before its right edge" "python3 -c '
import re, sys
svg = open(\"$work/w.svg\", encoding=\"utf-8\").read()
labels = re.findall(r\"<text class=.best-label. x=.([0-9.]+). y=.([0-9.]+).[^>]*>([^<]*)<\", svg)
assert len(labels) == 4, labels
for x, y, t in labels:
    assert float(x) >= 90 and float(x) + 7.5 * len(t) <= 800, (x, t)
for p in re.findall(r\"<g class=.panel. id=.tasks-[0-9]+.>.*?</g>\\n</g>\", svg, re.S):
    ys = [float(y) for _, y, _ in re.findall(r\"<text class=.best-label. x=.([0-9.]+). y=.([0-9.]+).[^>]*>([^<]*)<\", p)]
    cy = [float(c) for c in re.findall(r\"<circle class=.point. cx=.[0-9.]+. cy=.([0-9.]+).\", p)]
    assert ys and max(ys) < min(cy) - 10, (ys, min(cy))
'"

# --- "-" is standard output; a file's label is its name, not its path -------
(cd "$work" && "$pcpctl" plot "$fx/base.json" - -o - <"$fx/other.json" >"$work/stdout.svg" 2>"$work/err")
check "-o - writes the chart to standard output" \
	"[ $? = 0 ] && xmllint --noout $work/stdout.svg && [ ! -e $work/- ] && [ ! -s $work/err ]"
check "a file given by its path is labelled by its name" \
	"[ \"\$(x $work/stdout.svg \"//*[@class='legend-entry']/*[local-name()='text']/text()\")\" = \"base.json
ex 6.1.0-57-amd64\" ]"

# --- errors: a clear message, the exit code, the old chart left alone --------
echo old >"$work/keep.svg"
err() { # err NAME CODE GREP ARGS...: exit CODE, the message, keep.svg untouched
	local name=$1 code=$2 msg=$3
	shift 3
	"$pcpctl" "$@" >"$work/out" 2>"$work/err"
	check "$name exits $code" "[ $? = $code ] && grep -q -- \"$msg\" $work/err && [ ! -s $work/out ] && [ \"\$(cat $work/keep.svg)\" = old ]"
}
err "different parameters" 2 'base.json sweeps fraction, but batch.json sweeps batch: plot puts side by side sweeps of one parameter' \
	plot base.json batch.json -o "$work/keep.svg"
sed 's/page_fault1/stress-ng/' other.json >"$work/wl.json"
err "different workloads" 2 "but $work/wl.json measures stress-ng" plot base.json "$work/wl.json" -o "$work/keep.svg"
err "no -o" 2 'give it with -o' plot base.json other.json
err "-o chart.png" 2 'plot draws SVG only' plot base.json other.json -o "$work/keep.png"
check "  and writes no chart.png" "[ ! -e $work/keep.png ]"
err "no file" 2 'plot needs at least one sweep JSON file' plot -o "$work/keep.svg"
err "--json" 2 'plot does not take --json' plot --json base.json -o "$work/keep.svg"
err "a --label short" 2 '1 --label for 2 files' plot --label a base.json other.json -o "$work/keep.svg"
err "an option of compare" 2 'csv' plot --csv x.csv base.json -o "$work/keep.svg"
err "a missing file" 1 "cannot read $work/none.json" plot base.json "$work/none.json" -o "$work/keep.svg"
for bad in '{"parameter":"fraction"' \
	'{"parameter":"batch","workload":"x","tasks":1,"points":[{"value":1,"hmean":5,"min":6,"max":7,"samples":[6,7]}]}' \
	'{"parameter":"batch","workload":"x","tasks":1,"points":[{"value":1,"hmean":1,"samples":[1],"lock_pct":101}]}' \
	'{"parameter":"batch","workload":"x","tasks":1,"points":[{"value":1,"hmean":1,"samples":[1],"lock_pct":"5"}]}' \
	'{"parameter":"batch","workload":"x","tasks":1,"points":[{"value":1,"hmean":1,"samples":[1]}],"best":{"value":2,"significant":true}}' \
	'{"parameter":"batch","workload":"x","tasks":1,"points":[{"value":1,"hmean":1,"samples":[1]}],"best_by_tasks":[{"tasks":1,"value":1}]}' \
	'{"parameter":"batch","workload":"x","tasks":1,"points":[{"value":1,"hmean":1,"samples":[1]}],"best":[]}'; do
	printf '%s' "$bad" >"$work/bad.json"
	err "malformed $bad" 1 "is not a sweep.s JSON: " plot "$work/bad.json" -o "$work/keep.svg"
done
printf '%s' '{"parameter":"batch","workload":"x","tasks":1,"points":[{"value":1,"hmean":1,"samples":[1]}],"best":{"value":2,"significant":true}}' >"$work/bad.json"
err "a best that is no point names it, in the singular" 1 "the best batch 2 with 1 task is none of the points" plot "$work/bad.json" -o "$work/keep.svg"
mkdir "$work/ro" && chmod 555 "$work/ro"
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	as=(setpriv --reuid=65534 --regid=65534 --clear-groups)
else
	as=()
fi
cp base.json other.json "$work/" && chmod 644 "$work"/*.json && chmod 755 "$work"
"${as[@]}" "$pcpctl" plot "$work/base.json" "$work/other.json" -o "$work/ro/c.svg" >/dev/null 2>"$work/err"
check "a directory it cannot write: exit 1, named, nothing left" \
	"[ $? = 1 ] && grep -q \"cannot write $work/ro/c.svg\" $work/err && [ -z \"\$(ls -A $work/ro)\" ]"
"$pcpctl" plot base.json other.json -o "$work/keep.svg"
check "an existing chart is replaced" "[ $? = 0 ] && xmllint --noout $work/keep.svg"
finish
