/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * welch.h - Welch's unequal-variances t-test, as mmtests' compare-kernels
 * marks a significant difference
 *
 * One implementation for every caller: sweep decides its best value with
 * it and compare marks its cells with it, so the two never disagree.
 * Errors follow stats.h: -EINVAL for too few samples, -EDOM for a result
 * that is undefined (a non-finite sample, no spread in either set).
 */
#ifndef PCPCTL_WELCH_H
#define PCPCTL_WELCH_H

#include <stddef.h>

/* The level below which a difference is called significant. */
#define WELCH_ALPHA 0.05

struct welch {
	double t;	/* (mean(a) - mean(b)) / standard error; > 0 when a is larger */
	double df;	/* Welch-Satterthwaite degrees of freedom */
	double p;	/* two-sided p-value */
};

/*
 * Regularized incomplete beta function I_x(a, b) for a, b > 0 and
 * 0 <= x <= 1; anything else is -EDOM.
 */
int welch_betainc(double a, double b, double x, double *out);

/* Two-sided p-value of Student's t with df > 0 degrees of freedom. */
int welch_t_pvalue(double t, double df, double *p);

/* The t with a two-sided p-value of p2 (0 < p2 < 1) at df degrees of freedom. */
int welch_t_quantile(double p2, double df, double *t);

/*
 * The half-width of the 95% confidence interval of the harmonic mean of
 * x, relative to it (0.02 for +-2%): the interval of the mean of 1/x, as
 * Student's t gives it, carried over to its reciprocal.  Needs n >= 2 and
 * samples > 0.
 */
int welch_hmean_ci95(const double *x, size_t n, double *rel);

/* The same for the arithmetic mean of x, the figure of a cost: needs n >= 2 and a mean > 0. */
int welch_mean_ci95(const double *x, size_t n, double *rel);
/* Test a against b; each needs at least 2 samples. */
int welch_test(const double *a, size_t na, const double *b, size_t nb, struct welch *out);

#endif /* PCPCTL_WELCH_H */
