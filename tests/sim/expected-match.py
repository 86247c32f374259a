#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""A set/reset JSON report's "expected" against the pagesets of `show --json`
(a tree after the change, or a real kernel's capture after the same write).

Usage: expected-match.py REPORT.json SHOW.json MODE
MODE says what the kernel shows of high:
  eager   every CPU's high (up to 6.6; high_min == high_max)
  minmax  every CPU's high_min and high_max (6.13+)
  lazy    the first CPU's high is high_min: the simulated 6.7-6.12, where the
          CPU that wrote recomputes its own high at once
  batch   nothing of high: a real 6.7-6.12, where each CPU sets it when it
          next frees
Every mode checks batch on every CPU, and that every populated zone is expected."""
import json
import sys

report = json.load(open(sys.argv[1], encoding="utf-8"))
pagesets = json.load(open(sys.argv[2], encoding="utf-8"))["pagesets"]
mode = sys.argv[3]

zones = {}
for p in pagesets:
    zones.setdefault((p["node"], p["zone"]), []).append(p)
expected = report["expected"]
bad = []
if sorted((e["node"], e["zone"]) for e in expected) != sorted(zones):
    bad.append(f"expected zones {[(e['node'], e['zone']) for e in expected]}, "
               f"populated {sorted(zones)}")
for e in expected:
    cpus = zones.get((e["node"], e["zone"]), [])
    for p in cpus:
        want = {"batch": e["batch"]}
        if mode == "eager":
            if e["high_min"] != e["high_max"]:
                bad.append(f"node {e['node']} zone {e['zone']}: one high, but high_min "
                           f"{e['high_min']} != high_max {e['high_max']}")
            want["high"] = e["high_min"]
        elif mode == "minmax":
            want["high_min"], want["high_max"] = e["high_min"], e["high_max"]
        elif mode == "lazy" and p is cpus[0]:
            want["high"] = e["high_min"]
        for key, value in want.items():
            if p[key] != value:
                bad.append(f"node {p['node']} zone {p['zone']} cpu {p['cpu']}: {key} {p[key]}, "
                           f"expected {value}")
print("\n".join(bad[:10]))
sys.exit(1 if bad else 0)
