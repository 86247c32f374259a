/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_stats.c - summary statistics
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "c.h"
#include "stats.h"

/* cmocka's assert_float_equal works in float: too coarse here */
#define assert_near(a, b, eps) do { \
	double a_ = (a), b_ = (b); \
	if (!(fabs(a_ - b_) <= (eps))) \
		fail_msg("%.17g != %.17g", a_, b_); \
} while (0)

static void test_min_max_mean(void **state)
{
	const double x[] = { 3, -1, 7, 2 };
	double v;

	(void)state;
	assert_int_equal(stats_min(x, ARRAY_SIZE(x), &v), 0);
	assert_near(v, -1, 0);
	assert_int_equal(stats_max(x, ARRAY_SIZE(x), &v), 0);
	assert_near(v, 7, 0);
	assert_int_equal(stats_mean(x, ARRAY_SIZE(x), &v), 0);
	assert_near(v, 11.0 / 4, 1e-12);
}

static void test_empty_and_nonfinite(void **state)
{
	const double nan_x[] = { 1, NAN, 3 };
	const double inf_x[] = { 1, INFINITY };
	const double huge[] = { 1.5e308, 1.5e308 };
	double v = 42;

	(void)state;
	assert_int_equal(stats_min(nan_x, 0, &v), -EINVAL);
	assert_int_equal(stats_mean(NULL, 3, &v), -EINVAL);
	assert_int_equal(stats_hmean(nan_x, 0, &v), -EINVAL);
	assert_int_equal(stats_max(nan_x, ARRAY_SIZE(nan_x), &v), -EDOM);
	assert_int_equal(stats_hmean(inf_x, ARRAY_SIZE(inf_x), &v), -EDOM);
	/* finite samples whose sum overflows */
	assert_int_equal(stats_mean(huge, ARRAY_SIZE(huge), &v), -EDOM);
	/* untouched on error */
	assert_near(v, 42, 0);
}

static void test_hmean(void **state)
{
	const double x[] = { 1, 2, 4 };
	const double same[] = { 5, 5, 5, 5 };
	const double zero[] = { 10, 0, 10 };
	const double neg[] = { 10, -1, 10 };
	double v = 42;

	(void)state;
	assert_int_equal(stats_hmean(x, ARRAY_SIZE(x), &v), 0);
	assert_near(v, 3 / 1.75, 1e-12);
	assert_int_equal(stats_hmean(same, ARRAY_SIZE(same), &v), 0);
	assert_near(v, 5, 1e-12);
	/* a stalled interval: the limit, not a division by zero */
	assert_int_equal(stats_hmean(zero, ARRAY_SIZE(zero), &v), 0);
	assert_near(v, 0, 0);
	v = 42;
	assert_int_equal(stats_hmean(neg, ARRAY_SIZE(neg), &v), -EDOM);
	assert_near(v, 42, 0);
}

static void test_stddev_cv(void **state)
{
	const double x[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	/* large mean, small spread: the naive formula cancels out */
	const double big[] = { 1e9 + 1, 1e9 + 2, 1e9 + 3 };
	const double one[] = { 5 };
	const double zero_mean[] = { -1, 1 };
	double v = 42;

	(void)state;
	assert_int_equal(stats_stddev(x, ARRAY_SIZE(x), &v), 0);
	assert_near(v, sqrt(32.0 / 7), 1e-12);
	assert_int_equal(stats_cv(x, ARRAY_SIZE(x), &v), 0);
	assert_near(v, sqrt(32.0 / 7) / 5, 1e-12);
	assert_int_equal(stats_stddev(big, ARRAY_SIZE(big), &v), 0);
	assert_near(v, 1, 1e-9);

	v = 42;
	assert_int_equal(stats_stddev(one, ARRAY_SIZE(one), &v), -EINVAL);
	assert_int_equal(stats_cv(one, ARRAY_SIZE(one), &v), -EINVAL);
	assert_int_equal(stats_cv(zero_mean, ARRAY_SIZE(zero_mean), &v), -EDOM);
	assert_near(v, 42, 0);
}

static void test_change_pct(void **state)
{
	double v = 42;

	(void)state;
	assert_int_equal(stats_change_pct(110, 100, &v), 0);
	assert_near(v, 10, 1e-12);
	assert_int_equal(stats_change_pct(15762348, 19291492, &v), 0);
	assert_true(v < 0);
	assert_int_equal(stats_change_pct(19291492, 15762348, &v), 0);
	assert_near(v, 22.39, 0.01);	/* Aaron Lu's +22.3% */
	v = 42;
	assert_int_equal(stats_change_pct(1, 0, &v), -EDOM);
	assert_int_equal(stats_change_pct(1, -5, &v), -EDOM);
	assert_int_equal(stats_change_pct(NAN, 5, &v), -EDOM);
	assert_int_equal(stats_change_pct(1e308, 1e-308, &v), -EDOM);
	assert_near(v, 42, 0);
}

/* Printed with the format stats_format() gives. */
static const char *formatted(double v, int least)
{
	static char buf[64];

	snprintf(buf, sizeof(buf), stats_format(v, least), v);
	return buf;
}

static void test_decimals(void **state)
{
	(void)state;
	assert_string_equal(formatted(101.6, 1), "101.6");
	assert_string_equal(formatted(1, 1), "1.0");
	assert_string_equal(formatted(0, 1), "0.0");
	assert_string_equal(formatted(0.0123, 1), "0.0123");	/* a jitter in ms: not 0.0 */
	assert_string_equal(formatted(0.5, 1), "0.500");
	assert_string_equal(formatted(0.999, 1), "0.999");
	assert_string_equal(formatted(0.00098765, 3), "0.000988");
	assert_string_equal(formatted(0.5, 4), "0.5000");	/* never fewer than asked */
	assert_string_equal(formatted(-0.0123, 1), "-0.0123");
	assert_string_equal(formatted(1e-300, 1), "0.000000000000000");
	assert_int_equal(stats_decimals(NAN, 2), 2);
	assert_int_equal(stats_decimals(INFINITY, 2), 2);
	assert_int_equal(stats_decimals(2e9, 3), 3);
}

static void test_summarize(void **state)
{
	const double x[] = { 100, 200, 400 };
	const double one[] = { 7 };
	const double neg[] = { 1, -1 };
	struct stats_summary s;

	(void)state;
	assert_int_equal(stats_summarize(x, ARRAY_SIZE(x), &s), 0);
	assert_int_equal(s.n, 3);
	assert_near(s.min, 100, 0);
	assert_near(s.max, 400, 0);
	assert_near(s.mean, 700.0 / 3, 1e-9);
	assert_near(s.hmean, 3 / (0.01 + 0.005 + 0.0025), 1e-9);
	assert_true(s.has_cv);
	assert_true(s.hmean <= s.mean);
	assert_near(s.p50, 200, 0);
	assert_near(s.p99, 396, 1e-9);

	assert_int_equal(stats_summarize(one, ARRAY_SIZE(one), &s), 0);
	assert_int_equal(s.n, 1);
	assert_near(s.hmean, 7, 0);
	assert_false(s.has_cv);

	assert_int_equal(stats_summarize(neg, ARRAY_SIZE(neg), &s), -EDOM);
	assert_int_equal(stats_summarize(x, 0, &s), -EINVAL);
}

/* R's type 7, as Python's statistics.quantiles(method="inclusive") gives it */
static void test_quantile(void **state)
{
	const double x[] = { 3, 1, 10, 2 }, one[] = { 7 };
	double v = 42;

	(void)state;
	assert_int_equal(stats_quantile(x, ARRAY_SIZE(x), 0.5, &v), 0);
	assert_near(v, 2.5, 1e-12);
	assert_int_equal(stats_quantile(x, ARRAY_SIZE(x), 0.99, &v), 0);
	assert_near(v, 9.79, 1e-12);
	assert_int_equal(stats_quantile(x, ARRAY_SIZE(x), 0, &v), 0);
	assert_near(v, 1, 0);
	assert_int_equal(stats_quantile(x, ARRAY_SIZE(x), 1, &v), 0);
	assert_near(v, 10, 0);
	assert_int_equal(stats_quantile(one, 1, 0.99, &v), 0);
	assert_near(v, 7, 0);
	v = 42;
	assert_int_equal(stats_quantile(x, ARRAY_SIZE(x), 1.5, &v), -EDOM);
	assert_int_equal(stats_quantile(x, ARRAY_SIZE(x), NAN, &v), -EDOM);
	assert_int_equal(stats_quantile(x, 0, 0.5, &v), -EINVAL);
	assert_near(v, 42, 0);
}

/* A latency judged lower: its mean decides, and falling is a gain. */
static void test_better(void **state)
{
	const struct stats_summary s = { .n = 2, .mean = 150, .hmean = 133 };
	double v = 42;

	(void)state;
	assert_near(stats_center(&s, BETTER_HIGHER), 133, 0);
	assert_near(stats_center(&s, BETTER_LOWER), 150, 0);
	assert_true(stats_better_than(2, 1, BETTER_HIGHER));
	assert_false(stats_better_than(2, 1, BETTER_LOWER));
	assert_false(stats_better_than(1, 1, BETTER_LOWER));
	assert_int_equal(stats_gain_pct(52, 101.6, BETTER_LOWER, &v), 0);
	assert_near(v, 48.82, 0.01);
	assert_int_equal(stats_gain_pct(52, 101.6, BETTER_HIGHER, &v), 0);
	assert_near(v, -48.82, 0.01);
	assert_int_equal(stats_gain_pct(5, 5, BETTER_LOWER, &v), 0);
	assert_false(signbit(v));	/* +0.00%, not -0.00% */
	assert_int_equal(stats_gain_pct(5, 0, BETTER_LOWER, &v), -EDOM);
	assert_string_equal(stats_better_name(BETTER_LOWER), "lower");
	assert_string_equal(stats_better_name(BETTER_HIGHER), "higher");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_min_max_mean),
		cmocka_unit_test(test_empty_and_nonfinite),
		cmocka_unit_test(test_hmean),
		cmocka_unit_test(test_stddev_cv),
		cmocka_unit_test(test_change_pct),
		cmocka_unit_test(test_decimals),
		cmocka_unit_test(test_summarize),
		cmocka_unit_test(test_quantile),
		cmocka_unit_test(test_better),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
