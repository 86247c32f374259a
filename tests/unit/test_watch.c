/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The interval mode's arithmetic and writers on real zoneinfo and vmstat. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fixture.h"

#include "interval.h"
#include "kernel.h"

static const struct watch_zone *zone_of(const struct watch_sample *s, int node, const char *name)
{
	for (size_t i = 0; i < s->nzones; i++)
		if (s->zones[i].node == node && strcmp(s->zones[i].name, name) == 0)
			return &s->zones[i];
	fail_msg("no node %d zone %s in the sample", node, name);
	return NULL;
}

static void test_summary_of_numa_fixture(void **state)
{
	struct watch_sample s = { 0 };
	const struct watch_zone *z;
	struct zoneinfo zi;

	(void)state;
	parse_fixture("debian-6.12-4cpu-2node.zoneinfo", &zi);
	assert_int_equal(watch_sample_build(&zi, NULL, false, &s), 0);
	/* Ten zones in the file, four populated. */
	assert_int_equal(s.nzones, 4);
	assert_int_equal(s.ncpus, 0);
	z = zone_of(&s, 0, "DMA32");
	assert_int_equal(z->cpus, 4);
	assert_int_equal(z->pages, 2807 + 2528 + 1924 + 731);
	assert_int_equal(z->batch_min, 63);
	assert_int_equal(z->batch_max, 63);
	assert_int_equal(z->high_lo, 7025);
	assert_int_equal(z->high_hi, 7214);
	assert_float_equal(z->fill_mean,
			   100.0 * (2807.0 / 7214 + 2528.0 / 7088 + 1924.0 / 7025 + 731.0 / 7025) / 4,
			   1e-9);
	assert_float_equal(z->fill_max, 100.0 * 2807 / 7214, 1e-9);
	/* high 0 (not yet set, 6.7+) on three CPUs: only CPU 1 has a fill. */
	z = zone_of(&s, 1, "DMA32");
	assert_int_equal(z->high_lo, 0);
	assert_float_equal(z->fill_mean, 100.0 * 268 / 3445, 1e-9);
	assert_float_equal(z->fill_max, 100.0 * 268 / 3445, 1e-9);
	/* No CPU has high set in DMA: no fill at all. */
	z = zone_of(&s, 0, "DMA");
	assert_true(isnan(z->fill_mean));
	assert_true(isnan(z->fill_max));
	watch_sample_free(&s);
	zoneinfo_free(&zi);
}

static bool only_normal(const void *arg, const struct zi_zone *z)
{
	(void)arg;
	return strcmp(z->name, "Normal") == 0;
}

static bool odd_cpu(const void *arg, int cpu)
{
	(void)arg;
	return cpu % 2 == 1;
}

static void test_selection_and_per_cpu(void **state)
{
	const struct watch_select sel = { only_normal, odd_cpu, NULL };
	struct watch_sample s = { 0 };
	struct zoneinfo zi;

	(void)state;
	parse_fixture("debian-6.12-4cpu-2node.zoneinfo", &zi);
	assert_int_equal(watch_sample_build(&zi, &sel, true, &s), 0);
	assert_int_equal(s.nzones, 1);
	assert_int_equal(s.zones[0].node, 1);
	assert_int_equal(s.zones[0].cpus, 2);
	assert_int_equal(s.zones[0].pages, 2113 + 483);
	assert_int_equal(s.ncpus, 2);
	assert_int_equal(s.cpus[0].cpu, 1);
	assert_int_equal(s.cpus[0].count, 2113);
	assert_int_equal(s.cpus[0].high, 3817);
	assert_int_equal(s.cpus[1].cpu, 3);
	assert_int_equal(s.cpus[1].batch, 63);
	assert_float_equal(s.cpus[1].fill, 100.0 * 483 / 3933, 1e-9);
	assert_int_equal(s.cpus[1].zone, 0);
	watch_sample_free(&s);
	zoneinfo_free(&zi);
}

static struct zi_pageset *pageset_of(struct zoneinfo *zi, int node, const char *zone, int cpu)
{
	for (size_t i = 0; i < zi->nzones; i++)
		for (size_t j = 0; j < zi->zones[i].npagesets; j++)
			if (zi->zones[i].node == node && strcmp(zi->zones[i].name, zone) == 0 &&
			    zi->zones[i].pagesets[j].cpu == cpu)
				return &zi->zones[i].pagesets[j];
	fail_msg("no pageset %d/%s/%d", node, zone, cpu);
	return NULL;
}

/* Two samples of the fixture, the second with node 1 Normal CPU 3 holding 100 fewer pages. */
static void two_samples(bool per_cpu, const struct watch_select *first_sel,
			struct watch_sample *prev, struct watch_sample *cur)
{
	struct zoneinfo zi;

	parse_fixture("debian-6.12-4cpu-2node.zoneinfo", &zi);
	assert_int_equal(watch_sample_build(&zi, first_sel, per_cpu, prev), 0);
	pageset_of(&zi, 1, "Normal", 3)->value[ZI_COUNT] -= 100;
	assert_int_equal(watch_sample_build(&zi, NULL, per_cpu, cur), 0);
	zoneinfo_free(&zi);
	prev->mono = (struct timespec){ 10, 0 };
	cur->mono = (struct timespec){ 12, 500000000 };
}

static void test_changes(void **state)
{
	const struct watch_select sel = { only_normal, NULL, NULL };
	struct watch_sample prev = { 0 }, cur = { 0 };
	long long d = 1;

	(void)state;
	two_samples(true, NULL, &prev, &cur);
	for (size_t i = 0; i < cur.nzones; i++) {
		assert_true(watch_zone_change(&prev, &cur, i, &d));
		assert_int_equal(d, strcmp(cur.zones[i].name, "Normal") == 0 ? -100 : 0);
	}
	for (size_t i = 0; i < cur.ncpus; i++) {
		bool moved = cur.cpus[i].cpu == 3 && strcmp(cur.zones[cur.cpus[i].zone].name, "Normal") == 0;

		assert_true(watch_cpu_change(&prev, &cur, i, &d));
		assert_int_equal(d, moved ? -100 : 0);
	}
	watch_sample_free(&prev);
	watch_sample_free(&cur);

	/* Zones that were not in the earlier sample (hotplug) have no change. */
	two_samples(true, &sel, &prev, &cur);
	assert_int_equal(prev.nzones, 1);
	for (size_t i = 0; i < cur.nzones; i++) {
		bool normal = strcmp(cur.zones[i].name, "Normal") == 0;

		assert_int_equal(watch_zone_change(&prev, &cur, i, &d), normal);
	}
	for (size_t i = 0; i < cur.ncpus; i++) {
		bool normal = strcmp(cur.zones[cur.cpus[i].zone].name, "Normal") == 0;

		assert_int_equal(watch_cpu_change(&prev, &cur, i, &d), normal);
	}
	watch_sample_free(&prev);
	watch_sample_free(&cur);
}

static void read_vmstat_fixture(struct vm_counters *c)
{
	char path[512];
	char *text;
	size_t len;

	snprintf(path, sizeof(path), "%s/vmstat/live-6.18-2cpu.vmstat", FIXTURE_DIR);
	assert_int_equal(read_whole_file(path, &text, &len), 0);
	assert_int_equal(vmstat_parse(text, c), 0);
	free(text);
}

/* MemFree, which FREE_PCT divides by, from a real /proc/meminfo. */
/* Memory onlined between two samples: the zone's managed pages and their change. */
static void test_managed_change(void **state)
{
	struct watch_sample prev = { 0 }, cur = { 0 };
	struct zoneinfo zi;
	long long d = 0;

	(void)state;
	parse_fixture("debian-6.12-4cpu-2node.zoneinfo", &zi);
	assert_int_equal(watch_sample_build(&zi, NULL, false, &prev), 0);
	for (size_t i = 0; i < zi.nzones; i++)
		if (zi.zones[i].node == 1 && strcmp(zi.zones[i].name, "Normal") == 0)
			zi.zones[i].field[ZI_MANAGED] += 32768;
	assert_int_equal(watch_sample_build(&zi, NULL, false, &cur), 0);
	zoneinfo_free(&zi);
	assert_int_equal(zone_of(&cur, 1, "Normal")->managed, 253315 + 32768);
	for (size_t i = 0; i < cur.nzones; i++) {
		assert_true(watch_managed_change(&prev, &cur, i, &d));
		assert_int_equal(d, cur.zones[i].node == 1 && !strcmp(cur.zones[i].name, "Normal") ?
				    32768 : 0);
	}
	watch_sample_free(&prev);
	watch_sample_free(&cur);
}

static void test_meminfo_memfree(void **state)
{
	char *text;
	size_t len;

	(void)state;
	assert_int_equal(read_whole_file(FIXTURE_DIR "/proc/live-6.18-2cpu/proc/meminfo", &text, &len), 0);
	assert_int_equal(meminfo_memfree_kib(text), 21073628);
	free(text);
	assert_int_equal(meminfo_memfree_kib("MemTotal: 8 kB\nMemFree:   12 kB\n"), 12);
	assert_int_equal(meminfo_memfree_kib("MemTotal: 8 kB\n"), -1);
	assert_int_equal(meminfo_memfree_kib("MemFree: x kB\n"), -1);
	assert_int_equal(meminfo_memfree_kib("MemFree: 12\n"), -1);
	assert_int_equal(meminfo_memfree_kib("MemFree: 12 MB\n"), -1);
	assert_int_equal(meminfo_memfree_kib("MemFree: 99999999999999999999 kB\n"), -1);
	assert_int_equal(meminfo_memfree_kib(""), -1);
}

static void test_vmstat_parse(void **state)
{
	struct vm_counters c;

	(void)state;
	read_vmstat_fixture(&c);
	/* x86-64: no HighMem, so no pgalloc_high. */
	assert_int_equal(c.present, ((1u << NVMCOUNTERS) - 1) & ~(1u << VM_PGALLOC_HIGH));
	assert_int_equal(c.value[VM_PGALLOC_NORMAL], 55852179);
	assert_int_equal(c.value[VM_PGFREE], 57367983);
	assert_int_equal(c.value[VM_PGALLOC_DMA32], 0);
	assert_string_equal(vm_counter_name(VM_PGALLOC_HIGH), "pgalloc_high");

	assert_int_equal(vmstat_parse("pgfree 12\npgalloc_normal 3", &c), 0);
	assert_int_equal(c.present, (1u << VM_PGFREE) | (1u << VM_PGALLOC_NORMAL));
	assert_int_equal(c.value[VM_PGALLOC_NORMAL], 3);
	assert_int_equal(vmstat_parse("pgfree -1\n", &c), -EINVAL);
	assert_int_equal(vmstat_parse("pgfree 1x\n", &c), -EINVAL);
	assert_int_equal(vmstat_parse("pgfree\n", &c), -EINVAL);
	assert_int_equal(vmstat_parse("pgfree 99999999999999999999999\n", &c), -EINVAL);
	assert_int_equal(vmstat_parse("not vmstat at all\n", &c), 0);
	assert_int_equal(c.present, 0);
	assert_int_equal(vmstat_parse("garbage\n", &c), -EINVAL);
}

static void test_rates(void **state)
{
	struct watch_sample prev = { 0 }, cur = { 0 };
	double per_s = -1;

	(void)state;
	prev.mono = (struct timespec){ 10, 0 };
	cur.mono = (struct timespec){ 12, 500000000 };
	read_vmstat_fixture(&prev.vm);
	cur.vm = prev.vm;
	cur.vm.value[VM_PGFREE] += 2500;
	cur.vm.value[VM_PGALLOC_NORMAL] += 5;
	assert_float_equal(watch_elapsed(&prev, &cur), 2.5, 1e-12);
	assert_true(watch_rate(&prev, &cur, VM_PGFREE, &per_s));
	assert_float_equal(per_s, 1000.0, 1e-9);
	assert_true(watch_rate(&prev, &cur, VM_PGALLOC_NORMAL, &per_s));
	assert_float_equal(per_s, 2.0, 1e-9);
	assert_true(watch_rate(&prev, &cur, VM_PGALLOC_DMA, &per_s));
	assert_float_equal(per_s, 0.0, 1e-12);
	/* A counter the kernel lacks, one that went back, no time passed: no rate. */
	assert_false(watch_rate(&prev, &cur, VM_PGALLOC_HIGH, &per_s));
	cur.vm.value[VM_PGFREE] = 1;
	assert_false(watch_rate(&prev, &cur, VM_PGFREE, &per_s));
	cur.mono = prev.mono;
	assert_false(watch_rate(&prev, &cur, VM_PGALLOC_NORMAL, &per_s));
	/* vmstat unreadable in one sample. */
	cur.mono = (struct timespec){ 11, 0 };
	prev.vm.present = 0;
	assert_false(watch_rate(&prev, &cur, VM_PGALLOC_NORMAL, &per_s));

	assert_int_equal(watch_zone_counter("Normal"), VM_PGALLOC_NORMAL);
	assert_int_equal(watch_zone_counter("DMA32"), VM_PGALLOC_DMA32);
	assert_int_equal(watch_zone_counter("HighMem"), VM_PGALLOC_HIGH);
	assert_int_equal(watch_zone_counter("Movable"), VM_PGALLOC_MOVABLE);
	assert_int_equal(watch_zone_counter("Device"), -1);
}

/*
 * What a writer printed, for the two samples of two_samples() with vmstat;
 * a table is sized by the later sample for a terminal of termwidth columns
 * (0: not a terminal), with its header first when asked.
 */
static char *print_two(bool json, bool per_cpu, bool first, int termwidth, bool header)
{
	struct watch_sample prev = { 0 }, cur = { 0 };
	struct interval_table t;
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	assert_non_null(out);
	two_samples(per_cpu, NULL, &prev, &cur);
	read_vmstat_fixture(&prev.vm);
	cur.vm = prev.vm;
	cur.vm.value[VM_PGFREE] += 2500;
	cur.vm.value[VM_PGALLOC_NORMAL] += 5;
	cur.wall = (struct timespec){ 1764563462, 123456789 };
	if (json) {
		interval_print_json(out, first ? NULL : &prev, &cur, per_cpu);
	} else {
		assert_int_equal(interval_table_fit(&t, &cur, per_cpu, termwidth), 0);
		if (header)
			assert_int_equal(interval_print_header(out, &t), 0);
		assert_int_equal(interval_print_rows(out, &t, first ? NULL : &prev, &cur), 0);
		interval_table_free(&t);
	}
	assert_int_equal(fclose(out), 0);
	watch_sample_free(&prev);
	watch_sample_free(&cur);
	return text;
}

static size_t lines(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

static void test_json_lines(void **state)
{
	char *first = print_two(true, false, true, 0, false);
	char *later = print_two(true, false, false, 0, false);
	char *per_cpu = print_two(true, true, false, 0, false);

	(void)state;
	assert_int_equal(lines(first), 1);
	assert_int_equal(lines(later), 1);
	assert_int_equal(lines(per_cpu), 1);
	assert_non_null(strstr(first, "{\"version\":2,\"time\":\"2025-12-01T04:31:02.123Z\",\"seconds\":null,"
				      "\"pgfree_per_s\":null,\"pgalloc_per_s\":{\"DMA\":null,"
				      "\"DMA32\":null,\"Normal\":null},\"zones\":[{\"node\":0,"));
	assert_non_null(strstr(first, "{\"node\":1,\"zone\":\"Normal\",\"cpus\":4,\"pages\":4374,"
				      "\"pages_change\":null,"));
	assert_non_null(strstr(later, "\"seconds\":2.500,\"pgfree_per_s\":1000.0,"
				      "\"pgalloc_per_s\":{\"DMA\":0.0,\"DMA32\":0.0,\"Normal\":2.0},"));
	assert_non_null(strstr(later, "{\"node\":1,\"zone\":\"Normal\",\"cpus\":4,\"pages\":4374,"
				      "\"pages_change\":-100,"));
	assert_non_null(strstr(later, "{\"node\":0,\"zone\":\"DMA\",\"cpus\":4,\"pages\":0,"
				      "\"pages_change\":0,\"fill_mean_pct\":null,\"fill_max_pct\":null,"
				      "\"batch\":1,\"batch_min\":1,\"batch_max\":1,\"high\":0,\"high_lo\":0,"
				      "\"high_hi\":0,\"managed\":3840,\"managed_change\":0}"));
	assert_non_null(strstr(per_cpu, "{\"node\":1,\"zone\":\"Normal\",\"cpu\":3,\"count\":383,"
					"\"count_change\":-100,\"fill_pct\":9.7,\"high\":3933,"
					"\"batch\":63}]}\n"));
	free(first);
	free(later);
	free(per_cpu);
}

/* Each line of text as long as the first; 0 when they differ. */
static size_t same_width(const char *text)
{
	size_t width = strcspn(text, "\n");

	for (const char *l = text; *l; l += strcspn(l, "\n") + 1)
		if (strcspn(l, "\n") != width)
			return 0;
	return width;
}

static void test_table_rows(void **state)
{
	char *first = print_two(false, false, true, 0, true);
	char *later = print_two(false, false, false, 0, false);
	char *per_cpu = print_two(false, true, false, 0, false);
	char *narrow = print_two(false, false, false, 80, true);
	struct watch_sample prev = { 0 }, cur = { 0 };
	struct interval_table t;
	char *left, *text = NULL;
	size_t len = 0;
	FILE *out;

	(void)state;
	/* One row per populated zone, under one header. */
	assert_int_equal(lines(first), 5);
	assert_int_equal(lines(per_cpu), 16);
	/* Columns as wide as their heading and the first sample: BATCH holds 63 in 5. */
	assert_int_equal(same_width(first), 86);
	assert_non_null(strstr(first, "TIME     NODE ZONE   CPUS  PAGES CHANGE FILL% MAXFILL% BATCH      HIGH "
				      "ALLOC/s  FREE/s\n"));
	/* The clock is local time: compare from the NODE column on. */
	assert_non_null(strstr(first, "    1 Normal    4   4374      -  29.4     55.4    63 3555-3933       -"
				      "       -\n"));
	assert_non_null(strstr(later, "    1 Normal    4   4374   -100  29.4     55.4    63 3555-3933       2"
				      "    1000\n"));
	assert_non_null(strstr(later, "    0 DMA       4      0      0     -        -     1         0       0"
				      "    1000\n"));
	assert_non_null(strstr(per_cpu, "    1 Normal   3   383   -100   9.7    63 3933       2    1000\n"));
	/* 80 columns: MAXFILL% gives way, and every line fits. */
	assert_int_equal(same_width(narrow), 77);
	assert_null(strstr(narrow, "MAXFILL%"));
	assert_non_null(strstr(narrow, "TIME     NODE ZONE   CPUS  PAGES CHANGE FILL% BATCH      HIGH ALLOC/s"));
	/* Narrower still: CPUS, then CHANGE, and no more than those. */
	two_samples(false, NULL, &prev, &cur);
	assert_int_equal(interval_table_fit(&t, &cur, false, 40), 0);
	left = interval_table_left_out(&t);
	assert_string_equal(left, "CPUS, CHANGE, MAXFILL%");
	free(left);
	interval_table_free(&t);
	assert_int_equal(interval_table_fit(&t, &cur, false, 0), 0);
	assert_null(interval_table_left_out(&t));
	/* A later cell wider than its column is printed whole: the row grows, nothing is cut. */
	cur.zones[0].pages = 123456789012ULL;
	out = open_memstream(&text, &len);
	assert_non_null(out);
	assert_int_equal(interval_print_rows(out, &t, NULL, &cur), 0);
	assert_int_equal(fclose(out), 0);
	assert_non_null(strstr(text, "    0 DMA       4 123456789012      - "));
	free(text);
	interval_table_free(&t);
	watch_sample_free(&prev);
	watch_sample_free(&cur);
	two_samples(true, NULL, &prev, &cur);
	assert_int_equal(interval_table_fit(&t, &cur, true, 60), 0);
	left = interval_table_left_out(&t);
	assert_string_equal(left, "ALLOC/s, FREE/s");
	free(left);
	interval_table_free(&t);
	watch_sample_free(&prev);
	watch_sample_free(&cur);
	free(first);
	free(later);
	free(per_cpu);
	free(narrow);
}

static void test_options(void **state)
{
	struct interval_opts o = { 0 };

	(void)state;
	assert_int_equal(interval_opts_parse("0.5", NULL, &o), 0);
	assert_float_equal(o.interval, 0.5, 1e-12);
	assert_int_equal(o.count, 0);
	assert_int_equal(interval_opts_parse("2", "10", &o), 0);
	assert_int_equal(o.count, 10);
	assert_int_equal(interval_opts_parse("0", NULL, &o), -EINVAL);
	assert_int_equal(interval_opts_parse("0.001", NULL, &o), -EINVAL);
	assert_int_equal(interval_opts_parse("86401", NULL, &o), -EINVAL);
	assert_int_equal(interval_opts_parse("1s", NULL, &o), -EINVAL);
	assert_int_equal(interval_opts_parse("1", "0", &o), -EINVAL);
	assert_int_equal(interval_opts_parse("1", "-3", &o), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_summary_of_numa_fixture),
		cmocka_unit_test(test_selection_and_per_cpu),
		cmocka_unit_test(test_changes),
		cmocka_unit_test(test_managed_change),
		cmocka_unit_test(test_vmstat_parse),
		cmocka_unit_test(test_meminfo_memfree),
		cmocka_unit_test(test_rates),
		cmocka_unit_test(test_json_lines),
		cmocka_unit_test(test_table_rows),
		cmocka_unit_test(test_options),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
