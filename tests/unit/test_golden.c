/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pcprules against real boots: every before/after pair under
 * tests/fixtures/golden/<guest>/ (README.md there has the format).  For each
 * pair the zones of the before file and the sysctls after the write go into
 * pcprules, and every CPU of the after file must show what it predicts:
 *
 *   - batch, always: every kernel sets it on every CPU at once;
 *   - high where the kernel sets it at once on every CPU (up to 6.6);
 *   - high_min and high_max where the after file prints them (6.13+).
 *
 * From 6.7 each CPU sets its own high lazily, when it next allocates or
 * frees, so high is not compared there; nor are high_min/high_max of 6.7 to
 * 6.12, which zoneinfo does not print.  A step that changed no sysctl made
 * the kernel recompute nothing, and is no pair.  New guests' directories are
 * picked up as they are added.
 */
#include <dirent.h>
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
#include "idlist.h"
#include "kernel.h"
#include "pcprules.h"
#include "sysroot.h"
#include "zoneinfo.h"

#define GOLDEN_DIR FIXTURE_DIR "/golden"
#define MAX_NODES 64

/* A key=value file: the value of key, or NULL. */
static const char *meta_get(const char *text, const char *key)
{
	static char value[1024];
	size_t klen = strlen(key);

	for (const char *line = text; *line;) {
		size_t len = strcspn(line, "\n");
		const char *next = line + len + (line[len] == '\n');

		if (line[0] == '#' || len <= klen || line[klen] != '=' || strncmp(line, key, klen)) {
			line = next;
			continue;
		}
		len -= klen + 1;
		if (len >= sizeof(value))
			len = sizeof(value) - 1;
		memcpy(value, line + klen + 1, len);
		value[len] = '\0';
		return value;
	}
	return NULL;
}

static char *slurp(const char *dir, const char *name)
{
	char path[1024];
	char *text;
	size_t len;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (read_whole_file(path, &text, &len))
		fail_msg("cannot read %s", path);
	return text;
}

static void load(const char *dir, const char *name, struct zoneinfo *zi)
{
	char *text = slurp(dir, name);
	struct zi_error err;

	if (zoneinfo_parse(text, strlen(text), zi, &err))
		fail_msg("%s/%s:%zu: %s", dir, name, err.line, err.message);
	free(text);
}

/* A sysctl of the step after the write; *have false when the guest lacks it. */
static long step_value(const char *step, const char *when, enum pcp_sysctl s, bool *have)
{
	char key[96];
	const char *v;

	snprintf(key, sizeof(key), "%s.%s", when, sysctl_name(s));
	v = meta_get(step, key);
	*have = v != NULL;
	return v ? strtol(v, NULL, 10) : 0;
}

struct guest {
	const char *dir;
	enum pcp_era era;
	unsigned page_shift;
	bool patched;
	unsigned split[MAX_NODES];	/* online CPUs of each node */
	unsigned cpus;
};

static void read_guest(const char *dir, struct guest *g)
{
	char *meta = slurp(dir, "guest.meta");
	const char *v;
	long nodes;
	int shift;

	memset(g, 0, sizeof(*g));
	g->dir = dir;
	v = meta_get(meta, "uname_r");
	if (!v || pcp_era_of_release(v, &g->era))
		fail_msg("%s/guest.meta: no uname_r of a known form", dir);
	v = meta_get(meta, "page_size");
	shift = v ? pcp_page_shift(strtol(v, NULL, 10)) : -EINVAL;
	if (shift < 0)
		fail_msg("%s/guest.meta: no page_size", dir);
	g->page_shift = (unsigned)shift;
	v = meta_get(meta, "patched");
	g->patched = v && strcmp(v, "1") == 0;
	v = meta_get(meta, "cpus");
	g->cpus = v ? (unsigned)strtoul(v, NULL, 10) : 0;
	v = meta_get(meta, "nodes");
	nodes = v ? strtol(v, NULL, 10) : 0;
	if (!g->cpus || nodes < 1 || nodes > MAX_NODES)
		fail_msg("%s/guest.meta: cpus and nodes (1..%d) are needed", dir, MAX_NODES);
	/* nodeN_cpus where recorded; else QEMU's even split of -smp over -numa nodes. */
	for (long n = 0; n < nodes; n++) {
		char key[32];
		struct idlist list;

		snprintf(key, sizeof(key), "node%ld_cpus", n);
		v = meta_get(meta, key);
		if (!v) {
			g->split[n] = g->cpus / (unsigned)nodes;
			continue;
		}
		/* "" is a CPU-less node: its zones split over every online CPU. */
		if (!*v)
			continue;
		if (idlist_parse(v, &list))
			fail_msg("%s/guest.meta: %s=%s is no CPU list", dir, key, v);
		for (long cpu = 0; cpu <= IDLIST_MAX_ID; cpu++)
			g->split[n] += idlist_has(&list, cpu);
		idlist_free(&list);
	}
	free(meta);
}

static int check(const char *what, const struct zi_zone *z, const struct zi_pageset *ps,
		 enum zi_field f, int want)
{
	if (ps->value[f] == want)
		return 0;
	print_error("%s: node %d zone %s cpu %d shows %s %d, pcprules says %d\n", what, z->node,
		    z->name, ps->cpu, zi_field_name(f), ps->value[f], want);
	return 1;
}

static const struct zi_zone *zone_in(const struct zoneinfo *zi, const struct zi_zone *z)
{
	for (size_t i = 0; i < zi->nzones; i++)
		if (zi->zones[i].node == z->node && strcmp(zi->zones[i].name, z->name) == 0)
			return &zi->zones[i];
	return NULL;
}

/* One pair: the number of mismatches (printed); *pair false when the step wrote nothing. */
static int check_pair(const struct guest *g, const char *name, bool *pair, size_t *pagesets)
{
	char file[512], what[600];
	char *step;
	long value[NSYSCTLS];
	bool have[NSYSCTLS], changed = false;
	enum pcp_sysctl fs;
	struct zoneinfo before, after;
	int bad = 0;

	snprintf(file, sizeof(file), "%s.step", name);
	step = slurp(g->dir, file);
	for (int s = 0; s < NSYSCTLS; s++) {
		bool had;
		long was = step_value(step, "before", s, &had);

		value[s] = step_value(step, "after", s, &have[s]);
		changed |= have[s] && (!had || was != value[s]);
	}
	free(step);
	*pair = changed;
	if (!changed)
		return 0;
	fs = have[SYSCTL_FRACTION] ? SYSCTL_FRACTION : SYSCTL_HIGH_FRACTION;
	snprintf(file, sizeof(file), "%s.before", name);
	load(g->dir, file, &before);
	snprintf(file, sizeof(file), "%s.after", name);
	load(g->dir, file, &after);
	snprintf(what, sizeof(what), "%s/%s", g->dir, name);
	for (size_t i = 0; i < after.nzones; i++) {
		const struct zi_zone *z = &after.zones[i], *was = zone_in(&before, z);
		struct pcp_zone_input in;
		struct pcp_expect want;
		int batch;

		if (!z->npagesets)
			continue;
		if (!was || z->node >= MAX_NODES)
			fail_msg("%s: node %d zone %s is not in the before file", what, z->node, z->name);
		in = (struct pcp_zone_input){
			.era = g->era, .page_shift = g->page_shift,
			.managed = was->field[ZI_MANAGED], .low = was->field[ZI_LOW],
			.split = g->split[z->node] ? g->split[z->node] : g->cpus,
			.fraction = have[fs] ? value[fs] : 0,
		};
		if (g->patched && have[SYSCTL_BATCH])
			batch = pcp_patched_batch(&in, value[SYSCTL_BATCH]);
		else if (pcp_era_fraction_sets_batch(g->era))
			batch = pcp_fraction_batch(&in);
		else
			batch = pcp_default_batch(&in);
		pcp_expected(&in, &want);
		for (size_t p = 0; p < z->npagesets; p++) {
			const struct zi_pageset *ps = &z->pagesets[p];

			bad += check(what, z, ps, ZI_BATCH, batch);
			if (want.check_high)
				bad += check(what, z, ps, ZI_HIGH, want.high);
			if (zi_has(ps, ZI_HIGH_MIN)) {
				bad += check(what, z, ps, ZI_HIGH_MIN, want.high_min);
				bad += check(what, z, ps, ZI_HIGH_MAX, want.high_max);
			}
			(*pagesets)++;
		}
	}
	zoneinfo_free(&before);
	zoneinfo_free(&after);
	return bad;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static void test_golden_pairs(void **state)
{
	struct dirent **guests;
	size_t pairs = 0, matched = 0, pagesets = 0, nguests = 0;
	int n = scandir(GOLDEN_DIR, &guests, NULL, by_name), bad = 0;

	(void)state;
	if (n < 0)
		fail_msg("cannot read %s: %s", GOLDEN_DIR, strerror(errno));
	for (int i = 0; i < n; i++) {
		char dir[768];
		struct dirent **files;
		struct guest g;
		int nf;

		snprintf(dir, sizeof(dir), "%s/%s", GOLDEN_DIR, guests[i]->d_name);
		if (guests[i]->d_name[0] == '.' || guests[i]->d_type != DT_DIR) {
			free(guests[i]);
			continue;
		}
		read_guest(dir, &g);
		nguests++;
		nf = scandir(dir, &files, NULL, by_name);
		assert_true(nf >= 0);
		for (int f = 0; f < nf; f++) {
			char *name = files[f]->d_name;
			size_t len = strlen(name);
			bool pair;
			int wrong;

			if (len > 5 && strcmp(name + len - 5, ".step") == 0) {
				name[len - 5] = '\0';
				wrong = check_pair(&g, name, &pair, &pagesets);
				bad += wrong;
				pairs += pair;
				matched += pair && !wrong;
			}
			free(files[f]);
		}
		free(files);
		free(guests[i]);
	}
	free(guests);
	printf("golden: pcprules matched %zu of %zu before/after pairs from %zu guests "
	       "(%zu pagesets)\n", matched, pairs, nguests, pagesets);
	if (bad)
		fail_msg("%d values differ from what the kernels printed", bad);
	/* The converted captures (12 pairs), 5.10 amd64, 7.3 arm64 16K and 7.2 ppc64el 64K (2 each). */
	assert_true(pairs >= 18);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_golden_pairs),
	};

	return cmocka_run_group_tests_name("golden", tests, NULL, NULL);
}
