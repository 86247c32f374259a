/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "topology.h"

#include <stdio.h>

#include "idlist.h"
#include "sysroot.h"
#include "zoneinfo.h"

int zone_split_cpus(const struct sysroot *root, const struct zi_zone *zone, unsigned *split)
{
	struct idlist cpus;
	char path[64];
	unsigned n = 0;
	int rc;

	/* Without CONFIG_NUMA every CPU belongs to node 0. */
	if (!sysroot_exists(root, PATH_NODES)) {
		*split = (unsigned)zone->npagesets;
		return 0;
	}
	snprintf(path, sizeof(path), PATH_NODES "/node%d/cpulist", zone->node);
	rc = sysroot_read_cpulist(root, path, &cpus);
	if (rc)
		return rc;
	for (size_t i = 0; i < zone->npagesets; i++)
		n += idlist_has(&cpus, zone->pagesets[i].cpu);
	idlist_free(&cpus);
	*split = n ? n : (unsigned)zone->npagesets;
	return 0;
}
