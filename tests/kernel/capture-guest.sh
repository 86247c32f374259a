# shellcheck shell=sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Guest half of tests/kernel/capture-zoneinfo.sh (sourced by the initramfs init).
# Both the sysctl write and every read of /proc/zoneinfo run pinned to CPU 0,
# so on 6.7+ kernels (lazy pcp->high) CPU 0 is the CPU that shows the result.
ktg_section uname uname -r
ktg_section topology ktg_topology
ktg_section sysctl ktg_sysctls
ktg_section zoneinfo taskset -c 0 cat /proc/zoneinfo
ktg_section write-frac8 taskset -c 0 sh -c 'echo 8 >/proc/sys/vm/percpu_pagelist_high_fraction'
ktg_section sysctl-frac8 ktg_sysctls
ktg_section zoneinfo-frac8 taskset -c 0 cat /proc/zoneinfo
