#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# pcpctl compare over hand-made sweep JSON whose answers are known:
#   base fraction 0: samples 100,101,99,100, Hmean 4/(1/100+1/101+1/99+1/100) = 99.995
#   other fraction 0: 104,99,103,102, Hmean 101.965; change (101.965-99.995)/99.995 = +1.97%
#     Welch: t = -1.7321, df = 3.84, p = 0.16128 (not significant)
#   base fraction 8: 110,111,109,110 against other 120,121,119,120: change +9.09%,
#     t = -17.3205, df = 6, p = 2.37333e-06 (significant)
# (t, df and p from the textbook formulas in mpmath at 30 digits.)
# Usage: compare.sh PCPCTL FIXTURE_DIR
set -u
pcpctl=$(realpath "$1")
fx=$(realpath "$2")/sweep
. "$(dirname "$(realpath "$0")")/../lib.sh"
workdir

cd "$fx" || exit 1
"$pcpctl" compare base.json other.json >"$work/out" 2>"$work/err"
check "compare exits 0" "[ $? = 0 ]"
cat >"$work/want" <<'TABLE'
       TASKS  FRACTION                base.json        ex 6.1.0-57-amd64
Hmean      2         0        100.00 (  +0.00%)        101.97 (  +1.97%)
Hmean      2         8        110.00 (  +0.00%)        120.00 *  +9.09%*
Hmean      2        16                        -           5.00 (      -)
TABLE
check "the table in mmtests' form" "diff -u $work/want $work/out"
check "nothing on stderr" "[ ! -s $work/err ]"

# POSIXLY_CORRECT (pcpctl(8), ENVIRONMENT): the command's name is no operand, a FILE is.
POSIXLY_CORRECT=1 "$pcpctl" compare --label old --label new base.json other.json >/dev/null 2>"$work/err"
check "POSIXLY_CORRECT: options before the FILEs work" "[ $? = 0 ] && [ ! -s $work/err ]"
POSIXLY_CORRECT=1 "$pcpctl" compare base.json --label old --label new other.json >/dev/null 2>"$work/err"
check "POSIXLY_CORRECT: an option after a FILE is a usage error, exit 2" "[ $? = 2 ] && grep -q '^pcpctl: --label: an option after an argument' $work/err"

"$pcpctl" compare --label old --label new --json --csv "$work/c.csv" base.json other.json >"$work/out"
check "--json exits 0" "[ $? = 0 ]"
check "--json: labels, changes and p-values" "python3 -c '
import json
d = json.load(open(\"$work/out\"))
assert [i[\"label\"] for i in d[\"inputs\"]] == [\"old\", \"new\"]
r = {(x[\"tasks\"], x[\"value\"]): x[\"cells\"] for x in d[\"rows\"]}
assert list(r) == [(2, 0), (2, 8), (2, 16)]
c = r[2, 0][1]; assert abs(c[\"change_pct\"] - 1.9701) < 1e-3 and abs(c[\"p\"] - 0.161279) < 1e-6 and not c[\"significant\"]
c = r[2, 8][1]; assert abs(c[\"change_pct\"] - 9.0922) < 1e-3 and abs(c[\"p\"] - 2.37333e-06) < 1e-10 and c[\"significant\"]
assert r[2, 16][0] is None and r[2, 16][1][\"change_pct\"] is None
assert r[2, 0][0][\"p\"] is None and r[2, 0][0][\"change_pct\"] == 0
'"
check "--csv: one line per cell" "[ \$(wc -l <$work/c.csv) = 6 ] && grep -qx '2,8,new,119.996,9.0922,2.37333e-06,1,120.000' $work/c.csv"

"$pcpctl" compare base.json batch.json >"$work/out" 2>"$work/err"
check "different parameters exit 2" "[ $? = 2 ]"
check "and say which" "grep -q 'base.json sweeps fraction, but batch.json sweeps batch: compare puts side by side sweeps of one parameter' $work/err"
sed 's/page_fault1/stress-ng/' other.json >"$work/wl.json"
"$pcpctl" compare base.json "$work/wl.json" >/dev/null 2>"$work/err"
check "different workloads without a unit exit 2" "[ $? = 2 ] && grep -q 'base.json measures page_fault1, but $work/wl.json measures stress-ng' $work/err"
# A sweep of one metric: its unit, its direction, its command (as sweep --json writes them).
metric() { # metric FILE OUT UNIT BETTER COMMAND...
	python3 - "$@" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d.update(workload=sys.argv[5], unit=sys.argv[3], better=sys.argv[4], command=sys.argv[5:], metric="x")
json.dump(d, open(sys.argv[2], "w"))
PY
}
metric base.json "$work/lo.json" Gbit/s higher iperf3 -c 10.0.0.2 -P 8
metric other.json "$work/veth.json" Gbit/s higher /usr/bin/iperf3 -c 10.0.1.2 -P 8
"$pcpctl" compare "$work/lo.json" "$work/veth.json" >"$work/out" 2>"$work/err"
check "one unit from different commands exits 0" "[ $? = 0 ] && grep -q '^Hmean ' $work/out"
check "  with a warning that names them" \
	"grep -q 'lo.json and $work/veth.json ran different commands or --metric: compared as one metric, Gbit/s' $work/err"
"$pcpctl" compare "$work/lo.json" "$work/lo.json" >/dev/null 2>"$work/err"
check "  the same command, no warning" "[ ! -s $work/err ]"
metric other.json "$work/jitter.json" ms lower iperf3 -u -c 10.0.0.2
"$pcpctl" compare "$work/lo.json" "$work/jitter.json" >"$work/out" 2>"$work/err"
check "Gbit/s against ms exits 2" "[ $? = 2 ] && [ ! -s $work/out ] && grep -q 'lo.json measures Gbit/s, higher is better, but $work/jitter.json measures ms, lower is better: compare puts side by side sweeps of one metric' $work/err"
metric other.json "$work/down.json" Gbit/s lower iperf3 -c 10.0.0.2 -P 8
"$pcpctl" compare "$work/lo.json" "$work/down.json" >/dev/null 2>"$work/err"
check "one unit, two directions exits 2" "[ $? = 2 ] && grep -q 'Gbit/s, higher is better, but .* Gbit/s, lower is better' $work/err"
metric base.json "$work/pf1.json" ops/s higher page_fault1
"$pcpctl" compare "$work/pf1.json" "$work/lo.json" >/dev/null 2>"$work/err"
check "page_fault1 against a COMMAND exits 2" "[ $? = 2 ] && grep -q 'pf1.json measures page_fault1, but $work/lo.json measures iperf3' $work/err"
# A cost: the mean decides, and a change is positive where it is better (lower).
metric base.json "$work/lat-a.json" us lower sockperf ping-pong
metric other.json "$work/lat-b.json" us lower sockperf ping-pong
"$pcpctl" compare "$work/lat-a.json" "$work/lat-b.json" --json >"$work/out"
check "lower is better: Mean rows, and a higher latency a negative change" "python3 -c '
import json
d = json.load(open(\"$work/out\"))
assert d[\"better\"] == \"lower\"
r = {(x[\"tasks\"], x[\"value\"]): x[\"cells\"] for x in d[\"rows\"]}
c = r[2, 8][1]; assert c[\"mean\"] == 120 and abs(c[\"change_pct\"] + 9.0909) < 1e-3 and c[\"significant\"], c
c = r[2, 0][1]; assert c[\"mean\"] == 102 and abs(c[\"change_pct\"] + 2) < 1e-3, c
'"
"$pcpctl" compare "$work/lat-a.json" "$work/lat-b.json" >"$work/out"
check "  the table says Mean" "grep -Eq '^Mean +2 +8 +110.00 \(  \+0.00%\) +120.00 \*  -9.09%\*\$' $work/out"
# Two sweeps of one host and kernel: their columns also name their files.
cp other.json "$work/tcp.json" && cp other.json "$work/udp.json"
"$pcpctl" compare "$work/tcp.json" "$work/udp.json" >"$work/out" 2>"$work/err"
check "two sweeps of one host are told apart by their files" \
	"[ $? = 0 ] && head -1 $work/out | grep -q ' ex 6.1.0-57-amd64 (tcp.json) \+ex 6.1.0-57-amd64 (udp.json)\$'"
"$pcpctl" compare base.json other.json >"$work/out"
check "  and others keep their own" "head -1 $work/out | grep -q ' base.json .* ex 6.1.0-57-amd64\$'"
"$pcpctl" compare --label a --label b "$work/tcp.json" "$work/udp.json" >"$work/out"
check "  and --label is left as given" "head -1 $work/out | grep -Eq ' a +b\$'"
"$pcpctl" compare base.json >/dev/null 2>&1
check "one file exits 2" "[ $? = 2 ]"
"$pcpctl" compare --label a base.json other.json >/dev/null 2>&1
check "a --label short exits 2" "[ $? = 2 ]"
"$pcpctl" compare base.json "$work/none.json" >/dev/null 2>"$work/err"
check "a missing file exits 1" "[ $? = 1 ] && grep -q 'cannot read' $work/err"
for bad in '{"parameter":"fraction"' '[1,2]' '{"parameter":"high","workload":"x","tasks":1,"points":[]}' \
	'{"parameter":"batch","workload":"x","tasks":1,"points":[{"value":1,"hmean":1,"samples":[-1]}]}' \
	'{"parameter":"batch","workload":"x","tasks":1,"points":[{"value":1,"hmean":1,"samples":[1]},{"value":1,"hmean":2,"samples":[2]}]}' \
	'{"parameter":"batch","workload":"x","tasks":1e3,"points":[]} x' \
	'{"version":2,"parameter":"batch","workload":"x","tasks":1,"points":[{"value":1,"hmean":1,"samples":[1]}]}'; do
	printf '%s' "$bad" >"$work/bad.json"
	"$pcpctl" compare base.json "$work/bad.json" >"$work/out" 2>"$work/err"
	check "malformed $bad exits 1" "[ $? = 1 ] && grep -q 'is not a sweep.s JSON: ' $work/err && [ ! -s $work/out ]"
done
# Labels: a file's name, not its path; "-" is standard input, read once.
"$pcpctl" compare "$fx/base.json" - <other.json >"$work/out" 2>"$work/err"
check "- reads standard input" "[ $? = 0 ] && diff -u $work/want $work/out"
"$pcpctl" compare - other.json <base.json >"$work/out" 2>"$work/err"
check "a file from standard input is labelled stdin" \
	"[ $? = 0 ] && head -n 1 $work/out | grep -q '^       TASKS  FRACTION  *stdin  '"
"$pcpctl" compare - - <base.json >/dev/null 2>"$work/err"
check "- twice exits 2" "[ $? = 2 ] && grep -q 'standard input) given twice' $work/err"
"$pcpctl" compare - other.json </dev/null >/dev/null 2>"$work/err"
check "an empty standard input is named as such" \
	"[ $? = 1 ] && grep -q '^pcpctl: standard input is not a sweep.s JSON' $work/err"
"$pcpctl" compare --label '' --label b base.json other.json >/dev/null 2>"$work/err"
check "--label '' exits 2" "[ $? = 2 ] && grep -q -- '--label: give a name' $work/err"

# Padding by display columns: a label of wide characters, and a change too
# large for the usual cell, keep every column aligned.
# (python3, not sed's \x escapes, whose bytes depend on sed's version and locale)
python3 - other.json "$work/wide.json" <<'PY'
import sys
text = open(sys.argv[1], encoding="utf-8").read()
text = text.replace('"name":"ex"', '"name":"\u6f22\u5b57\u30db\u30b9\u30c8"')
text = text.replace('"hmean":119.996,"samples":[120,121,119,120]',
                    '"hmean":397594.6,"samples":[397594,397595,397594,397595]')
open(sys.argv[2], "w", encoding="utf-8").write(text)
PY
"$pcpctl" compare base.json "$work/wide.json" >"$work/out" 2>"$work/err"
check "wide labels and large changes exit 0" "[ $? = 0 ] || { cat $work/err; false; }"
check "every line is as wide in columns as the header" "python3 -c '
import unicodedata, sys
w = lambda s: sum(2 if unicodedata.east_asian_width(c) in \"WF\" else 1 for c in s)
lines = open(\"$work/out\", encoding=\"utf-8\").read().splitlines()
sys.exit(len({w(l) for l in lines}) != 1 or \"*+361366.07%*\" not in lines[2])
'"
# Any UTF-8 reads back, above U+FFFF too (json-c 0.18's strict mode refuses
# raw bytes above 0x7F: pcpctl hands it escapes); what is not UTF-8 is refused.
sed 's/"name":"ex"/"name":"host-\xf0\x9f\x98\x80-\xc3\xa9"/' other.json >"$work/utf8.json"
"$pcpctl" compare base.json "$work/utf8.json" >"$work/out" 2>"$work/err"
check "a host of 4- and 2-byte UTF-8 reads back" "[ $? = 0 ] && grep -qF \"\$(printf 'host-\\xf0\\x9f\\x98\\x80-\\xc3\\xa9 6.1')\" $work/out"
sed 's/"name":"ex"/"name":"\xff\xfe"/' other.json >"$work/latin.json"
"$pcpctl" compare base.json "$work/latin.json" >"$work/out" 2>"$work/err"
check "text that is not UTF-8 is refused" "[ $? = 1 ] && grep -q 'latin.json is not a sweep.s JSON: not JSON: not UTF-8' $work/err"
finish
