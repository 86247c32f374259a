/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "openmetrics.h"

#include <errno.h>

/*
 * Zone gauges: the value of a field over the zone's CPUs.  Batch, high_min
 * and high_max are one value per zone (CPUs differ only for the moment a
 * change takes); high differs per CPU on 6.7+, so the zone gauge is its
 * largest and the per-CPU series give each.
 */
enum zone_metric { ZM_PAGES, ZM_CPUS, ZM_BATCH, ZM_HIGH, ZM_HIGH_MIN, ZM_HIGH_MAX, NZONE_METRICS };

static const struct family {
	const char *name;
	const char *help;
} zone_families[NZONE_METRICS] = {
	[ZM_PAGES] = { "pcpctl_pcp_pages", "Pages held on the zone's per-CPU page lists, all CPUs." },
	[ZM_CPUS] = { "pcpctl_pcp_cpus", "CPUs with a per-CPU page list in the zone." },
	[ZM_BATCH] = { "pcpctl_pcp_batch",
		       "Pages moved between the zone and a per-CPU list at a time (largest over the CPUs)." },
	[ZM_HIGH] = { "pcpctl_pcp_high",
		      "Pages above which a per-CPU list is drained (largest over the CPUs; 0 = not yet set)." },
	[ZM_HIGH_MIN] = { "pcpctl_pcp_high_min", "Lowest high of the kernel's auto-tuning (6.13+)." },
	[ZM_HIGH_MAX] = { "pcpctl_pcp_high_max", "Highest high of the kernel's auto-tuning (6.13+)." },
}, cpu_families[] = {
	{ "pcpctl_pcp_cpu_pages", "Pages held on this CPU's page lists of the zone." },
	{ "pcpctl_pcp_cpu_high", "Pages above which this CPU's lists are drained (0 = not yet set)." },
	{ "pcpctl_pcp_cpu_batch", "Pages moved between the zone and this CPU's lists at a time." },
};

static const enum zi_field cpu_fields[] = { ZI_COUNT, ZI_HIGH, ZI_BATCH };

static const char *const sysctl_help[NSYSCTLS] = {
	[SYSCTL_BATCH] = "vm.percpu_pagelist_batch (pcpctl's kernel patch; 0 = the kernel's default).",
	[SYSCTL_HIGH_FRACTION] = "vm.percpu_pagelist_high_fraction (0 = the kernel's default).",
	[SYSCTL_FRACTION] = "vm.percpu_pagelist_fraction (up to 5.13; 0 = the kernel's default).",
};

static void family_head(FILE *out, const char *name, const char *help)
{
	fprintf(out, "# HELP %s %s\n# TYPE %s gauge\n", name, help, name);
}

static unsigned long long zone_value(const struct zi_zone *z, enum zone_metric m)
{
	static const enum zi_field largest[NZONE_METRICS] = {
		[ZM_BATCH] = ZI_BATCH, [ZM_HIGH] = ZI_HIGH,
		[ZM_HIGH_MIN] = ZI_HIGH_MIN, [ZM_HIGH_MAX] = ZI_HIGH_MAX,
	};
	int lo, hi;

	if (m == ZM_CPUS)
		return z->npagesets;
	if (m == ZM_PAGES) {
		unsigned long long pages = 0;

		for (size_t j = 0; j < z->npagesets; j++)
			pages += (unsigned long long)z->pagesets[j].value[ZI_COUNT];
		return pages;
	}
	zi_zone_range(z, largest[m], &lo, &hi);
	return (unsigned long long)hi;
}

/*
 * Label values are numbers and zone names, which the parser takes only of
 * letters, digits and '_': nothing to escape in either format.
 */
static void zone_labels(FILE *out, const char *name, const struct zi_zone *z)
{
	fprintf(out, "%s{node=\"%d\",zone=\"%s\"", name, z->node, z->name);
}

int openmetrics_write(FILE *out, const struct zoneinfo *zi, const bool have[NSYSCTLS],
		      const long value[NSYSCTLS], bool per_cpu)
{
	bool minmax = zi->pageset_fields & (1u << ZI_HIGH_MIN);

	for (int m = 0; m < NZONE_METRICS; m++) {
		if ((m == ZM_HIGH_MIN || m == ZM_HIGH_MAX) && !minmax)
			continue;
		family_head(out, zone_families[m].name, zone_families[m].help);
		for (size_t i = 0; i < zi->nzones; i++) {
			const struct zi_zone *z = &zi->zones[i];

			if (!z->npagesets)
				continue;
			zone_labels(out, zone_families[m].name, z);
			fprintf(out, "} %llu\n", zone_value(z, m));
		}
	}
	for (size_t f = 0; per_cpu && f < sizeof(cpu_fields) / sizeof(cpu_fields[0]); f++) {
		family_head(out, cpu_families[f].name, cpu_families[f].help);
		for (size_t i = 0; i < zi->nzones; i++) {
			const struct zi_zone *z = &zi->zones[i];

			for (size_t j = 0; j < z->npagesets; j++) {
				zone_labels(out, cpu_families[f].name, z);
				fprintf(out, ",cpu=\"%d\"} %d\n", z->pagesets[j].cpu,
					z->pagesets[j].value[cpu_fields[f]]);
			}
		}
	}
	for (int s = 0; s < NSYSCTLS; s++) {
		char name[64];

		if (!have[s])
			continue;
		snprintf(name, sizeof(name), "pcpctl_vm_%s", sysctl_name(s));
		family_head(out, name, sysctl_help[s]);
		fprintf(out, "%s %ld\n", name, value[s]);
	}
	fputs("# EOF\n", out);
	return ferror(out) ? -EIO : 0;
}
