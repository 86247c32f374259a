/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The journal's text: what a change writes is what a rollback reads, and damage is refused. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "c.h"
#include "journal.h"

static bool same_journal(const struct journal *a, const struct journal *b)
{
	if (a->n != b->n || a->persist != b->persist || !persist_same(&a->persisted, &b->persisted) ||
	    a->have_wrote != b->have_wrote || a->committed != b->committed)
		return false;
	for (size_t i = 0; i < a->n; i++)
		if (a->sysctl[i] != b->sysctl[i] || a->old[i] != b->old[i] ||
		    (a->have_wrote && a->wrote[i] != b->wrote[i]))
			return false;
	if (a->nzones != b->nzones)
		return false;
	for (size_t i = 0; i < a->nzones; i++) {
		const struct journal_zone *x = &a->zones[i], *y = &b->zones[i];

		if (x->node != y->node || strcmp(x->name, y->name) || x->batch != y->batch ||
		    x->high != y->high || x->high_min != y->high_min || x->high_max != y->high_max ||
		    x->have_inputs != y->have_inputs ||
		    (x->have_inputs && (x->managed != y->managed || x->low != y->low ||
					x->cpus != y->cpus)))
			return false;
	}
	return true;
}

static void test_round_trip(void **state)
{
	const struct journal journals[] = {
		{ .n = 1, .sysctl = { SYSCTL_HIGH_FRACTION }, .old = { 0 } },
		{ .n = 2, .sysctl = { SYSCTL_BATCH, SYSCTL_HIGH_FRACTION }, .old = { 0, 2147483647 } },
		/* --persist with a file that held nothing, then with a file that held both. */
		{ .n = 1, .sysctl = { SYSCTL_BATCH }, .old = { 63 }, .persist = true },
		{ .n = 1, .sysctl = { SYSCTL_FRACTION }, .old = { 8 }, .persist = true,
		  .persisted = { .have = { [SYSCTL_BATCH] = true, [SYSCTL_HIGH_FRACTION] = true },
				 .value = { [SYSCTL_BATCH] = 310, [SYSCTL_HIGH_FRACTION] = 8 } } },
		/* What a change writes, and its commit record. */
		{ .n = 2, .sysctl = { SYSCTL_BATCH, SYSCTL_HIGH_FRACTION }, .old = { 0, 0 },
		  .have_wrote = true, .wrote = { 310, 8 }, .persist = true, .committed = true },
		/* The zones as observed: high up to 6.6, high_min/high_max where printed. */
		{ .n = 1, .sysctl = { SYSCTL_FRACTION }, .old = { 0 }, .have_wrote = true,
		  .wrote = { 8 }, .nzones = 2,
		  .zones = { { .node = 0, .name = "DMA", .batch = 1, .high = 0, .high_min = -1,
			       .high_max = -1 },
			     { .node = 1, .name = "Normal", .batch = 63, .high = 378,
			       .high_min = -1, .high_max = -1 } } },
		{ .n = 1, .sysctl = { SYSCTL_HIGH_FRACTION }, .old = { 0 }, .have_wrote = true,
		  .wrote = { 8 }, .persist = true, .nzones = 1,
		  .zones = { { .node = 3, .name = "Movable", .batch = 15, .high = -1,
			       .high_min = 2147483647, .high_max = 0 } } },
		/* With the inputs the values were computed from. */
		{ .n = 1, .sysctl = { SYSCTL_HIGH_FRACTION }, .old = { 202 }, .have_wrote = true,
		  .wrote = { 9 }, .nzones = 2,
		  .zones = { { .node = 0, .name = "DMA", .batch = 1, .high = -1, .high_min = 9,
			       .high_max = 9, .have_inputs = true, .managed = 3840, .low = 10,
			       .cpus = 2 },
			     { .node = 0, .name = "Normal", .batch = 63, .high = -1,
			       .high_min = 6083, .high_max = 6083, .have_inputs = true,
			       .managed = 9223372036854775807ULL, .low = 0, .cpus = 1 } } },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(journals); i++) {
		char buf[JOURNAL_MAX + 1], why[160];
		size_t len = journal_format(&journals[i], buf, sizeof(buf));
		struct journal back;

		/* not assert_in_range: CMocka 2.0 deprecates it, 1.1 lacks its successors */
		assert_true(len >= 1 && len <= JOURNAL_MAX);
		assert_int_equal(journal_parse(buf, len, &back, why, sizeof(why)), 0);
		assert_true(same_journal(&journals[i], &back));
	}
}

/* Seal body with its checksum line, as journal_format does. */
static size_t sealed(const char *body, char *buf, size_t size)
{
	int n = snprintf(buf, size, "%ssum %016llx\n", body,
			 (unsigned long long)journal_checksum(body, strlen(body)));

	assert_true(n >= 1 && (size_t)n <= size - 1);
	return (size_t)n;
}

#define MAGIC "pcpctl journal v1\n"
#define V2 "pcpctl journal v2\n"
#define V3 "pcpctl journal v3\n"

static void test_refused(void **state)
{
	/* Each with a valid checksum: what is refused is the content. */
	static const struct {
		const char *body, *why;
	} cases[] = {
		{ MAGIC, "records no setting" },
		{ MAGIC "persist\n", "records no setting" },
		{ MAGIC "percpu_pagelist_batch 1\npercpu_pagelist_batch 2\n", "recorded twice" },
		{ MAGIC "percpu_pagelist_size 1\n", "unknown setting" },
		{ MAGIC "percpu_pagelist_batch -1\n", "invalid value" },
		{ MAGIC "percpu_pagelist_batch\n", "malformed line" },
		{ MAGIC "percpu_pagelist_batch 1\npersisted percpu_pagelist_batch 1\n",
		  "before the persist line" },
		{ MAGIC "percpu_pagelist_batch 1\npersist\npersist\n", "persist is recorded twice" },
		{ MAGIC "percpu_pagelist_batch 1\npersist\npersisted percpu_pagelist_size 1\n",
		  "malformed persisted line" },
		{ MAGIC "percpu_pagelist_batch 1\npersist\npersisted percpu_pagelist_batch\n",
		  "malformed persisted line" },
		{ MAGIC "percpu_pagelist_batch 1\npersist\npersisted percpu_pagelist_batch 1\n"
			"persisted percpu_pagelist_batch 2\n", "recorded twice" },
		{ MAGIC "percpu_pagelist_batch 1\npersist\npersisted percpu_pagelist_batch x\n",
		  "invalid value" },
		{ "pcpctl journal v4\npercpu_pagelist_batch 1\n", "does not start with" },
		/* The inputs came with v3, all three together. */
		{ V2 "percpu_pagelist_batch 1\nobserved 0 Normal batch 63 managed 1 low 2 cpus 3\n",
		  "malformed observed" },
		{ V3 "percpu_pagelist_batch 1\nobserved 0 Normal batch 63 managed 1 low 2\n",
		  "malformed observed" },
		{ V3 "percpu_pagelist_batch 1\nobserved 0 Normal batch 63 low 2 cpus 3\n",
		  "malformed observed" },
		{ V3 "percpu_pagelist_batch 1\nobserved 0 Normal batch 63 cpus 3 managed 1 low 2\n",
		  "malformed observed" },
		{ V3 "percpu_pagelist_batch 1\nobserved 0 Normal batch 63 managed -1 low 2 cpus 3\n",
		  "malformed observed" },
		/* v1 journals, written before observations, have none. */
		{ MAGIC "percpu_pagelist_batch 1\nobserved 0 Normal batch 63\n", "v1 journal" },
		{ V2 "observed 0 Normal batch 63\npercpu_pagelist_batch 1\n", "comes before the settings" },
		{ V2 "percpu_pagelist_batch 1\npersist\nobserved 0 Normal batch 63\n",
		  "after the persist line" },
		{ V2 "percpu_pagelist_batch 1\nobserved 0 Normal batch 63\nwrote percpu_pagelist_batch 2\n",
		  "wrote line comes after the observed" },
		{ V2 "percpu_pagelist_batch 1\nobserved 0 Normal batch 63\npercpu_pagelist_high_fraction 0\n",
		  "comes after" },
		{ V2 "percpu_pagelist_batch 1\nobserved 0 Normal batch 63\nobserved 0 Normal batch 1\n",
		  "observed twice" },
		{ V2 "percpu_pagelist_batch 1\nobserved 0 Normal\n", "malformed observed" },
		{ V2 "percpu_pagelist_batch 1\nobserved 0 Normal high 5\n", "malformed observed" },
		{ V2 "percpu_pagelist_batch 1\nobserved 0 Normal batch -1\n", "malformed observed" },
		{ V2 "percpu_pagelist_batch 1\nobserved -1 Normal batch 1\n", "malformed observed" },
		{ V2 "percpu_pagelist_batch 1\nobserved 0 Nor/mal batch 1\n", "malformed observed" },
		{ V2 "percpu_pagelist_batch 1\nobserved 0 NormalNormalNormal batch 1\n",
		  "malformed observed" },
		{ V2 "percpu_pagelist_batch 1\nobserved 0 Normal batch 1 high_min 5\n",
		  "malformed observed" },
		{ V2 "percpu_pagelist_batch 1\nobserved 0 Normal high 5 batch 1\n",
		  "malformed observed" },
		{ V2 "percpu_pagelist_batch 1\nobserved 0 Normal batch 1 batch 1\n",
		  "malformed observed" },
		{ V2 "percpu_pagelist_batch 1\nobserved 0 Normal batch 1 size 1\n",
		  "malformed observed" },
		{ MAGIC "percpu_pagelist_batch 1\nwrote percpu_pagelist_high_fraction 8\n",
		  "names no recorded setting" },
		{ MAGIC "percpu_pagelist_batch 1\nwrote percpu_pagelist_batch 2\n"
			"wrote percpu_pagelist_batch 3\n", "recorded twice" },
		{ MAGIC "percpu_pagelist_batch 1\npercpu_pagelist_high_fraction 0\n"
			"wrote percpu_pagelist_batch 2\n", "some settings only" },
		{ MAGIC "percpu_pagelist_batch 1\nwrote percpu_pagelist_batch 2\n"
			"percpu_pagelist_high_fraction 0\n", "comes after" },
		{ MAGIC "percpu_pagelist_batch 1\ncommitted\npersist\n", "follows the committed" },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char buf[JOURNAL_MAX + 1], why[160] = "";
		size_t len = sealed(cases[i].body, buf, sizeof(buf));
		struct journal j;

		if (journal_parse(buf, len, &j, why, sizeof(why)) != -EBADMSG ||
		    !strstr(why, cases[i].why))
			fail_msg("case %zu: \"%s\", expected \"%s\"", i, why, cases[i].why);
	}
}

/* A journal of an older pcpctl, without observations, is still one to roll back. */
static void test_v1(void **state)
{
	char buf[JOURNAL_MAX + 1], why[160] = "";
	size_t len = sealed(MAGIC "percpu_pagelist_fraction 0\nwrote percpu_pagelist_fraction 8\n",
			    buf, sizeof(buf));
	struct journal j;

	(void)state;
	assert_int_equal(journal_parse(buf, len, &j, why, sizeof(why)), 0);
	assert_int_equal(j.n, 1);
	assert_int_equal(j.sysctl[0], SYSCTL_FRACTION);
	assert_int_equal(j.wrote[0], 8);
	assert_int_equal(j.nzones, 0);
}

/* A v2 journal's observations, made before v3 recorded their inputs, still count. */
static void test_v2(void **state)
{
	char buf[JOURNAL_MAX + 1], why[160] = "";
	size_t len = sealed(V2 "percpu_pagelist_high_fraction 202\n"
			    "wrote percpu_pagelist_high_fraction 9\n"
			    "observed 0 DMA batch 1 high_min 9 high_max 9\n", buf, sizeof(buf));
	struct journal j;

	(void)state;
	assert_int_equal(journal_parse(buf, len, &j, why, sizeof(why)), 0);
	assert_int_equal(j.nzones, 1);
	assert_int_equal(j.zones[0].high_max, 9);
	assert_false(j.zones[0].have_inputs);
}

/* A machine with as many zones as a journal holds writes a journal that holds them. */
static void test_most_zones(void **state)
{
	static struct journal big, back;
	static char buf[JOURNAL_MAX + 1];
	char why[160] = "";
	size_t len;

	(void)state;
	big = (struct journal){ .n = 1, .sysctl = { SYSCTL_BATCH }, .old = { 0 }, .have_wrote = true,
				.wrote = { 310 }, .persist = true, .committed = true,
				.nzones = JOURNAL_ZONES_MAX };
	for (int i = 0; i < JOURNAL_ZONES_MAX; i++)
		big.zones[i] = (struct journal_zone){ .node = 1000000 + i, .name = "Movable",
						      .batch = 2147483647, .high = 2147483647,
						      .high_min = 2147483647, .high_max = 2147483647,
						      .have_inputs = true,
						      .managed = 9223372036854775807ULL,
						      .low = 9223372036854775807ULL,
						      .cpus = 2147483647 };
	len = journal_format(&big, buf, sizeof(buf));
	assert_true(len >= 1 && len <= JOURNAL_MAX);
	assert_int_equal(journal_parse(buf, len, &back, why, sizeof(why)), 0);
	assert_true(same_journal(&big, &back));
}

/* A change to any byte of a sealed journal, or its truncation, is caught. */
static void test_damage(void **state)
{
	const struct journal good = {
		.n = 1, .sysctl = { SYSCTL_BATCH }, .old = { 63 }, .persist = true,
		.persisted = { .have = { [SYSCTL_BATCH] = true }, .value = { [SYSCTL_BATCH] = 310 } },
	};
	char text[JOURNAL_MAX + 1];
	size_t len = journal_format(&good, text, sizeof(text));

	(void)state;
	for (size_t at = 0; at < len; at++) {
		char buf[JOURNAL_MAX + 1], why[160];
		struct journal j;

		memcpy(buf, text, len + 1);
		buf[at] ^= 0x01;
		assert_int_equal(journal_parse(buf, len, &j, why, sizeof(why)), -EBADMSG);
		memcpy(buf, text, len + 1);
		buf[at] = '\0';
		assert_int_equal(journal_parse(buf, at, &j, why, sizeof(why)), -EBADMSG);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_v1),
		cmocka_unit_test(test_v2),
		cmocka_unit_test(test_most_zones),
		cmocka_unit_test(test_damage),
	};

	return cmocka_run_group_tests_name("journal", tests, NULL, NULL);
}
