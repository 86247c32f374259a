/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Which CPUs the kernel splits a zone's high over: those of the zone's node. */
#ifndef PCPCTL_TOPOLOGY_H
#define PCPCTL_TOPOLOGY_H

struct sysroot;
struct zi_zone;

/*
 * The number of CPUs zone_highsize() divides by for this zone: the online
 * CPUs of its node (sys/devices/system/node/nodeN/cpulist), or all online
 * CPUs when the node has none or the kernel has no NUMA.  The zone's
 * pagesets list exactly the online CPUs.  Returns 0 or a negative errno.
 */
int zone_split_cpus(const struct sysroot *root, const struct zi_zone *zone, unsigned *split);

#endif
