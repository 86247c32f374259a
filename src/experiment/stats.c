/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stats.c - summary statistics for pcpctl sweep
 */
#include "stats.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int check_samples(const double *x, size_t n)
{
	size_t i;

	if (!x || n == 0)
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return -EDOM;
	return 0;
}

/* The smallest sample with sign 1, the largest with sign -1. */
static int extreme(const double *x, size_t n, double sign, double *out)
{
	int rc = check_samples(x, n);

	if (rc < 0)
		return rc;
	*out = x[0];
	for (size_t i = 1; i < n; i++)
		if (sign * x[i] < sign * *out)
			*out = x[i];
	return 0;
}

int stats_min(const double *x, size_t n, double *out)
{
	return extreme(x, n, 1, out);
}

int stats_max(const double *x, size_t n, double *out)
{
	return extreme(x, n, -1, out);
}

int stats_mean(const double *x, size_t n, double *out)
{
	size_t i;
	double sum = 0;
	int rc = check_samples(x, n);

	if (rc < 0)
		return rc;
	for (i = 0; i < n; i++)
		sum += x[i];
	/* finite samples can still overflow when summed */
	if (!isfinite(sum))
		return -EDOM;
	*out = sum / (double)n;
	return 0;
}

int stats_hmean(const double *x, size_t n, double *out)
{
	size_t i;
	double inv = 0;
	bool zero = false;
	int rc = check_samples(x, n);

	if (rc < 0)
		return rc;
	for (i = 0; i < n; i++) {
		if (x[i] < 0)
			return -EDOM;
		if (x[i] == 0)
			zero = true;
		else
			inv += 1.0 / x[i];
	}
	/* inv overflows to inf for denormal samples: the limit is 0 as well */
	*out = zero || isinf(inv) ? 0.0 : (double)n / inv;
	return 0;
}

int stats_stddev(const double *x, size_t n, double *out)
{
	size_t i;
	double mean, ss = 0;
	int rc;

	if (n < 2)
		return -EINVAL;
	rc = stats_mean(x, n, &mean);
	if (rc < 0)
		return rc;
	/* two passes: summing squares of deviations avoids the cancellation
	 * of sum(x^2) - n*mean^2 when the spread is small against the mean,
	 * which is the usual case for throughput samples */
	for (i = 0; i < n; i++)
		ss += (x[i] - mean) * (x[i] - mean);
	if (!isfinite(ss))
		return -EDOM;
	*out = sqrt(ss / (double)(n - 1));
	return 0;
}

int stats_cv(const double *x, size_t n, double *out)
{
	double mean, sd;
	int rc;

	rc = stats_stddev(x, n, &sd);
	if (rc < 0)
		return rc;
	rc = stats_mean(x, n, &mean);
	if (rc < 0)
		return rc;
	if (mean <= 0)
		return -EDOM;
	*out = sd / mean;
	return 0;
}

int stats_change_pct(double value, double baseline, double *out)
{
	double r;

	if (!isfinite(value) || !isfinite(baseline) || baseline <= 0)
		return -EDOM;
	r = (value - baseline) / baseline * 100.0;
	if (!isfinite(r))
		return -EDOM;
	*out = r;
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int stats_quantile(const double *x, size_t n, double q, double *out)
{
	double *sorted, h;
	size_t lo;
	int rc = check_samples(x, n);

	if (rc < 0)
		return rc;
	if (!(q >= 0 && q <= 1))
		return -EDOM;
	sorted = malloc(n * sizeof(*sorted));
	if (!sorted)
		return -ENOMEM;
	memcpy(sorted, x, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), cmp_double);
	h = (double)(n - 1) * q;
	lo = (size_t)floor(h);
	*out = lo + 1 < n ? sorted[lo] + (h - (double)lo) * (sorted[lo + 1] - sorted[lo]) :
			    sorted[lo];
	free(sorted);
	return 0;
}

int stats_summarize(const double *x, size_t n, struct stats_summary *out)
{
	struct stats_summary s = { .n = n };
	size_t i;
	int rc;

	rc = check_samples(x, n);
	if (rc < 0)
		return rc;
	for (i = 0; i < n; i++)
		if (x[i] < 0)
			return -EDOM;
	if ((rc = stats_min(x, n, &s.min)) < 0 ||
	    (rc = stats_max(x, n, &s.max)) < 0 ||
	    (rc = stats_mean(x, n, &s.mean)) < 0 ||
	    (rc = stats_hmean(x, n, &s.hmean)) < 0 ||
	    (rc = stats_quantile(x, n, 0.5, &s.p50)) < 0 ||
	    (rc = stats_quantile(x, n, 0.99, &s.p99)) < 0)
		return rc;
	s.has_cv = stats_cv(x, n, &s.cv) == 0;
	*out = s;
	return 0;
}

const char *stats_better_name(enum better b)
{
	return b == BETTER_LOWER ? "lower" : "higher";
}

double stats_center(const struct stats_summary *s, enum better b)
{
	return b == BETTER_LOWER ? s->mean : s->hmean;
}

bool stats_better_than(double a, double b, enum better b_way)
{
	return b_way == BETTER_LOWER ? a < b : a > b;
}

int stats_gain_pct(double value, double baseline, enum better b, double *out)
{
	int rc = stats_change_pct(value, baseline, out);

	/* 0 - x, not -x: no change is +0.00%, not -0.00% */
	if (!rc && b == BETTER_LOWER)
		*out = 0.0 - *out;
	return rc;
}

/* Three figures down to 1e-12; anything smaller prints with 15 decimals. */
#define DECIMALS_MAX 15

int stats_decimals(double v, int least)
{
	int d;

	if (!isfinite(v) || v == 0 || fabs(v) >= 1)
		return least;
	d = 2 - (int)floor(log10(fabs(v)));
	if (d > DECIMALS_MAX)
		d = DECIMALS_MAX;
	return d > least ? d : least;
}

const char *stats_format(double v, int least)
{
	static const char *const formats[DECIMALS_MAX + 1] = {
		"%.0f", "%.1f", "%.2f", "%.3f", "%.4f", "%.5f", "%.6f", "%.7f",
		"%.8f", "%.9f", "%.10f", "%.11f", "%.12f", "%.13f", "%.14f", "%.15f",
	};
	int d = stats_decimals(v, least);

	return formats[d < 0 ? 0 : d > DECIMALS_MAX ? DECIMALS_MAX : d];
}
