#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The Ansible collection pcpctl.pcpctl (ansible/): its module
pcpctl.pcpctl.pcpctl and example playbooks, run by Debian's ansible-core
against localhost (connection: local), with the collection built by
ansible-galaxy and installed in a private collections path.  Changes the live
kernel's vm.percpu_pagelist_high_fraction (and puts it back): run it under
flock /tmp/pcpctl-live.lock.

- ansible-galaxy builds and installs the collection; ansible-doc renders the
  module's documentation, every option and return value, and says which dry
  run check mode runs for each state.
- The module's contract with pcpctl, numbered:
  1. check mode runs pcpctl's dry run (set or reset) and returns what it says:
     changed, expected, the persisted file's text; it fails where the real run
     fails (a foreign 90-pcpctl.conf);
  2. pcpctl's warnings reach Ansible; verified: false with exit 0 warns;
  3. pcpctl --version and the JSON "version": a pcpctl too old or too new fails
     naming both versions, before anything is written; JSON the module cannot
     read fails with its text, never a traceback;
  4. persisted comes from pcpctl: false when the file did not change;
  5. a missing executable fails with rc 127, its path and how to install;
  6. ignore_missing_batch skips batch with a warning and sets the fraction;
  7. persist_only writes the file and leaves the kernel alone.
  The live kernel (set, --check, --diff, idempotence, refusals, reset) and the
  simulated kernel (pcpctl-sim, --sysroot: batch, persist, failure paths).
- The example playbooks: syntax; no shell, no template in a command line
  (argv only); sweep-fetch.yml's async, block/rescue/always and rollback, run
  over the simulated kernel (a sweep, a refused value, an injection attempt, a
  sweep killed by its async timeout); set-persistent.yml's default.

The module needs pcpctl's side of its JSON contract (a top-level "version": 1
and the keys expected, warnings, persist, boot_overrides; set --persist-only):
a pcpctl under test without it fails the checks that need it.

Usage: ansible.py PCPCTL PCPCTL_SIM"""
import json
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from lib import check, finish, need, sysroot_tree, workdir  # noqa: E402  (tests/lib.py, the harness)

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.normpath(os.path.join(HERE, "..", ".."))
PCPCTL = os.path.abspath(sys.argv[1])
SIM = os.path.abspath(sys.argv[2])
LIVE = "/proc/sys/vm/percpu_pagelist_high_fraction"

if not need("ansible-core"):
    sys.exit("FAIL cannot install ansible-core")
work = workdir(prefix="pcpctl-ansible-")
# An empty configuration: none from the machine or the user applies.
with open(os.path.join(work, "ansible.cfg"), "w") as f:
    f.write("[defaults]\n")
# ansible-core has no JSON stdout callback (that is in community.general):
# a small one prints every task result as one JSON document at the end.
os.makedirs(os.path.join(work, "callbacks"))
with open(os.path.join(work, "callbacks", "results_json.py"), "w") as f:
    f.write('''
import json
from ansible.plugins.callback import CallbackBase


class CallbackModule(CallbackBase):
    CALLBACK_VERSION = 2.0
    CALLBACK_TYPE = "stdout"
    CALLBACK_NAME = "results_json"

    def __init__(self):
        super().__init__()
        self.results = []

    def _add(self, result, status):
        self.results.append(dict(result._result, task=result._task.get_name(), status=status))

    def v2_runner_on_ok(self, result):
        self._add(result, "ok")

    def v2_runner_on_failed(self, result, ignore_errors=False):
        self._add(result, "failed")

    def v2_runner_on_unreachable(self, result):
        self._add(result, "unreachable")

    def v2_playbook_on_stats(self, stats):
        self._display.display(json.dumps(self.results, default=str))
''')
COLLECTIONS = os.path.join(work, "collections")
ENV = dict(os.environ, ANSIBLE_CALLBACK_PLUGINS=os.path.join(work, "callbacks"),
           ANSIBLE_COLLECTIONS_PATH=COLLECTIONS,
           ANSIBLE_NOCOLOR="1", ANSIBLE_RETRY_FILES_ENABLED="0",
           ANSIBLE_LOCAL_TEMP=os.path.join(work, "tmp"),
           ANSIBLE_HOME=os.path.join(work, "home"), ANSIBLE_DEPRECATION_WARNINGS="0",
           ANSIBLE_PYTHON_INTERPRETER="/usr/bin/python3", ANSIBLE_CONFIG=os.path.join(work, "ansible.cfg"))
inventory = os.path.join(work, "hosts")
with open(inventory, "w") as f:
    f.write("[pcp_tuned]\nlocalhost ansible_connection=local ansible_become=false\n")


def playbook(name, tasks, *args, json_out=True):
    """Run a one-play playbook on localhost; (rc, results of its tasks, text)."""
    path = os.path.join(work, name + ".yml")
    with open(path, "w") as f:
        f.write("- hosts: localhost\n  gather_facts: false\n  tasks:\n")
        for t in tasks:
            f.write("    - " + "\n      ".join(t.strip().splitlines()) + "\n")
    return run_playbook(path, *args, json_out=json_out)


def run_playbook(path, *args, json_out=True, extra_env=None):
    env = dict(ENV, ANSIBLE_STDOUT_CALLBACK="results_json" if json_out else "default",
               **(extra_env or {}))
    p = subprocess.run(["ansible-playbook", "-i", inventory, path, *args],
                       capture_output=True, text=True, env=env, cwd=work)
    if not json_out:
        return p.returncode, None, p.stdout + p.stderr
    try:
        results = json.loads(p.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError) as e:
        results = []
        print(f"    (no JSON from ansible-playbook: {e})\n{p.stdout[-2000:]}\n{p.stderr[-2000:]}")
    return p.returncode, results, p.stdout + p.stderr


def live_value():
    with open(LIVE) as f:
        return int(f.read())


def one(res):
    return res[0] if res else {}


def lacking(name, need):
    """The checks of name cannot run: the pcpctl under test lacks what they need."""
    check(f"{name}: the pcpctl under test has what they need", False, need)


def make_tree(name, batch=True, fraction=0, release="6.1.0-57-pcpctl"):
    """A simulated 6.1 with two nodes, patched (batch) or stock."""
    sysctls = {"percpu_pagelist_high_fraction": fraction}
    if batch:
        sysctls["percpu_pagelist_batch"] = 0
    return sysroot_tree(os.path.join(work, name), "debian-6.1-4cpu-2node.zoneinfo", release=release,
                        page_kib=0, sysctl_d=True, sysctls=sysctls)


def sysctl(tree, name):
    with open(os.path.join(tree, "proc/sys/vm", name)) as f:
        return int(f.read())


def persisted(tree):
    try:
        with open(os.path.join(tree, "etc/sysctl.d/90-pcpctl.conf")) as f:
            return f.read()
    except FileNotFoundError:
        return None


def direct(tree, *args):
    """pcpctl-sim run by hand: (rc, its JSON or None, stderr)."""
    p = subprocess.run([SIM, "--sysroot", tree, *args], capture_output=True, text=True)
    try:
        doc = json.loads(p.stdout)
    except ValueError:
        doc = None
    return p.returncode, doc, p.stderr


def task(exe, body, tree=None):
    lines = [f"executable: {exe}"] + ([f"sysroot: {tree}"] if tree else []) + \
        [line.strip() for line in body.strip().splitlines()]
    return "name: pcpctl\npcpctl.pcpctl.pcpctl:\n" + "".join(f"  {line}\n" for line in lines)


def diffs(r):
    d = r.get("diff") or []
    return d if isinstance(d, list) else [d]


# --- does the pcpctl under test speak the shared JSON contract? --------------------
probe = make_tree("probe")
_, doc, _ = direct(probe, "--fraction", "8", "--persist", "--dry-run", "--json", "set")
lacks = [k for k in ("version", "expected", "warnings", "persist", "boot_overrides")
         if not isinstance(doc, dict) or k not in doc]
_, doc, _ = direct(probe, "--json", "status")
if not isinstance(doc, dict) or doc.get("version") != 1:
    lacks.append('status "version"')
CONTRACT = None if not lacks else \
    f"pcpctl's JSON contract, it lacks {', '.join(lacks)} (h1, h2, h4)"
rc, _, _ = direct(probe, "--fraction", "8", "--persist-only", "--dry-run", "--json", "set")
PERSIST_ONLY = CONTRACT or (None if rc == 0 else "pcpctl set --persist-only (h4)")
print(f"pcpctl under test: contract {'present' if not CONTRACT else 'missing'}, "
      f"--persist-only {'present' if not PERSIST_ONLY else 'missing'}")
VERSION = subprocess.run([SIM, "--version"], capture_output=True, text=True).stdout.split()[-1]

# --- the collection: built and installed as a user would -----------------------------
b = subprocess.run(["ansible-galaxy", "collection", "build", os.path.join(SRC, "ansible"),
                    "--output-path", work], capture_output=True, text=True, env=ENV)
tarballs = [f for f in os.listdir(work) if f.startswith("pcpctl-pcpctl-") and f.endswith(".tar.gz")]
check("ansible-galaxy collection build makes pcpctl-pcpctl-*.tar.gz",
      b.returncode == 0 and len(tarballs) == 1, b.stdout + b.stderr)
i = subprocess.run(["ansible-galaxy", "collection", "install", "-p", COLLECTIONS,
                    os.path.join(work, tarballs[0] if tarballs else "missing.tar.gz")],
                   capture_output=True, text=True, env=ENV)
check("ansible-galaxy collection install (offline, from the tarball)",
      i.returncode == 0 and os.path.isfile(os.path.join(
          COLLECTIONS, "ansible_collections/pcpctl/pcpctl/plugins/modules/pcpctl.py")),
      i.stdout + i.stderr)

# --- ansible-doc (8) -----------------------------------------------------------------
d = subprocess.run(["ansible-doc", "pcpctl.pcpctl.pcpctl"],
                   capture_output=True, text=True, env=ENV)
check("ansible-doc pcpctl.pcpctl.pcpctl renders", d.returncode == 0 and
      all(s in d.stdout for s in ("OPTIONS", "EXAMPLES", "RETURN VALUES")),
      d.stderr or d.stdout[:500])
d = subprocess.run(["ansible-doc", "-j", "pcpctl.pcpctl.pcpctl"],
                   capture_output=True, text=True, env=ENV)
try:
    entry = json.loads(d.stdout)["pcpctl.pcpctl.pcpctl"]
    doc, ret = entry["doc"], entry["return"]
    opts = doc["options"]
    check("(8) its options are batch, fraction, ignore_missing_batch, state, persist, "
          "persist_only, sysroot, executable",
          sorted(opts) == sorted(["batch", "fraction", "ignore_missing_batch", "state", "persist",
                                  "persist_only", "sysroot", "executable"]), sorted(opts))
    check("(8) types and defaults as documented",
          (opts["batch"]["type"], opts["fraction"]["type"], opts["state"]["default"],
           opts["persist"]["default"], opts["persist_only"]["default"],
           opts["ignore_missing_batch"]["default"], opts["sysroot"]["type"],
           opts["executable"]["default"])
          == ("int", "int", "present", False, False, False, "path", "pcpctl"), opts)
    upper = re.compile(r"\((\d+) with 4 KiB pages")
    doc_upper = upper.findall(" ".join(opts["batch"]["description"]))
    help_upper = upper.findall(" ".join(subprocess.run([PCPCTL, "set", "--help"], capture_output=True,
                                                       text=True).stdout.split()))
    check("(8) the batch's upper bound is set --help's", doc_upper and doc_upper == help_upper,
          (doc_upper, help_upper))
    want = {"before", "after", "expected", "verified", "rolled_back", "persisted", "persist",
            "boot_overrides", "warnings", "rc", "cmd", "stdout", "stderr", "pcpctl",
            "pcpctl_version", "dry_run"}
    check("(8) every return value is documented", want <= set(ret), sorted(want - set(ret)))
    cm = " ".join(doc["attributes"]["check_mode"]["description"])
    check("(1, 8) check mode: the docs say set --dry-run for present, reset --dry-run for reset",
          "pcpctl set --dry-run" in cm and "pcpctl reset --dry-run" in cm, cm)
    check("(5, 8) rc 127 for a missing executable is documented",
          "127" in " ".join(ret["rc"]["description"]), ret["rc"])
except (ValueError, KeyError, TypeError) as e:
    check("ansible-doc -j parses", False, e)

# --- (5) a missing executable --------------------------------------------------------
for exe, shown in (("/nonexistent/sbin/pcpctl", "/nonexistent/sbin/pcpctl"),
                   ("pcpctl-not-installed", "pcpctl-not-installed")):
    rc, res, out = playbook("missing", [task(exe, "fraction: 8")])
    r = one(res)
    check(f"(5) executable {exe}: fails with rc 127, not pcpctl's 2",
          rc != 0 and r.get("status") == "failed" and r.get("rc") == 127, r)
    check(f"(5) executable {exe}: the message names it and how to install pcpctl",
          shown in r.get("msg", "") and "Install pcpctl" in r.get("msg", ""), r.get("msg"))

# --- (3) pcpctl too old, too new, or printing what the module cannot read ------------
# Stand-ins for other pcpctl versions: the real pcpctl-sim, its JSON rewritten.
bindir = os.path.join(work, "bin")
os.makedirs(bindir)


def stand_in(mode):
    path = os.path.join(bindir, "pcpctl-" + mode)
    with open(path, "w") as f:
        f.write(f'''#!/usr/bin/python3
import json, subprocess, sys
MODE = {mode!r}
args = sys.argv[1:]
if args[-1:] == ["set"] and MODE in ("keys", "text", "array", "string", "bool", "types"):
    print({{"keys": '{{"version":1,"changed":true}}', "text": "changed and verified",
           "array": "[1,2]", "string": '{{"version":"1"}}', "bool": '{{"version":true}}',
           "types": json.dumps({{"version": 1, "changed": True, "dry_run": False, "before": {{}},
                                "after": {{}}, "expected": None, "verified": True}})}}[MODE])
    sys.exit(0)
p = subprocess.run([{SIM!r}] + args, capture_output=True, text=True)
out = p.stdout
if "--json" in args and out.strip():
    doc = json.loads(out)
    if MODE == "old":
        doc.pop("version", None)
    elif MODE == "new":
        doc["version"] = 2
    else:
        doc["version"] = 1
    out = json.dumps(doc) + "\\n"
sys.stdout.write(out)
sys.stderr.write(p.stderr)
sys.exit(p.returncode)
''')
    os.chmod(path, 0o755)
    return path


t3 = make_tree("versions")
for mode, why, words in (
        ("old", "too old (no JSON version)", ("too old", f"pcpctl {VERSION}", "JSON version 1")),
        ("new", "too new (JSON version 2)",
         ("too new", f"pcpctl {VERSION}", "JSON version 2", "JSON version 1"))):
    rc, res, out = playbook("version", [task(stand_in(mode), "batch: 63\n  fraction: 8", t3)])
    r = one(res)
    check(f"(3) pcpctl {why}: the task fails naming both versions",
          rc != 0 and r.get("status") == "failed" and all(w in r.get("msg", "") for w in words),
          r.get("msg") or out[-1500:])
    check(f"(3) pcpctl {why}: failed before any write (only status ran)",
          (r.get("cmd") or [""])[-1] == "status" and sysctl(t3, "percpu_pagelist_batch") == 0 and
          sysctl(t3, "percpu_pagelist_high_fraction") == 0, r.get("cmd"))
    check(f"(3) pcpctl {why}: pcpctl_version is what --version printed",
          r.get("pcpctl_version") == VERSION, r.get("pcpctl_version"))
for mode, words in (("keys", ('without "dry_run"',)), ("text", ("printed no JSON",)),
                    ("array", ("not an object",)), ("string", ('"version" is "1"',)),
                    ("bool", ('"version" is true',)),
                    ("types", ('"expected" is null',))):
    rc, res, out = playbook("garbage", [task(stand_in(mode), "fraction: 8", t3)])
    r = one(res)
    check(f"(3) pcpctl printing {mode!r} JSON: fails with the text, no traceback",
          rc != 0 and r.get("status") == "failed" and "Traceback" not in out and
          "exception" not in r and all(w in r.get("msg", "") for w in words),
          r.get("msg") or out[-1500:])

# --- option conflicts the module refuses before running pcpctl ------------------------
rc, res, out = playbook("conflict", [task(SIM, "state: reset\n  fraction: 8", t3)])
r = one(res)
check("state=reset with a fraction: refused, pcpctl not run",
      rc != 0 and "state=reset" in r.get("msg", "") and "cmd" not in r, r)

# --- the simulated kernel: check mode, the real run, persist (1, 2, 4) ---------------
if CONTRACT:
    lacking("(1, 2, 4, 6, 7) the module over the simulated kernel", CONTRACT)
else:
    tree = make_tree("tree61p")
    body = "batch: 310\n  fraction: 8\n  persist: true"
    rc, res, out = playbook("sim", [task(SIM, body, tree)], "--check", "--diff")
    r = one(res)
    _, dry, _ = direct(tree, "--batch", "310", "--fraction", "8", "--persist", "--dry-run",
                       "--json", "set")
    check("(1) sim --check: would change, by pcpctl set --dry-run",
          rc == 0 and r.get("changed") is True and "--dry-run" in r.get("cmd", []) and
          r.get("cmd", [])[-1] == "set", out[-1500:])
    check("(1) sim --check: expected is pcpctl's own dry run's",
          isinstance(dry, dict) and r.get("expected") == dry.get("expected") and
          len(r.get("expected") or []) > 0, (r.get("expected"), (dry or {}).get("expected")))
    check("(1) sim --check: the persisted file's text as pcpctl would write it",
          (r.get("persist") or {}).get("before") is None and
          "vm.percpu_pagelist_batch = 310" in ((r.get("persist") or {}).get("after") or ""),
          r.get("persist"))
    check("(1) sim --check --diff: the sysctls and the file's text",
          len(diffs(r)) == 2 and diffs(r)[0].get("after", {}).get("vm.percpu_pagelist_batch") == 310
          and "vm.percpu_pagelist_high_fraction = 8" in diffs(r)[1].get("after", ""), diffs(r))
    check("(1) sim --check: nothing written",
          sysctl(tree, "percpu_pagelist_batch") == 0 and persisted(tree) is None)

    rc, res, out = playbook("sim", [task(SIM, body, tree)], "--diff")
    r = one(res)
    check("sim first run: changed, verified, persisted",
          rc == 0 and r.get("changed") is True and r.get("verified") is True and
          r.get("persisted") is True, out[-1500:])
    check("sim first run: batch 310 and fraction 8 in the tree, and in the file",
          (sysctl(tree, "percpu_pagelist_batch"), sysctl(tree, "percpu_pagelist_high_fraction"))
          == (310, 8) and "vm.percpu_pagelist_batch = 310" in (persisted(tree) or ""))
    check("sim --diff: batch 0 -> 310",
          diffs(r) and diffs(r)[0].get("before", {}).get("vm.percpu_pagelist_batch") == 0 and
          diffs(r)[0].get("after", {}).get("vm.percpu_pagelist_batch") == 310, diffs(r))
    check("sim first run: the file's text is pcpctl's persist.after",
          (r.get("persist") or {}).get("after") == persisted(tree), r.get("persist"))

    rc, res, out = playbook("sim", [task(SIM, body, tree)])
    r = one(res)
    check("(4) sim second run: ok, not changed, persisted false (the file did not change)",
          rc == 0 and r.get("changed") is False and r.get("persisted") is False, r)
    rc, res, out = playbook("sim", [task(SIM, body, tree)], "--check")
    r = one(res)
    check("(1) sim --check when already so: not changed", rc == 0 and r.get("changed") is False, r)

    rc, res, out = playbook("sim-bad", [task(SIM, "batch: 5000", tree)])
    r = one(res)
    check("sim batch 5000: fails with pcpctl's message and exit code 2",
          rc != 0 and r.get("status") == "failed" and r.get("rc") == 2 and
          "--batch 5000 is out of range" in r.get("msg", ""), r)

    rc, res, out = playbook("sim-reset", [task(SIM, "state: reset\n  persist: true", tree)],
                            "--check")
    r = one(res)
    check("(1) sim state=reset --check: runs pcpctl reset --dry-run, would remove the file",
          rc == 0 and r.get("changed") is True and r.get("cmd", [])[-1] == "reset" and
          "--dry-run" in r.get("cmd", []) and "persist" in r and
          (r.get("persist") or {}).get("after") is None and persisted(tree) is not None, r)
    rc, res, out = playbook("sim-reset", [task(SIM, "state: reset\n  persist: true", tree)])
    check("sim state=reset persist: changed, defaults back, file removed",
          rc == 0 and one(res).get("changed") is True and
          sysctl(tree, "percpu_pagelist_batch") == 0 and
          sysctl(tree, "percpu_pagelist_high_fraction") == 0 and persisted(tree) is None,
          out[-1500:])

    # A sysctl.d file pcpctl did not write: the real run refuses it, so must check mode.
    foreign = make_tree("foreign")
    with open(os.path.join(foreign, "etc/sysctl.d/90-pcpctl.conf"), "w") as f:
        f.write("vm.percpu_pagelist_high_fraction = 16\n")
    rc, res, out = playbook("foreign", [task(SIM, "fraction: 8\n  persist: true", foreign)],
                            "--check")
    rcheck = one(res)
    rc, res, out = playbook("foreign", [task(SIM, "fraction: 8\n  persist: true", foreign)])
    rreal = one(res)
    check("(1) a foreign 90-pcpctl.conf: the real run fails",
          rreal.get("status") == "failed" and "not written by pcpctl" in rreal.get("msg", ""), rreal)
    check("(1) a foreign 90-pcpctl.conf: check mode fails the same way",
          rcheck.get("status") == "failed" and rcheck.get("rc") == rreal.get("rc") and
          "not written by pcpctl" in rcheck.get("msg", ""), rcheck)

    # (2) The fraction already 8 in the sysctl, but zoneinfo still as for 0: pcpctl exits
    # 0 with verified false and a warning.
    stale = make_tree("stale", fraction=8)
    _, ref, _ = direct(stale, "--fraction", "8", "--dry-run", "--json", "set")
    rc, res, out = playbook("stale", [task(SIM, "fraction: 8", stale)], "--check")
    r = one(res)
    check("(2) stale zoneinfo, --check: no verified warning from a dry run",
          rc == 0 and not any("verified: false" in w for w in r.get("warnings", [])), r)
    rc, res, out = playbook("stale", [task(SIM, "fraction: 8", stale)])
    r = one(res)
    _, ref, _ = direct(stale, "--fraction", "8", "--json", "set")
    w = r.get("warnings") or []
    check("(2) stale zoneinfo: ok, not changed, verified false",
          rc == 0 and r.get("status") == "ok" and r.get("changed") is False and
          r.get("verified") is False, r)
    check("(2) stale zoneinfo: every pcpctl warning is a task warning",
          isinstance(ref, dict) and ref.get("warnings") and
          all(x in w for x in ref["warnings"]) and
          any("already set, but zoneinfo disagrees" in x for x in w), (w, (ref or {}).get("warnings")))
    check("(2) stale zoneinfo: and verified: false is one too",
          any("verified: false" in x for x in w), w)
    # A fraction whose high falls to its floor of 4 * batch: whatever pcpctl warns, Ansible shows.
    _, ref, _ = direct(tree, "--fraction", "1000000", "--dry-run", "--json", "set")
    rc, res, out = playbook("clamp", [task(SIM, "fraction: 1000000", tree)], "--check")
    w = one(res).get("warnings") or []
    check("(2) --fraction 1000000 --check: pcpctl's dry-run warnings are task warnings",
          rc == 0 and isinstance(ref, dict) and all(x in w for x in ref.get("warnings", [None])),
          (w, (ref or {}).get("warnings")))

    # (6) A stock kernel: no vm.percpu_pagelist_batch.
    stock = make_tree("stock", batch=False)
    rc, res, out = playbook("stock", [task(SIM, "batch: 310\n  fraction: 8", stock)])
    r = one(res)
    check("(6) stock kernel, batch without ignore_missing_batch: fails with exit code 3",
          rc != 0 and r.get("rc") == 3 and sysctl(stock, "percpu_pagelist_high_fraction") == 0, r)
    rc, res, out = playbook("stock", [task(
        SIM, "batch: 310\n  fraction: 8\n  ignore_missing_batch: true", stock)])
    r = one(res)
    check("(6) ignore_missing_batch: changed, the fraction set, batch left out",
          rc == 0 and r.get("changed") is True and "--batch" not in r.get("cmd", []) and
          sysctl(stock, "percpu_pagelist_high_fraction") == 8, r)
    check("(6) ignore_missing_batch: with a warning naming the batch",
          any("batch 310 skipped" in x for x in r.get("warnings", [])), r.get("warnings"))
    rc, res, out = playbook("stock", [task(SIM, "batch: 310\n  ignore_missing_batch: true",
                                           stock)])
    r = one(res)
    check("(6) ignore_missing_batch, batch alone: ok, nothing run but status",
          rc == 0 and r.get("changed") is False and r.get("cmd", [])[-1] == "status" and
          any("batch 310 skipped" in x for x in r.get("warnings", [])), r)

    # (7) persist_only: the file for the next boot, the kernel untouched.
    if PERSIST_ONLY:
        lacking("(7) persist_only over the simulated kernel", PERSIST_ONLY)
    else:
        later = make_tree("later")
        rc, res, out = playbook("later", [task(SIM, "fraction: 16\n  persist_only: true", later)],
                                "--check")
        r = one(res)
        check("(7) persist_only --check: would change the file, nothing written",
              rc == 0 and r.get("changed") is True and "--dry-run" in r.get("cmd", []) and
              persisted(later) is None, r)
        rc, res, out = playbook("later", [task(SIM, "fraction: 16\n  persist_only: true", later)])
        r = one(res)
        check("(7) persist_only: changed, pcpctl set --persist-only, the file has 16",
              rc == 0 and r.get("changed") is True and "--persist-only" in r.get("cmd", []) and
              "vm.percpu_pagelist_high_fraction = 16" in (persisted(later) or ""), r)
        check("(7) persist_only: the kernel is untouched",
              sysctl(later, "percpu_pagelist_high_fraction") == 0 and
              sysctl(later, "percpu_pagelist_batch") == 0)
        rc, res, out = playbook("later", [task(SIM, "fraction: 16\n  persist_only: true", later)])
        check("(7) persist_only again: ok", rc == 0 and one(res).get("changed") is False, one(res))
        rc, res, out = playbook("later", [task(SIM, "state: reset\n  persist_only: true", later)])
        r = one(res)
        check("(7) state=reset persist_only: changed, pcpctl reset --persist-only, the file "
              "holds no setting, the kernel untouched",
              rc == 0 and r.get("changed") is True and r.get("cmd", [])[-1] == "reset" and
              "--persist-only" in r.get("cmd", []) and "vm." not in (persisted(later) or "") and
              sysctl(later, "percpu_pagelist_high_fraction") == 0, r)

# --- the live kernel: vm.percpu_pagelist_high_fraction --------------------------------
original = live_value()
target = 16 if original == 8 else 8
if CONTRACT:
    lacking("the module on the live kernel", CONTRACT)
else:
    live = task(PCPCTL, f"fraction: {target}")
    try:
        rc, res, out = playbook("live", [live], "--check", "--diff")
        r = one(res)
        check("live --check: would change, by pcpctl set --dry-run",
              rc == 0 and r.get("changed") is True and "--dry-run" in r.get("cmd", []), out[-1500:])
        check(f"live --check: after {target}, expected per zone",
              (r.get("after") or {}).get("percpu_pagelist_high_fraction") == target and
              len(r.get("expected") or []) > 0, r)
        check("live --check: the kernel is untouched", live_value() == original, live_value())

        rc, res, out = playbook("live", [live], "--diff")
        r = one(res)
        check("live first run: changed and verified",
              rc == 0 and r.get("changed") is True and r.get("verified") is True, out[-1500:])
        check(f"live first run: the kernel has {target}", live_value() == target, live_value())
        check("live --diff: before and after of the setting",
              diffs(r) and diffs(r)[0].get("before", {}).get("vm.percpu_pagelist_high_fraction")
              == original and diffs(r)[0].get("after", {}).get(
                  "vm.percpu_pagelist_high_fraction") == target, diffs(r))

        rc, res, out = playbook("live", [live])
        check("live second run: ok, not changed (idempotent)",
              rc == 0 and one(res).get("changed") is False, out[-1500:])

        rc, res, out = playbook("live-bad", [task(PCPCTL, "fraction: 3")])
        r = one(res)
        check("live fraction 3: fails with pcpctl's message and exit code 2",
              rc != 0 and r.get("rc") == 2 and "--fraction 3 is out of range" in r.get("msg", ""),
              r)
        rc, res, out = playbook("live-batch", [task(PCPCTL, "batch: 310\n  fraction: 8")])
        r = one(res)
        check("live batch on a kernel without the patch: fails with exit code 3, names the sysctl",
              rc != 0 and r.get("rc") == 3 and "percpu_pagelist_batch" in r.get("msg", ""), r)
        check(f"live fraction 3 and batch: the kernel still has {target}", live_value() == target)

        rc, res, out = playbook("live-reset", [task(PCPCTL, "state: reset")])
        check("live state=reset: changed, back to 0",
              rc == 0 and one(res).get("changed") is True and live_value() == 0, out[-1500:])
    finally:
        with open(LIVE, "w") as f:
            f.write(f"{original}\n")
        check(f"live: the original fraction {original} is restored", live_value() == original)

# --- the example playbooks ------------------------------------------------------------
examples = os.path.join(SRC, "ansible", "examples")
if not need("python3-yaml"):
    sys.exit("FAIL cannot install python3-yaml")
import yaml  # noqa: E402  (from python3-yaml, installed just above when missing)


def all_tasks(items):
    for t in items or []:
        yield t
        for key in ("block", "rescue", "always", "tasks", "pre_tasks", "post_tasks", "handlers"):
            yield from all_tasks(t.get(key))


for name in sorted(f for f in os.listdir(examples) if f.endswith(".yml")):
    path = os.path.join(examples, name)
    rc, _, out = run_playbook(path, "--syntax-check", json_out=False)
    check(f"{name}: syntax", rc == 0, out)
    with open(path) as f:
        plays = yaml.safe_load(f)
    tasks = list(all_tasks(plays))
    shells = [t.get("name") for t in tasks
              if {"shell", "ansible.builtin.shell", "raw", "ansible.builtin.raw"} & set(t)]
    check(f"{name}: no shell or raw task", not shells, shells)
    lines = [t.get("name") for t in tasks for m in ("command", "ansible.builtin.command")
             if m in t and (isinstance(t[m], str) or "cmd" in t[m] or "argv" not in t[m])]
    check(f"{name}: every command task has argv, no command line with templates", not lines, lines)

with open(os.path.join(examples, "sweep-fetch.yml")) as f:
    sweep_play = yaml.safe_load(f)[0]
blocks = [t for t in sweep_play["tasks"] if "block" in t]
sweeps = [t for t in all_tasks(sweep_play["tasks"]) if "sweep" in str(
    (t.get("ansible.builtin.command") or {}).get("argv", ""))]
check("sweep-fetch.yml: the sweep runs with async and poll",
      len(sweeps) == 1 and "async" in sweeps[0] and "poll" in sweeps[0], sweeps)
check("sweep-fetch.yml: in a block with rescue, and pcpctl rollback in always",
      len(blocks) == 1 and blocks[0].get("rescue") and any(
          "rollback" in str((t.get("ansible.builtin.command") or {}).get("argv", ""))
          for t in blocks[0].get("always") or []) and sweeps[0] in blocks[0]["block"], blocks)
with open(os.path.join(examples, "set-persistent.yml")) as f:
    persist_play = yaml.safe_load(f)[0]
check("set-persistent.yml: no batch by default (stock kernels have none)",
      persist_play["vars"].get("pcp_batch") is None, persist_play["vars"])

shutil.copy(os.path.join(examples, "sweep-fetch.yml"), work)
sweep_tree = make_tree("sweep")
fetched = os.path.join(work, "results", "localhost-sweep.json")


def sweep_run(**kw):
    # wait(c): sweep_duration 0.3: a point's length. sweep_poll 1 (class a): the 2-point sweep ends,
    #   within sweep-fetch.yml's async of 3600 s.
    extra = {"pcpctl": SIM, "pcpctl_options": ["--sysroot", sweep_tree],
             "sweep_parameter": "batch", "sweep_values": "63,310", "sweep_duration": 0.3,
             "sweep_runs": 1, "sweep_options": ["--tasks", "1", "--warmup", "0"],
             "sweep_poll": 1}
    extra.update(kw)
    return run_playbook(os.path.join(work, "sweep-fetch.yml"), "-e", json.dumps(extra))


def fetched_sweep(rc, out, what, **want):
    """The sweep JSON the playbook saved, checked: exit 0, want's fields, the values of its points."""
    try:
        with open(fetched) as f:
            sweep = json.load(f)
    except (OSError, ValueError) as e:
        sweep = {"error": str(e)}
    values = want.pop("values")
    check(what, rc == 0 and all(sweep.get(k) == v for k, v in want.items()) and
          [p["value"] for p in sweep.get("points", [])] == values, out[-1500:] + str(sweep)[:300])
    return sweep


rc, res, out = sweep_run()
sweep = fetched_sweep(rc, out, "sweep-fetch.yml: the sweep's JSON is saved on the controller",
                      parameter="batch", values=[63, 310])
check("sweep-fetch.yml: the settings were restored, the rollback found nothing",
      sweep.get("restored") is True and sysctl(sweep_tree, "percpu_pagelist_batch") == 0 and
      any(r.get("task", "").startswith("Roll back") and r.get("changed") is False for r in res), res)

rc, res, out = sweep_run(sweep_parameter="fraction", sweep_values="0,8",
                         sweep_options=["--warmup", "0", "--", "/bin/true"])
fetched_sweep(rc, out, "sweep-fetch.yml: a COMMAND after -- in sweep_options is the sweep's workload",
              workload="/bin/true", values=[0, 8])

marker = os.path.join(work, "injected")
rc, res, out = sweep_run(sweep_values=f"63;touch {marker}", sweep_options=[f"$(touch {marker})"])
check("sweep-fetch.yml: values with shell syntax stay one argument each (pcpctl refuses)",
      rc != 0 and not os.path.exists(marker) and
      any(r.get("status") == "failed" and r.get("rc") == 2 for r in res), out[-1500:])
rc, res, out = sweep_run(sweep_parameter="batch --sysroot /")
check("sweep-fetch.yml: a sweep_parameter other than batch or fraction is refused",
      rc != 0 and any("sweep_parameter" in str(r.get("msg")) for r in res), out[-1500:])

rc, res, out = sweep_run(sweep_parameter="fraction", sweep_values="0,3")
check("sweep-fetch.yml: a refused value fails the play, rescue says so, rollback runs",
      rc != 0 and any("the sweep failed" in str(r.get("msg")) and "--fraction 3" in str(r.get("msg"))
                      for r in res) and any(r.get("task", "").startswith("Roll back") and
                                            r.get("status") == "ok" for r in res), out[-1500:])

# A sweep longer than its async timeout: Ansible kills it, always rolls back.
# Two sides time the job out, and either may say so first: the controller
# counts its polls ("did not complete within"), and the job's watchdog
# counts seconds and kills it ("Timeout exceeded").  On a loaded machine the
# polls take longer than they count, and the watchdog's word comes first.
timed_out = ("did not complete within", "Timeout exceeded")
# wait(c): a sweep killed by its async timeout is the tested thing: it needs at least 10 s, so 3 s
#   always kills it; either side's message counts, the controller's or the job watchdog's.
rc, res, out = sweep_run(sweep_duration=5, sweep_timeout=3)
check("sweep-fetch.yml: a sweep killed by its async timeout fails, and the rollback runs",
      rc != 0 and any(t in str(r.get("msg")) for r in res for t in timed_out) and
      any(r.get("task", "").startswith("Roll back") and r.get("status") == "ok" for r in res),
      f"rc {rc}; each task's status and message: " +
      str([(r.get("task"), r.get("status"), str(r.get("msg"))[:200]) for r in res]))
check("sweep-fetch.yml: after the rollback the tree is as before, no journal",
      sysctl(sweep_tree, "percpu_pagelist_batch") == 0 and
      not os.path.exists(os.path.join(sweep_tree, "run/pcpctl/journal")))

if CONTRACT:
    lacking("set-persistent.yml on the live kernel", CONTRACT)
else:
    before = live_value()
    for extra, what in (({"pcp_fraction": target}, "the fraction"),
                        ({"pcp_fraction": target, "pcp_batch": 310}, "pcp_batch 310 too")):
        rc, res, out = run_playbook(os.path.join(examples, "set-persistent.yml"), "--check",
                                    "-e", json.dumps(dict(extra, pcpctl=PCPCTL)))
        r = one(res)
        check(f"set-persistent.yml --check on this host, {what}: would set the fraction",
              rc == 0 and r.get("changed") is True and
              f"vm.percpu_pagelist_high_fraction = {target}" in
              ((r.get("persist") or {}).get("after") or ""), out[-1500:])
    check("set-persistent.yml with pcp_batch on this stock kernel: skipped with a warning",
          any("batch 310 skipped" in x for x in r.get("warnings", [])), r.get("warnings"))
    check("set-persistent.yml --check: nothing written", live_value() == before)

finish()
