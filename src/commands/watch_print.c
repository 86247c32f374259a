/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The interval mode's two outputs: fixed-width rows under one header, as
 * vmstat(8) prints them (a table of libsmartcols would size its columns to
 * each block and shift between intervals), and JSON Lines.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "report.h"
#include "watch.h"

#define SUMMARY_FMT "%-8s %4s %-7s %5s %9s %8s %6s %8s %9s %11s %10s %10s\n"
#define PER_CPU_FMT "%-8s %4s %-7s %5s %7s %7s %6s %6s %7s %10s %10s\n"

/* A cell of the table: "-" for a value not known (yet). */
typedef char cell[24];

static const char *cell_int(cell c, bool have, long long v)
{
	if (!have)
		return "-";
	snprintf(c, sizeof(cell), "%lld", v);
	return c;
}

static const char *cell_real(cell c, bool have, double v, int decimals)
{
	if (!have || isnan(v))
		return "-";
	snprintf(c, sizeof(cell), "%.*f", decimals, v);
	return c;
}

static const char *cell_range(cell c, int lo, int hi)
{
	if (lo == hi)
		snprintf(c, sizeof(cell), "%d", lo);
	else
		snprintf(c, sizeof(cell), "%d-%d", lo, hi);
	return c;
}

static bool zone_alloc_rate(const struct watch_sample *prev, const struct watch_sample *cur,
			    const char *zone, double *per_s)
{
	int v = watch_zone_counter(zone);

	return prev && v >= 0 && watch_rate(prev, cur, (enum vm_counter)v, per_s);
}

void watch_print_header(FILE *out, bool per_cpu)
{
	if (per_cpu)
		fprintf(out, PER_CPU_FMT, "TIME", "NODE", "ZONE", "CPU", "COUNT", "CHANGE", "FILL%",
			"BATCH", "HIGH", "ALLOC/s", "FREE/s");
	else
		fprintf(out, SUMMARY_FMT, "TIME", "NODE", "ZONE", "CPUS", "PAGES", "CHANGE", "FILL%",
			"MAXFILL%", "BATCH", "HIGH", "ALLOC/s", "FREE/s");
}

void watch_print_rows(FILE *out, const struct watch_sample *prev, const struct watch_sample *cur,
		      bool per_cpu)
{
	cell node, cpus, pages, change, fill, maxfill, batch, high, alloc, freed;
	double alloc_s = 0, free_s = 0;
	bool have_free = prev && watch_rate(prev, cur, VM_PGFREE, &free_s);
	long long d = 0;
	char when[16];
	struct tm tm;

	localtime_r(&cur->wall.tv_sec, &tm);
	strftime(when, sizeof(when), "%H:%M:%S", &tm);
	for (size_t i = 0; per_cpu && i < cur->ncpus; i++) {
		const struct watch_cpu *c = &cur->cpus[i];
		const struct watch_zone *z = &cur->zones[c->zone];
		bool have_alloc = zone_alloc_rate(prev, cur, z->name, &alloc_s);
		bool have_change = prev && watch_cpu_change(prev, cur, i, &d);

		fprintf(out, PER_CPU_FMT, when, cell_int(node, true, z->node), z->name,
			cell_int(cpus, true, c->cpu), cell_int(pages, true, c->count),
			cell_int(change, have_change, d), cell_real(fill, true, c->fill, 1),
			cell_int(batch, true, c->batch), cell_int(high, true, c->high),
			cell_real(alloc, have_alloc, alloc_s, 0), cell_real(freed, have_free, free_s, 0));
	}
	for (size_t i = 0; !per_cpu && i < cur->nzones; i++) {
		const struct watch_zone *z = &cur->zones[i];
		bool have_alloc = zone_alloc_rate(prev, cur, z->name, &alloc_s);
		bool have_change = prev && watch_zone_change(prev, cur, i, &d);

		fprintf(out, SUMMARY_FMT, when, cell_int(node, true, z->node), z->name,
			cell_int(cpus, true, (long long)z->cpus), cell_int(pages, true, (long long)z->pages),
			cell_int(change, have_change, d), cell_real(fill, true, z->fill_mean, 1),
			cell_real(maxfill, true, z->fill_max, 1),
			cell_range(batch, z->batch_min, z->batch_max),
			cell_range(high, z->high_lo, z->high_hi),
			cell_real(alloc, have_alloc, alloc_s, 0), cell_real(freed, have_free, free_s, 0));
	}
}

static void json_real(const char *key, bool have, double v, const char *fmt)
	__attribute__((format(printf, 4, 0)));

static void json_real(const char *key, bool have, double v, const char *fmt)
{
	print_double_or_null(key, fmt, have && !isnan(v), v);
}

/* "pgalloc_per_s": one rate per zone name in the sample. */
static void json_alloc_rates(const struct watch_sample *prev, const struct watch_sample *cur)
{
	open_json_object("pgalloc_per_s");
	for (size_t i = 0; i < cur->nzones; i++) {
		const char *name = cur->zones[i].name;
		double per_s = 0;
		bool seen = false, have;

		for (size_t j = 0; j < i && !seen; j++)
			seen = strcmp(cur->zones[j].name, name) == 0;
		if (seen)
			continue;
		/* Apart: the order in which arguments are evaluated is unspecified. */
		have = zone_alloc_rate(prev, cur, name, &per_s);
		json_real(name, have, per_s, "%.1f");
	}
	close_json_object();
}

/* The start of a zone's or a pageset's object: {"node":N,"zone":"NAME" */
static void json_zone_start(const struct watch_zone *z)
{
	open_json_object(NULL);
	print_long(PRINT_JSON, "node", "%ld", z->node);
	print_string(PRINT_JSON, "zone", "%s", z->name);
}

void watch_print_json(FILE *out, const struct watch_sample *prev, const struct watch_sample *cur,
		      bool per_cpu)
{
	double free_s = 0;
	bool have_free = prev && watch_rate(prev, cur, VM_PGFREE, &free_s);
	long long d = 0;
	char when[48];
	struct tm tm;
	size_t n;

	gmtime_r(&cur->wall.tv_sec, &tm);
	n = strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(when + n, sizeof(when) - n, ".%03ldZ", cur->wall.tv_nsec / 1000000);
	new_json_line(out);
	print_string(PRINT_JSON, "time", "%s", when);
	json_real("seconds", prev != NULL, prev ? watch_elapsed(prev, cur) : 0, "%.3f");
	json_real("pgfree_per_s", have_free, free_s, "%.1f");
	json_alloc_rates(prev, cur);
	open_json_array(per_cpu ? "pagesets" : "zones");
	for (size_t i = 0; per_cpu && i < cur->ncpus; i++) {
		const struct watch_cpu *c = &cur->cpus[i];
		bool have_change = prev && watch_cpu_change(prev, cur, i, &d);

		json_zone_start(&cur->zones[c->zone]);
		print_long(PRINT_JSON, "cpu", "%ld", c->cpu);
		print_long(PRINT_JSON, "count", "%ld", c->count);
		print_long_or_null("count_change", "%ld", have_change, (long)d);
		json_real("fill_pct", true, c->fill, "%.1f");
		print_long(PRINT_JSON, "high", "%ld", c->high);
		print_long(PRINT_JSON, "batch", "%ld", c->batch);
		close_json_object();
	}
	for (size_t i = 0; !per_cpu && i < cur->nzones; i++) {
		const struct watch_zone *z = &cur->zones[i];
		bool have_change = prev && watch_zone_change(prev, cur, i, &d);

		json_zone_start(z);
		print_long(PRINT_JSON, "cpus", "%ld", (long)z->cpus);
		print_u64(PRINT_JSON, "pages", "%llu", z->pages);
		print_long_or_null("pages_change", "%ld", have_change, (long)d);
		json_real("fill_mean_pct", true, z->fill_mean, "%.1f");
		json_real("fill_max_pct", true, z->fill_max, "%.1f");
		/* As show --summary: the value when every CPU has it, and the range. */
		print_long_or_null("batch", "%ld", z->batch_min == z->batch_max, z->batch_min);
		print_long(PRINT_JSON, "batch_min", "%ld", z->batch_min);
		print_long(PRINT_JSON, "batch_max", "%ld", z->batch_max);
		print_long_or_null("high", "%ld", z->high_lo == z->high_hi, z->high_lo);
		print_long(PRINT_JSON, "high_min", "%ld", z->high_lo);
		print_long(PRINT_JSON, "high_max", "%ld", z->high_hi);
		close_json_object();
	}
	close_json_array();
	end_json_line();
}
