/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The interval mode's two outputs: rows under one header, their widths set
 * by the first sample as vmstat(8) does (a table of libsmartcols would size
 * its columns to each block and shift between intervals), and JSON Lines.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "c.h"
#include "interval.h"
#include "report.h"

/* A cell of the table: "-" for a value not known (yet). */
typedef char cell[24];

/*
 * The columns of each table.  drop orders the columns a terminal too narrow
 * for all leaves out (1 first); 0 is never left out.  A column is as wide as
 * its heading, its widest cell in the first sample and its least width (for
 * what the first sample cannot show yet, as the rates).
 */
static const struct column {
	const char *name;
	bool left;
	int least, drop;
} summary_cols[] = {
	{ "TIME", true, 8, 0 }, { "NODE", false, 0, 0 }, { "ZONE", true, 6, 0 },
	{ "CPUS", false, 0, 2 }, { "PAGES", false, 6, 0 }, { "CHANGE", false, 0, 3 },
	{ "FILL%", false, 0, 0 }, { "MAXFILL%", false, 0, 1 }, { "BATCH", false, 0, 0 },
	{ "HIGH", false, 0, 0 }, { "ALLOC/s", false, 7, 0 }, { "FREE/s", false, 7, 0 },
}, per_cpu_cols[] = {
	{ "TIME", true, 8, 0 }, { "NODE", false, 0, 0 }, { "ZONE", true, 6, 0 },
	{ "CPU", false, 0, 0 }, { "COUNT", false, 0, 0 }, { "CHANGE", false, 0, 3 },
	{ "FILL%", false, 0, 0 }, { "BATCH", false, 0, 0 }, { "HIGH", false, 0, 0 },
	{ "ALLOC/s", false, 7, 2 }, { "FREE/s", false, 7, 1 },
};

static const struct column *columns(bool per_cpu, size_t *n)
{
	*n = per_cpu ? ARRAY_SIZE(per_cpu_cols) : ARRAY_SIZE(summary_cols);
	return per_cpu ? per_cpu_cols : summary_cols;
}

static void cell_int(cell c, bool have, long long v)
{
	if (have)
		snprintf(c, sizeof(cell), "%lld", v);
	else
		snprintf(c, sizeof(cell), "-");
}

static void cell_real(cell c, bool have, double v, int decimals)
{
	if (have && !isnan(v))
		snprintf(c, sizeof(cell), "%.*f", decimals, v);
	else
		snprintf(c, sizeof(cell), "-");
}

static void cell_range(cell c, int lo, int hi)
{
	if (lo == hi)
		snprintf(c, sizeof(cell), "%d", lo);
	else
		snprintf(c, sizeof(cell), "%d-%d", lo, hi);
}

/* The rows of a sample, a cell per column, rows * ncols of them; NULL when out of memory. */
static cell *sample_cells(const struct watch_sample *prev, const struct watch_sample *cur,
			  bool per_cpu, size_t *rows)
{
	size_t ncols, n = per_cpu ? cur->ncpus : cur->nzones;
	cell *c = calloc(n ? n * (columns(per_cpu, &ncols), ncols) : 1, sizeof(*c));
	double free_s = 0;
	bool have_free = watch_free_rate(prev, cur, &free_s);
	struct watch_delta d;
	char when[16];
	struct tm tm;

	if (!c)
		return NULL;
	*rows = n;
	localtime_r(&cur->wall.tv_sec, &tm);
	strftime(when, sizeof(when), "%H:%M:%S", &tm);
	for (size_t i = 0; i < n; i++) {
		cell *r = &c[i * ncols];
		const struct watch_zone *z = &cur->zones[per_cpu ? cur->cpus[i].zone : i];
		size_t k = 0;

		snprintf(r[k++], sizeof(cell), "%s", when);
		cell_int(r[k++], true, z->node);
		snprintf(r[k++], sizeof(cell), "%s", z->name);
		if (per_cpu) {
			const struct watch_cpu *u = &cur->cpus[i];

			watch_cpu_delta(prev, cur, i, &d);
			cell_int(r[k++], true, u->cpu);
			cell_int(r[k++], true, u->count);
			cell_int(r[k++], d.have_change, d.change);
			cell_real(r[k++], true, u->fill, 1);
			cell_int(r[k++], true, u->batch);
			cell_int(r[k++], true, u->high);
		} else {
			watch_zone_delta(prev, cur, i, &d);
			cell_int(r[k++], true, (long long)z->cpus);
			cell_int(r[k++], true, (long long)z->pages);
			cell_int(r[k++], d.have_change, d.change);
			cell_real(r[k++], true, z->fill_mean, 1);
			cell_real(r[k++], true, z->fill_max, 1);
			cell_range(r[k++], z->batch_min, z->batch_max);
			cell_range(r[k++], z->high_lo, z->high_hi);
		}
		cell_real(r[k++], d.have_alloc, d.alloc_per_s, 0);
		cell_real(r[k], have_free, free_s, 0);
	}
	return c;
}

int interval_table_fit(struct interval_table *t, const struct watch_sample *first, bool per_cpu,
		    int termwidth)
{
	size_t ncols, rows = 0;
	const struct column *col = columns(per_cpu, &ncols);
	cell *c = sample_cells(NULL, first, per_cpu, &rows);
	int total = -1;

	if (!c)
		return -ENOMEM;
	memset(t, 0, sizeof(*t));
	t->per_cpu = per_cpu;
	for (size_t k = 0; k < ncols; k++) {
		int w = (int)strlen(col[k].name);

		w = w > col[k].least ? w : col[k].least;
		for (size_t i = 0; i < rows; i++)
			if ((int)strlen(c[i * ncols + k]) > w)
				w = (int)strlen(c[i * ncols + k]);
		t->width[k] = w;
		t->shown[k] = true;
		total += w + 1;
	}
	free(c);
	/* A terminal too narrow for every column: the least needed go first. */
	for (int drop = 1; termwidth > 0 && total > termwidth; drop++) {
		size_t k = 0;

		while (k < ncols && col[k].drop != drop)
			k++;
		if (k == ncols)
			break;
		t->shown[k] = false;
		total -= t->width[k] + 1;
	}
	return 0;
}

const char *interval_table_left_out(const struct interval_table *t, char *buf, size_t size)
{
	size_t ncols, len = 0;
	const struct column *col = columns(t->per_cpu, &ncols);

	buf[0] = '\0';
	for (size_t k = 0; k < ncols && len < size; k++)
		if (!t->shown[k])
			len += (size_t)snprintf(buf + len, size - len, "%s%s", len ? ", " : "",
						col[k].name);
	return buf[0] ? buf : NULL;
}

static void print_line(FILE *out, const struct interval_table *t, const char *const *text)
{
	size_t ncols;
	const struct column *col = columns(t->per_cpu, &ncols);
	bool first = true;

	for (size_t k = 0; k < ncols; k++) {
		if (!t->shown[k])
			continue;
		if (!first)
			fputc(' ', out);
		first = false;
		fprintf(out, col[k].left ? "%-*s" : "%*s", t->width[k], text[k]);
	}
	fputc('\n', out);
}

void interval_print_header(FILE *out, const struct interval_table *t)
{
	size_t ncols;
	const struct column *col = columns(t->per_cpu, &ncols);
	const char *text[INTERVAL_COLS_MAX];

	for (size_t k = 0; k < ncols; k++)
		text[k] = col[k].name;
	print_line(out, t, text);
}

int interval_print_rows(FILE *out, const struct interval_table *t, const struct watch_sample *prev,
		     const struct watch_sample *cur)
{
	size_t ncols, rows = 0;
	cell *c = sample_cells(prev, cur, t->per_cpu, &rows);

	if (!c)
		return -ENOMEM;
	columns(t->per_cpu, &ncols);
	for (size_t i = 0; i < rows; i++) {
		const char *text[INTERVAL_COLS_MAX];

		for (size_t k = 0; k < ncols; k++)
			text[k] = c[i * ncols + k];
		print_line(out, t, text);
	}
	free(c);
	return 0;
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
