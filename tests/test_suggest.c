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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_edit),
		cmocka_unit_test(test_suggest),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
