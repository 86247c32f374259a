#include "topology.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "idlist.h"
#include "sysroot.h"
#include "zoneinfo.h"

#define PATH_NODES "/sys/devices/system/node"

int zone_split_cpus(const char *root, const struct zi_zone *zone, unsigned *split)
{
	struct idlist cpus;
	struct stat st;
	char *path, *text;
	size_t len;
	unsigned n = 0;
	int rc;

	path = sysroot_path(root, PATH_NODES);
	if (!path)
		return -ENOMEM;
	rc = stat(path, &st);
	free(path);
	/* Without CONFIG_NUMA every CPU belongs to node 0. */
	if (rc < 0 && errno == ENOENT) {
		*split = (unsigned)zone->npagesets;
		return 0;
	}
	if (asprintf(&path, "%s" PATH_NODES "/node%d/cpulist", root, zone->node) < 0)
		return -ENOMEM;
	rc = read_whole_file(path, &text, &len);
	free(path);
	if (rc)
		return rc;
	text[strcspn(text, "\n")] = '\0';
	if (text[0]) {
		rc = idlist_parse(text, &cpus);
		if (rc == 0) {
			for (size_t i = 0; i < zone->npagesets; i++)
				n += idlist_has(&cpus, zone->pagesets[i].cpu);
			idlist_free(&cpus);
		}
	}
	free(text);
	if (rc)
		return rc;
	*split = n ? n : (unsigned)zone->npagesets;
	return 0;
}
