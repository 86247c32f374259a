/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * welch.c - Welch's t-test and the Student t distribution it needs
 */
#include "welch.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "stats.h"

/* Enough for the continued fraction below at any df a sweep produces;
 * it converges in O(sqrt(max(a, b))) terms. */
#define CF_MAX_TERMS 10000
#define CF_EPS (4 * DBL_EPSILON)
#define CF_TINY 1e-300

/*
 * The continued fraction for I_x(a, b) (DLMF 8.17.22), evaluated with the
 * modified Lentz method; good for x < (a + 1) / (a + b + 2).
 */
static int betainc_cf(double a, double b, double x, double *out)
{
	double f = CF_TINY, c = f, d = 0;

	for (int j = 1; j <= CF_MAX_TERMS; j++) {
		double num, delta;
		int m = j - 1;	/* the fraction's d_m; the first numerator is 1 */

		/* d_m's k: m = 2k + 1 for the odd terms, m = 2k for the even */
		int half = m / 2;

		if (m == 0) {
			num = 1;
		} else if (m % 2) {
			double k = half;

			num = -(a + k) * (a + b + k) * x / ((a + 2 * k) * (a + 2 * k + 1));
		} else {
			double k = half;

			num = k * (b - k) * x / ((a + 2 * k - 1) * (a + 2 * k));
		}
		d = 1 + num * d;
		if (fabs(d) < CF_TINY)
			d = CF_TINY;
		c = 1 + num / c;
		if (fabs(c) < CF_TINY)
			c = CF_TINY;
		d = 1 / d;
		delta = c * d;
		f *= delta;
		if (fabs(delta - 1) < CF_EPS) {
			*out = f;
			return 0;
		}
	}
	return -EDOM;
}

int welch_betainc(double a, double b, double x, double *out)
{
	double front, cf;
	bool mirror;
	int rc;

	if (!(a > 0) || !(b > 0) || !(x >= 0) || !(x <= 1) || !isfinite(a) || !isfinite(b))
		return -EDOM;
	if (x == 0 || x == 1) {
		*out = x;
		return 0;
	}
	/* the fraction converges fast only left of the mean; mirror the rest */
	mirror = x > (a + 1) / (a + b + 2);
	if (mirror) {
		double t = a;

		a = b;
		b = t;
		x = 1 - x;
	}
	rc = betainc_cf(a, b, x, &cf);
	if (rc)
		return rc;
	front = exp(a * log(x) + b * log1p(-x) + lgamma(a + b) - lgamma(a) - lgamma(b)) / a;
	*out = mirror ? 1 - front * cf : front * cf;
	return 0;
}

int welch_t_pvalue(double t, double df, double *p)
{
	if (!(df > 0) || isnan(t))
		return -EDOM;
	if (isinf(t)) {
		*p = 0;
		return 0;
	}
	/* P(|T| > |t|) = I_{df / (df + t^2)}(df / 2, 1 / 2) */
	return welch_betainc(df / 2, 0.5, df / (df + t * t), p);
}

int welch_t_quantile(double p2, double df, double *t)
{
	double lo = 0, hi = 1;
	int rc;

	if (!(p2 > 0) || !(p2 < 1) || !(df > 0))
		return -EDOM;
	/* the p-value falls as t grows: bracket it, then halve the bracket */
	for (;;) {
		double p;

		if (hi > 1e12)
			return -EDOM;
		if ((rc = welch_t_pvalue(hi, df, &p)))
			return rc;
		if (p <= p2)
			break;
		hi *= 2;
	}
	for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
		double mid = (lo + hi) / 2, p;

		if ((rc = welch_t_pvalue(mid, df, &p)))
			return rc;
		if (p > p2)
			lo = mid;
		else
			hi = mid;
	}
	*t = (lo + hi) / 2;
	return 0;
}

int welch_hmean_ci95(const double *x, size_t n, double *rel)
{
	double *inv, m, sd, t;
	int rc;

	if (n < 2)
		return -EINVAL;
	inv = malloc(n * sizeof(*inv));
	if (!inv)
		return -ENOMEM;
	rc = 0;
	for (size_t i = 0; i < n && !rc; i++) {
		if (!(x[i] > 0) || !isfinite(x[i]))
			rc = -EDOM;
		else
			inv[i] = 1 / x[i];
	}
	if (!rc && !(rc = stats_mean(inv, n, &m)) && !(rc = stats_stddev(inv, n, &sd)) &&
	    !(rc = welch_t_quantile(0.05, (double)(n - 1), &t)))
		*rel = t * sd / sqrt((double)n) / m;
	free(inv);
	return rc;
}

int welch_mean_ci95(const double *x, size_t n, double *rel)
{
	double m, sd, t;
	int rc;

	if (n < 2)
		return -EINVAL;
	if ((rc = stats_mean(x, n, &m)) || (rc = stats_stddev(x, n, &sd)) ||
	    (rc = welch_t_quantile(0.05, (double)(n - 1), &t)))
		return rc;
	if (!(m > 0))
		return -EDOM;
	*rel = t * sd / sqrt((double)n) / m;
	return 0;
}

/* Mean and the squared standard error of the mean. */
static int mean_se2(const double *x, size_t n, double *mean, double *se2)
{
	double sd;
	int rc;

	if (n < 2)
		return -EINVAL;
	if ((rc = stats_mean(x, n, mean)) || (rc = stats_stddev(x, n, &sd)))
		return rc;
	*se2 = sd * sd / (double)n;
	return 0;
}

int welch_test(const double *a, size_t na, const double *b, size_t nb, struct welch *out)
{
	double ma, mb, sa, sb, se2, t, df, p;
	int rc;

	if ((rc = mean_se2(a, na, &ma, &sa)) || (rc = mean_se2(b, nb, &mb, &sb)))
		return rc;
	se2 = sa + sb;
	if (!(se2 > 0))
		return -EDOM;
	t = (ma - mb) / sqrt(se2);
	df = se2 * se2 / (sa * sa / (double)(na - 1) + sb * sb / (double)(nb - 1));
	if ((rc = welch_t_pvalue(t, df, &p)))
		return rc;
	*out = (struct welch){ .t = t, .df = df, .p = p };
	return 0;
}
