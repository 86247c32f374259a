/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target: the parsers of command-line and sysctl values.  The
 * first byte selects the parser (and its bounds); the rest, up to the first
 * NUL, is the string it parses.  Each result is checked against what the
 * parser's header promises, and any violation aborts.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c.h"
#include "check.h"
#include "columns.h"
#include "idlist.h"
#include "kernel.h"
#include "numparse.h"
#include "sweep.h"

/* A table in the style of show's, with names that prefix one another. */
static const struct coldesc columns[] = {
	{ "NODE", 0, 0, 0, "node", 0 },
	{ "ZONE", 0, 0, 0, "zone", 0 },
	{ "CPU", 0, 0, 0, "cpu", 0 },
	{ "CPUS", 0, 0, 0, "cpus", 0 },
	{ "HIGH", 0, 0, 0, "high", 0 },
	{ "HIGH_MIN", 0, 0, 0, "high_min", 0 },
	{ "BATCH", 0, 0, 0, "batch", 0 },
};

/* Bounds for parse_long, chosen by the selector byte. */
static const long bounds[][2] = {
	{ LONG_MIN, LONG_MAX },
	{ 0, LONG_MAX },
	{ 0, INT_MAX },
	{ INT_MIN, INT_MAX },
	{ 1, 1007 },
	{ -8, -8 },
	{ 0, 0 },
	{ 8, 4 },	/* empty: every number is out of range */
};

static bool all_digits(const char *s, size_t n)
{
	if (n == 0)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isdigit((unsigned char)s[i]))
			return false;
	return true;
}

static void fuzz_parse_long(const char *s, unsigned sel)
{
	const long *b = bounds[sel % ARRAY_SIZE(bounds)];
	long v = 12345;
	int rc = parse_long(s, b[0], b[1], &v);

	CHECK(rc == 0 || rc == -EINVAL || rc == -ERANGE);
	if (rc == 0) {
		bool neg = s[0] == '-';

		CHECK(v >= b[0] && v <= b[1]);
		/* Only digits after an optional '-', which needs min < 0 ("-0" too). */
		CHECK(all_digits(s + neg, strlen(s + neg)));
		CHECK(!neg || b[0] < 0);
		errno = 0;
		CHECK(strtol(s, NULL, 10) == v && errno == 0);
	} else {
		CHECK(v == 12345);	/* untouched on error */
		/* A well-formed number is a range error, never a syntax error. */
		if (all_digits(s + (s[0] == '-'), strlen(s + (s[0] == '-'))))
			CHECK(rc == -ERANGE);
	}
}

static void fuzz_parse_seconds(const char *s, unsigned sel)
{
	static const double lims[][2] = { { 0, 1e9 }, { 0.01, 86400 }, { 0, 0 }, { 1, 2 } };
	const double *l = lims[sel % ARRAY_SIZE(lims)];
	double v = -1;
	int rc = parse_seconds(s, l[0], l[1], &v);

	CHECK(rc == 0 || rc == -EINVAL || rc == -ERANGE);
	if (rc == 0)
		CHECK(isfinite(v) && v >= l[0] && v <= l[1]);
	else
		CHECK(v == -1);
}

static void fuzz_idlist(const char *s)
{
	struct idlist set = { 0 };
	int rc = idlist_parse(s, &set);

	CHECK(rc == 0 || rc == -EINVAL || rc == -ERANGE || rc == -ENOMEM);
	if (rc) {
		CHECK(set.bits == NULL && set.nbits == 0);
		return;
	}
	CHECK(set.nbits > 0 && set.nbits % 8 == 0 && set.nbits <= IDLIST_MAX_ID + 8);
	CHECK(!idlist_has(&set, -1) && !idlist_has(&set, LONG_MIN));
	CHECK(!idlist_has(&set, (long)set.nbits) && !idlist_has(&set, LONG_MAX));
	/* Every id the text names is in the set. */
	for (const char *p = s; *p;) {
		char *end;
		long lo = strtol(p, &end, 10), hi = lo;

		if (*end == '-')
			hi = strtol(end + 1, &end, 10);
		CHECK(lo >= 0 && hi >= lo && hi <= IDLIST_MAX_ID);
		CHECK(idlist_has(&set, lo) && idlist_has(&set, hi));
		CHECK(idlist_has(&set, lo + (hi - lo) / 2));
		p = *end == ',' ? end + 1 : end;
	}
	/* The largest bit in use is the last byte's. */
	bool any = false;

	for (long id = (long)set.nbits - 8; id < (long)set.nbits; id++)
		any = any || idlist_has(&set, id);
	CHECK(any);
	idlist_free(&set);
	CHECK(set.bits == NULL && set.nbits == 0);
	idlist_free(&set);	/* twice is harmless */
}

static void fuzz_sweep(const char *s)
{
	long *values = NULL;
	size_t n = 0;
	int rc = sweep_parse_values(s, &values, &n);

	CHECK(rc == 0 || rc == -EINVAL || rc == -ERANGE || rc == -ENOMEM);
	if (rc) {
		CHECK(values == NULL && n == 0);
		return;
	}
	CHECK(n >= 1 && n <= SWEEP_MAX_POINTS && values != NULL);
	for (size_t i = 0; i < n; i++)
		CHECK(values[i] >= 0 && values[i] <= INT_MAX);
	if (strchr(s, ':'))
		for (size_t i = 1; i < n; i++)
			CHECK(values[i] > values[i - 1]);
	free(values);
}

static void fuzz_colsel(const char *s, unsigned sel)
{
	static const char *const defaults[] = { "NODE,ZONE,CPU,HIGH,BATCH", "cpu", "HIGH_MIN,node" };
	struct out_opts opts = {
		.columns = (sel & 1) ? NULL : s,
		.all_columns = (sel & 6) == 6,
	};
	const char *def = defaults[(sel >> 3) % ARRAY_SIZE(defaults)];
	struct colsel cs = { (size_t *)1, 99 };
	const char *bad = (const char *)1;
	int rc = colsel_make(columns, ARRAY_SIZE(columns), def, &opts, &cs, &bad);

	CHECK(rc == 0 || rc == -EINVAL || rc == -ENOMEM);
	if (rc) {
		CHECK(cs.idx == NULL && cs.n == 0);
		if (rc == -EINVAL) {
			/* bad points into the list that held the unknown name. */
			CHECK(bad != NULL);
			CHECK((bad >= s && bad <= s + strlen(s)) ||
			      (bad >= def && bad <= def + strlen(def)));
		}
		return;
	}
	CHECK(bad == NULL);
	if (opts.all_columns)
		CHECK(cs.n == ARRAY_SIZE(columns));
	CHECK(cs.n >= 1);
	for (size_t i = 0; i < cs.n; i++)
		CHECK(cs.idx[i] < ARRAY_SIZE(columns));
	colsel_free(&cs);
	CHECK(cs.idx == NULL && cs.n == 0);
}

static void fuzz_sysctl_value(const char *s)
{
	long v = 12345;
	int rc = sysctl_parse_value(s, &v);

	CHECK(rc == 0 || rc == -EINVAL);
	if (rc == 0)
		CHECK(v >= INT_MIN && v <= INT_MAX);
	else
		CHECK(v == 12345);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned sel;
	char *s;

	if (size < 1)
		return 0;
	sel = data[0];
	/* An exact-size copy: ASan catches any read past the NUL. */
	s = malloc(size);
	if (!s)
		return 0;
	memcpy(s, data + 1, size - 1);
	s[size - 1] = '\0';

	switch (sel % 7) {
	case 0: fuzz_parse_long(s, sel / 7); break;
	case 1: fuzz_parse_seconds(s, sel / 7); break;
	case 2: fuzz_idlist(s); break;
	case 3: fuzz_sweep(s); break;
	case 4: fuzz_colsel(s, sel / 7); break;
	case 5: fuzz_sysctl_value(s); break;
	case 6: fuzz_idlist(s); fuzz_sweep(s); break;
	}
	free(s);
	return 0;
}
