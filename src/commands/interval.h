/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pcpctl show --interval: its options, the sampling loop and the writers
 * of its rows, over the samples of src/experiment/watch.h.
 */
#ifndef PCPCTL_INTERVAL_H
#define PCPCTL_INTERVAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "output.h"
#include "watch.h"

struct sysroot;

/*
 * The writers (interval_print.c).  prev is NULL for the first sample, which
 * has no change and no rates yet.
 */
/* The table's layout: its columns' widths, and which a narrow terminal leaves out. */
struct interval_table {
	bool per_cpu;
	struct colsel all;
	struct table_layout layout;
};
/*
 * Lay the table out by its headings and the first sample; with termwidth
 * above 0, leave out the least needed columns until a row fits in it.
 * 0 or -ENOMEM; interval_table_free frees what it holds.
 */
int interval_table_fit(struct interval_table *t, const struct watch_sample *first, bool per_cpu,
		       int termwidth);
/* The columns left out, as "CPUS, CHANGE, MAXFILL%", or NULL when none is; to be freed. */
char *interval_table_left_out(const struct interval_table *t);
/* 0 or a negative errno. */
int interval_print_header(FILE *out, const struct interval_table *t);
int interval_print_rows(FILE *out, const struct interval_table *t, const struct watch_sample *prev,
			const struct watch_sample *cur);
void interval_table_free(struct interval_table *t);
/* One JSON document on one line. */
void interval_print_json(FILE *out, const struct watch_sample *prev, const struct watch_sample *cur,
		      bool per_cpu);

struct interval_opts {
	double interval;	/* seconds */
	long count;		/* samples to take; 0 = until SIGINT or SIGTERM */
	bool per_cpu, json, noheadings;
};

/*
 * --interval SEC (0.01 to 86400) and --count N (count may be NULL) into o;
 * prints what is wrong and returns -EINVAL.
 */
int interval_opts_parse(const char *interval, const char *count, struct interval_opts *o);

/* The sampling loop (interval.c); returns an exit code of msg.h. */
int interval_run(const struct sysroot *root, const struct interval_opts *o,
	      const struct watch_select *sel);

#endif
