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
  - The task is changed when pcpctl reports C(changed) (values were written
    and verified) or, with I(persist), when the persisted file changed.
    Running it again with the same values is C(ok).
  - In check mode it runs C(pcpctl set --dry-run --json), which validates the
    values and reports what would change without writing anything.
  - A value that pcpctl refuses fails the task with pcpctl's own message and
    exit code (2 invalid value, 3 interface missing on this kernel,
    4 insufficient privilege, 1 failed and rolled back, 5 rollback failed).
version_added: "0.1.0"
author:
  - pcpctl maintainers (@pcpctl)
requirements:
  - pcpctl on the target (see I(executable))
  - root on the target (C(become)) to change the settings; check mode needs no privilege
options:
  batch:
    description:
      - Pages moved between a zone and a CPU's list per refill or drain.
      - C(0) is the kernel's default; C(1) to C(1007) sets it on every zone and CPU.
      - Only kernels with pcpctl's C(vm.percpu_pagelist_batch) patch have it;
        on others the task fails with exit code 3 and nothing changes.
      - Only with I(state=present).
    type: int
  fraction:
    description:
      - Makes each CPU's high the zone's managed pages divided by this.
      - C(0) is the kernel's default; otherwise C(8) or more.
      - Only with I(state=present).
    type: int
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
    type: path
    default: pcpctl
attributes:
  check_mode:
    description: Runs C(pcpctl --dry-run) and reports what would change.
    support: full
  diff_mode:
    description: Shows the settings before and after, and the persisted ones with I(persist).
    support: full
notes:
  - On Linux 6.7 to 6.12 the kernel sets high lazily and prints no
    high_min/high_max, so pcpctl confirms a fraction by reading the sysctl back.
  - Running C(pcpctl rollback) after an interrupted change is left to the
    administrator; while its journal exists, this module fails with exit code 1.
  - See the pcpctl(8) man page for the transaction, the exit codes and what
    each kernel version lets you set and verify.
'''

EXAMPLES = r'''
- name: Let the pcp lists of a zone hold up to 1/8 of it, now and at boot
  pcpctl.pcpctl.pcpctl:
    fraction: 8
    persist: true
  become: true

- name: Set batch and fraction on kernels with the pcpctl patch
  pcpctl.pcpctl.pcpctl:
    batch: 310
    fraction: 8
    persist: true
  become: true

- name: Back to the kernel's defaults, now and at boot
  pcpctl.pcpctl.pcpctl:
    state: reset
    persist: true
  become: true

- name: See what would change (runs pcpctl set --dry-run)
  pcpctl.pcpctl.pcpctl:
    fraction: 16
  check_mode: true
  register: would

- name: A pcpctl outside PATH
  pcpctl.pcpctl.pcpctl:
    fraction: 8
    executable: /opt/pcpctl/sbin/pcpctl
  become: true
'''

RETURN = r'''
before:
  description: The pcp sysctls before the task; null for one this kernel does not have.
  returned: success
  type: dict
  sample: {"percpu_pagelist_batch": null, "percpu_pagelist_high_fraction": 0, "percpu_pagelist_fraction": null}
after:
  description: The pcp sysctls after the task, or in check mode those the task would set.
  returned: success
  type: dict
  sample: {"percpu_pagelist_batch": null, "percpu_pagelist_high_fraction": 8, "percpu_pagelist_fraction": null}
verified:
  description: Whether pcpctl verified the settings in /proc/zoneinfo (false in check mode).
  returned: success
  type: bool
  sample: true
persisted:
  description: Whether pcpctl wrote /etc/sysctl.d/90-pcpctl.conf in this run.
  returned: success
  type: bool
  sample: false
persisted_settings:
  description: The settings in /etc/sysctl.d/90-pcpctl.conf after the task (in check mode, as they would be).
  returned: when persist is true
  type: dict
  sample: {"percpu_pagelist_high_fraction": 8}
rc:
  description: pcpctl's exit code.
  returned: always
  type: int
  sample: 0
cmd:
  description: The pcpctl command line that was run.
  returned: always
  type: list
  elements: str
  sample: ["/usr/sbin/pcpctl", "--fraction", "8", "--json", "set"]
pcpctl:
  description: pcpctl's JSON report as it printed it.
  returned: when pcpctl printed one
  type: dict
stderr:
  description: pcpctl's messages.
  returned: always
  type: str
'''

import json
import os

from ansible.module_utils.basic import AnsibleModule

PERSIST_FILE = '/etc/sysctl.d/90-pcpctl.conf'
SYSCTLS = ('percpu_pagelist_batch', 'percpu_pagelist_high_fraction', 'percpu_pagelist_fraction')


def read_persisted(sysroot):
    """The vm.percpu_pagelist_* settings of pcpctl's sysctl.d file, as a dict."""
    path = (sysroot or '') + PERSIST_FILE
    settings = {}
    try:
        with open(path) as f:
            for line in f:
                key, sep, value = line.partition('=')
                key = key.strip()
                if sep and key.startswith('vm.') and key[3:] in SYSCTLS:
                    try:
                        settings[key[3:]] = int(value.strip())
                    except ValueError:
                        pass
    except (IOError, OSError):
        pass
    return settings


def targeted(params, report):
    """The sysctls this task sets (or resets), given the kernel's settings."""
    before = report.get('before') or {}
    fraction = ('percpu_pagelist_high_fraction'
                if before.get('percpu_pagelist_high_fraction') is not None
                or before.get('percpu_pagelist_fraction') is None
                else 'percpu_pagelist_fraction')
    names = []
    if params['state'] == 'present':
        if params['batch'] is not None:
            names.append('percpu_pagelist_batch')
        if params['fraction'] is not None:
            names.append(fraction)
    else:
        if before.get('percpu_pagelist_batch') is not None:
            names.append('percpu_pagelist_batch')
        names.append(fraction)
    return names


def present(settings):
    return dict((k, v) for k, v in settings.items() if v is not None)


def main():
    module = AnsibleModule(
        argument_spec=dict(
            batch=dict(type='int'),
            fraction=dict(type='int'),
            state=dict(type='str', default='present', choices=['present', 'reset']),
            persist=dict(type='bool', default=False),
            sysroot=dict(type='path'),
            executable=dict(type='path', default='pcpctl'),
        ),
        required_if=[('state', 'present', ('batch', 'fraction'), True)],
        supports_check_mode=True,
    )
    p = module.params
    if p['state'] == 'reset' and (p['batch'] is not None or p['fraction'] is not None):
        module.fail_json(msg='state=reset restores both defaults: give no batch or fraction')

    exe = p['executable']
    if os.sep not in exe:
        exe = module.get_bin_path(exe, required=True,
                                  opt_dirs=['/usr/local/sbin', '/usr/sbin', '/sbin'])

    # Options before the command, so that POSIXLY_CORRECT on the target cannot
    # make them arguments.
    cmd = [exe]
    if p['sysroot']:
        cmd += ['--sysroot', p['sysroot']]
    if p['batch'] is not None:
        cmd += ['--batch', str(p['batch'])]
    if p['fraction'] is not None:
        cmd += ['--fraction', str(p['fraction'])]
    if p['persist']:
        cmd.append('--persist')
    if module.check_mode:
        cmd.append('--dry-run')
    cmd += ['--json', 'set' if p['state'] == 'present' else 'reset']

    persisted_before = read_persisted(p['sysroot']) if p['persist'] else None
    rc, out, err = module.run_command(cmd)
    result = dict(changed=False, rc=rc, cmd=cmd, stderr=err)
    report = None
    if out.strip():
        try:
            report = json.loads(out)
            result['pcpctl'] = report
        except ValueError:
            result['stdout'] = out
    if rc != 0 or report is None:
        msg = err.strip() or 'pcpctl exited with status %d and printed no report' % rc
        module.fail_json(msg=msg, **result)

    names = targeted(p, report)
    before, after = report['before'], report['after']
    result.update(before=before, after=after, verified=report['verified'],
                  persisted=report['persisted'])
    if module.check_mode:
        result['changed'] = any(before.get(n) != after.get(n) for n in names)
    else:
        result['changed'] = bool(report['changed'])

    diff_before = dict(('vm.' + k, v) for k, v in present(before).items())
    diff_after = dict(('vm.' + k, v) for k, v in present(after).items())
    if p['persist']:
        if module.check_mode:
            persisted_after = dict(persisted_before)
            for n in names:
                if p['state'] == 'present':
                    persisted_after[n] = after[n]
                else:
                    persisted_after.pop(n, None)
        else:
            persisted_after = read_persisted(p['sysroot'])
        result['persisted_settings'] = persisted_after
        if persisted_after != persisted_before:
            result['changed'] = True
        diff_before[PERSIST_FILE] = dict(('vm.' + k, v) for k, v in persisted_before.items())
        diff_after[PERSIST_FILE] = dict(('vm.' + k, v) for k, v in persisted_after.items())
    if module._diff:
        result['diff'] = dict(before=diff_before, after=diff_after,
                              before_header='pcp settings before',
                              after_header='pcp settings after')
    module.exit_json(**result)


if __name__ == '__main__':
    main()
