/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_welch.c - Welch's t-test against known answers
 *
 * Closed forms where the distribution has one; otherwise values computed
 * with mpmath at 50 digits from the textbook formulas (mean, sample
 * variance, Welch-Satterthwaite df, p = I_{df/(df+t^2)}(df/2, 1/2) with
 * mpmath.betainc), the script being:
 *   ma, mb = means; sa, sb = var/n; t = (ma-mb)/sqrt(sa+sb)
 *   df = (sa+sb)^2 / (sa^2/(na-1) + sb^2/(nb-1))
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "c.h"
#include "welch.h"

#define assert_close(x, want, rel) \
	assert_true(fabs((x) - (double)(want)) <= (rel) * fabs((double)(want)) + 1e-300)

static void test_betainc_closed_forms(void **state)
{
	double v;

	(void)state;
	/* I_x(1/2, 1/2) = 2/pi asin(sqrt(x)) */
	for (double x = 0.05; x < 1; x += 0.1) {
		assert_int_equal(welch_betainc(0.5, 0.5, x, &v), 0);
		assert_close(v, 2 / M_PI * asin(sqrt(x)), 1e-12);
	}
	/* I_x(2, 3) = 6x^2(1-x)^2 + 4x^3(1-x) + x^4: 0.5248 at 0.4 */
	assert_int_equal(welch_betainc(2, 3, 0.4, &v), 0);
	assert_close(v, 0.5248, 1e-13);
	/* I_x(a, 1) = x^a */
	assert_int_equal(welch_betainc(7.5, 1, 0.8, &v), 0);
	assert_close(v, pow(0.8, 7.5), 1e-13);
	assert_int_equal(welch_betainc(3, 4, 0, &v), 0);
	assert_true(v == 0);
	assert_int_equal(welch_betainc(3, 4, 1, &v), 0);
	assert_true(v == 1);
}

static void test_betainc_mpmath(void **state)
{
	static const struct { double a, b, x, want; } cases[] = {
		{ 30, 0.5, 0.9, 0.01228244849985276 },
		{ 150, 0.5, 0.99, 0.082748003254080496 },
		{ 0.5, 200, 0.001, 0.47275589297476465 },
	};
	double v;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		assert_int_equal(welch_betainc(cases[i].a, cases[i].b, cases[i].x, &v), 0);
		assert_close(v, cases[i].want, 1e-11);
	}
}

static void test_t_pvalue_closed_forms(void **state)
{
	double p;

	(void)state;
	/* df = 1 is Cauchy: P(|T| > 1) = 1/2 */
	assert_int_equal(welch_t_pvalue(1, 1, &p), 0);
	assert_close(p, 0.5, 1e-13);
	/* df = 2: P(|T| > t) = 1 - t / sqrt(t^2 + 2) */
	for (double t = 0.25; t < 20; t *= 2) {
		assert_int_equal(welch_t_pvalue(t, 2, &p), 0);
		assert_close(p, 1 - t / sqrt(t * t + 2), 1e-12);
		assert_int_equal(welch_t_pvalue(-t, 2, &p), 0);
		assert_close(p, 1 - t / sqrt(t * t + 2), 1e-12);
	}
	assert_int_equal(welch_t_pvalue(0, 5, &p), 0);
	assert_close(p, 1, 1e-15);
	assert_int_equal(welch_t_pvalue(INFINITY, 5, &p), 0);
	assert_true(p == 0);
	assert_int_equal(welch_t_pvalue(1, 0, &p), -EDOM);
	assert_int_equal(welch_t_pvalue(NAN, 3, &p), -EDOM);
}

static void test_welch_known(void **state)
{
	static const double a1[] = { 10, 12, 11, 13, 14 }, b1[] = { 15, 16, 14, 18, 17 };
	static const double a2[] = { 101.2, 99.8, 100.5, 102.1, 98.9, 100.0, 101.7 };
	static const double b2[] = { 99.1, 98.7, 100.2, 99.5 };
	static const double a3[] = { 100, 102, 104 }, b3[] = { 101, 103, 105 };
	static const double a4[] = { 5.1, 4.9, 5.0, 5.2, 4.8, 5.05, 4.95, 5.15, 4.85, 5.0 };
	static const double b4[] = { 5.3, 5.1, 5.5, 4.9, 5.2, 5.4, 5.0, 5.6 };
	struct welch w;

	(void)state;
	/* equal variances and sizes: t = -4, df = 8 exactly */
	assert_int_equal(welch_test(a1, 5, b1, 5, &w), 0);
	assert_close(w.t, -4, 1e-13);
	assert_close(w.df, 8, 1e-13);
	assert_close(w.p, 0.0039497728034453258, 1e-11);
	/* unequal sizes and variances, just below the 5% line */
	assert_int_equal(welch_test(a2, ARRAY_SIZE(a2), b2, ARRAY_SIZE(b2), &w), 0);
	assert_close(w.t, 2.2902150075976916, 1e-12);
	assert_close(w.df, 8.9763374178798093, 1e-12);
	assert_close(w.p, 0.047831019141828978, 1e-10);
	assert_true(w.p < WELCH_ALPHA);
	/* overlapping spreads: far from significant */
	assert_int_equal(welch_test(a3, 3, b3, 3, &w), 0);
	assert_close(w.t, -0.61237243569579452, 1e-13);
	assert_close(w.p, 0.5733922538253555, 1e-11);
	assert_int_equal(welch_test(a4, ARRAY_SIZE(a4), b4, ARRAY_SIZE(b4), &w), 0);
	assert_close(w.t, -2.6111648393354676, 1e-12);
	assert_close(w.df, 10.07001321003963, 1e-12);
	assert_close(w.p, 0.025851186235688663, 1e-10);
	/* swapping the sets flips t and keeps p */
	assert_int_equal(welch_test(b4, ARRAY_SIZE(b4), a4, ARRAY_SIZE(a4), &w), 0);
	assert_close(w.t, 2.6111648393354676, 1e-12);
	assert_close(w.p, 0.025851186235688663, 1e-10);
}

static void test_welch_refused(void **state)
{
	static const double one[] = { 3 }, flat[] = { 2, 2, 2 }, flat2[] = { 5, 5 };
	static const double ok[] = { 1, 2, 3 }, bad[] = { 1, NAN, 3 };
	struct welch w = { .p = -1 };

	(void)state;
	assert_int_equal(welch_test(one, 1, ok, 3, &w), -EINVAL);
	assert_int_equal(welch_test(ok, 3, one, 1, &w), -EINVAL);
	assert_int_equal(welch_test(flat, 3, flat2, 2, &w), -EDOM);
	assert_int_equal(welch_test(ok, 3, bad, 3, &w), -EDOM);
	assert_true(w.p == -1);
	/* one set without spread is fine: the other's carries the test */
	assert_int_equal(welch_test(flat, 3, ok, 3, &w), 0);
	assert_close(w.t, 0, 1e-15);
}

/* Student's t quantiles (mpmath findroot on the same betainc); df = 2 in closed form */
static void test_t_quantile(void **state)
{
	double t;

	(void)state;
	assert_int_equal(welch_t_quantile(0.05, 1, &t), 0);
	assert_close(t, 12.7062047361747, 1e-9);
	assert_int_equal(welch_t_quantile(0.05, 2, &t), 0);
	/* t^2 = 2q^2 / (1 - q^2), q = 1 - p */
	assert_close(t, sqrt(2 * 0.95 * 0.95 / (1 - 0.95 * 0.95)), 1e-9);
	assert_int_equal(welch_t_quantile(0.05, 10, &t), 0);
	assert_close(t, 2.22813885198627, 1e-9);
	assert_int_equal(welch_t_quantile(0, 10, &t), -EDOM);
	assert_int_equal(welch_t_quantile(0.05, 0, &t), -EDOM);
}

/* 100, 110, 95, 105: mean of 1/x and its t interval (df 3), mpmath */
static void test_hmean_ci(void **state)
{
	static const double x[] = { 100, 110, 95, 105 }, zero[] = { 1, 0 };
	double rel;

	(void)state;
	assert_int_equal(welch_hmean_ci95(x, ARRAY_SIZE(x), &rel), 0);
	assert_close(rel, 0.100494968129075, 1e-9);
	assert_int_equal(welch_hmean_ci95(x, 1, &rel), -EINVAL);
	assert_int_equal(welch_hmean_ci95(zero, 2, &rel), -EDOM);
}

/* The same samples, the t interval of their mean (statistics.stdev, t(0.975, 3)) */
static void test_mean_ci(void **state)
{
	static const double x[] = { 100, 110, 95, 105 }, zero[] = { 0, 0 };
	double rel;

	(void)state;
	assert_int_equal(welch_mean_ci95(x, ARRAY_SIZE(x), &rel), 0);
	assert_close(rel, 0.1002078174029697, 1e-9);
	assert_int_equal(welch_mean_ci95(x, 1, &rel), -EINVAL);
	assert_int_equal(welch_mean_ci95(zero, 2, &rel), -EDOM);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_betainc_closed_forms),
		cmocka_unit_test(test_betainc_mpmath),
		cmocka_unit_test(test_t_pvalue_closed_forms),
		cmocka_unit_test(test_welch_known),
		cmocka_unit_test(test_welch_refused),
		cmocka_unit_test(test_t_quantile),
		cmocka_unit_test(test_hmean_ci),
		cmocka_unit_test(test_mean_ci),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
