/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "watch.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>


static bool keep_zone(const struct watch_select *sel, const struct zi_zone *z)
{
	return !sel || !sel->zone || sel->zone(sel->arg, z);
}

static bool keep_cpu(const struct watch_select *sel, int cpu)
{
	return !sel || !sel->cpu || sel->cpu(sel->arg, cpu);
}

static double fill_pct(int count, int high)
{
	return high > 0 ? 100.0 * count / high : NAN;
}

static void widen(int *lo, int *hi, int v, bool first)
{
	if (first || v < *lo)
		*lo = v;
	if (first || v > *hi)
		*hi = v;
}

/* One zone's numbers over its selected CPUs; false when none is selected. */
static bool zone_reduce(const struct zi_zone *z, const struct watch_select *sel,
			struct watch_zone *wz)
{
	size_t filled = 0;
	double fill_sum = 0;

	memset(wz, 0, sizeof(*wz));
	wz->node = z->node;
	memcpy(wz->name, z->name, sizeof(wz->name));
	wz->fill_max = NAN;
	wz->managed = z->field[ZI_MANAGED];
	for (size_t j = 0; j < z->npagesets; j++) {
		const struct zi_pageset *ps = &z->pagesets[j];
		const int *v = ps->value;
		double fill = fill_pct(v[ZI_COUNT], v[ZI_HIGH]);
		bool first;

		if (!keep_cpu(sel, ps->cpu))
			continue;
		first = wz->cpus++ == 0;
		wz->pages += (unsigned long long)v[ZI_COUNT];
		widen(&wz->batch_min, &wz->batch_max, v[ZI_BATCH], first);
		widen(&wz->high_lo, &wz->high_hi, v[ZI_HIGH], first);
		if (isnan(fill))
			continue;
		fill_sum += fill;
		if (filled++ == 0 || fill > wz->fill_max)
			wz->fill_max = fill;
	}
	wz->fill_mean = filled ? fill_sum / (double)filled : NAN;
	return wz->cpus > 0;
}

int watch_sample_build(const struct zoneinfo *zi, const struct watch_select *sel, bool per_cpu,
		       struct watch_sample *s)
{
	s->zones = zi->nzones ? calloc(zi->nzones, sizeof(*s->zones)) : NULL;
	s->cpus = per_cpu && zi->npagesets ? calloc(zi->npagesets, sizeof(*s->cpus)) : NULL;
	s->nzones = s->ncpus = 0;
	if ((zi->nzones && !s->zones) || (per_cpu && zi->npagesets && !s->cpus)) {
		watch_sample_free(s);
		return -ENOMEM;
	}
	for (size_t i = 0; i < zi->nzones; i++) {
		const struct zi_zone *z = &zi->zones[i];

		if (!z->npagesets || !keep_zone(sel, z) || !zone_reduce(z, sel, &s->zones[s->nzones]))
			continue;
		for (size_t j = 0; per_cpu && j < z->npagesets; j++) {
			const struct zi_pageset *ps = &z->pagesets[j];
			struct watch_cpu *c = &s->cpus[s->ncpus];

			if (!keep_cpu(sel, ps->cpu))
				continue;
			c->zone = s->nzones;
			c->cpu = ps->cpu;
			c->count = ps->value[ZI_COUNT];
			c->high = ps->value[ZI_HIGH];
			c->batch = ps->value[ZI_BATCH];
			c->fill = fill_pct(c->count, c->high);
			s->ncpus++;
		}
		s->nzones++;
	}
	return 0;
}

void watch_sample_free(struct watch_sample *s)
{
	free(s->zones);
	free(s->cpus);
	s->zones = NULL;
	s->cpus = NULL;
	s->nzones = s->ncpus = 0;
}

double watch_elapsed(const struct watch_sample *prev, const struct watch_sample *cur)
{
	return (double)(cur->mono.tv_sec - prev->mono.tv_sec) +
	       (double)(cur->mono.tv_nsec - prev->mono.tv_nsec) / 1e9;
}

static bool same_zone(const struct watch_zone *a, const struct watch_zone *b)
{
	return a->node == b->node && strcmp(a->name, b->name) == 0;
}

/*
 * The zone of prev that is cur's zone i.  The layout only changes when a
 * node or zone comes or goes (memory hotplug), so try the same index first.
 */
static const struct watch_zone *prev_zone(const struct watch_sample *prev,
					  const struct watch_sample *cur, size_t i)
{
	if (i < prev->nzones && same_zone(&prev->zones[i], &cur->zones[i]))
		return &prev->zones[i];
	for (size_t j = 0; j < prev->nzones; j++)
		if (same_zone(&prev->zones[j], &cur->zones[i]))
			return &prev->zones[j];
	return NULL;
}

bool watch_zone_change(const struct watch_sample *prev, const struct watch_sample *cur, size_t i,
		       long long *change)
{
	const struct watch_zone *p = prev_zone(prev, cur, i);

	if (!p)
		return false;
	*change = (long long)cur->zones[i].pages - (long long)p->pages;
	return true;
}

bool watch_managed_change(const struct watch_sample *prev, const struct watch_sample *cur,
			  size_t i, long long *change)
{
	const struct watch_zone *p = prev_zone(prev, cur, i);

	if (!p)
		return false;
	*change = (long long)cur->zones[i].managed - (long long)p->managed;
	return true;
}

static bool same_cpu(const struct watch_sample *a, size_t i, const struct watch_sample *b,
		     size_t j)
{
	return a->cpus[i].cpu == b->cpus[j].cpu &&
	       same_zone(&a->zones[a->cpus[i].zone], &b->zones[b->cpus[j].zone]);
}

bool watch_cpu_change(const struct watch_sample *prev, const struct watch_sample *cur, size_t i,
		      long long *change)
{
	size_t j = i;

	/* CPU hotplug adds or removes pagesets; otherwise they line up. */
	if (j >= prev->ncpus || !same_cpu(prev, j, cur, i))
		for (j = 0; j < prev->ncpus && !same_cpu(prev, j, cur, i); j++)
			;
	if (j >= prev->ncpus)
		return false;
	*change = (long long)cur->cpus[i].count - (long long)prev->cpus[j].count;
	return true;
}

bool watch_rate(const struct watch_sample *prev, const struct watch_sample *cur,
		enum vm_counter v, double *per_s)
{
	unsigned bit = 1u << v;
	double dt = watch_elapsed(prev, cur);

	if (!(prev->vm.present & bit) || !(cur->vm.present & bit) || dt <= 0 ||
	    cur->vm.value[v] < prev->vm.value[v])
		return false;
	*per_s = (double)(cur->vm.value[v] - prev->vm.value[v]) / dt;
	return true;
}

int watch_zone_counter(const char *zone)
{
	static const struct {
		const char *zone;
		enum vm_counter counter;
	} map[] = {
		{ "DMA", VM_PGALLOC_DMA }, { "DMA32", VM_PGALLOC_DMA32 },
		{ "Normal", VM_PGALLOC_NORMAL }, { "HighMem", VM_PGALLOC_HIGH },
		{ "Movable", VM_PGALLOC_MOVABLE },
	};

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (strcasecmp(zone, map[i].zone) == 0)
			return (int)map[i].counter;
	return -1;
}

bool watch_seconds(const struct watch_sample *prev, const struct watch_sample *cur,
		   double *seconds)
{
	if (!prev)
		return false;
	*seconds = watch_elapsed(prev, cur);
	return true;
}

bool watch_free_rate(const struct watch_sample *prev, const struct watch_sample *cur,
		     double *per_s)
{
	return prev && watch_rate(prev, cur, VM_PGFREE, per_s);
}

bool watch_alloc_rate(const struct watch_sample *prev, const struct watch_sample *cur,
		      const char *zone, double *per_s)
{
	int v = watch_zone_counter(zone);

	return prev && v >= 0 && watch_rate(prev, cur, (enum vm_counter)v, per_s);
}

void watch_zone_delta(const struct watch_sample *prev, const struct watch_sample *cur, size_t i,
		      struct watch_delta *d)
{
	*d = (struct watch_delta){ 0 };
	d->have_change = prev && watch_zone_change(prev, cur, i, &d->change);
	d->have_alloc = watch_alloc_rate(prev, cur, cur->zones[i].name, &d->alloc_per_s);
}

void watch_cpu_delta(const struct watch_sample *prev, const struct watch_sample *cur, size_t i,
		     struct watch_delta *d)
{
	*d = (struct watch_delta){ 0 };
	d->have_change = prev && watch_cpu_change(prev, cur, i, &d->change);
	d->have_alloc = watch_alloc_rate(prev, cur, cur->zones[cur->cpus[i].zone].name,
					 &d->alloc_per_s);
}
