#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Every pcpctl series of a Prometheus text (a scrape or the exported file)
against what `pcpctl show --json` and `pcpctl status --json` say of the
same sysroot, and none missing or extra.  Prints ok/FAIL lines and the
count of series checked; exits 1 on a mismatch.

Usage: compare.py PCPCTL SYSROOT TEXTFILE [--per-cpu]"""
import json
import os
import re
import subprocess
import sys

pcpctl, root, textfile = sys.argv[1:4]
per_cpu = "--per-cpu" in sys.argv[4:]
SAMPLE = re.compile(r'^(pcpctl_\w+)(?:\{([^}]*)\})? (\S+)$')


def run(*args):
    return json.loads(subprocess.run([pcpctl, "--sysroot", root, *args], check=True,
                                     capture_output=True, text=True).stdout)


got = {}
for line in open(textfile, encoding="utf-8"):
    m = SAMPLE.match(line.rstrip("\n"))
    if m:
        labels = tuple(sorted(re.findall(r'(\w+)="([^"]*)"', m[2] or "")))
        got[(m[1], labels)] = float(m[3])

want = {}
zones = run("show", "--summary", "--json", "-o", "NODE,ZONE,CPUS,PAGES,BATCH_MAX,HIGH_HI")["zones"]
pagesets = run("show", "--json")["pagesets"]
for z in zones:
    lab = (("node", str(z["node"])), ("zone", z["zone"]))
    want[("pcpctl_pcp_pages", lab)] = z["pages"]
    want[("pcpctl_pcp_cpus", lab)] = z["cpus"]
    want[("pcpctl_pcp_batch", lab)] = z["batch_max"]
    want[("pcpctl_pcp_high", lab)] = z["high_hi"]
    for field in ("high_min", "high_max"):
        values = [p[field] for p in pagesets
                  if (p["node"], p["zone"]) == (z["node"], z["zone"]) and p[field] is not None]
        if values:
            want[(f"pcpctl_pcp_{field}", lab)] = max(values)
if per_cpu:
    for p in pagesets:
        lab = (("cpu", str(p["cpu"])), ("node", str(p["node"])), ("zone", p["zone"]))
        want[("pcpctl_pcp_cpu_pages", lab)] = p["count"]
        want[("pcpctl_pcp_cpu_high", lab)] = p["high"]
        want[("pcpctl_pcp_cpu_batch", lab)] = p["batch"]
# A sysctl the kernel lacks (null) has no sample.
for name, value in run("status", "--json")["settings"].items():
    if value is not None:
        want[("pcpctl_vm_" + name, ())] = value

# The journal's gauge: whether the tree has run/pcpctl/journal.
want[("pcpctl_journal_present", ())] = int(os.path.exists(os.path.join(root, "run/pcpctl/journal")))

failures = 0
for key in sorted(want):
    if got.get(key) != want[key]:
        failures += 1
        print(f"FAIL {key[0]}{dict(key[1])}: scraped {got.get(key)}, pcpctl says {want[key]}")
for key in sorted(set(got) - set(want)):
    failures += 1
    print(f"FAIL {key[0]}{dict(key[1])}: scraped but pcpctl does not show it")
print(f"{'ok  ' if not failures else 'FAIL'} {len(want)} series of {textfile.split('/')[-1]}"
      f" match pcpctl's JSON ({failures} wrong)")
sys.exit(1 if failures else 0)
