#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# pcpctl show --interval over fixture trees: the rows, JSON Lines, the
# filters, the counters of proc/vmstat, the ends by --count, SIGINT and
# SIGTERM, and the usage errors.
# Usage: watch.sh PCPCTL
set -u
here=$(cd "$(dirname "$0")" && pwd)
pcpctl=$(realpath "$1")
. "$(dirname "$(realpath "$0")")/../lib.sh"
workdir
bg=''
cleanup() {
	[ -n "$bg" ] && kill "$bg" 2>/dev/null
}
at_exit cleanup
# await (tests/lib.sh) polls here for: 3 JSON lines written, before SIGINT/SIGTERM.
lines() { [ "$(wc -l <"$1")" -ge "$2" ]; } # lines FILE N: FILE has N lines or more

t=$work/t612
sysroot_tree "$t" debian-6.12-4cpu-2node.zoneinfo --release 6.12.117 --page-kib 0 --nodes "" percpu_pagelist_high_fraction=0 >/dev/null
cp "$here/../fixtures/vmstat/live-6.18-2cpu.vmstat" "$t/proc/vmstat"
pcp() { "$pcpctl" --sysroot "$t" "$@"; }

# --- the table: a header once, then a row per zone and sample ----------------
# wait(c): show --interval 0.05 --count 1..3 here and below: the interval under test; the assertions
#   are rows, headers, counts, rates of 0 with a constant vmstat and seconds >= 0.
pcp show --interval 0.05 --count 3 >"$work/out" 2>"$work/err"
check "--count 3 exits 0 with nothing on stderr" [ $? = 0 ] && [ ! -s "$work/err" ]
check "one header, then 3 samples of 4 zones" \
	[ "$(grep -c '^TIME ' "$work/out")" = 1 ] && [ "$(wc -l <"$work/out")" = 13 ]
check "the first sample has no change or rates, later ones do" \
	[ "$(sed -n 2,5p "$work/out" | awk '$6 != "-" || $11 != "-" || $12 != "-"' | wc -l)" = 0 ] &&
	[ "$(sed -n 6,13p "$work/out" | awk '$6 != "0" || $12 != "0"' | wc -l)" = 0 ]
want=$(pcp show --summary --raw --noheadings -o NODE,ZONE,CPUS,PAGES,BATCH,HIGH)
got=$(sed -n 2,5p "$work/out" | awk '{print $2, $3, $4, $5, $9, $10}')
check "rows carry what show --summary says" [ "$want" = "$got" ]
# On a terminal the table follows its width (COLUMNS first, else the
# terminal's own): the least needed columns give way, with a note.
tty_run() { # tty_run COLS ARGS...: pcpctl on a pseudo-terminal of COLS columns
	local cols=$1
	shift
	script -qec "stty cols $cols; env -u COLUMNS $(printf '%q ' "$pcpctl" --sysroot "$t" "$@")" \
		/dev/null | tr -d '\r'
}
# wait(c): the interval under test, as above.
tty_run 80 show --interval 0.05 --count 2 >"$work/tty80"
check "an 80-column terminal: every row fits" \
	[ "$(grep -v '^pcpctl:' "$work/tty80" | awk 'length > 80' | wc -l)" = 0 ]
check "  MAXFILL% gave way, and a note says so" \
	grep -q '^pcpctl: note: left out for a terminal of 80 columns: MAXFILL% (--json has them all)$' \
	"$work/tty80"
check "  the rows are there" [ "$(grep -c '^[0-9][0-9]:' "$work/tty80")" = 8 ]
tty_run 200 show --interval 0.05 --count 1 >"$work/tty200"
check "a wide terminal: every column, no note" \
	grep -q ' MAXFILL% ' "$work/tty200" && ! grep -q 'left out' "$work/tty200"
# wait(c): the interval under test, as above.
COLUMNS=60 script -qec "$(printf '%q ' "$pcpctl" --sysroot "$t" show --interval 0.05 --count 1)" \
	/dev/null | tr -d '\r' >"$work/tty60"
check "COLUMNS is followed before the terminal's size" \
	grep -q 'left out for a terminal of 60 columns: CPUS, CHANGE, MAXFILL%' "$work/tty60"
pcp show --interval 0.05 --count 1 >"$work/out"
check "a pipe gets every column, as wide as the first sample needs (BATCH 5, not 10)" \
	grep -q '^TIME     NODE ZONE   CPUS  PAGES CHANGE FILL% MAXFILL% BATCH      HIGH ALLOC/s  FREE/s$' \
	"$work/out"
# wait(c): the interval under test, as above.
pcp show --interval 0.05 --count 2 --noheadings >"$work/out"
check "--noheadings: rows only" [ "$(wc -l <"$work/out")" = 8 ] && ! grep -q '^TIME' "$work/out"

# --- JSON Lines -------------------------------------------------------------------
# wait(c): the interval under test, as above.
pcp show --interval 0.05 --count 3 --json >"$work/jsonl"
pcp show --summary --json -o NODE,ZONE,CPUS,PAGES >"$work/summary.json"
if python3 - "$work/jsonl" "$work/summary.json" <<'PY'; then ok "--json: 3 JSON documents, one a line, as show --summary counts"; else bad "--json lines"; fi
import json, sys
lines = open(sys.argv[1]).read().splitlines()
summary = json.load(open(sys.argv[2]))["zones"]
docs = [json.loads(l) for l in lines]
assert len(docs) == 3, len(docs)
assert docs[0]["seconds"] is None and docs[0]["pgfree_per_s"] is None
assert all(z["pages_change"] is None for z in docs[0]["zones"])
for d in docs[1:]:
    # A sample taken late makes the next one come early (the deadlines are
    # fixed from the start): only that time goes forward can be asserted.
    assert d["seconds"] >= 0, d["seconds"]
    # The tree's vmstat does not move: every rate is 0.
    assert d["pgfree_per_s"] == 0 and set(d["pgalloc_per_s"].values()) == {0}, d
    assert all(z["pages_change"] == 0 for z in d["zones"])
for d in docs:
    assert d["time"].endswith("Z") and len(d["time"]) == 24, d["time"]
    assert [{k: z[k] for k in ("node", "zone", "cpus", "pages")} for z in d["zones"]] == summary
PY

# --- the per-CPU view and its filters ------------------------------------------------
# wait(c): the interval under test, as above.
pcp show --interval 0.05 --count 2 --json --per-cpu --cpu 1,3 --zone Normal >"$work/jsonl"
pcp show --json --cpu 1,3 --zone Normal >"$work/show.json"
if python3 - "$work/jsonl" "$work/show.json" <<'PY'; then ok "--per-cpu --cpu --zone: the pagesets show gives"; else bad "--per-cpu with filters"; fi
import json, sys
docs = [json.loads(l) for l in open(sys.argv[1])]
want = [(p["node"], p["zone"], p["cpu"], p["count"], p["high"], p["batch"])
        for p in json.load(open(sys.argv[2]))["pagesets"]]
assert len(docs) == 2 and len(want) == 2
for d in docs:
    assert [(p["node"], p["zone"], p["cpu"], p["count"], p["high"], p["batch"])
            for p in d["pagesets"]] == want
assert list(docs[1]["pgalloc_per_s"]) == ["Normal"]
PY
# wait(c): the interval under test, as above.
pcp show --interval 0.05 --count 1 --per-cpu --node 0 >"$work/out"
check "--per-cpu --node 0: a row per CPU of node 0's 2 populated zones" \
	[ "$(wc -l <"$work/out")" = 9 ] && [ "$(awk 'NR > 1 && $2 != 0' "$work/out" | wc -l)" = 0 ]

# --- a moving counter: the rate is the change over the time between samples ----------
# proc/vmstat is a FIFO: each sample reads the text written next, so the
# second sees 1000 pages more freed than the first, however loaded the
# machine is.  (timeout only ends a write that no pcpctl will ever read.)
cp "$t/proc/vmstat" "$work/vmstat.1"
sed 's/^pgfree .*/pgfree 57368983/' "$work/vmstat.1" >"$work/vmstat.2"
rm "$t/proc/vmstat"
mkfifo "$t/proc/vmstat"
# wait(c): the interval under test; each sample blocks on the FIFO. Then timeout 300 (class a):
#   pcpctl opens the FIFO for sample 1; cli_watch's 120 s ends it first.
pcp show --interval 1 --count 2 --json >"$work/jsonl" &
timeout 300 cp "$work/vmstat.1" "$t/proc/vmstat" || bad "sample 1 never read proc/vmstat"
# The second text only once the first sample is printed (each is flushed):
# a writer that opened the FIFO before pcpctl had read the first text to its
# end would join that read, and the second sample would wait for a writer
# forever.
# wait(a): sample 1 is printed (3000 polls of 0.1 s); then pcpctl opens the FIFO for sample 2 (300
#   s), and the background show ends after it.
for _ in $(seq 3000); do
	[ -s "$work/jsonl" ] && break
	sleep 0.1
done
timeout 300 cp "$work/vmstat.2" "$t/proc/vmstat" || bad "sample 2 never read proc/vmstat"
wait
if python3 - "$work/jsonl" <<'PY'; then ok "pgfree 1000 higher between two samples: pgfree_per_s = 1000 / seconds"; else bad "pgfree rate"; fi
import json, sys
d = [json.loads(l) for l in open(sys.argv[1])][1]
s, r = d["seconds"], d["pgfree_per_s"]
# wait(c): the interval under test: 1000 pages over any time seconds can stand for, true for any
#   sample timing.
# seconds is printed to the millisecond and the rate to 0.1: the rate must be
# 1000 over some time that rounds to seconds.  A late first sample (a loaded
# machine) shortens seconds, and a short one makes 1000 / seconds coarse, so
# this holds however early or late the samples came.
assert s >= 0 and 1000 / (s + 0.0005) - 0.05 <= r, d
assert s < 0.0005 or r <= 1000 / (s - 0.0005) + 0.05, d
PY

# --- without proc/vmstat: one warning, no rates ----------------------------------------
rm "$t/proc/vmstat"
# wait(c): the interval under test, as above.
pcp show --interval 0.05 --count 3 --json >"$work/jsonl" 2>"$work/err"
check "no vmstat: exit 0, one warning" [ $? = 0 ] && [ "$(wc -l <"$work/err")" = 1 ] &&
	grep -q "cannot read $t/proc/vmstat: No such file or directory; no pgalloc/pgfree rates" "$work/err"
check "no vmstat: rates are null" [ "$(grep -c '"pgfree_per_s":null' "$work/jsonl")" = 3 ]

# --- Ctrl-C and SIGTERM end it cleanly, after a whole sample ----------------------------
for sig in INT TERM; do
	# Not through pcp(): $! must be pcpctl itself, not a subshell.  The
	# file goes first: lines left by the test before would let the signal
	# reach the forked shell before it is pcpctl (exit 130, and that shell
	# runs this script's EXIT trap, which removes $work).
	rm -f "$work/jsonl"
	# wait(c): the run that is signalled, once it has written 3 lines (await); wait returns once
	#   it has exited.
	"$pcpctl" --sysroot "$t" show --interval 0.05 --json >"$work/jsonl" 2>"$work/err" &
	bg=$!
	await lines "$work/jsonl" 3 || bad "SIG$sig: fewer than 3 samples in 300 s"
	kill -s "$sig" "$bg"
	wait "$bg"
	rc=$?
	bg=''
	check "SIG$sig: exit 0, and every line written is whole JSON" [ "$rc" = 0 ] &&
		python3 -c 'import json, sys; [json.loads(l) for l in open(sys.argv[1])]' "$work/jsonl" &&
		[ "$(tail -c 1 "$work/jsonl" | od -An -c | tr -d ' ')" = '\n' ]
done

# --- usage errors: exit 2, nothing sampled -------------------------------------------------
usage() { # usage MESSAGE ARGS...
	local msg=$1
	shift
	pcp "$@" >"$work/out" 2>"$work/err"
	local rc=$?
	if [ "$rc" = 2 ] && grep -qF -- "$msg" "$work/err" && [ ! -s "$work/out" ]; then
		ok "$* exits 2: $(cat "$work/err")"
	else
		bad "$*: exit $rc, stderr: $(cat "$work/err")"
	fi
}
# wait(c): usage errors with --interval 0, 1m, --count 0, ...: exit 2; nothing samples.
usage '--count needs --interval' show --count 3
usage '--interval: invalid "0"' show --interval 0
usage '--interval: invalid "1m"' show --interval 1m
usage '--count: invalid "0"' show --interval 1 --count 0
usage 'not --output, --output-all, --raw or --pairs' show --interval 1 -o NODE
usage 'not --output, --output-all, --raw or --pairs' show --interval 1 --raw
usage '--per-cpu and --summary are mutually exclusive' show --interval 1 --summary --per-cpu
usage 'status does not take --interval' status --interval 1

finish
