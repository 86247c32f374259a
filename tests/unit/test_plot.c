/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_plot.c - the sweep chart is well-formed SVG with one element per point
 *
 * Well-formedness and element counts are checked by xmllint (Debian's
 * libxml2-utils), whose path CTest passes in XMLLINT; without it those
 * checks are skipped.
 */
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "c.h"
#include "svg.h"

/* Aaron Lu's 2017 sweep, batch 31..527 step 31, made-up throughput */
static struct plot_point sweep[17];

static int setup(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(sweep); i++) {
		double x = 31.0 * (double)(i + 1);
		double y = 15e6 + 4e6 * exp(-pow((x - 310) / 150, 2));

		sweep[i] = (struct plot_point){ x, y, y * 0.98, y * 1.01 };
	}
	return 0;
}

struct svg {
	char path[64];
};

static void svg_write(struct svg *s, const char *title, const char *xlabel,
		      const char *ylabel, const struct plot_point *pts,
		      size_t n, size_t best)
{
	FILE *f;
	int fd;

	strcpy(s->path, "/tmp/test_plot.XXXXXX");
	fd = mkstemp(s->path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	assert_int_equal(plot_svg(f, title, xlabel, ylabel, pts, n, best), 0);
	assert_int_equal(fclose(f), 0);
}

static const char *xmllint(void)
{
	const char *x = getenv("XMLLINT");

	return x && *x ? x : NULL;
}

/* Run xmllint on the file; with an XPath, return what it printed. */
static char *lint(const struct svg *s, const char *xpath)
{
	char *cmd, *out = NULL;
	size_t cap = 0;
	ssize_t len;
	FILE *p;

	if (xpath)
		assert_true(asprintf(&cmd, "'%s' --xpath '%s' '%s'", xmllint(),
				     xpath, s->path) > 0);
	else
		assert_true(asprintf(&cmd, "'%s' --noout '%s'", xmllint(),
				     s->path) > 0);
	p = popen(cmd, "r");
	assert_non_null(p);
	len = getdelim(&out, &cap, '\0', p);
	assert_int_equal(pclose(p), 0);
	free(cmd);
	if (len < 0) {
		free(out);
		return NULL;
	}
	return out;
}

static long count(const struct svg *s, const char *cls, const char *elem)
{
	char xpath[160], *out;
	long n;

	snprintf(xpath, sizeof(xpath),
		 "count(//*[local-name()=\"%s\"][@class=\"%s\"])", elem, cls);
	out = lint(s, xpath);
	assert_non_null(out);
	n = strtol(out, NULL, 10);
	free(out);
	return n;
}

static char *slurp(const struct svg *s)
{
	char *buf = NULL;
	size_t cap = 0;
	FILE *f = fopen(s->path, "r");

	assert_non_null(f);
	assert_true(getdelim(&buf, &cap, '\0', f) > 0);
	fclose(f);
	return buf;
}

/* The last step of a test: the file goes in any case. */
static void svg_check(const struct svg *s, size_t npoints, long nbest)
{
	if (!xmllint()) {
		unlink(s->path);
		skip();
	}
	free(lint(s, NULL));
	assert_int_equal(count(s, "point", "circle"), npoints);
	assert_int_equal(count(s, "best", "circle"), nbest);
	assert_int_equal(count(s, "best-label", "text"), nbest);
	unlink(s->path);
}

static void test_sweep(void **state)
{
	struct svg s;
	char *text;

	(void)state;
	svg_write(&s, "page_fault1, 2 tasks", "percpu_pagelist_batch", "ops/s",
		  sweep, ARRAY_SIZE(sweep), 9);
	text = slurp(&s);
	assert_non_null(strstr(text, "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\""));
	assert_null(strstr(text, "<script"));
	assert_non_null(strstr(text, "best: percpu_pagelist_batch = 310, 19.00M ops/s"));
	/* SI units on the throughput axis */
	assert_non_null(strstr(text, "M</text>"));
	free(text);
	svg_check(&s, ARRAY_SIZE(sweep), 1);
}

static void test_escaping(void **state)
{
	/* markup, an invalid UTF-8 byte, a control character, a surrogate
	 * encoded in UTF-8, and valid multi-byte text */
	const char *title = "<b>&\"quoted\" 'x'\xff\x01\xed\xa0\x80 \xc2\xb5s";
	struct plot_point one = { 8, 1000, 1000, 1000 };
	struct svg s;
	char *text;

	(void)state;
	svg_write(&s, title, "a<b", "ops/s & more", &one, 1, 0);
	text = slurp(&s);
	assert_non_null(strstr(text, "&lt;b&gt;&amp;&quot;quoted&quot; &apos;x&apos;"
				     "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd \xc2\xb5s"));
	assert_null(strstr(text, "\xff"));
	free(text);
	svg_check(&s, 1, 1);
}

static void test_unsorted_no_best(void **state)
{
	struct plot_point pts[] = {
		{ 500, 2, 1, 3 }, { 0, 5, 5, 5 }, { 100, 0, 0, 0 },
	};
	struct svg s;

	(void)state;
	svg_write(&s, "t", "x", "y", pts, ARRAY_SIZE(pts), PLOT_NO_BEST);
	svg_check(&s, ARRAY_SIZE(pts), 0);
}

static void test_decimal_comma_locale(void **state)
{
	const char *locales[] = { "de_DE.UTF-8", "fr_FR.UTF-8", "C.UTF-8" };
	struct plot_point pts[] = { { 0.5, 1.25, 1.125, 1.5 } };
	struct svg s;
	char *text;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(locales); i++)
		if (setlocale(LC_ALL, locales[i]))
			break;
	svg_write(&s, "t", "x", "y", pts, ARRAY_SIZE(pts), 0);
	setlocale(LC_ALL, "C");
	text = slurp(&s);
	/* numbers with a dot whatever the locale */
	assert_null(strstr(text, "r=\"4,"));
	assert_non_null(strstr(text, "r=\"4\""));
	free(text);
	svg_check(&s, 1, 1);
}

static void test_invalid(void **state)
{
	struct plot_point nan_pt[] = { { 1, NAN, 0, 1 } };
	struct plot_point bad_bar[] = { { 1, 5, 6, 7 } };
	FILE *f = fopen("/dev/null", "w");

	(void)state;
	assert_non_null(f);
	assert_int_equal(plot_svg(f, "t", "x", "y", sweep, 0, PLOT_NO_BEST), -EINVAL);
	assert_int_equal(plot_svg(f, "t", "x", "y", sweep, 3, 3), -EINVAL);
	assert_int_equal(plot_svg(f, NULL, "x", "y", sweep, 3, 0), -EINVAL);
	assert_int_equal(plot_svg(f, "t", "x", "y", nan_pt, 1, 0), -EINVAL);
	assert_int_equal(plot_svg(f, "t", "x", "y", bad_bar, 1, 0), -EINVAL);
	fclose(f);
}

/* plot_chart's own refusals: the single-sweep chart cannot reach them. */
static void test_chart_invalid(void **state)
{
	struct plot_series two[] = { { sweep, 3, 0 }, { NULL, 0, PLOT_NO_BEST } };
	struct plot_series none[] = { { NULL, 0, PLOT_NO_BEST }, { NULL, 0, PLOT_NO_BEST } };
	struct plot_series far[] = { { sweep, 3, 3 }, { NULL, 0, PLOT_NO_BEST } };
	struct plot_panel ok = { "tasks-2", "2 tasks", "ops/s", true, two };
	struct plot_panel bad_id = { "2 tasks", NULL, "ops/s", true, two };
	struct plot_panel empty = { NULL, NULL, "ops/s", true, none };
	struct plot_panel best = { NULL, NULL, "ops/s", true, far };
	const char *labels[] = { "a", "b" }, *half[] = { "a", NULL };
	FILE *f = fopen("/dev/null", "w");

	(void)state;
	assert_non_null(f);
	assert_int_equal(plot_chart(f, "t", "x", labels, 2, &ok, 1), 0);
	assert_int_equal(plot_chart(f, "t", "x", labels, 2, &bad_id, 1), -EINVAL);
	assert_int_equal(plot_chart(f, "t", "x", labels, 2, &empty, 1), -EINVAL);
	assert_int_equal(plot_chart(f, "t", "x", labels, 2, &best, 1), -EINVAL);
	assert_int_equal(plot_chart(f, "t", "x", half, 2, &ok, 1), -EINVAL);
	assert_int_equal(plot_chart(f, "t", "x", labels, 2, &ok, 0), -EINVAL);
	fclose(f);
}

/* Two series over two panels: a line each where it has points, one legend. */
static void test_chart_panels(void **state)
{
	struct plot_point lock[] = { { 31, 12, 12, 12 }, { 310, 8, 8, 8 } };
	struct plot_series tput[] = { { sweep, 9, 4 }, { sweep + 8, 9, PLOT_NO_BEST } };
	struct plot_series locks[] = { { lock, 2, PLOT_NO_BEST }, { NULL, 0, PLOT_NO_BEST } };
	struct plot_panel panels[] = {
		{ "tasks-2", "2 tasks", "ops/s", true, tput },
		{ "lock-tasks-2", "lock, 2 tasks", "lock %", false, locks },
	};
	const char *labels[] = { "ex <6.1>", "ep 6.12" };
	struct svg s;
	FILE *f;
	char *text;
	int fd;

	(void)state;
	strcpy(s.path, "/tmp/test_plot.XXXXXX");
	fd = mkstemp(s.path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	assert_int_equal(plot_chart(f, "t", "batch", labels, 2, panels, 2), 0);
	assert_int_equal(fclose(f), 0);
	text = slurp(&s);
	assert_non_null(strstr(text, "<g class=\"panel\" id=\"lock-tasks-2\">"));
	assert_non_null(strstr(text, "font-size=\"12\">ex &lt;6.1&gt;</text></g>"));
	assert_non_null(strstr(text, "best: ex &lt;6.1&gt;, batch = 155,"));
	free(text);
	if (xmllint()) {
		assert_int_equal(count(&s, "trend", "polyline"), 3);
		assert_int_equal(count(&s, "legend-entry", "g"), 2);
		/* bars in the throughput panel only */
		assert_int_equal(count(&s, "range", "line"), 3 * 18);
	}
	svg_check(&s, 20, 1);
}

static void test_write_error(void **state)
{
	FILE *f = fopen("/dev/full", "w");

	(void)state;
	if (!f)
		skip();
	assert_int_equal(plot_svg(f, "t", "x", "y", sweep, ARRAY_SIZE(sweep), 0), -EIO);
	fclose(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sweep),
		cmocka_unit_test(test_escaping),
		cmocka_unit_test(test_unsorted_no_best),
		cmocka_unit_test(test_decimal_comma_locale),
		cmocka_unit_test(test_invalid),
		cmocka_unit_test(test_chart_invalid),
		cmocka_unit_test(test_chart_panels),
		cmocka_unit_test(test_write_error),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
