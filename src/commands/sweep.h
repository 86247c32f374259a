/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pcpctl sweep: the batch (or fraction) experiment of the kernel mails. */
#ifndef PCPCTL_SWEEP_H
#define PCPCTL_SWEEP_H

#include <stdbool.h>
#include <stddef.h>

#include "change.h"
#include "kernel.h"

struct lockprof;
struct sysroot;

struct sweep_opts {
	const char *batch, *fraction;	/* START:STOP:STEP or a comma list */
	const char *tasks, *duration, *warmup, *runs;
	const char *precision, *max_duration;	/* --precision P%: sample until the CI is within */
	const char *metric;		/* --metric REGEX, with an external command */
	const char *metric_json;	/* --metric-json PATH, instead */
	bool metric_last;		/* --metric-last: the last matching line's */
	const char *metric_unit;	/* --metric-unit: the metric's name, else unit() finds one */
	const char *better;		/* --better lower|higher, of the metric */
	const char *csv, *plot;		/* output files */
	const char *workload_log;	/* the external workload's stdout and stderr */
	const char *with_batch, *with_fraction;	/* the other setting, pinned */
	const char *user;		/* --user: who the workload runs as, as root */
	const char *netns;		/* --netns NAME: the COMMAND's network namespace */
	int netns_rc;			/* netns_enter()'s, before privileges were dropped */
	char *const *command;		/* after --; NULL for page_fault1 */
	bool json;
	bool dry_run;			/* the plan and every check, no write */
	/* opened before privileges were dropped; NULL with the reason in lockprof_why */
	struct lockprof *lockprof;
	const char *lockprof_why;
};

/* The most points one sweep may have: more is surely a typo in the range. */
#define SWEEP_MAX_POINTS 10000

/*
 * Parse "31:527:31" (inclusive) or "31,63,310" into a malloc'ed array.
 * Returns 0, -EINVAL (syntax, step 0, stop below start) or -ERANGE
 * (a number out of range, more than SWEEP_MAX_POINTS points).
 */
int sweep_parse_values(const char *text, long **values, size_t *n);

#endif
