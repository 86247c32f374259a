/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target: vmstat_parse, the reader of /proc/vmstat, and beside
 * it the readers of /proc/stat's CPU ticks and /proc/meminfo's MemFree (the
 * live system's and a --sysroot's alike).  The input, up to its first NUL,
 * is the file's text.  Each counter a text it takes reports stands on a
 * line "name value" of its own with that value; a text it refuses reports
 * nothing.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "kernel.h"
#include "sysload.h"

/* Does text have the line "name value", value in decimal? */
static bool has_line(const char *text, const char *name, unsigned long long value)
{
	size_t n = strlen(name);

	for (const char *l = text; l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		char *end;

		if (strncmp(l, name, n) != 0 || l[n] != ' ' || l[n + 1] < '0' || l[n + 1] > '9')
			continue;
		errno = 0;
		if (strtoull(l + n + 1, &end, 10) == value && errno == 0 &&
		    (*end == '\n' || *end == '\0'))
			return true;
	}
	return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	unsigned long long busy = 1, steal = 1;
	struct vm_counters c;
	int rc;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	memset(&c, 0xa5, sizeof(c));
	rc = vmstat_parse(text, &c);
	CHECK(rc == 0 || rc == -EINVAL);
	CHECK(rc == 0 || c.present == 0);
	CHECK(c.present < (1u << NVMCOUNTERS));
	for (int v = 0; v < NVMCOUNTERS; v++)
		if (c.present & (1u << v))
			CHECK(has_line(text, vm_counter_name(v), c.value[v]));

	rc = stat_parse_ticks(text, &busy, &steal);
	CHECK(rc == 0 || rc == -EINVAL);
	CHECK(rc != 0 || strncmp(text, "cpu ", 4) == 0);
	CHECK(rc == 0 || (busy == 1 && steal == 1));
	CHECK(meminfo_memfree_kib(text) == -1 || strstr(text, "MemFree:"));
	free(text);
	return 0;
}
