/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The Prometheus text of real kernels' zoneinfo. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fixture.h"

#include "kernel.h"
#include "openmetrics.h"

static char *render(const char *fixture, const bool have[NSYSCTLS], const long value[NSYSCTLS],
		    bool per_cpu)
{
	struct zoneinfo zi;
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	assert_non_null(out);
	parse_fixture(fixture, &zi);
	assert_int_equal(openmetrics_write(out, &zi, have, value, per_cpu, 0), 0);
	assert_int_equal(fclose(out), 0);
	zoneinfo_free(&zi);
	return text;
}

static size_t count_lines(const char *text, const char *prefix)
{
	size_t n = 0, len = strlen(prefix);

	for (const char *l = text; *l; l = strchr(l, '\n') + 1)
		n += strncmp(l, prefix, len) == 0;
	return n;
}

/*
 * Every sample's family has HELP and TYPE gauge lines before its first
 * sample, and each family appears once, as both formats require.
 */
static void assert_well_formed(const char *text)
{
	char family[128] = "";

	for (const char *l = text; *l; l = strchr(l, '\n') + 1) {
		size_t n = strcspn(l, "{ \n");

		assert_non_null(strchr(l, '\n'));
		if (strncmp(l, "# HELP ", 7) == 0) {
			size_t fn = strcspn(l + 7, " ");
			char type[160];

			assert_true(fn < sizeof(family));
			memcpy(family, l + 7, fn);
			family[fn] = '\0';
			snprintf(type, sizeof(type), "# TYPE %s gauge\n", family);
			assert_ptr_equal(strstr(l, type), strchr(l, '\n') + 1);
			/* The family does not come back later. */
			assert_null(strstr(strchr(l, '\n') + 1, l));
			continue;
		}
		if (l[0] == '#')
			continue;
		assert_int_equal(n, strlen(family));
		assert_memory_equal(l, family, n);
	}
	assert_non_null(strstr(text, "# EOF\n"));
	assert_string_equal(strstr(text, "# EOF\n"), "# EOF\n");
}

static void test_zone_gauges_6_12(void **state)
{
	const bool have[NSYSCTLS] = { [SYSCTL_HIGH_FRACTION] = true };
	const long value[NSYSCTLS] = { [SYSCTL_HIGH_FRACTION] = 8 };
	char *text = render("debian-6.12-4cpu-2node.zoneinfo", have, value, false);

	(void)state;
	assert_well_formed(text);
	/* Four populated zones of ten; each gauge once per zone. */
	assert_int_equal(count_lines(text, "pcpctl_pcp_pages{"), 4);
	assert_int_equal(count_lines(text, "pcpctl_pcp_cpus{"), 4);
	assert_non_null(strstr(text, "\npcpctl_pcp_pages{node=\"0\",zone=\"DMA32\"} 7990\n"));
	assert_non_null(strstr(text, "\npcpctl_pcp_pages{node=\"1\",zone=\"Normal\"} 4474\n"));
	assert_non_null(strstr(text, "\npcpctl_pcp_cpus{node=\"1\",zone=\"Normal\"} 4\n"));
	assert_non_null(strstr(text, "\npcpctl_pcp_batch{node=\"0\",zone=\"DMA\"} 1\n"));
	assert_non_null(strstr(text, "\npcpctl_pcp_high{node=\"0\",zone=\"DMA32\"} 7214\n"));
	assert_non_null(strstr(text, "\npcpctl_pcp_high{node=\"1\",zone=\"DMA32\"} 3445\n"));
	/* 6.12 prints no high_min/high_max; no per-CPU series without the flag. */
	assert_null(strstr(text, "high_min"));
	assert_null(strstr(text, "pcpctl_pcp_cpu_"));
	/* The sysctls: one this kernel has, none for those it lacks. */
	assert_non_null(strstr(text, "\n# TYPE pcpctl_vm_percpu_pagelist_high_fraction gauge\n"
				     "pcpctl_vm_percpu_pagelist_high_fraction 8\n"));
	assert_null(strstr(text, "pcpctl_vm_percpu_pagelist_batch"));
	assert_null(strstr(text, "pcpctl_vm_percpu_pagelist_fraction"));
	free(text);
}

static void test_high_min_max_6_18(void **state)
{
	const bool have[NSYSCTLS] = { [SYSCTL_BATCH] = true, [SYSCTL_HIGH_FRACTION] = true };
	const long value[NSYSCTLS] = { [SYSCTL_BATCH] = 310, [SYSCTL_HIGH_FRACTION] = 0 };
	char *text = render("live-6.18-2cpu.zoneinfo", have, value, false);

	(void)state;
	assert_well_formed(text);
	assert_non_null(strstr(text, "\npcpctl_pcp_high_min{node=\"0\",zone=\"Normal\"} 6366\n"));
	assert_non_null(strstr(text, "\npcpctl_pcp_high_max{node=\"0\",zone=\"Normal\"} 73728\n"));
	assert_non_null(strstr(text, "\npcpctl_pcp_high{node=\"0\",zone=\"Normal\"} 12427\n"));
	assert_non_null(strstr(text, "\npcpctl_pcp_pages{node=\"0\",zone=\"Normal\"} 16674\n"));
	assert_non_null(strstr(text, "\npcpctl_vm_percpu_pagelist_batch 310\n"));
	assert_non_null(strstr(text, "\npcpctl_vm_percpu_pagelist_high_fraction 0\n"));
	free(text);
}

static void test_per_cpu_series(void **state)
{
	const bool have[NSYSCTLS] = { [SYSCTL_FRACTION] = true };
	const long value[NSYSCTLS] = { [SYSCTL_FRACTION] = 0 };
	char *text = render("debian-6.1-cpuless-node.zoneinfo", have, value, true);
	struct zoneinfo zi;
	size_t pagesets = 0;

	(void)state;
	assert_well_formed(text);
	parse_fixture("debian-6.1-cpuless-node.zoneinfo", &zi);
	for (size_t i = 0; i < zi.nzones; i++)
		pagesets += zi.zones[i].npagesets;
	assert_int_equal(count_lines(text, "pcpctl_pcp_cpu_pages{"), pagesets);
	assert_int_equal(count_lines(text, "pcpctl_pcp_cpu_high{"), pagesets);
	assert_int_equal(count_lines(text, "pcpctl_pcp_cpu_batch{"), pagesets);
	/* Each pageset's numbers, under its node, zone and cpu. */
	for (size_t i = 0; i < zi.nzones; i++) {
		const struct zi_zone *z = &zi.zones[i];

		for (size_t j = 0; j < z->npagesets; j++) {
			char line[160];

			snprintf(line, sizeof(line), "\npcpctl_pcp_cpu_high{node=\"%d\",zone=\"%s\",cpu=\"%d\"} %d\n",
				 z->node, z->name, z->pagesets[j].cpu, z->pagesets[j].value[ZI_HIGH]);
			assert_non_null(strstr(text, line));
		}
	}
	assert_non_null(strstr(text, "\npcpctl_vm_percpu_pagelist_fraction 0\n"));
	zoneinfo_free(&zi);
	free(text);
}

static void test_journal(void **state)
{
	const bool have[NSYSCTLS] = { 0 };
	const long value[NSYSCTLS] = { 0 };
	struct zoneinfo zi;

	(void)state;
	parse_fixture("debian-6.1-1cpu.zoneinfo", &zi);
	for (int journal = -1; journal <= 1; journal++) {
		char *text = NULL;
		size_t len = 0;
		FILE *out = open_memstream(&text, &len);

		assert_non_null(out);
		assert_int_equal(openmetrics_write(out, &zi, have, value, false, journal), 0);
		assert_int_equal(fclose(out), 0);
		if (journal < 0) {
			assert_null(strstr(text, "pcpctl_journal_present"));
		} else {
			assert_non_null(strstr(text, "\n# TYPE pcpctl_journal_present gauge\n"));
			assert_non_null(strstr(text, journal ? "\npcpctl_journal_present 1\n# EOF\n" :
						       "\npcpctl_journal_present 0\n# EOF\n"));
		}
		free(text);
	}
	zoneinfo_free(&zi);
}

static void test_write_error(void **state)
{
	const bool have[NSYSCTLS] = { 0 };
	const long value[NSYSCTLS] = { 0 };
	FILE *full = fopen("/dev/full", "w");
	struct zoneinfo zi;

	(void)state;
	assert_non_null(full);
	setvbuf(full, NULL, _IONBF, 0);
	parse_fixture("debian-6.1-1cpu.zoneinfo", &zi);
	assert_int_equal(openmetrics_write(full, &zi, have, value, true, 1), -EIO);
	fclose(full);
	zoneinfo_free(&zi);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_zone_gauges_6_12),
		cmocka_unit_test(test_journal),
		cmocka_unit_test(test_high_min_max_6_18),
		cmocka_unit_test(test_per_cpu_series),
		cmocka_unit_test(test_write_error),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
