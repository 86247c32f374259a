/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The interval mode's two outputs: rows under one heading, laid out by the
 * first sample (output.h's table_layout), and JSON Lines.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libsmartcols.h>

#include "c.h"
#include "interval.h"
#include "output.h"
#include "report.h"

/*
 * The columns of each table.  whint is the least width, for what the first
 * sample cannot show yet (the rates); drop orders the columns a terminal
 * too narrow for all leaves out (1 first); 0 is never left out.
 */
#define COL(name, right, least, drop) \
	{ name, least, (right) ? SCOLS_FL_RIGHT : 0, SCOLS_JSON_STRING, NULL, drop }
static const struct coldesc summary_cols[] = {
	COL("TIME", false, 8, 0), COL("NODE", true, 0, 0), COL("ZONE", false, 6, 0),
	COL("CPUS", true, 0, 2), COL("PAGES", true, 6, 0), COL("CHANGE", true, 0, 3),
	COL("FILL%", true, 0, 0), COL("MAXFILL%", true, 0, 1), COL("BATCH", true, 0, 0),
	COL("HIGH", true, 0, 0), COL("ALLOC/s", true, 7, 0), COL("FREE/s", true, 7, 0),
}, per_cpu_cols[] = {
	COL("TIME", false, 8, 0), COL("NODE", true, 0, 0), COL("ZONE", false, 6, 0),
	COL("CPU", true, 0, 0), COL("COUNT", true, 0, 0), COL("CHANGE", true, 0, 3),
	COL("FILL%", true, 0, 0), COL("BATCH", true, 0, 0), COL("HIGH", true, 0, 0),
	COL("ALLOC/s", true, 7, 2), COL("FREE/s", true, 7, 1),
};
#undef COL
static size_t every_col[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 };

/* Every column of the table, in order. */
static const struct coldesc *columns(bool per_cpu, struct colsel *all)
{
	_Static_assert(ARRAY_SIZE(every_col) >= ARRAY_SIZE(summary_cols) &&
		       ARRAY_SIZE(every_col) >= ARRAY_SIZE(per_cpu_cols), "a column unnumbered");
	all->n = per_cpu ? ARRAY_SIZE(per_cpu_cols) : ARRAY_SIZE(summary_cols);
	all->idx = every_col;
	return per_cpu ? per_cpu_cols : summary_cols;
}

/* "-" for a value not known (yet). */
static int add_int(struct rows *r, bool have, long long v)
{
	return have ? rows_add_int(r, v) : rows_add(r, "-");
}

static int add_real(struct rows *r, bool have, double v, int decimals)
{
	return have && !isnan(v) ? rows_add_fmt(r, "%.*f", decimals, v) : rows_add(r, "-");
}

static int add_range(struct rows *r, int lo, int hi)
{
	return lo == hi ? rows_add_int(r, lo) : rows_add_fmt(r, "%d-%d", lo, hi);
}

/* The rows of a sample into r: 0, or -ENOMEM with r freed. */
static int sample_rows(const struct watch_sample *prev, const struct watch_sample *cur,
		       bool per_cpu, struct rows *r)
{
	size_t n = per_cpu ? cur->ncpus : cur->nzones;
	struct colsel all;
	double free_s = 0;
	bool have_free = watch_free_rate(prev, cur, &free_s);
	struct watch_delta d;
	char when[16];
	struct tm tm;
	int rc = 0;

	columns(per_cpu, &all);
	rows_init(r, all.n);
	localtime_r(&cur->wall.tv_sec, &tm);
	strftime(when, sizeof(when), "%H:%M:%S", &tm);
	for (size_t i = 0; i < n && !rc; i++) {
		const struct watch_zone *z = &cur->zones[per_cpu ? cur->cpus[i].zone : i];

		rc = rows_add(r, when) || rows_add_int(r, z->node) || rows_add(r, z->name);
		if (!rc && per_cpu) {
			const struct watch_cpu *u = &cur->cpus[i];

			watch_cpu_delta(prev, cur, i, &d);
			rc = rows_add_int(r, u->cpu) || rows_add_int(r, u->count) ||
			     add_int(r, d.have_change, d.change) || add_real(r, true, u->fill, 1) ||
			     rows_add_int(r, u->batch) || rows_add_int(r, u->high);
		} else if (!rc) {
			watch_zone_delta(prev, cur, i, &d);
			rc = rows_add_int(r, (long long)z->cpus) ||
			     rows_add_int(r, (long long)z->pages) ||
			     add_int(r, d.have_change, d.change) ||
			     add_real(r, true, z->fill_mean, 1) || add_real(r, true, z->fill_max, 1) ||
			     add_range(r, z->batch_min, z->batch_max) ||
			     add_range(r, z->high_lo, z->high_hi);
		}
		rc = rc || add_real(r, d.have_alloc, d.alloc_per_s, 0) ||
		     add_real(r, have_free, free_s, 0) || rows_end(r);
	}
	if (rc) {
		rows_free(r);
		return -ENOMEM;
	}
	return 0;
}

int interval_table_fit(struct interval_table *t, const struct watch_sample *first, bool per_cpu,
		       int termwidth)
{
	const struct coldesc *tbl = columns(per_cpu, &t->all);
	struct rows r;
	int rc;

	t->per_cpu = per_cpu;
	if (sample_rows(NULL, first, per_cpu, &r))
		return -ENOMEM;
	rc = table_layout_fit(&t->layout, tbl, &t->all, &r, termwidth);
	rows_free(&r);
	return rc;
}

char *interval_table_left_out(const struct interval_table *t)
{
	return table_layout_left_out(&t->layout);
}

int interval_print_header(FILE *out, const struct interval_table *t)
{
	return table_layout_print(out, &t->layout, true, NULL);
}

int interval_print_rows(FILE *out, const struct interval_table *t, const struct watch_sample *prev,
			const struct watch_sample *cur)
{
	struct rows r;
	int rc;

	if (sample_rows(prev, cur, t->per_cpu, &r))
		return -ENOMEM;
	rc = table_layout_print(out, &t->layout, false, &r);
	rows_free(&r);
	return rc;
}

void interval_table_free(struct interval_table *t)
{
	table_layout_free(&t->layout);
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
		have = watch_alloc_rate(prev, cur, name, &per_s);
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

void interval_print_json(FILE *out, const struct watch_sample *prev, const struct watch_sample *cur,
		      bool per_cpu)
{
	double free_s = 0, seconds = 0;
	bool have_free = watch_free_rate(prev, cur, &free_s);
	bool have_seconds = watch_seconds(prev, cur, &seconds);
	struct watch_delta d;
	char when[48];
	struct tm tm;
	size_t n;

	gmtime_r(&cur->wall.tv_sec, &tm);
	n = strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(when + n, sizeof(when) - n, ".%03ldZ", cur->wall.tv_nsec / 1000000);
	new_report_line(out, true, PCPCTL_JSON_VERSION_ZONES);
	print_string(PRINT_JSON, "time", "%s", when);
	json_real("seconds", have_seconds, seconds, "%.3f");
	json_real("pgfree_per_s", have_free, free_s, "%.1f");
	json_alloc_rates(prev, cur);
	open_json_array(per_cpu ? "pagesets" : "zones");
	for (size_t i = 0; per_cpu && i < cur->ncpus; i++) {
		const struct watch_cpu *c = &cur->cpus[i];

		watch_cpu_delta(prev, cur, i, &d);
		json_zone_start(&cur->zones[c->zone]);
		print_long(PRINT_JSON, "cpu", "%ld", c->cpu);
		print_long(PRINT_JSON, "count", "%ld", c->count);
		print_long_or_null("count_change", "%ld", d.have_change, (long)d.change);
		json_real("fill_pct", true, c->fill, "%.1f");
		print_long(PRINT_JSON, "high", "%ld", c->high);
		print_long(PRINT_JSON, "batch", "%ld", c->batch);
		close_json_object();
	}
	for (size_t i = 0; !per_cpu && i < cur->nzones; i++) {
		const struct watch_zone *z = &cur->zones[i];
		long long managed = 0;
		bool have;

		watch_zone_delta(prev, cur, i, &d);
		json_zone_start(z);
		print_long(PRINT_JSON, "cpus", "%ld", (long)z->cpus);
		print_u64(PRINT_JSON, "pages", "%llu", z->pages);
		print_long_or_null("pages_change", "%ld", d.have_change, (long)d.change);
		json_real("fill_mean_pct", true, z->fill_mean, "%.1f");
		json_real("fill_max_pct", true, z->fill_max, "%.1f");
		/* As show --summary: the value when every CPU has it, and the range. */
		print_long_or_null("batch", "%ld", z->batch_min == z->batch_max, z->batch_min);
		print_long(PRINT_JSON, "batch_min", "%ld", z->batch_min);
		print_long(PRINT_JSON, "batch_max", "%ld", z->batch_max);
		print_long_or_null("high", "%ld", z->high_lo == z->high_hi, z->high_lo);
		print_long(PRINT_JSON, "high_lo", "%ld", z->high_lo);
		print_long(PRINT_JSON, "high_hi", "%ld", z->high_hi);
		print_u64(PRINT_JSON, "managed", "%llu", z->managed);
		have = prev && watch_managed_change(prev, cur, i, &managed);
		print_long_or_null("managed_change", "%ld", have, (long)managed);
		close_json_object();
	}
	close_json_array();
	end_report_line();
}
