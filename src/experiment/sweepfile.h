/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sweepfile.h - the JSON that pcpctl sweep --json writes, read back
 *
 * The files come from other machines and other pcpctl versions: they are
 * parsed with json-c and every field is checked for its type and range
 * before compare or plot believes it.  Unknown keys are ignored, so newer
 * files with more in them still read.
 */
#ifndef PCPCTL_SWEEPFILE_H
#define PCPCTL_SWEEPFILE_H

#include <stdbool.h>
#include <stddef.h>

#include "stats.h"

struct sweepfile_point {
	long tasks;		/* the point's own "tasks", else the file's */
	long value;
	double hmean;
	double mean;		/* "mean", else that of the samples */
	double min, max;	/* "min" and "max", else those of the samples */
	bool has_lock;		/* "lock_pct" is a number, not null or absent */
	double lock_pct;	/* 0 to 100 */
	bool best;		/* the sweep's significant best of its task count */
	double *samples;	/* as measured: per second, or per run */
	size_t nsamples;
};

struct sweepfile {
	char *parameter;	/* "batch" or "fraction" */
	char *workload;
	char *host, *kernel;	/* NULL when the file does not say */
	/* What older files may lack: NULL, 0, or pinned false. */
	char *unit;		/* of hmean and the samples, such as "ops/s" */
	enum better better;	/* "better", else higher (older files measured rates) */
	char **command;		/* "command": the argv that was measured, NULL-terminated */
	char *metric;		/* "metric": the --metric regex */
	long runs;		/* runs per point */
	double duration;	/* seconds a run of page_fault1 measures */
	bool pinned;		/* the setting not swept was held at pin */
	long pin;
	bool cut_short;		/* "complete" is false: the sweep ended before its last point */
	struct sweepfile_point *points;
	size_t npoints;
};

/* What a point is judged by: its Hmean, or its mean when lower is better. */
double sweepfile_center(const struct sweepfile *f, const struct sweepfile_point *pt);

/* Larger files are refused before parsing: no sweep comes near this. */
#define SWEEPFILE_MAX_BYTES ((size_t)64 << 20)

/*
 * Parse len bytes of text (no NUL needed).  Returns 0, or -EBADMSG with a
 * reason in why (why_len bytes) for text that is not a sweep's JSON
 * (malformed, a field missing or of the wrong type, a (tasks, value) pair
 * twice), or -ENOMEM.  On error *f holds nothing to free.
 */
int sweepfile_parse(const char *text, size_t len, struct sweepfile *f, char *why, size_t why_len);

/* Read and parse a file ("-": standard input); -errno when it cannot be read, else as above. */
int sweepfile_load(const char *path, struct sweepfile *f, char *why, size_t why_len);

void sweepfile_free(struct sweepfile *f);

/*
 * f's points by (tasks, value), equal ones in the file's order: an array of
 * f->npoints pointers for the caller to free, or NULL when out of memory.
 */
const struct sweepfile_point **sweepfile_sorted(const struct sweepfile *f);

#endif /* PCPCTL_SWEEPFILE_H */
