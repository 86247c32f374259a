/* SPDX-License-Identifier: GPL-2.0-or-later */
/* For CMocka tests: a zoneinfo fixture parsed, or the test failed with why. */
#ifndef PCPCTL_TESTS_FIXTURE_H
#define PCPCTL_TESTS_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>

#include "sysroot.h"
#include "zoneinfo.h"

static inline void parse_fixture(const char *name, struct zoneinfo *zi)
{
	char path[512];
	struct zi_error err;
	char *text;
	size_t len;

	snprintf(path, sizeof(path), "%s/zoneinfo/%s", FIXTURE_DIR, name);
	assert_int_equal(read_whole_file(path, &text, &len), 0);
	if (zoneinfo_parse(text, len, zi, &err) != 0)
		fail_msg("%s:%zu: %s", name, err.line, err.message);
	free(text);
}

#endif
