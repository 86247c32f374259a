#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""pcpctl show --interval on the live kernel: the zones and CPUs are those
show --summary lists, and pgalloc/pgfree come from /proc/vmstat, read by
pcpctl itself, as rates between samples (never less than 0, and not 0 while a
child maps, touches and unmaps memory the whole time: an idle machine may
free no page in half a second; the relation holds at any load).  Rate times
seconds, summed over the samples, is at most what the counter grew by from
before pcpctl started to after it ended.  Reads only.

Usage: interval.py PCPCTL"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from lib import check, finish  # noqa: E402  (tests/lib.py, the harness)

pcpctl = sys.argv[1]


# Pages allocated and freed all along the samples: the child says when it
# has freed its first, and goes on until it is killed after the last sample,
# however long a loaded machine makes them take.
CHURN = """
import mmap
first = True
while True:
    m = mmap.mmap(-1, 16 << 20)
    for off in range(0, len(m), 4096):
        m[off] = 1
    m.close()
    if first:
        print("churning", flush=True)
        first = False
"""


def vmstat():
    with open("/proc/vmstat") as f:
        return {k: int(v) for k, v in (line.split() for line in f)}


churn = subprocess.Popen([sys.executable, "-c", CHURN], stdout=subprocess.PIPE, text=True)
before = vmstat()
try:
    # wait(a): the child has freed its first 16 MiB (its first line); bound 1500 s (CTest default).
    #   show --interval 0.5 (class c): the interval under test; rates are checked as relations.
    check("the child allocates and frees pages", churn.stdout.readline() == "churning\n")
    run = subprocess.run([pcpctl, "show", "--interval", "0.5", "--count", "3", "--json"],
                         capture_output=True, text=True)
finally:
    after = vmstat()
    # wait(c): the churn child loops until killed; wait reaps it at once.
    churn.kill()
    churn.wait()
check("exit 0, nothing on stderr", run.returncode == 0 and not run.stderr, run.stderr)
docs = [json.loads(line) for line in run.stdout.splitlines()]
check("3 samples", len(docs) == 3, str(len(docs)))
summary = json.loads(subprocess.run([pcpctl, "show", "--summary", "--json", "-o", "NODE,ZONE,CPUS"],
                                    capture_output=True, text=True, check=True).stdout)["zones"]
for i, d in enumerate(docs):
    zones = [{k: z[k] for k in ("node", "zone", "cpus")} for z in d["zones"]]
    check(f"sample {i}: the zones and CPUs of show --summary", zones == summary, str(zones))
rates = [d["pgfree_per_s"] for d in docs[1:]] + \
        [r for d in docs[1:] for r in d["pgalloc_per_s"].values()]
check("the first sample has no rates", docs[0]["pgfree_per_s"] is None and
      set(docs[0]["pgalloc_per_s"].values()) == {None}, str(docs[0]))
check("later samples have every rate, none negative",
      all(r is not None and r >= 0 for r in rates), str(rates))
check("pages were freed between samples", all(d["pgfree_per_s"] > 0 for d in docs[1:]),
      str([d["pgfree_per_s"] for d in docs[1:]]))
# Rates have one decimal and seconds three: allow for that rounding.
for name, rate_of in (("pgfree", lambda d: d["pgfree_per_s"]),
                      ("pgalloc_normal", lambda d: d["pgalloc_per_s"].get("Normal"))):
    if name not in before or rate_of(docs[-1]) is None:
        continue
    counted = sum(rate_of(d) * d["seconds"] for d in docs[1:])
    grew = after[name] - before[name]
    check(f"{name}: rate x seconds ({counted:.0f}) within what the counter grew ({grew})",
          0 < counted <= grew * 1.002 + 1, f"{counted} > {grew}")
finish()
