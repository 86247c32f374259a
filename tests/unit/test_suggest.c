/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "c.h"
#include "suggest.h"

static void test_one_edit(void **state)
{
	static const struct {
		const char *a, *b;
		bool apart;
	} cases[] = {
		{ "status", "stats", true },	/* deleted */
		{ "set", "sett", true },	/* inserted */
		{ "show", "shaw", true },	/* replaced */
		{ "--json", "--josn", true },	/* swapped */
		{ "reset", "erset", true },	/* swapped at the start */
		{ "sweep", "sweeep", true },
		{ "x", "", true },
		{ "show", "show", false },
		{ "", "", false },
		{ "show", "sh", false },
		{ "status", "sutats", false },	/* two apart */
		{ "--json", "--jsno", true },	/* swapped at the end */
		{ "rollback", "rolback", true },
		{ "frobnicate", "set", false },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		if (one_edit_apart(cases[i].a, cases[i].b) != cases[i].apart)
			fail_msg("%s ~ %s: expected %d", cases[i].a, cases[i].b, cases[i].apart);
		if (one_edit_apart(cases[i].b, cases[i].a) != cases[i].apart)
			fail_msg("%s ~ %s: expected %d", cases[i].b, cases[i].a, cases[i].apart);
	}
}

static void test_suggest(void **state)
{
	static const char *const commands[] = { "show", "status", "set", "reset", "rollback",
						"sweep" };
	static const char *const options[] = { "--raw", "--run", "--runs" };

	(void)state;
	assert_string_equal(suggest_name("stauts", commands, ARRAY_SIZE(commands)), "status");
	assert_string_equal(suggest_name("rest", commands, ARRAY_SIZE(commands)), "reset");
	assert_string_equal(suggest_name("swep", commands, ARRAY_SIZE(commands)), "sweep");
	assert_null(suggest_name("frobnicate", commands, ARRAY_SIZE(commands)));
	/* "stat" is two edits from status and from set. */
	assert_null(suggest_name("stat", commands, ARRAY_SIZE(commands)));
	assert_string_equal(suggest_name("st", commands, ARRAY_SIZE(commands)), "set");
	assert_string_equal(suggest_name("sat", commands, ARRAY_SIZE(commands)), "set");
	/* Two names one edit away: no guess. */
	assert_null(suggest_name("--rus", options, ARRAY_SIZE(options)));
	assert_string_equal(suggest_name("--rw", options, ARRAY_SIZE(options)), "--raw");
}

static void test_suggest_fold(void **state)
{
	static const char *const commands[] = { "show", "status", "set", "reset" };
	static const char *const zones[] = { "DMA", "DMA32", "Normal", "HighMem", "Movable" };
	static const char *const columns[] = { "HIGH", "HIGH_MIN", "BATCH", "COUNT" };

	(void)state;
	assert_string_equal(suggest_name_fold("SHOW", commands, ARRAY_SIZE(commands)), "show");
	assert_string_equal(suggest_name_fold("Stauts", commands, ARRAY_SIZE(commands)), "status");
	assert_string_equal(suggest_name_fold("Norml", zones, ARRAY_SIZE(zones)), "Normal");
	assert_string_equal(suggest_name_fold("highmen", zones, ARRAY_SIZE(zones)), "HighMem");
	assert_string_equal(suggest_name_fold("HGIH", columns, ARRAY_SIZE(columns)), "HIGH");
	assert_string_equal(suggest_name_fold("count", columns, ARRAY_SIZE(columns)), "COUNT");
	/* DMA3 is one edit from DMA and from DMA32: no guess. */
	assert_null(suggest_name_fold("DMA3", zones, ARRAY_SIZE(zones)));
	assert_null(suggest_name_fold("frobnicate", commands, ARRAY_SIZE(commands)));
	/* Longer than any name: no guess, no overflow. */
	assert_null(suggest_name_fold("a-very-long-typo-a-very-long-typo-a-very-long-typo-a-very-long-typo-x",
				      commands, ARRAY_SIZE(commands)));
	/* The case-sensitive suggestion stays as it was. */
	assert_null(suggest_name("SHOW", commands, ARRAY_SIZE(commands)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_edit),
		cmocka_unit_test(test_suggest),
		cmocka_unit_test(test_suggest_fold),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
