/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The pcp lists and sysctls as Prometheus gauges, in the text format that
 * node_exporter's textfile collector reads (and OpenMetrics' text format:
 * the gauges are written the same in both, and the closing "# EOF" is a
 * comment to Prometheus).  A pure function of the parsed zoneinfo and the
 * sysctl values, so the tests run it on fixtures.
 */
#ifndef PCPCTL_OPENMETRICS_H
#define PCPCTL_OPENMETRICS_H

#include <stdbool.h>
#include <stdio.h>

#include "kernel.h"
#include "zoneinfo.h"

/*
 * Per populated zone (labels node and zone) the pages held, CPUs, batch,
 * high, and high_min/high_max where zoneinfo has them; with per_cpu also
 * each CPU's count, high and batch (label cpu too).  Each sysctl in have[]
 * is a gauge; one the kernel lacks has no sample.  0, or -EIO when out
 * reports an error.
 */
int openmetrics_write(FILE *out, const struct zoneinfo *zi, const bool have[NSYSCTLS],
		      const long value[NSYSCTLS], bool per_cpu);

#endif
