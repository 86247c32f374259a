/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pcpctl show --interval: the pcp lists sampled over time, in the manner
 * of vmstat(8).  A sample is what one reading of zoneinfo and vmstat says,
 * reduced to the selected zones (and CPUs); the change between two samples
 * and the pgalloc/pgfree rates are pure functions of two samples, so the
 * tests check the arithmetic without a clock.
 */
#ifndef PCPCTL_WATCH_H
#define PCPCTL_WATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "kernel.h"
#include "zoneinfo.h"

/* Which zones and CPUs to keep: show's --node, --zone and --cpu. */
struct watch_select {
	bool (*zone)(const void *arg, const struct zi_zone *z);
	bool (*cpu)(const void *arg, int cpu);
	const void *arg;
};

struct watch_zone {
	int node;
	char name[ZI_ZONE_NAME_MAX];
	size_t cpus;			/* selected CPUs with a pcp list here */
	unsigned long long pages;	/* held on their lists */
	/*
	 * count / high in percent, mean and largest over the CPUs whose high
	 * is set (6.7+ print 0 until a CPU first uses its list); NAN if none.
	 */
	double fill_mean, fill_max;
	int batch_min, batch_max, high_lo, high_hi;
	/* The zone's managed pages: memory hotplug and balloons move them, and the limits with them. */
	unsigned long long managed;
};

struct watch_cpu {
	size_t zone;			/* index into the sample's zones */
	int cpu, count, high, batch;
	double fill;			/* count / high in percent; NAN while high is 0 */
};

struct watch_sample {
	struct timespec mono;		/* when taken: rates divide by this */
	struct timespec wall;		/* the timestamp printed */
	struct watch_zone *zones;
	size_t nzones;
	struct watch_cpu *cpus;		/* the per-CPU view only */
	size_t ncpus;
	struct vm_counters vm;		/* vm.present is 0 when vmstat was unreadable */
};

/*
 * Reduce zoneinfo to a sample: every populated, selected zone with at least
 * one selected CPU, and with per_cpu each selected pageset.  The times and
 * vm are the caller's.  0 or -ENOMEM.
 */
int watch_sample_build(const struct zoneinfo *zi, const struct watch_select *sel, bool per_cpu,
		       struct watch_sample *s);
void watch_sample_free(struct watch_sample *s);

/* Seconds from prev to cur. */
double watch_elapsed(const struct watch_sample *prev, const struct watch_sample *cur);
/* Pages of cur's zone i minus the same zone's in prev; false when prev lacks the zone. */
bool watch_zone_change(const struct watch_sample *prev, const struct watch_sample *cur, size_t i,
		       long long *change);
/* Likewise for the managed pages of cur's zone i. */
bool watch_managed_change(const struct watch_sample *prev, const struct watch_sample *cur,
			  size_t i, long long *change);
/* Likewise for the count of cur's pageset i. */
bool watch_cpu_change(const struct watch_sample *prev, const struct watch_sample *cur, size_t i,
		      long long *change);
/*
 * Counter v per second from prev to cur; false when either sample lacks it,
 * no time passed, or it went backwards (a counter never does, but a
 * --sysroot tree may be rewritten).
 */
bool watch_rate(const struct watch_sample *prev, const struct watch_sample *cur,
		enum vm_counter v, double *per_s);
/* The pgalloc counter of the zones of that name, or -1 (Device has none). */
int watch_zone_counter(const char *zone);

/*
 * What the writers print of cur against prev, which is NULL for the first
 * sample: each false (and its value 0) when not known.
 */
struct watch_delta {
	bool have_change, have_alloc;
	long long change;	/* of the zone's pages or the pageset's count */
	double alloc_per_s;	/* of the zones of its name */
};
void watch_zone_delta(const struct watch_sample *prev, const struct watch_sample *cur, size_t i,
		      struct watch_delta *d);
void watch_cpu_delta(const struct watch_sample *prev, const struct watch_sample *cur, size_t i,
		     struct watch_delta *d);
/* Seconds from prev to cur, pages freed and pages of the zones of a name allocated per second. */
bool watch_seconds(const struct watch_sample *prev, const struct watch_sample *cur,
		   double *seconds);
bool watch_free_rate(const struct watch_sample *prev, const struct watch_sample *cur,
		     double *per_s);
bool watch_alloc_rate(const struct watch_sample *prev, const struct watch_sample *cur,
		      const char *zone, double *per_s);

#endif
