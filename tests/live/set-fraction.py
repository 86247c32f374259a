#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""pcpctl set --fraction on this machine's real kernel (root), checked by an
independent reading of /proc/zoneinfo and sysfs: changed, then unchanged,
then reset.  The original fraction is written back whatever happens."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from lib import check, finish  # noqa: E402  (tests/lib.py, the harness)

pcpctl = sys.argv[1]
SYSCTL = "/proc/sys/vm/percpu_pagelist_high_fraction"


def run(*args):
    p = subprocess.run([pcpctl, *args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def schema_errors(name, text):
    """What tests/schema/run.py --file says of text against schema/NAME.json, or ''."""
    with tempfile.NamedTemporaryFile("w", suffix=".json") as f:
        f.write(text)
        f.flush()
        p = subprocess.run([os.path.join(os.path.dirname(os.path.realpath(__file__)), "..",
                                         "schema", "run.py"), "--file", name, f.name],
                           capture_output=True, text=True)
    return "" if p.returncode == 0 else p.stdout


def node_cpus(node, online):
    path = f"/sys/devices/system/node/node{node}/cpulist"
    if not os.path.exists("/sys/devices/system/node"):
        return online
    cpus = set()
    text = open(path).read().strip()
    for part in filter(None, text.split(",")):
        lo, _, hi = part.partition("-")
        cpus.update(range(int(lo), int(hi or lo) + 1))
    return cpus & online


def zones():
    out, zone = [], None
    for line in open("/proc/zoneinfo"):
        if m := re.match(r"Node (\d+), zone +(\w+)", line):
            zone = {"node": int(m[1]), "name": m[2], "cpus": []}
            out.append(zone)
        elif m := re.match(r" +(managed|low) +(\d+)$", line):
            zone.setdefault(m[1], int(m[2]))
        elif m := re.match(r" +cpu: (\d+)$", line):
            zone["cpus"].append({"cpu": int(m[1])})
        elif (m := re.match(r" +(batch|high_min|high_max): +(\d+)$", line)) and zone["cpus"]:
            zone["cpus"][-1][m[1]] = int(m[2])
    return [z for z in out if z["cpus"]]


def expect_fraction(fraction):
    """6.13+: high_min == high_max == max(managed / fraction / split, 4 * batch)."""
    bad = []
    for z in zones():
        online = {c["cpu"] for c in z["cpus"]}
        split = len(node_cpus(z["node"], online)) or len(online)
        for c in z["cpus"]:
            want = max(z["managed"] // fraction // split, 4 * c["batch"])
            if (c.get("high_min"), c.get("high_max")) != (want, want):
                bad.append((z["node"], z["name"], c, want))
    return bad


original = int(open(SYSCTL).read())
target = 16 if original == 8 else 8
try:
    rc, out, err = run("set", "--fraction", str(target), "--json")
    check(f"set --fraction {target} exits 0", rc == 0, err)
    res = json.loads(out)
    check("set reports changed and verified", res["changed"] and res["verified"], out)
    why = schema_errors("change", out)
    check("its JSON against schema/change.json", not why, why)
    check("sysctl holds the value", int(open(SYSCTL).read()) == target)
    bad = expect_fraction(target)
    check("high_min/high_max as the kernel computes them", not bad, bad[:3])
    rc, out, err = run("set", "--fraction", str(target), "--json")
    check("the same set again exits 0", rc == 0, err)
    check("and reports unchanged", json.loads(out)["changed"] is False, out)
    rc, out, err = run("reset")
    check("reset exits 0", rc == 0, err)
    check("reset restores the default", int(open(SYSCTL).read()) == 0)
    rc, out, err = run("status", "--json")
    check("status shows 0", json.loads(out)["settings"]["percpu_pagelist_high_fraction"] == 0, out)
finally:
    with open(SYSCTL, "w") as f:
        f.write(f"{original}\n")
    check("original fraction restored", int(open(SYSCTL).read()) == original)

# rollback as an unprivileged user with no journal left: nothing to do, and
# nothing that needs root (it changes nothing, so it is safe on this machine)
if not os.path.exists("/run/pcpctl/journal"):
    with tempfile.TemporaryDirectory() as d:
        os.chmod(d, 0o755)
        copy = os.path.join(d, "pcpctl")
        shutil.copy(pcpctl, copy)
        p = subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                            copy, "rollback"], capture_output=True, text=True)
        check("rollback as nobody without a journal exits 0: nothing to roll back",
              p.returncode == 0 and "nothing to roll back" in p.stdout, p.stdout + p.stderr)
finish()
