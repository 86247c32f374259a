#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# compare over sweep JSON that another machine wrote: the text
# of a file (host, kernel, workload) reaches the terminal with its control
# characters escaped, and the time is linear in the points.
# Usage: compare-escape.sh PCPCTL
set -u
pcpctl=$(realpath "$1")
. "$(dirname "$(realpath "$0")")/../lib.sh"
workdir
# raw FILE: whether FILE holds an ESC, a BEL or a C1 CSI (UTF-8 c2 9b) byte
raw() { od -An -tx1 -v "$1" | tr -s ' \n' '\n\n' | grep -qxE '1b|07|9b'; }

# sweep FILE NAME KERNEL WORKLOAD [POINTS]: a sweep's JSON with that host and workload
sweep() {
	python3 - "$@" <<'EOF'
import json, sys
path, name, kernel, workload = sys.argv[1:5]
n = int(sys.argv[5]) if len(sys.argv) > 5 else 2
points = [{"value": v * 8, "hmean": 100.0 + v % 7, "samples": [100.0 + v % 7]} for v in range(n)]
json.dump({"parameter": "fraction", "workload": workload, "tasks": 2,
           "host": {"name": name, "kernel": kernel}, "points": points},
          open(path, "w"), separators=(",", ":"))
EOF
}

sweep "$work/a.json" $'evil\e[2J\e]0;owned\a' $'6.1\x07' page_fault1
sweep "$work/b.json" $'h\xc3\xa9te' $'k\xc2\x9b31m' page_fault1
"$pcpctl" compare "$work/a.json" "$work/b.json" >"$work/out" 2>"$work/err"
check "compare exits 0" "[ $? = 0 ]"
check "no ESC, BEL or C1 CSI of the files reaches the terminal" "! raw $work/out && ! raw $work/err"
check "they show as escapes" "grep -qF 'evil\\x1b[2J\\x1b]0;owned\\x07 6.1\\x07' $work/out && grep -qF 'k\\xc2\\x9b31m' $work/out"
check "a UTF-8 letter shows as it is" "grep -q 'hé' $work/out"
"$pcpctl" compare --json "$work/a.json" "$work/a.json" >"$work/out" 2>"$work/err"
check "--json keeps the label, escaped as JSON" "! raw $work/out && python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d[\"inputs\"][0][\"label\"]==\"evil\"+chr(27)+\"[2J\"+chr(27)+\"]0;owned\"+chr(7)+\" 6.1\"+chr(7)+\" (a.json)\"' $work/out"

sweep "$work/c.json" host 6.1 $'bench\e]0;owned\a'
"$pcpctl" compare "$work/a.json" "$work/c.json" >"$work/out" 2>"$work/err"
check "another workload is a usage error" "[ $? = 2 ]"
check "whose message escapes the file's workload" "! raw $work/err && grep -qF 'bench\\x1b]0;owned\\x07' $work/err"

# 40,000 points in 1.9 MB, as the issue's 1.8 MB: once 35 s of CPU (a search per
# cell, and each point checked against all before it); the CPU limit is
# reached only by a compare that is quadratic again.
sweep "$work/big.json" host 6.1 page_fault1 40000
# wait(a): compare exits (about 1 s of CPU); the 8 s CPU bound, not wall time, is reached only by a
#   quadratic compare.
(ulimit -t 8; exec "$pcpctl" compare "$work/big.json" "$work/big.json") >"$work/out" 2>"$work/err"
check "compare of 40,000 points ends within 8 s of CPU" "[ $? = 0 ] && [ \$(grep -c '^Hmean' $work/out) = 40000 ]"

finish
