#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""What sysctl.d sets at boot, and persisting, against the simulated kernel:
status names every file that sets a pcp key and the one systemd-sysctl
applies last (/etc masking /usr/lib, links to /dev/null, names sorted across
the directories, globs, "-key" exclusions); set --persist warns of a file that
sorts later (Debian's 99-sysctl.conf -> ../sysctl.conf) and returns it in
boot_overrides; a file that already holds the values is left alone
(persisted: false); --persist-only writes the file and never the kernel.

Usage: persist.py PCPCTL-SIM FIXTURE_DIR"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from lib import check, finish, sysroot_tree, workdir  # noqa: E402  (tests/lib.py, the harness)

sim = os.path.realpath(sys.argv[1])
fixtures = os.path.join(os.path.realpath(sys.argv[2]), "zoneinfo")
work = workdir()
FR = "percpu_pagelist_high_fraction"
CONF = "etc/sysctl.d/90-pcpctl.conf"


def write(t, path, text):
    full = os.path.join(t, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w") as f:
        f.write(text)


def link(t, path, to):
    full = os.path.join(t, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    os.symlink(to, full)


def tree(name, release="6.1.0-57-cloud-amd64", **sysctls):
    """Debian 6.1 on 4 CPUs in 2 nodes, as tests/sim/run.sh's new61."""
    return sysroot_tree(os.path.join(work, name), os.path.join(fixtures, "debian-6.1-4cpu-2node.zoneinfo"),
                        release=release, sim=True, sysctl_d=True, sysctls=sysctls or {FR: 0})


def pcpctl(t, *args):
    p = subprocess.run([sim, "--sysroot", t, *args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def pcpctl_json(t, *args):
    rc, out, err = pcpctl(t, *args, "--json")
    try:
        return rc, json.loads(out), err
    except ValueError:
        return rc, {}, err + "\nstdout: " + out


def kernel_state(t):
    """The sysctls and the zoneinfo the simulated kernel rewrites on every write."""
    vm = os.path.join(t, "proc/sys/vm")
    state = {f: open(os.path.join(vm, f)).read() for f in sorted(os.listdir(vm))}
    state["zoneinfo"] = open(os.path.join(t, "proc/zoneinfo")).read()
    return state


def read(t, path):
    try:
        return open(os.path.join(t, path)).read()
    except FileNotFoundError:
        return None


print("# status: every file that sets a key, and the one that wins at boot")
t = tree("order")
write(t, "usr/lib/sysctl.d/10-vendor.conf", f"vm.{FR} = 12\n")
write(t, "usr/lib/sysctl.d/50-a.conf", f"vm.{FR} = 16\n")
write(t, "etc/sysctl.d/50-a.conf", f"# the admin's\n  vm/{FR}=8  \n")
write(t, "usr/lib/sysctl.d/60-b.conf", f"vm.{FR} = 32\n")
link(t, "etc/sysctl.d/60-b.conf", "/dev/null")
write(t, "run/sysctl.d/70-c.conf", f"; comment\nvm.{FR} = 24\n")
write(t, "usr/local/lib/sysctl.d/80-d.txt", f"vm.{FR} = 40\n")
write(t, "etc/sysctl.d/20-batch.conf",
      "\t-vm.percpu_pagelist_batch = 5\n# vm.percpu_pagelist_batch = 7\n")
write(t, "usr/local/lib/sysctl.d/40-glob.conf", "vm.percpu_pagelist_* = 9\n")
rc, d, err = pcpctl_json(t, "status")
check("status --json exits 0", rc == 0, err)
boot = d.get("boot", {})
fr = boot.get(FR) or {}
holders = [(h["file"][len(t):], h["value"]) for h in fr.get("holders", [])]
check("holders in systemd-sysctl's order: sorted by name across the directories, "
      "/etc/50-a.conf masking /usr/lib's, the /dev/null link masking 60-b.conf, "
      "no file without .conf",
      holders == [("/usr/lib/sysctl.d/10-vendor.conf", "12"),
                  ("/usr/local/lib/sysctl.d/40-glob.conf", "9"),
                  ("/etc/sysctl.d/50-a.conf", "8"),
                  ("/run/sysctl.d/70-c.conf", "24")], holders)
check("the last file wins at boot", (fr.get("value"), fr.get("file")) ==
      ("24", t + "/run/sysctl.d/70-c.conf"), fr)
b = boot.get("percpu_pagelist_batch") or {}
check("a key named beats a glob that sorts later; '-' and whitespace are no part of it",
      (b.get("value"), b.get("file")) == ("5", t + "/etc/sysctl.d/20-batch.conf"), b)
check("a key only a glob matches gets the glob's value",
      (boot.get("percpu_pagelist_fraction") or {}).get("value") == "9", boot)
rc, out, err = pcpctl(t, "status")
check("status text names the winner",
      f"  at boot:                          24, from {t}/run/sysctl.d/70-c.conf\n" in out, out)
check("status text names what it overrides",
      f"  overridden:                       8 in {t}/etc/sysctl.d/50-a.conf\n" in out, out)
write(t, "usr/lib/sysctl.d/90-z.conf", f"-vm.{FR}\n")
rc, d, err = pcpctl_json(t, "status")
fr = d.get("boot", {}).get(FR) or {}
check("a later '-key' leaves the key unset at boot",
      fr.get("value", "") is None and fr.get("file") == t + "/usr/lib/sysctl.d/90-z.conf", fr)
t = tree("none")
rc, d, err = pcpctl_json(t, "status")
check("without sysctl.d files every boot key is null",
      d.get("boot") == {"percpu_pagelist_batch": None, FR: None,
                        "percpu_pagelist_fraction": None}, d)

print("# set --persist: a later file that overrides 90-pcpctl.conf at boot")
t = tree("debian")
write(t, "etc/sysctl.conf", f"# Debian's\nvm.{FR} = 0\n")
link(t, "etc/sysctl.d/99-sysctl.conf", "../sysctl.conf")
rc, d, err = pcpctl_json(t, "set", "--fraction", "8", "--persist")
check("set --persist exits 0", rc == 0, err)
check("the warning names the file, its link and value",
      f"warning: {t}/etc/sysctl.d/99-sysctl.conf -> {t}/etc/sysctl.conf sets vm.{FR} = 0 "
      f"and sorts after {t}/{CONF}, so it wins at boot" in err, err)
check("boot_overrides names it", d.get("boot_overrides") ==
      [{"key": f"vm.{FR}", "file": f"{t}/etc/sysctl.d/99-sysctl.conf",
        "target": f"{t}/etc/sysctl.conf", "value": "0"}], d)
rc, d, err = pcpctl_json(t, "status")
check("status agrees: sysctl.conf wins at boot",
      (d.get("boot", {}).get(FR) or {}).get("target") == f"{t}/etc/sysctl.conf", d)
rc, d, err = pcpctl_json(t, "reset", "--persist", "--dry-run")
check("reset --persist --dry-run predicts that sysctl.conf still sets it",
      rc == 0 and [o.get("file") for o in d.get("boot_overrides", [])] ==
      [f"{t}/etc/sysctl.d/99-sysctl.conf"] and "reset --persist removes only" in err, err)
write(t, "etc/sysctl.conf", f"vm.{FR} = 8\n")
rc, d, err = pcpctl_json(t, "set", "--fraction", "8", "--persist")
check("a later file with the same value overrides nothing (systemd-sysctl keeps the first)",
      rc == 0 and d.get("boot_overrides") == [] and "warning" not in err, (d, err))
os.unlink(os.path.join(t, "etc/sysctl.d/99-sysctl.conf"))
rc, d, err = pcpctl_json(t, "set", "--fraction", "16", "--persist", "--dry-run")
check("no later file: boot_overrides is empty", rc == 0 and d.get("boot_overrides") == [],
      (d, err))
rc, d, err = pcpctl_json(t, "set", "--fraction", "16")
check("without --persist: persist is null and boot_overrides empty",
      rc == 0 and d.get("persist", "") is None and d.get("boot_overrides") == [], d)

print("# a file that already holds the values is left alone")
t = tree("same")
rc, d, err = pcpctl_json(t, "set", "--fraction", "8", "--persist")
check("the first --persist writes the file", rc == 0 and d.get("persisted") is True, d)
st = os.stat(os.path.join(t, CONF))
text = read(t, CONF)
rc, d, err = pcpctl_json(t, "set", "--fraction", "8", "--persist")
after = os.stat(os.path.join(t, CONF))
check("again: persisted false", rc == 0 and d.get("persisted") is False, d)
check("again: the file keeps its inode and mtime",
      (after.st_ino, after.st_mtime_ns) == (st.st_ino, st.st_mtime_ns))
check("again: persist before and after are the file's text",
      d.get("persist") == {"path": f"{t}/{CONF}", "before": text, "after": text}, d)
rc, out, err = pcpctl(t, "set", "--fraction", "8", "--persist")
check("the text says the file already holds the values",
      f"{t}/{CONF} already holds these values; left as it is" in out, out)
rc, d, err = pcpctl_json(t, "set", "--fraction", "16", "--persist")
persist = d.get("persist") or {}
check("a new value is persisted", rc == 0 and d.get("persisted") is True and
      persist.get("before") == text and f"vm.{FR} = 16\n" in (persist.get("after") or ""), d)
rc, d, err = pcpctl_json(t, "reset", "--persist")
check("reset --persist removes the file: after is null",
      rc == 0 and d.get("persisted") is True and (d.get("persist") or {}).get("after", "")
      is None and read(t, CONF) is None, d)
rc, d, err = pcpctl_json(t, "reset", "--persist")
check("reset --persist without a file: persisted false", rc == 0 and
      d.get("persisted") is False and (d.get("persist") or {}).get("before", "") is None, d)

print("# a setting in force that --persist leaves out is named")
t = tree("inforce", release="6.1.0-57-pcpctl", percpu_pagelist_batch=0, **{FR: 8})
rc, d, err = pcpctl_json(t, "set", "--batch", "310", "--persist")
note = (f"note: vm.{FR} = 8 is in force but not persisted: it returns to 0 at boot; "
        "add --fraction 8 to persist it too")
check("set --batch --persist with fraction 8 in force: the note, in the report too",
      rc == 0 and f"pcpctl: {note}\n" in err and note in d.get("warnings", []) and
      f"vm.{FR}" not in (read(t, CONF) or ""), (err, d.get("warnings")))
rc, out, err = pcpctl(t, "set", "--batch", "310", "--fraction", "8", "--persist")
check("both persisted: no note", rc == 0 and "not persisted" not in err, err)
rc, out, err = pcpctl(t, "set", "--batch", "100", "--persist")
check("the fraction already in the file: no note", rc == 0 and "not persisted" not in err,
      err)
write(t, "etc/sysctl.d/95-other.conf", f"vm.{FR} = 8\n")
write(t, CONF, "# Written by pcpctl; pcpctl reset --persist removes it.\n")
rc, out, err = pcpctl(t, "set", "--batch", "63", "--persist")
check("another sysctl.d file sets it at boot: no note", rc == 0 and "not persisted" not in err,
      err)

print("# --persist-only: the file alone, never the kernel")
t = tree("only", release="6.1.0-57-pcpctl", percpu_pagelist_batch=0, **{FR: 0})
kernel = kernel_state(t)
rc, d, err = pcpctl_json(t, "set", "--batch", "310", "--fraction", "8", "--persist-only")
check("set --persist-only exits 0", rc == 0, err)
check("the file holds both settings", read(t, CONF) is not None and
      "vm.percpu_pagelist_batch = 310\n" in read(t, CONF) and
      f"vm.{FR} = 8\n" in read(t, CONF), read(t, CONF))
check("the kernel's sysctls and zoneinfo are untouched", kernel_state(t) == kernel)
check("the report: persisted, not changed, before = after = the kernel's",
      d.get("persisted") is True and d.get("changed") is False and
      d.get("before") == d.get("after") == {"percpu_pagelist_batch": 0, FR: 0,
                                              "percpu_pagelist_fraction": None}, d)
check("no journal is left", not os.path.exists(os.path.join(t, "run/pcpctl/journal")))
check("its first line names no option it was not written with",
      (read(t, CONF) or "").startswith("# Written by pcpctl; pcpctl reset --persist removes it.\n"),
      read(t, CONF))
rc, out, err = pcpctl(t, "set", "--fraction", "16", "--persist-only", "--dry-run")
check("a dry run of it writes nothing", rc == 0 and f"vm.{FR} = 8\n" in read(t, CONF) and
      kernel_state(t) == kernel and "would be written" in out, out + err)
rc, out, err = pcpctl(t, "set", "--fraction", "8", "--persist-only")
check("unchanged file with --persist-only: left alone",
      rc == 0 and "already holds these values" in out, out + err)
rc, out, err = pcpctl(t, "set", "--batch", "100000", "--persist-only")
check("values are checked as set checks them: exit 2", rc == 2 and "out of range" in err, err)
rc, out, err = pcpctl(t, "set", "--fraction", "8", "--persist", "--persist-only")
check("--persist with --persist-only: exit 2", rc == 2 and "mutually exclusive" in err, err)
rc, d, err = pcpctl_json(t, "reset", "--persist-only")
check("reset --persist-only removes the file and leaves the kernel",
      rc == 0 and read(t, CONF) is None and kernel_state(t) == kernel, (d, err))
t = tree("stock")
kernel = kernel_state(t)
rc, out, err = pcpctl(t, "set", "--batch", "310", "--persist-only")
check("a kernel without the batch sysctl: persisted for the next kernel, with a warning",
      rc == 0 and "vm.percpu_pagelist_batch = 310\n" in (read(t, CONF) or "") and
      "this kernel has no vm.percpu_pagelist_batch" in err and kernel_state(t) == kernel,
      out + err)
write(t, CONF, "# Written by pcpctl set --persist; pcpctl reset --persist removes it.\n"
      "vm.percpu_pagelist_batch = 63\n")
rc, out, err = pcpctl(t, "set", "--fraction", "8", "--persist-only")
check("a file of an older pcpctl, with the old first line, is pcpctl's",
      rc == 0 and read(t, CONF) == "# Written by pcpctl; pcpctl reset --persist removes it.\n"
      f"vm.percpu_pagelist_batch = 63\nvm.{FR} = 8\n", (read(t, CONF), err))
write(t, CONF, "vm.swappiness = 10\n")
rc, out, err = pcpctl(t, "set", "--fraction", "8", "--persist-only")
check("a file pcpctl did not write is refused: exit 1",
      rc == 1 and "not written by pcpctl" in err and read(t, CONF) == "vm.swappiness = 10\n",
      err)

finish()
