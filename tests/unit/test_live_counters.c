/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_live_counters.c - pcpctl's own readers against the live kernel
 *
 * The interval mode (kernel ops' read_vmstat) and the sweep (sysload_mark)
 * read /proc/vmstat and /proc/stat themselves.  Their counters only grow,
 * so each value pcpctl reads must lie between what this test reads, with
 * a parser of its own (scanf), just before and just after.  Reads only.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <cmocka.h>

#include "kernel.h"
#include "sysload.h"
#include "sysroot.h"

/* The counter's value, or 0 with *seen false when the kernel lacks it. */
static unsigned long long vmstat_lookup(const char *name, bool *seen)
{
	FILE *f = fopen("/proc/vmstat", "r");
	char key[64];
	unsigned long long v, found = 0;

	assert_non_null(f);
	*seen = false;
	while (fscanf(f, "%63s %llu", key, &v) == 2)
		if (strcmp(key, name) == 0) {
			found = v;
			*seen = true;
		}
	fclose(f);
	return found;
}

static unsigned long long vmstat_value(const char *name)
{
	bool seen;
	unsigned long long v = vmstat_lookup(name, &seen);

	if (!seen)
		fail_msg("/proc/vmstat has no %s", name);
	return v;
}

/* Every zone's pgalloc: pgalloc_high only where HighMem exists. */
static unsigned long long pgalloc_sum(void)
{
	static const char *const names[] = {
		"pgalloc_dma", "pgalloc_dma32", "pgalloc_normal", "pgalloc_high", "pgalloc_movable",
	};
	unsigned long long sum = 0;
	bool seen;

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		sum += vmstat_lookup(names[i], &seen);
	return sum;
}

/* user nice system irq softirq, and steal, of the "cpu" line */
static void stat_ticks(unsigned long long *busy, unsigned long long *steal)
{
	FILE *f = fopen("/proc/stat", "r");
	unsigned long long u, n, s, idle, io, irq, sirq, st;

	assert_non_null(f);
	assert_int_equal(fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu",
				&u, &n, &s, &idle, &io, &irq, &sirq, &st), 8);
	fclose(f);
	*busy = u + n + s + irq + sirq;
	*steal = st;
}

/* Faults that allocate and free pages, so the counters move meanwhile. */
static void churn(void)
{
	size_t size = 8 << 20;
	char *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	assert_true(p != MAP_FAILED);
	for (size_t off = 0; off < size; off += 4096)
		p[off] = 1;
	munmap(p, size);
}

#define assert_between(lo, v, hi)						\
	do {									\
		if (!((lo) <= (v) && (v) <= (hi)))				\
			fail_msg("%s = %llu, not within [%llu, %llu]", #v,	\
				 (unsigned long long)(v), (unsigned long long)(lo),	\
				 (unsigned long long)(hi));			\
	} while (0)

static void test_interval_counters(void **state)
{
	static const enum vm_counter checked[] = { VM_PGALLOC_NORMAL, VM_PGFREE, VM_PGFAULT };
	struct sysroot *live = sysroot_open(NULL);
	struct kernel *k;

	(void)state;
	assert_non_null(live);
	k = kernel_open(live);
	assert_non_null(k);
	for (int round = 0; round < 20; round++) {
		unsigned long long before[3], after[3];
		struct vm_counters c;

		for (size_t i = 0; i < 3; i++)
			before[i] = vmstat_value(vm_counter_name(checked[i]));
		churn();
		assert_int_equal(k->ops->read_vmstat(k, &c), 0);
		churn();
		for (size_t i = 0; i < 3; i++)
			after[i] = vmstat_value(vm_counter_name(checked[i]));
		for (size_t i = 0; i < 3; i++) {
			assert_true(c.present & (1u << checked[i]));
			assert_between(before[i], c.value[checked[i]], after[i]);
		}
		/* the churn moved them: the bracket is no tautology of equal ends */
		assert_true(after[1] > before[1]);
	}
	k->ops->close(k);
	sysroot_free(live);
}

static void test_sweep_counters(void **state)
{
	struct sysroot *live = sysroot_open(NULL);

	(void)state;
	assert_non_null(live);
	for (int round = 0; round < 20; round++) {
		unsigned long long busy0, steal0, busy1, steal1;
		unsigned long long alloc0, alloc1, free0, free1, fault0, fault1;
		struct sysload_mark m;

		stat_ticks(&busy0, &steal0);
		alloc0 = pgalloc_sum();
		free0 = vmstat_value("pgfree");
		fault0 = vmstat_value("pgfault");
		churn();
		assert_int_equal(sysload_mark(live, &m), 0);
		churn();
		alloc1 = pgalloc_sum();
		free1 = vmstat_value("pgfree");
		fault1 = vmstat_value("pgfault");
		stat_ticks(&busy1, &steal1);
		assert_between(alloc0, m.pgalloc, alloc1);
		assert_between(free0, m.pgfree, free1);
		assert_between(fault0, m.pgfault, fault1);
		assert_between(busy0, m.busy_ticks, busy1);
		assert_between(steal0, m.steal_ticks, steal1);
		assert_true(alloc1 > alloc0);
	}
	sysroot_free(live);
}

/* FREE_PCT's divisor: MemFree moves both ways, so only its bounds are sure. */
static void test_memfree(void **state)
{
	struct sysroot *live = sysroot_open(NULL);
	struct sysroot *tree = sysroot_open(FIXTURE_DIR "/proc/live-6.18-2cpu");
	unsigned long long total = 0;
	char line[128];
	struct kernel *k, *kt;
	FILE *f;

	(void)state;
	assert_non_null(live);
	assert_non_null(tree);
	f = fopen("/proc/meminfo", "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemTotal: %llu kB", &total) == 1)
			break;
	fclose(f);
	assert_true(total > 0);
	k = kernel_open(live);
	kt = kernel_open(tree);
	assert_non_null(k);
	assert_non_null(kt);
	assert_true(kernel_memfree_kib(k) > 0);
	assert_true((unsigned long long)kernel_memfree_kib(k) <= total);
	/* a tree's MemFree is of another moment than its zoneinfo: never read */
	assert_int_equal(kernel_memfree_kib(kt), -1);
	k->ops->close(k);
	kt->ops->close(kt);
	sysroot_free(live);
	sysroot_free(tree);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_interval_counters),
		cmocka_unit_test(test_sweep_counters),
		cmocka_unit_test(test_memfree),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
