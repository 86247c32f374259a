/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pcpctl show: pagesets and per-zone summaries. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <libsmartcols.h>

#include "c.h"
#include "columns.h"
#include "command.h"
#include "idlist.h"
#include "interval.h"
#include "journal.h"
#include "kernel.h"
#include "msg.h"
#include "output.h"
#include "report.h"
#include "suggest.h"
#include "sysroot.h"
#include "zoneinfo.h"

struct show_opts {
	struct out_opts out;
	const char *nodes;	/* --node LIST */
	const char *zones;	/* --zone NAME[,NAME] */
	const char *cpus;	/* --cpu LIST */
	bool summary;
	bool per_cpu;		/* --per-cpu: one row per CPU, also with --interval */
	const char *interval;	/* --interval SEC: sample until stopped or --count */
	const char *count;	/* --count N */
};

enum {
	COL_NODE, COL_ZONE, COL_CPU, COL_COUNT, COL_HIGH, COL_BATCH, COL_HIGH_MIN, COL_HIGH_MAX,
};

/* A narrow terminal leaves out the kernel's auto-tuning limits first (man page, OUTPUT). */
static const struct coldesc pageset_columns[] = {
	[COL_NODE] = { "NODE", 0, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER, "NUMA node", 0 },
	[COL_ZONE] = { "ZONE", 0, 0, SCOLS_JSON_STRING, "zone name", 0 },
	[COL_CPU] = { "CPU", 0, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER, "CPU id", 0 },
	[COL_COUNT] = { "COUNT", 0, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER,
			"pages on this CPU's pcp lists", 0 },
	[COL_HIGH] = { "HIGH", 0, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER,
		       "pages above which the lists are drained (0 = not yet set, 6.7+)", 0 },
	[COL_BATCH] = { "BATCH", 0, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER,
			"pages moved to or from the zone at a time", 0 },
	[COL_HIGH_MIN] = { "HIGH_MIN", 0, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER,
			   "lowest high of auto-tuning (6.13+ zoneinfo)", 1 },
	[COL_HIGH_MAX] = { "HIGH_MAX", 0, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER,
			   "highest high of auto-tuning (6.13+ zoneinfo)", 2 },
};

enum {
	SUM_NODE, SUM_ZONE, SUM_CPUS, SUM_PAGES, SUM_MAXCOUNT, SUM_MIB, SUM_BATCH, SUM_HIGH,
	SUM_FREE_PCT, SUM_MANAGED, SUM_BATCH_MIN, SUM_BATCH_MAX, SUM_HIGH_LO, SUM_HIGH_HI,
};

/*
 * A narrow terminal leaves out first the four columns whose ranges BATCH
 * and HIGH already print, then MIB (PAGES again), MANAGED, MAXCOUNT,
 * FREE_PCT and CPUS; the rest stays (man page, OUTPUT).
 */
static const struct coldesc summary_columns[] = {
	[SUM_NODE] = { "NODE", 0, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER, "NUMA node", 0 },
	[SUM_ZONE] = { "ZONE", 0, 0, SCOLS_JSON_STRING, "zone name", 0 },
	[SUM_CPUS] = { "CPUS", 0, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER,
		       "CPUs with a pcp list in the zone", 9 },
	[SUM_PAGES] = { "PAGES", 0, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER,
			"pages held in all these pcp lists", 0 },
	[SUM_MAXCOUNT] = { "MAXCOUNT", 0, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER,
			   "largest count of one CPU", 7 },
	[SUM_MIB] = { "MIB", 0, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER, "PAGES in MiB", 5 },
	[SUM_BATCH] = { "BATCH", 0, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER,
			"batch, or its range when CPUs differ (JSON: null then)", 0 },
	[SUM_HIGH] = { "HIGH", 0, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER,
		       "high, or its range when CPUs differ (JSON: null then)", 0 },
	[SUM_FREE_PCT] = { "FREE_PCT", 0, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER,
			   "PAGES as a share of MemFree, in % (live system only)", 8 },
	[SUM_MANAGED] = { "MANAGED", 0, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER, "pages the zone manages", 6 },
	[SUM_BATCH_MIN] = { "BATCH_MIN", 0, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER, "smallest batch", 1 },
	[SUM_BATCH_MAX] = { "BATCH_MAX", 0, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER, "largest batch", 2 },
	/* not HIGH_MIN/HIGH_MAX: those are the kernel's auto-tuning limits in show */
	[SUM_HIGH_LO] = { "HIGH_LO", 0, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER,
			  "smallest high of the zone's CPUs", 3 },
	[SUM_HIGH_HI] = { "HIGH_HI", 0, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER,
			  "largest high of the zone's CPUs", 4 },
};


static const char *const zone_names[] = { "DMA", "DMA32", "Normal", "HighMem", "Movable", "Device" };

struct filter {
	struct idlist nodes, cpus;
	bool any_node, any_cpu;
	unsigned zone_mask;	/* bit per zone_names entry; 0 = every zone */
};

static int zone_index(const char *name, size_t len)
{
	for (size_t i = 0; i < ARRAY_SIZE(zone_names); i++)
		if (strlen(zone_names[i]) == len && strncasecmp(zone_names[i], name, len) == 0)
			return (int)i;
	return -1;
}

static int filter_make(const struct show_opts *o, struct filter *f)
{
	memset(f, 0, sizeof(*f));
	f->any_node = !o->nodes;
	f->any_cpu = !o->cpus;
	if (o->nodes && idlist_parse(o->nodes, &f->nodes)) {
		pcp_error("--node: invalid node list \"%s\": give ids and ranges such as 0,2-3", o->nodes);
		return -EINVAL;
	}
	if (o->cpus && idlist_parse(o->cpus, &f->cpus)) {
		pcp_error("--cpu: invalid CPU list \"%s\": give ids and ranges such as 0-3,8", o->cpus);
		idlist_free(&f->nodes);
		return -EINVAL;
	}
	for (const char *p = o->zones; p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL) {
		size_t len = strcspn(p, ",");
		int i = zone_index(p, len);

		if (i < 0) {
			char typo[16];
			const char *guess = NULL;

			if (len < sizeof(typo)) {
				snprintf(typo, sizeof(typo), "%.*s", (int)len, p);
				guess = suggest_name_fold(typo, zone_names, ARRAY_SIZE(zone_names));
			}
			if (guess)
				pcp_error("--zone: unknown zone \"%.*s\" (did you mean %s?)", (int)len, p,
					  guess);
			else
				pcp_error("--zone: unknown zone \"%.*s\": expected DMA, DMA32, Normal, HighMem, Movable or Device",
					  (int)len, p);
			idlist_free(&f->nodes);
			idlist_free(&f->cpus);
			return -EINVAL;
		}
		f->zone_mask |= 1u << i;
	}
	return 0;
}

static void filter_free(struct filter *f)
{
	idlist_free(&f->nodes);
	idlist_free(&f->cpus);
}

static bool zone_selected(const struct filter *f, const struct zi_zone *z)
{
	if (!f->any_node && !idlist_has(&f->nodes, z->node))
		return false;
	if (f->zone_mask) {
		int i = zone_index(z->name, strlen(z->name));

		return i >= 0 && (f->zone_mask & (1u << i));
	}
	return true;
}

static bool cpu_selected(const struct filter *f, int cpu)
{
	return f->any_cpu || idlist_has(&f->cpus, cpu);
}

static int pageset_cell(struct rows *r, size_t what, const struct zi_zone *z,
			const struct zi_pageset *ps)
{
	static const enum zi_field fields[] = {
		[COL_COUNT] = ZI_COUNT, [COL_HIGH] = ZI_HIGH, [COL_BATCH] = ZI_BATCH,
		[COL_HIGH_MIN] = ZI_HIGH_MIN, [COL_HIGH_MAX] = ZI_HIGH_MAX,
	};

	switch (what) {
	case COL_NODE:
		return rows_add_int(r, z->node);
	case COL_ZONE:
		return rows_add(r, z->name);
	case COL_CPU:
		return rows_add_int(r, ps->cpu);
	default:
		/* A field this kernel does not print stays empty: null in JSON. */
		if (!zi_has(ps, fields[what]))
			return rows_add_empty(r);
		return rows_add_int(r, ps->value[fields[what]]);
	}
}

static int print_pagesets(const struct zoneinfo *zi, const struct filter *f,
			  const struct out_opts *out, const struct colsel *sel, size_t *shown)
{
	struct rows r;
	int rc = 0;

	rows_init(&r, sel->n);
	for (size_t i = 0; i < zi->nzones && !rc; i++) {
		const struct zi_zone *z = &zi->zones[i];

		if (!zone_selected(f, z))
			continue;
		for (size_t j = 0; j < z->npagesets && !rc; j++) {
			const struct zi_pageset *ps = &z->pagesets[j];

			if (!cpu_selected(f, ps->cpu))
				continue;
			for (size_t c = 0; c < sel->n && !rc; c++)
				rc = pageset_cell(&r, sel->idx[c], z, ps);
			if (!rc)
				rc = rows_end(&r);
		}
	}
	*shown = r.nrows;
	if (!rc)
		rc = print_rows(pageset_columns, sel, out, "pagesets", &r);
	rows_free(&r);
	return rc;
}

struct zone_sum {
	size_t cpus;
	unsigned long long pages;
	int maxcount, batch_min, batch_max, high_lo, high_hi;
};

static void zone_sum(const struct zi_zone *z, const struct filter *f, struct zone_sum *s)
{
	memset(s, 0, sizeof(*s));
	for (size_t j = 0; j < z->npagesets; j++) {
		const struct zi_pageset *ps = &z->pagesets[j];
		const int *v = ps->value;

		if (!cpu_selected(f, ps->cpu))
			continue;
		if (s->cpus++ == 0) {
			s->batch_min = s->batch_max = v[ZI_BATCH];
			s->high_lo = s->high_hi = v[ZI_HIGH];
		}
		s->pages += (unsigned long long)v[ZI_COUNT];
		if (v[ZI_COUNT] > s->maxcount)
			s->maxcount = v[ZI_COUNT];
		if (v[ZI_BATCH] < s->batch_min)
			s->batch_min = v[ZI_BATCH];
		if (v[ZI_BATCH] > s->batch_max)
			s->batch_max = v[ZI_BATCH];
		if (v[ZI_HIGH] < s->high_lo)
			s->high_lo = v[ZI_HIGH];
		if (v[ZI_HIGH] > s->high_hi)
			s->high_hi = v[ZI_HIGH];
	}
}

/* "lo-hi" in text; JSON has no such number, and says null (the _MIN and _MAX columns hold both). */
static int range_cell(struct rows *r, bool json, int lo, int hi)
{
	if (lo == hi)
		return rows_add_int(r, lo);
	return json ? rows_add_empty(r) : rows_add_fmt(r, "%d-%d", lo, hi);
}

static int summary_cell(struct rows *r, size_t what, bool json, const struct zi_zone *z,
			const struct zone_sum *s, long long memfree_kib)
{
	double kib = (double)s->pages * ((double)sysconf(_SC_PAGESIZE) / 1024.0);

	switch (what) {
	case SUM_NODE:
		return rows_add_int(r, z->node);
	case SUM_ZONE:
		return rows_add(r, z->name);
	case SUM_CPUS:
		return rows_add_int(r, (long long)s->cpus);
	case SUM_PAGES:
		return rows_add_int(r, (long long)s->pages);
	case SUM_MAXCOUNT:
		return rows_add_int(r, s->maxcount);
	case SUM_MIB:
		return rows_add_fmt(r, "%.1f", kib / 1024.0);
	case SUM_BATCH:
		return range_cell(r, json, s->batch_min, s->batch_max);
	case SUM_HIGH:
		return range_cell(r, json, s->high_lo, s->high_hi);
	case SUM_FREE_PCT:
		if (memfree_kib <= 0)
			return rows_add_empty(r);
		return rows_add_fmt(r, "%.2f", 100.0 * kib / (double)memfree_kib);
	case SUM_MANAGED:
		return rows_add_int(r, (long long)z->field[ZI_MANAGED]);
	case SUM_BATCH_MIN:
		return rows_add_int(r, s->batch_min);
	case SUM_BATCH_MAX:
		return rows_add_int(r, s->batch_max);
	case SUM_HIGH_LO:
		return rows_add_int(r, s->high_lo);
	case SUM_HIGH_HI:
		return rows_add_int(r, s->high_hi);
	}
	return rows_add_empty(r);
}

static int print_summary(const struct kernel *k, const struct zoneinfo *zi,
			 const struct filter *f, const struct out_opts *out,
			 const struct colsel *sel, size_t *shown)
{
	long long memfree_kib = -1;
	struct rows r;
	int rc = 0;

	for (size_t c = 0; c < sel->n; c++)
		if (sel->idx[c] == SUM_FREE_PCT)
			memfree_kib = kernel_memfree_kib(k);
	rows_init(&r, sel->n);
	for (size_t i = 0; i < zi->nzones && !rc; i++) {
		const struct zi_zone *z = &zi->zones[i];
		struct zone_sum s;

		if (!z->npagesets || !zone_selected(f, z))
			continue;
		zone_sum(z, f, &s);
		if (!s.cpus)
			continue;
		for (size_t c = 0; c < sel->n && !rc; c++)
			rc = summary_cell(&r, sel->idx[c], out->format == OUT_JSON, z, &s,
					  memfree_kib);
		if (!rc)
			rc = rows_end(&r);
	}
	*shown = r.nrows;
	if (!rc) {
		struct out_opts zones = *out;

		zones.json_version = PCPCTL_JSON_VERSION_ZONES;
		rc = print_rows(summary_columns, sel, &zones, "zones", &r);
	}
	rows_free(&r);
	return rc;
}

/* An empty result is no error, but silence would look like one: say which filter it was. */
static void warn_empty(const struct show_opts *o)
{
	if (!o->nodes && !o->zones && !o->cpus) {
		pcp_warn("%s has no populated zone with a CPU's pageset", "zoneinfo");
		return;
	}
	pcp_warn("no %s matches%s%s%s%s%s%s", o->summary ? "populated zone" : "CPU's pageset",
		 o->nodes ? " --node " : "", o->nodes ? o->nodes : "",
		 o->zones ? " --zone " : "", o->zones ? o->zones : "",
		 o->cpus ? " --cpu " : "", o->cpus ? o->cpus : "");
}

static bool watch_zone(const void *f, const struct zi_zone *z)
{
	return zone_selected(f, z);
}

static bool watch_cpu(const void *f, int cpu)
{
	return cpu_selected(f, cpu);
}

static int show_interval(const struct sysroot *root, const struct show_opts *o, const struct filter *f)
{
	const struct watch_select sel = { watch_zone, watch_cpu, f };
	struct interval_opts w = {
		.per_cpu = o->per_cpu, .json = o->out.format == OUT_JSON,
		.noheadings = o->out.noheadings,
	};

	if (o->out.columns || o->out.all_columns || o->out.format == OUT_RAW ||
	    o->out.format == OUT_PAIRS) {
		pcp_error("--interval prints fixed columns: it takes --json and --noheadings, "
			  "not --output, --output-all, --raw or --pairs");
		return EXIT_USAGE;
	}
	if (interval_opts_parse(o->interval, o->count, &w))
		return EXIT_USAGE;
	return interval_run(root, &w, &sel);
}

/* Whether the column name (len bytes) is one of the table show does not use now. */
static bool other_table_has(bool summary, const char *name, size_t len)
{
	const struct coldesc *tbl = summary ? pageset_columns : summary_columns;
	size_t n = summary ? ARRAY_SIZE(pageset_columns) : ARRAY_SIZE(summary_columns);

	for (size_t i = 0; i < n; i++)
		if (tbl[i].name && strlen(tbl[i].name) == len && !strncasecmp(tbl[i].name, name, len))
			return true;
	return false;
}

static void unknown_column(const struct coldesc *tbl, size_t ntbl, const char *bad, size_t len)
{
	const char *names[ARRAY_SIZE(pageset_columns) + ARRAY_SIZE(summary_columns)];
	const char *guess = NULL;
	char typo[32];
	size_t n = 0;

	for (size_t i = 0; i < ntbl && n < ARRAY_SIZE(names); i++)
		if (tbl[i].name)
			names[n++] = tbl[i].name;
	if (len < sizeof(typo)) {
		snprintf(typo, sizeof(typo), "%.*s", (int)len, bad);
		guess = suggest_name_fold(typo, names, n);
	}
	if (guess)
		pcp_error("--output: unknown column \"%.*s\" (did you mean %s?); "
			  "see pcpctl show --help for the list", (int)len, bad, guess);
	else
		pcp_error("--output: unknown column \"%.*s\"; see pcpctl show --help for the list",
			  (int)len, bad);
}

static int cmd_show(const struct sysroot *root, const struct show_opts *o)
{
	const struct coldesc *tbl = o->summary ? summary_columns : pageset_columns;
	size_t ntbl = o->summary ? ARRAY_SIZE(summary_columns) : ARRAY_SIZE(pageset_columns);
	struct colsel sel = { 0 };
	struct zoneinfo zi;
	struct filter f;
	struct kernel *k;
	const char *bad;
	int rc;

	/* As lsblk: --output-all would silently drop the columns -o names. */
	if (o->out.columns && o->out.all_columns) {
		pcp_error("--output and --output-all are mutually exclusive");
		return EXIT_USAGE;
	}
	/* A bad -o is a usage error even when zoneinfo cannot be read. */
	rc = colsel_make(tbl, ntbl, "NODE", &o->out, &sel, &bad);
	colsel_free(&sel);
	if (rc == -EINVAL) {
		int n = (int)strcspn(bad, ",");

		if (other_table_has(o->summary, bad, (size_t)n))
			pcp_error("--output: %.*s is a column of %s; see pcpctl show --help", n, bad,
				  o->summary ? "the per-CPU rows, not of --summary" :
					       "--summary (-s), not of the per-CPU rows");
		else
			unknown_column(tbl, ntbl, bad, (size_t)n);
		return EXIT_USAGE;
	}
	if (o->per_cpu && o->summary) {
		pcp_error("--per-cpu and --summary are mutually exclusive");
		return EXIT_USAGE;
	}
	if (o->count && !o->interval) {
		pcp_error("--count needs --interval");
		return EXIT_USAGE;
	}
	if (filter_make(o, &f))
		return EXIT_USAGE;
	if (o->interval) {
		rc = show_interval(root, o, &f);
		filter_free(&f);
		return rc;
	}
	k = kernel_open(root);
	if (!k) {
		filter_free(&f);
		pcp_error("out of memory");
		return EXIT_FAIL;
	}
	rc = kernel_load_zoneinfo(k, &zi);
	if (rc) {
		k->ops->close(k);
		filter_free(&f);
		return EXIT_FAIL;
	}

	/*
	 * JSON always carries high_min/high_max (null where the kernel lacks
	 * them), for --summary batch_min/_max and high_lo/_hi (numbers where
	 * the text prints a range), and free_pct (null where MemFree is
	 * unknown, under --sysroot) so scripts see one schema (the files in schema/);
	 * MemFree is known only live.
	 */
	bool live = sysroot_is_live(root);
	bool minmax = (zi.pageset_fields & (1u << ZI_HIGH_MIN)) || o->out.format == OUT_JSON;
	bool free_pct = live || o->out.format == OUT_JSON;
	const char *summary = o->out.format == OUT_JSON ?
		"NODE,ZONE,CPUS,PAGES,MAXCOUNT,MIB,BATCH,BATCH_MIN,BATCH_MAX,HIGH,HIGH_LO,HIGH_HI,"
		"MANAGED,FREE_PCT" :
		free_pct ? "NODE,ZONE,CPUS,PAGES,MAXCOUNT,MIB,BATCH,HIGH,MANAGED,FREE_PCT" :
			   "NODE,ZONE,CPUS,PAGES,MAXCOUNT,MIB,BATCH,HIGH,MANAGED";
	const char *defaults = o->summary ? summary :
			       minmax ? "NODE,ZONE,CPU,COUNT,HIGH,BATCH,HIGH_MIN,HIGH_MAX" :
					"NODE,ZONE,CPU,COUNT,HIGH,BATCH";

	rc = colsel_make(tbl, ntbl, defaults, &o->out, &sel, &bad);
	if (rc) {
		pcp_error("out of memory");
		rc = EXIT_FAIL;
	} else {
		size_t shown = 0;

		rc = o->summary ? print_summary(k, &zi, &f, &o->out, &sel, &shown) :
				  print_pagesets(&zi, &f, &o->out, &sel, &shown);
		if (rc)
			rc = rows_print_failed(rc);
		else if (!shown)
			warn_empty(o);
	}
	k->ops->close(k);
	colsel_free(&sel);
	zoneinfo_free(&zi);
	filter_free(&f);
	return rc;
}

static void show_columns_help(FILE *out)
{
	fputs("\nColumns of show:\n", out);
	columns_help(out, pageset_columns, ARRAY_SIZE(pageset_columns));
	fputs("\nColumns of show --summary:\n", out);
	columns_help(out, summary_columns, ARRAY_SIZE(summary_columns));
}

/* What the command line says; run() hands it to cmd_show. */
static struct {
	struct show_opts show;
	int raw, pairs, output_all, noheadings, summary, per_cpu;
} cli;

static const struct poptOption show_options[] = {
	{ "raw", 'r', POPT_ARG_NONE, &cli.raw, 0, NULL, NULL },
	{ "pairs", 'P', POPT_ARG_NONE, &cli.pairs, 0, NULL, NULL },
	{ "output", 'o', POPT_ARG_STRING, &cli.show.out.columns, 0, NULL, NULL },
	{ "output-all", '\0', POPT_ARG_NONE, &cli.output_all, 0, NULL, NULL },
	{ "noheadings", 'n', POPT_ARG_NONE, &cli.noheadings, 0, NULL, NULL },
	{ "node", '\0', POPT_ARG_STRING, &cli.show.nodes, 0, NULL, NULL },
	{ "zone", '\0', POPT_ARG_STRING, &cli.show.zones, 0, NULL, NULL },
	{ "cpu", '\0', POPT_ARG_STRING, &cli.show.cpus, 0, NULL, NULL },
	{ "summary", 's', POPT_ARG_NONE, &cli.summary, 0, NULL, NULL },
	{ "per-cpu", '\0', POPT_ARG_NONE, &cli.per_cpu, 0, NULL, NULL },
	{ "interval", '\0', POPT_ARG_STRING, &cli.show.interval, 0, NULL, NULL },
	{ "count", '\0', POPT_ARG_STRING, &cli.show.count, 0, NULL, NULL },
	POPT_TABLEEND
};

static int run(const struct sysroot *root, const struct command_args *a)
{
	int json = a->common->json;

	if (json + cli.raw + cli.pairs > 1) {
		pcp_error("--json, --raw and --pairs are mutually exclusive");
		return EXIT_USAGE;
	}
	cli.show.out.format = json ? OUT_JSON : cli.raw ? OUT_RAW : cli.pairs ? OUT_PAIRS : OUT_TABLE;
	cli.show.out.all_columns = cli.output_all;
	cli.show.out.noheadings = cli.noheadings;
	cli.show.summary = cli.summary;
	cli.show.per_cpu = cli.per_cpu;
	journal_warn_leftover(root);
	return cmd_show(root, &cli.show);
}

const struct command show_command = {
	.name = "show", .run = run, .more_help = show_columns_help,
	.summary = "list each CPU's pcp count, high and batch (the default)",
	.usage = "[options]",
	.options = show_options, .options_help =
	" -J, --json           use JSON output format\n"
	" -r, --raw            use raw output format\n"
	" -P, --pairs          use key=\"value\" output format\n"
	" -o, --output LIST    columns to print; +LIST adds to the default columns\n"
	"     --output-all     print all columns\n"
	" -n, --noheadings     do not print headings\n"
	"     --node LIST      only these NUMA nodes (e.g. 0,2-3)\n"
	"     --zone NAMES     only zones (DMA, DMA32, Normal, HighMem, Movable, Device)\n"
	"     --cpu LIST       only these CPUs (e.g. 0-3,8)\n"
	" -s, --summary        one row per populated zone instead of one per CPU\n"
	"     --per-cpu        one row per CPU (the default, except with --interval)\n"
	"     --interval SEC   a row per zone (or CPU) every SEC seconds, with the change\n"
	"                      and pgalloc/pgfree per second; --json writes JSON Lines\n"
	"     --count N        stop after N samples (default: at Ctrl-C or SIGTERM)\n",
};
