#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""ansible/examples/fleet-sweep.yml for real: Debian's ansible-playbook against
an inventory of two hosts that both connect locally, swept one after the
other (fleet_serial=1) on this machine's live kernel with short points.

- Both sweeps' JSON are fetched to the controller, the controller's compare
  table has a column per host, the chart is well-formed with a line per host
  in each task count's panel, and the live fraction is what it was.
- A sweep that fails (its workload exits 1) still runs the rollback of the
  always block, and leaves the fraction as it was.

It changes vm.percpu_pagelist_high_fraction: run it under
flock /tmp/pcpctl-live.lock, as CTest's RESOURCE_LOCK live_kernel does.

Usage: run.py PCPCTL [KEEP_DIR]   (KEEP_DIR: copy the results there)"""
import json
import os
import shutil
import subprocess
import sys

import yaml

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from lib import check, finish, workdir  # noqa: E402  (tests/lib.py, the harness)

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.normpath(os.path.join(HERE, "..", ".."))
PLAYBOOK = os.path.join(SRC, "ansible", "examples", "fleet-sweep.yml")
PCPCTL = os.path.abspath(sys.argv[1])
KEEP = sys.argv[2] if len(sys.argv) > 2 else None
LIVE = "/proc/sys/vm/percpu_pagelist_high_fraction"
HOSTS = ["h1", "h2"]


def live_value():
    with open(LIVE) as f:
        return int(f.read())


def xpath(path, expr):
    p = subprocess.run(["xmllint", "--xpath", expr, path], capture_output=True, text=True)
    return p.stdout.strip()


for tool in ("ansible-playbook", "xmllint"):
    if not shutil.which(tool):
        print(f"FAIL {tool} is missing (scripts/deps --test installs it)")
        sys.exit(1)
if not os.path.exists(LIVE):
    print(f"SKIP no {LIVE} on this kernel")
    sys.exit(77)

work = workdir(prefix="pcpctl-fleet-")
with open(os.path.join(work, "ansible.cfg"), "w") as f:
    f.write("[defaults]\n")
inventory = os.path.join(work, "hosts")
with open(inventory, "w") as f:
    f.write("[pcp_tuned]\n" + "".join(
        f"{h} ansible_connection=local ansible_become=false "
        "ansible_python_interpreter=/usr/bin/python3\n" for h in HOSTS))
ENV = dict(os.environ, ANSIBLE_CONFIG=os.path.join(work, "ansible.cfg"), ANSIBLE_NOCOLOR="1",
           ANSIBLE_RETRY_FILES_ENABLED="0", ANSIBLE_HOME=os.path.join(work, "home"),
           ANSIBLE_LOCAL_TEMP=os.path.join(work, "tmp"), ANSIBLE_DEPRECATION_WARNINGS="0",
           ANSIBLE_STDOUT_CALLBACK="default")


def run(name, **extra):
    """Run the playbook with short sweeps; (rc, output, results directory)."""
    results = os.path.join(work, name)
    # wait(a): sweep_timeout 300 -> fleet-sweep.yml's async: each host's sweep ends; 300 s per host.
    #   sweep_duration 2, sweep_warmup 0 (class c): a point's length.
    args = {"pcpctl": PCPCTL, "fleet_serial": 1, "fleet_results": results,
            "sweep_tmpdir": os.path.join(work, "on-host"), "sweep_values": "0,8",
            "sweep_tasks": "1,2", "sweep_duration": 2, "sweep_warmup": 0, "sweep_timeout": 300}
    args.update(extra)
    p = subprocess.run(["ansible-playbook", "-i", inventory, PLAYBOOK, "-e", json.dumps(args)],
                       capture_output=True, text=True, env=ENV, cwd=work)
    return p.returncode, p.stdout + p.stderr, results


def task_hosts(out, task, status):
    """The hosts a task reported with status (ok, changed, fatal) in the default
    output, in every batch of the serial play."""
    blocks = [b.split("\nTASK [", 1)[0].split("\nPLAY ", 1)[0]
              for b in out.split(f"TASK [{task}]")[1:]]
    return sorted({h for h in HOSTS for b in blocks if f"{status}: [{h}" in b})


p = subprocess.run(["ansible-playbook", "-i", inventory, PLAYBOOK, "--syntax-check"],
                   capture_output=True, text=True, env=ENV, cwd=work)
check("fleet-sweep.yml: syntax", p.returncode == 0, p.stdout + p.stderr)

# The report waits on the host in a file that ansible.builtin.tempfile
# makes (root's, mode 0600), never at a fixed path another user could make first.
with open(PLAYBOOK) as f:
    tasks = {t.get("name"): t for t in yaml.safe_load(f)[0]["tasks"][0]["block"]}
made = tasks.get("Make a root-only file for the report on the host", {})
kept = tasks.get("Keep the sweep's JSON report in it", {}).get("ansible.builtin.copy", {})
fetched = tasks.get("Fetch it to the controller", {}).get("ansible.builtin.fetch", {})
check("fleet-sweep.yml: the report goes to a root-only tempfile on the host",
      "ansible.builtin.tempfile" in made and made.get("register") == "sweep_result" and
      kept.get("dest") == "{{ sweep_result.path }}" and kept.get("mode") == "0600" and
      fetched.get("src") == "{{ sweep_result.path }}", str(tasks)[:2000])
os.mkdir(os.path.join(work, "on-host"))

original = live_value()
try:
    # --- two hosts, one after the other -----------------------------------------
    rc, out, results = run("fleet")
    check("the playbook succeeds", rc == 0, out)
    sweeps = {}
    for h in HOSTS:
        try:
            with open(os.path.join(results, f"{h}-sweep.json")) as f:
                sweeps[h] = json.load(f)
        except (OSError, ValueError) as e:
            sweeps[h] = {"error": str(e)}
        d = sweeps[h]
        check(f"{h}: its sweep's JSON is fetched to the controller",
              d.get("parameter") == "fraction" and d.get("restored") is True and
              sorted((p["tasks"], p["value"]) for p in d.get("points", [])) ==
              [(1, 0), (1, 8), (2, 0), (2, 8)], str(d)[:500])
    check("the hosts swept one after the other (serial)",
          out.count("TASK [Run pcpctl sweep as an asynchronous job]") == 2, out)
    check("the report files on the host are removed",
          os.listdir(os.path.join(work, "on-host")) == [])

    try:
        with open(os.path.join(results, "compare.txt")) as f:
            table = f.read()
    except OSError as e:
        table = str(e)
    head = table.splitlines()[0].split() if table else []
    check("compare.txt: a column per host, labelled by its inventory name",
          head == ["TASKS", "FRACTION", "h1", "h2"], table)
    check("compare.txt: a row per (tasks, value)",
          [ln.split()[:3] for ln in table.splitlines()[1:]] ==
          [["Hmean", "1", "0"], ["Hmean", "1", "8"], ["Hmean", "2", "0"], ["Hmean", "2", "8"]],
          table)
    check("the table is shown", "Hmean      1         0" in out, out)
    svg = os.path.join(results, "fleet.svg")
    lint = subprocess.run(["xmllint", "--noout", svg], capture_output=True, text=True)
    check("fleet.svg is well-formed", lint.returncode == 0, lint.stderr)
    for t in (1, 2):
        n = xpath(svg, f"count(//*[@id='tasks-{t}']/*[local-name()='polyline'])")
        check(f"fleet.svg: 2 lines in the panel of {t} task{'s' if t > 1 else ''}", n == "2", n)
    legend = xpath(svg, "//*[@class='legend-entry']/*[local-name()='text']/text()")
    check("fleet.svg: a legend entry per host", legend.split() == HOSTS, legend)
    check("the rollback of the always block ran on both hosts",
          task_hosts(out, "Roll back what an interrupted sweep left", "ok") == HOSTS, out)
    check(f"the live fraction is {original} again", live_value() == original, live_value())
    if KEEP:
        os.makedirs(KEEP, exist_ok=True)
        for name in os.listdir(results):
            shutil.copy(os.path.join(results, name), KEEP)

    # --- a sweep that fails -------------------------------------------------------
    rc, out, results = run("failing", sweep_values="8,16", sweep_tasks="1",
                           sweep_more=["--runs", "1", "--", "false"])
    check("a failing sweep fails the play", rc != 0 and
          task_hosts(out, "Wait for the sweep", "fatal") == ["h1"], out)
    check("  and the always block still runs pcpctl rollback",
          task_hosts(out, "Roll back what an interrupted sweep left", "ok") == ["h1"], out)
    check("  nothing is compared or plotted",
          not os.path.exists(os.path.join(results, "fleet.svg")), os.listdir(work))
    check(f"  the live fraction is {original} again", live_value() == original, live_value())
finally:
    if live_value() != original:
        with open(LIVE, "w") as f:
            f.write(f"{original}\n")
finish()
