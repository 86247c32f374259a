/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stats.h - summary statistics for pcpctl sweep
 *
 * The summaries follow mmtests: throughput is reported as a harmonic mean
 * (Hmean), because averaging rates arithmetically overweights the fast
 * intervals.
 *
 * Error convention, shared by every function: nothing is computed from an
 * empty set (-EINVAL), and a result that is undefined for the given samples
 * is refused with -EDOM instead of being returned as NaN or infinity.  A
 * non-finite sample (NaN, +-inf) is always -EDOM.  On error *out is left
 * unchanged.
 */
#ifndef PCPCTL_STATS_H
#define PCPCTL_STATS_H

#include <stdbool.h>
#include <stddef.h>

int stats_min(const double *x, size_t n, double *out);
int stats_max(const double *x, size_t n, double *out);
int stats_mean(const double *x, size_t n, double *out);

/*
 * Harmonic mean n / sum(1/x).  A zero sample gives 0, the limit as that
 * sample goes to 0 (an interval without progress drags the mean down to
 * nothing, which is what a stall means for throughput).  A negative sample
 * is -EDOM: a harmonic mean over mixed signs is meaningless.
 */
int stats_hmean(const double *x, size_t n, double *out);

/* Sample standard deviation (n - 1 in the denominator): n < 2 is -EINVAL. */
int stats_stddev(const double *x, size_t n, double *out);

/*
 * Coefficient of variation: sample standard deviation / mean.  n < 2 is
 * -EINVAL; a mean <= 0 is -EDOM (the ratio only says something about
 * positive quantities such as throughput).
 */
int stats_cv(const double *x, size_t n, double *out);

/*
 * Change of value against baseline in percent: (value - baseline) /
 * baseline * 100, positive when value is larger.  A baseline <= 0 is -EDOM.
 */
int stats_change_pct(double value, double baseline, double *out);

/*
 * R's default quantile (type 7): the value at q (0 to 1) of the sorted
 * samples, interpolated linearly between the two nearest.  q outside
 * [0, 1] or NaN is -EDOM; -ENOMEM when the sorted copy cannot be made.
 */
int stats_quantile(const double *x, size_t n, double q, double *out);

struct stats_summary {
	size_t n;
	double min, max, mean, hmean;
	double p50, p99;	/* stats_quantile() at 0.5 and 0.99 */
	bool has_cv;		/* false when n < 2 or mean <= 0 */
	double cv;		/* valid only when has_cv */
};

/*
 * All of the above at once.  Needs n >= 1 and finite samples that are all
 * >= 0 (throughput); otherwise -EINVAL or -EDOM as above, or -ENOMEM.
 */
int stats_summarize(const double *x, size_t n, struct stats_summary *out);

/*
 * Which way a metric improves.  A rate (ops/s, Gbit/s) is better higher
 * and summed up by its Hmean; a cost (latency, jitter) is better lower and
 * summed up by its mean, as the Hmean of a cost would hide its bad runs.
 */
enum better { BETTER_HIGHER, BETTER_LOWER };

/* "higher" or "lower" */
const char *stats_better_name(enum better b);
/* The figure a set of samples is judged by: its Hmean, or its mean when lower is better. */
double stats_center(const struct stats_summary *s, enum better b);
/*
 * Whether a is better than b, for figures judged the same way: strictly
 * larger, or strictly smaller when lower is better.
 */
bool stats_better_than(double a, double b, enum better b_way);
/*
 * stats_change_pct() with its sign such that a positive change is an
 * improvement: a latency that falls from 100 to 50 gains +50%.
 */
int stats_gain_pct(double value, double baseline, enum better b, double *out);

/*
 * How many decimals print v with three significant figures where `least`
 * would print fewer (a jitter of 0.0123 ms is not 0.0), else `least`:
 * values of 1 and more, 0, and anything not finite keep `least`.
 */
int stats_decimals(double v, int least);

/* "%.Nf" with N = stats_decimals(v, least), for printers that take no precision. */
const char *stats_format(double v, int least);

#endif /* PCPCTL_STATS_H */
