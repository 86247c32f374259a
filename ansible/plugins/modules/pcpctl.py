#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, pcpctl maintainers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
# Ansible module for pcpctl(8): set or reset the page allocator's per-CPU
# page list settings on the target through `pcpctl ... --json`.

from __future__ import absolute_import, division, print_function
__metaclass__ = type

DOCUMENTATION = r'''
---
module: pcpctl
short_description: Set the per-CPU page list batch and high fraction with pcpctl
description:
  - Sets C(vm.percpu_pagelist_batch) and the high fraction
    (C(vm.percpu_pagelist_high_fraction), or C(vm.percpu_pagelist_fraction)
    before Linux 5.14) on the target, or resets them to the kernel's defaults,
    by running C(pcpctl set) or C(pcpctl reset) with C(--json) there.
  - pcpctl validates the values, writes them under its lock and journal,
    verifies them in C(/proc/zoneinfo), and rolls back on any failure, so a
    task either leaves the settings applied and verified or unchanged.
  - Every run first runs C(pcpctl --version) and C(pcpctl --json status) on
    the target. The task fails, before anything is written, when that pcpctl
    prints JSON of another schema version than the one this module reads
    (C(1)), naming both versions, and when its output is not the JSON this
    module expects (with the text it printed, never a traceback).
  - The task is changed when pcpctl reports C(changed) (values were written
    and verified) or C(persisted) (pcpctl rewrote the sysctl.d file, which it
    leaves alone when its contents would not change). Running it again with
    the same values is C(ok).
  - In check mode the module runs pcpctl's own dry run, which does every check
    of the real run (privilege, the interface, the journal and the lock, the
    persisted file) and writes nothing. With I(state=present) that is
    C(pcpctl set --dry-run --json) with the task's C(--batch), C(--fraction)
    and C(--persist) or C(--persist-only); with I(state=reset) it is
    C(pcpctl reset --dry-run --json), with C(--persist) or C(--persist-only)
    as the task has them.
    The task is changed when that dry run says C(changed), when its C(after)
    differs from its C(before) (not for I(persist_only), which leaves the
    kernel alone), or when its C(persist) file text would differ; a dry run
    that fails fails the task as the real run would.
  - Every warning pcpctl prints (its JSON C(warnings)) is passed to Ansible as
    a warning of the task.
  - A run that exits 0 but reports C(verified=false), which pcpctl does when the
    sysctls already hold the values but C(/proc/zoneinfo) disagrees with what
    they give, is C(ok) with a warning, as pcpctl's exit status says success
    and running the task again would not write anything. To make that fail,
    use C(failed_when) on the registered C(verified) (see the examples).
  - A value that pcpctl refuses fails the task with pcpctl's own message and
    exit code (2 invalid value, 3 interface missing on this kernel,
    4 insufficient privilege, 1 failed and rolled back, 5 rollback failed,
    6 another writer changed a value).
version_added: "0.1.0"
author:
  - pcpctl maintainers (@pcpctl)
requirements:
  - pcpctl on the target (see I(executable)) whose JSON reports have C(version) 1
  - root on the target (C(become)) to change the settings, and in check mode
    too, as the dry run checks the same write access as the real run
options:
  batch:
    description:
      - Pages moved between a zone and a CPU's list per refill or drain.
      - C(0) is the kernel's default; C(1) to the default batch << C(CONFIG_PCP_BATCH_SCALE_MAX)
        (2016 with 4 KiB pages and 5) sets it on every zone and CPU, as C(pcpctl set --help) says.
      - Only kernels with pcpctl's C(vm.percpu_pagelist_batch) patch have it;
        on others the task fails with exit code 3 and nothing changes, unless
        I(ignore_missing_batch) is set.
      - Only with I(state=present).
    type: int
  fraction:
    description:
      - Makes each CPU's high the zone's managed pages divided by this.
      - C(0) is the kernel's default; otherwise C(8) or more.
      - Only with I(state=present).
    type: int
  ignore_missing_batch:
    description:
      - On a kernel without C(vm.percpu_pagelist_batch) (as C(pcpctl status)
        shows it there), leave I(batch) out with a warning instead of failing,
        and set I(fraction) alone; with no I(fraction), the task is C(ok) and
        runs no C(pcpctl set).
      - Like I(ignoreerrors) of M(ansible.posix.sysctl), but for this one
        sysctl only; any other refusal still fails the task.
    type: bool
    default: false
    version_added: "0.2.0"
  state:
    description:
      - C(present) sets I(batch) and/or I(fraction), at least one of them.
      - C(reset) puts the batch (where the kernel has it) and the fraction
        back to the kernel's defaults.
    type: str
    choices: [present, reset]
    default: present
  persist:
    description:
      - Also record the settings in C(/etc/sysctl.d/90-pcpctl.conf) so that
        they are applied at boot. With I(state=reset), remove them from it.
    type: bool
    default: false
  persist_only:
    description:
      - Only record the settings in C(/etc/sysctl.d/90-pcpctl.conf) for the
        next boot (with I(state=reset), remove them from it), and leave the
        running kernel as it is, with C(pcpctl set --persist-only) or
        C(pcpctl reset --persist-only). The task is changed when the file
        changed.
      - pcpctl records a I(batch) even on a running kernel without
        C(vm.percpu_pagelist_batch), with a warning, as the next boot may
        have it; I(ignore_missing_batch) leaves it out instead.
      - Implies I(persist).
    type: bool
    default: false
    version_added: "0.2.0"
  sysroot:
    description:
      - Passed as C(--sysroot). pcpctl then reads and writes DIR/proc,
        DIR/sys, DIR/run and DIR/etc instead of those under C(/).
      - Meant for tests against a prepared tree.
    type: path
  executable:
    description:
      - The pcpctl to run. A bare name is looked up in PATH and in the sbin
        directories.
      - When it is not found the task fails with C(rc=127), naming the path,
        before anything is run.
    type: path
    default: pcpctl
attributes:
  check_mode:
    description:
      - Runs C(pcpctl set --dry-run) for I(state=present) and
        C(pcpctl reset --dry-run) for I(state=reset), and reports what they say.
    support: full
  diff_mode:
    description:
      - Shows the sysctls before and after, and with I(persist) or
        I(persist_only) the text of the persisted file before and after.
    support: full
notes:
  - On Linux 6.7 to 6.12 the kernel sets high lazily and prints no
    high_min/high_max, so pcpctl confirms a fraction by reading the sysctl back.
  - Running C(pcpctl rollback) after an interrupted change is left to the
    administrator; while its journal exists, this module fails with exit code 1.
  - See the pcpctl(8) man page for the transaction, the JSON report, the exit
    codes and what each kernel version lets you set and verify.
'''

EXAMPLES = r'''
- name: Let the pcp lists of a zone hold up to 1/8 of it, now and at boot
  pcpctl.pcpctl.pcpctl:
    fraction: 8
    persist: true
  become: true

- name: Set batch and fraction; on kernels without the pcpctl patch, the fraction only
  pcpctl.pcpctl.pcpctl:
    batch: 310
    fraction: 8
    ignore_missing_batch: true
    persist: true
  become: true

- name: Back to the kernel's defaults, now and at boot
  pcpctl.pcpctl.pcpctl:
    state: reset
    persist: true
  become: true

- name: Only for the next boot; the running kernel keeps its settings
  pcpctl.pcpctl.pcpctl:
    fraction: 8
    persist_only: true
  become: true

- name: See what would change (runs pcpctl set --dry-run)
  pcpctl.pcpctl.pcpctl:
    fraction: 16
  check_mode: true
  become: true
  register: would

- name: Fail, rather than warn, when zoneinfo does not confirm the settings
  pcpctl.pcpctl.pcpctl:
    fraction: 8
  become: true
  register: pcp
  failed_when: pcp.failed or not (pcp.verified or ansible_check_mode)

- name: A pcpctl outside PATH
  pcpctl.pcpctl.pcpctl:
    fraction: 8
    executable: /opt/pcpctl/sbin/pcpctl
  become: true
'''

RETURN = r'''
before:
  description: The pcp sysctls before the task, from pcpctl's report; null for one this kernel does not have.
  returned: success
  type: dict
  sample: {"percpu_pagelist_batch": null, "percpu_pagelist_high_fraction": 0, "percpu_pagelist_fraction": null}
after:
  description:
    - The pcp sysctls in force after the task, read back by pcpctl; in check mode those the task would set.
    - With I(persist_only), the running kernel's, unchanged.
  returned: success
  type: dict
  sample: {"percpu_pagelist_batch": null, "percpu_pagelist_high_fraction": 8, "percpu_pagelist_fraction": null}
expected:
  description:
    - Per populated zone, the batch and the range of high the change gives, as pcpctl predicts them
      (the same in check mode and in a real run); null where it cannot tell.
  returned: success
  type: list
  elements: dict
  sample: [{"node": 0, "zone": "Normal", "batch": 63, "high_min": 1536, "high_max": 1536}]
verified:
  description:
    - Whether pcpctl verified the settings in /proc/zoneinfo; always false in check mode and with I(persist_only).
    - False on a real run that succeeded comes with a warning (see the description).
  returned: success
  type: bool
  sample: true
rolled_back:
  description: Whether pcpctl rolled a failed change back (also in the failed task's result when pcpctl printed a report).
  returned: success
  type: bool
  sample: false
persisted:
  description: Whether pcpctl wrote /etc/sysctl.d/90-pcpctl.conf in this run; false when its contents would not change.
  returned: success
  type: bool
  sample: false
persist:
  description:
    - The persisted file as pcpctl reports it, its path and its text before and after (in check mode, as it would be);
      null text for a file that is not there. null without I(persist) or I(persist_only).
  returned: success
  type: dict
  sample: {"path": "/etc/sysctl.d/90-pcpctl.conf", "before": null,
           "after": "# written by pcpctl\nvm.percpu_pagelist_high_fraction = 8\n"}
boot_overrides:
  description:
    - With I(persist) or I(persist_only), the lines of sysctl.d files that are applied after pcpctl's at boot and
      set a key it persisted to another value, so that they win there, as pcpctl reports them (with their key,
      file and value); pcpctl warns of each too. Empty when there are none; null when pcpctl could not read
      the files.
  returned: success
  type: list
  elements: dict
  sample: [{"key": "vm.percpu_pagelist_high_fraction", "file": "/etc/sysctl.conf", "value": "0"}]
dry_run:
  description: Whether pcpctl ran with C(--dry-run) (in check mode).
  returned: success
  type: bool
  sample: false
warnings:
  description:
    - Every warning pcpctl printed (its JSON C(warnings)), then the module's own, such as a skipped I(batch) or
      C(verified=false). Ansible displays them; pcpctl's list is also in C(pcpctl.warnings).
  returned: when there are any
  type: list
  elements: str
  sample: ["vm.percpu_pagelist_high_fraction = 0 in /etc/sysctl.conf is applied after 90-pcpctl.conf at boot"]
rc:
  description:
    - pcpctl's exit code (see the pcpctl(8) man page).
    - 127 when I(executable) was not found; the module then ran nothing.
  returned: always
  type: int
  sample: 0
cmd:
  description: The pcpctl command line that was run last.
  returned: when pcpctl was found
  type: list
  elements: str
  sample: ["/usr/sbin/pcpctl", "--fraction", "8", "--json", "set"]
pcpctl_version:
  description: The version C(pcpctl --version) printed.
  returned: when pcpctl was found
  type: str
  sample: "0.2.0"
pcpctl:
  description: pcpctl's JSON report as it printed it (with its C(version), C(warnings) and every other key).
  returned: when pcpctl printed one this module reads
  type: dict
stdout:
  description: What pcpctl printed on stdout (its JSON report).
  returned: when pcpctl was found
  type: str
stderr:
  description: pcpctl's messages.
  returned: when pcpctl was found
  type: str
'''

import json
import os
import re

from ansible.module_utils.basic import AnsibleModule
from ansible.module_utils.six import string_types

JSON_VERSION = 1
# The keys of set/reset's JSON report (pcpctl(8)): all are always present.
REPORT_KEYS = (('changed', bool), ('dry_run', bool), ('before', dict), ('after', dict),
               ('expected', list), ('verified', bool), ('rolled_back', bool),
               ('persisted', bool), ('persist', (dict, type(None))),
               ('boot_overrides', (list, type(None))), ('warnings', list))
NOT_FOUND = 127


def find_pcpctl(module, name):
    """The pcpctl to run, or fail with rc 127 saying where it was looked for."""
    if os.sep in name:
        path = name
        found = os.path.isfile(path) and os.access(path, os.X_OK)
    else:
        path = module.get_bin_path(name, opt_dirs=['/usr/local/sbin', '/usr/sbin', '/sbin'])
        found = path is not None
        name = '%s (in PATH, /usr/local/sbin, /usr/sbin or /sbin)' % name
    if not found:
        module.fail_json(rc=NOT_FOUND,
                         msg='pcpctl not found: %s is not an executable file on this host. '
                             'Install pcpctl there (its Debian package, built from the pcpctl '
                             'source with dpkg-buildpackage, or cmake --install from the source '
                             'tree), or set executable to its path.' % name)
    return path


class Pcpctl(object):
    """One pcpctl on the target: its version, and its JSON read strictly."""

    def __init__(self, module, path, sysroot):
        self.module = module
        self.path = path
        self.base = [path] + (['--sysroot', sysroot] if sysroot else [])
        self.result = dict(changed=False)
        self.version = self._version()

    def fail(self, msg, **kwargs):
        self.result.update(kwargs)
        self.module.fail_json(msg=msg, **self.result)

    def run(self, args):
        cmd = self.base + args
        rc, out, err = self.module.run_command(cmd)
        self.result.update(cmd=cmd, rc=rc, stdout=out, stderr=err)
        return rc, out, err

    def _version(self):
        rc, out, err = self.module.run_command([self.path, '--version'])
        m = re.match(r'pcpctl (\S+)\s*$', out)
        if rc != 0 or not m:
            self.module.fail_json(cmd=[self.path, '--version'], rc=rc, stdout=out, stderr=err,
                                  changed=False,
                                  msg='%s --version did not print "pcpctl VERSION" (exit %d): %s'
                                      % (self.path, rc, (out + err).strip()))
        self.result['pcpctl_version'] = m.group(1)
        return m.group(1)

    def parse(self, out):
        """pcpctl's JSON, of the schema version this module reads, or a failure saying why."""
        try:
            doc = json.loads(out)
        except ValueError as e:
            self.fail('pcpctl %s printed no JSON (%s): %s' % (self.version, e, out.strip()[:500]))
        if not isinstance(doc, dict):
            self.fail('pcpctl %s printed JSON that is not an object: %s'
                      % (self.version, out.strip()[:500]))
        version = doc.get('version')
        number = isinstance(version, int) and not isinstance(version, bool)
        if 'version' not in doc or (number and version < JSON_VERSION):
            self.fail('%s is pcpctl %s, too old for this module: its JSON has %s, and this module '
                      'reads JSON version %d. Install a newer pcpctl on this host.'
                      % (self.path, self.version,
                         'no "version"' if 'version' not in doc else 'version %s' % version,
                         JSON_VERSION))
        if number and version > JSON_VERSION:
            self.fail('%s is pcpctl %s, too new for this module: it prints JSON version %d, and '
                      'this module reads JSON version %d. Install the pcpctl.pcpctl collection '
                      'that comes with pcpctl %s.'
                      % (self.path, self.version, version, JSON_VERSION, self.version))
        if not number:
            self.fail('pcpctl %s printed JSON whose "version" is %s, not a number: %s'
                      % (self.version, json.dumps(version), out.strip()[:500]))
        return doc

    def report(self, out):
        """set/reset's report, every key present with its type, or a failure naming the key."""
        doc = self.parse(out)
        for key, types in REPORT_KEYS:
            if key not in doc or not isinstance(doc[key], types):
                self.fail('pcpctl %s printed a JSON version %d report %s: %s'
                          % (self.version, JSON_VERSION,
                             'without "%s"' % key if key not in doc
                             else 'whose "%s" is %s' % (key, json.dumps(doc[key])),
                             out.strip()[:500]))
        persist = doc['persist']
        if persist is not None and not (
                isinstance(persist.get('path'), string_types) and
                all(isinstance(persist.get(k), string_types + (type(None),))
                    for k in ('before', 'after'))):
            self.fail('pcpctl %s printed a "persist" without a path and the text before and '
                      'after: %s' % (self.version, json.dumps(persist)))
        if not all(isinstance(w, string_types) for w in doc['warnings']):
            self.fail('pcpctl %s printed "warnings" that are not all strings: %s'
                      % (self.version, json.dumps(doc['warnings'])))
        return doc


def sysctl_diff(settings):
    return dict(('vm.' + k, v) for k, v in settings.items() if v is not None)


def main():
    module = AnsibleModule(
        argument_spec=dict(
            batch=dict(type='int'),
            fraction=dict(type='int'),
            ignore_missing_batch=dict(type='bool', default=False),
            state=dict(type='str', default='present', choices=['present', 'reset']),
            persist=dict(type='bool', default=False),
            persist_only=dict(type='bool', default=False),
            sysroot=dict(type='path'),
            executable=dict(type='path', default='pcpctl'),
        ),
        required_if=[('state', 'present', ('batch', 'fraction'), True)],
        supports_check_mode=True,
    )
    p = module.params
    if p['state'] == 'reset' and (p['batch'] is not None or p['fraction'] is not None):
        module.fail_json(msg='state=reset restores both defaults: give no batch or fraction')

    pcp = Pcpctl(module, find_pcpctl(module, p['executable']), p['sysroot'])
    result = pcp.result

    # Read-only, and before anything is written: the schema version, and
    # whether this kernel has the batch sysctl.
    rc, out, err = pcp.run(['--json', 'status'])
    if rc != 0:
        pcp.fail(err.strip() or 'pcpctl status exited with status %d' % rc)
    settings = pcp.parse(out).get('settings')
    if not isinstance(settings, dict):
        pcp.fail('pcpctl %s printed a status without "settings": %s' % (pcp.version, out.strip()))

    batch = p['batch']
    if (batch is not None and p['ignore_missing_batch'] and
            settings.get('percpu_pagelist_batch') is None):
        module.warn('batch %d skipped: this kernel has no vm.percpu_pagelist_batch (pcpctl\'s '
                    'kernel patch is not applied)' % batch)
        batch = None
        if p['fraction'] is None:
            result.update(before=settings, after=settings, expected=[], verified=False,
                          rolled_back=False, persisted=False, persist=None, boot_overrides=[],
                          dry_run=module.check_mode)
            module.exit_json(**result)

    # Options before the command, so that POSIXLY_CORRECT on the target cannot
    # make them arguments.
    args = []
    if batch is not None:
        args += ['--batch', str(batch)]
    if p['fraction'] is not None:
        args += ['--fraction', str(p['fraction'])]
    if p['persist_only']:
        args.append('--persist-only')
    elif p['persist']:
        args.append('--persist')
    if module.check_mode:
        args.append('--dry-run')
    args += ['--json', 'set' if p['state'] == 'present' else 'reset']
    rc, out, err = pcp.run(args)

    if rc != 0:
        # pcpctl reports exits 1, 5 and 6 too: keep what it says was left.
        try:
            report = json.loads(out) if out.strip() else None
        except ValueError:
            report = None
        if isinstance(report, dict) and report.get('version') == JSON_VERSION:
            result['pcpctl'] = report
            for w in report.get('warnings') or []:
                module.warn(str(w))
            for key in ('before', 'after', 'rolled_back', 'persisted'):
                if key in report:
                    result[key] = report[key]
        pcp.fail(err.strip() or 'pcpctl exited with status %d and printed no message' % rc)

    report = pcp.report(out)
    for w in report['warnings']:
        module.warn(w)
    before, after, persist = report['before'], report['after'], report['persist']
    result.update(pcpctl=report, before=before, after=after, expected=report['expected'],
                  verified=report['verified'], rolled_back=report['rolled_back'],
                  persisted=report['persisted'], persist=persist,
                  boot_overrides=report['boot_overrides'], dry_run=report['dry_run'])
    file_changes = persist is not None and persist['before'] != persist['after']
    if module.check_mode:
        result['changed'] = (report['changed'] or file_changes or
                             (not p['persist_only'] and before != after))
    else:
        result['changed'] = report['changed'] or report['persisted']
        if not report['verified'] and not p['persist_only']:
            module.warn('pcpctl exited 0 but did not verify the settings in /proc/zoneinfo '
                        '(verified: false): the sysctls hold these values, but the per-CPU '
                        'lists disagree with what they give; see pcpctl show')

    if module._diff:
        diff = [dict(before=sysctl_diff(before), after=sysctl_diff(after),
                     before_header='pcp sysctls before', after_header='pcp sysctls after')]
        if persist is not None:
            diff.append(dict(before=persist['before'] or '', after=persist['after'] or '',
                             before_header=persist['path'] +
                             (' (absent)' if persist['before'] is None else ''),
                             after_header=persist['path'] +
                             (' (absent)' if persist['after'] is None else '')))
        result['diff'] = diff
    module.exit_json(**result)


if __name__ == '__main__':
    main()
