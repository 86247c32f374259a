/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The parser against real kernels' zoneinfo and against damaged text. */
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
#include "fixture.h"
#include "sysroot.h"
#include "zoneinfo.h"

static const struct zi_zone *find_zone(const struct zoneinfo *zi, int node, const char *name)
{
	for (size_t i = 0; i < zi->nzones; i++)
		if (zi->zones[i].node == node && strcmp(zi->zones[i].name, name) == 0)
			return &zi->zones[i];
	fail_msg("no node %d zone %s", node, name);
	return NULL;
}

static const unsigned old_fields = (1u << ZI_COUNT) | (1u << ZI_HIGH) | (1u << ZI_BATCH);
static const unsigned new_fields = (1u << ZI_COUNT) | (1u << ZI_HIGH) | (1u << ZI_BATCH) |
				   (1u << ZI_HIGH_MIN) | (1u << ZI_HIGH_MAX);

static void test_debian_6_1_numa(void **state)
{
	struct zoneinfo zi;
	const struct zi_zone *z;

	(void)state;
	parse_fixture("debian-6.1-4cpu-2node.zoneinfo", &zi);
	/* Every zone of both nodes is printed, populated or not. */
	assert_int_equal(zi.nzones, 10);
	assert_int_equal(zi.npagesets, 16);
	assert_int_equal(zi.pageset_fields, old_fields);
	z = find_zone(&zi, 0, "Normal");
	assert_null(z->pagesets);
	assert_int_equal(z->field[ZI_MANAGED], 0);
	z = find_zone(&zi, 1, "Normal");
	assert_int_equal(z->npagesets, 4);
	assert_int_equal(z->field[ZI_MANAGED], 245230);
	assert_int_equal(z->pagesets[3].cpu, 3);
	assert_int_equal(z->pagesets[3].value[ZI_COUNT], 2256);
	assert_int_equal(z->pagesets[3].value[ZI_HIGH], 3408);
	assert_int_equal(z->pagesets[3].value[ZI_BATCH], 63);
	zoneinfo_free(&zi);
}

static void test_debian_6_1_cpuless_node(void **state)
{
	struct zoneinfo zi;
	const struct zi_zone *z;

	(void)state;
	parse_fixture("debian-6.1-cpuless-node-frac8.zoneinfo", &zi);
	/* A node without CPUs still lists every online CPU in its pagesets. */
	z = find_zone(&zi, 2, "DMA32");
	assert_int_equal(z->npagesets, 4);
	assert_int_equal(z->field[ZI_MANAGED], 257711);
	/* managed / 8 / all four online CPUs, as the 6.1 kernel splits it */
	assert_int_equal(z->pagesets[0].value[ZI_HIGH], 257711 / 8 / 4);
	zoneinfo_free(&zi);
}

static void test_debian_6_12_lazy_high(void **state)
{
	struct zoneinfo zi;
	const struct zi_zone *z;

	(void)state;
	parse_fixture("debian-6.12-4cpu-2node.zoneinfo", &zi);
	assert_int_equal(zi.npagesets, 16);
	assert_int_equal(zi.pageset_fields, old_fields);
	z = find_zone(&zi, 0, "DMA");
	assert_int_equal(z->pagesets[0].value[ZI_HIGH], 0);
	assert_int_equal(z->pagesets[0].value[ZI_BATCH], 1);
	zoneinfo_free(&zi);
}

static void test_live_6_18(void **state)
{
	struct zoneinfo zi;
	const struct zi_zone *z;

	(void)state;
	parse_fixture("live-6.18-2cpu.zoneinfo", &zi);
	assert_int_equal(zi.nzones, 5);
	assert_int_equal(zi.npagesets, 6);
	assert_int_equal(zi.pageset_fields, new_fields);
	z = find_zone(&zi, 0, "DMA32");
	assert_int_equal(z->field[ZI_LOW], 8343);
	assert_int_equal(z->field[ZI_WMARK_HIGH], 10011);
	assert_int_equal(z->pagesets[1].value[ZI_HIGH_MIN], 4171);
	assert_int_equal(z->pagesets[1].value[ZI_HIGH_MAX], 48307);
	zoneinfo_free(&zi);
}

/* Debian's 7.3 from trixie-backports: Device zones and the highatomic lines. */
static void test_debian_7_3(void **state)
{
	struct zoneinfo zi;
	const struct zi_zone *z;

	(void)state;
	parse_fixture("debian-7.3-4cpu-2node.zoneinfo", &zi);
	assert_int_equal(zi.nzones, 10);
	assert_int_equal(zi.npagesets, 16);
	assert_int_equal(zi.pageset_fields, new_fields);
	assert_int_equal(find_zone(&zi, 1, "Device")->npagesets, 0);
	z = find_zone(&zi, 1, "Normal");
	assert_int_equal(z->field[ZI_MANAGED], 242412);
	assert_int_equal(z->field[ZI_LOW], 6763);
	assert_int_equal(z->pagesets[0].value[ZI_BATCH], 63);
	assert_int_equal(z->pagesets[0].value[ZI_HIGH_MIN], 3381);
	assert_int_equal(z->pagesets[0].value[ZI_HIGH_MAX], 15031);
	zoneinfo_free(&zi);
}

/*
 * Patch v3 on 7.3 at its maximum, 2016: DMA keeps batch 1, node 1's Normal
 * takes a quarter of its high_min (3525 / 4 = 881), high_max as stock.
 */
static void test_patched_7_3_batch_max(void **state)
{
	struct zoneinfo zi;
	const struct zi_zone *z;

	(void)state;
	parse_fixture("patched-7.3-4cpu-2node-batchmax.zoneinfo", &zi);
	assert_int_equal(zi.nzones, 8);
	assert_int_equal(zi.npagesets, 16);
	z = find_zone(&zi, 0, "DMA");
	assert_int_equal(z->field[ZI_MANAGED], 3840);
	for (size_t i = 0; i < z->npagesets; i++) {
		assert_int_equal(z->pagesets[i].value[ZI_BATCH], 1);
		assert_int_equal(z->pagesets[i].value[ZI_HIGH_MAX], 240);
	}
	z = find_zone(&zi, 1, "Normal");
	assert_int_equal(z->field[ZI_MANAGED], 253397);
	for (size_t i = 0; i < z->npagesets; i++) {
		assert_int_equal(z->pagesets[i].value[ZI_BATCH], 881);
		assert_int_equal(z->pagesets[i].value[ZI_HIGH_MIN], 3525);
		assert_int_equal(z->pagesets[i].value[ZI_HIGH_MAX], 15837);
	}
	zoneinfo_free(&zi);
}

static void test_4_14_sparse_cpus(void **state)
{
	struct zoneinfo zi;
	const struct zi_zone *z;

	(void)state;
	parse_fixture("synthetic-4.14-2node-sparse.zoneinfo", &zi);
	assert_int_equal(zi.nzones, 8);
	z = find_zone(&zi, 1, "Normal");
	assert_int_equal(z->npagesets, 4);
	assert_int_equal(z->pagesets[2].cpu, 4);
	assert_int_equal(z->pagesets[3].cpu, 5);
	assert_int_equal(z->pagesets[3].value[ZI_BATCH], 31);
	assert_int_equal(z->pagesets[3].value[ZI_HIGH], 186);
	zoneinfo_free(&zi);
}

/* A minimal zone in the 6.13+ layout, with room for extra lines. */
#define HEAD "Node 0, zone   Normal\n  pages free     10\n        min      1\n" \
	     "        low      2\n        high     3\n        spanned  99\n" \
	     "        present  99\n        managed  90\n  pagesets\n"
#define CPU(n, c) "    cpu: " #n "\n              count:    " #c "\n" \
		  "              high:     40\n              batch:    7\n" \
		  "              high_min: 30\n              high_max: 50\n"
#define TAIL "  node_unreclaimable:  0\n  start_pfn:           4096\n"

static void test_newest_mainline_extra_lines(void **state)
{
	static const char text[] =
		HEAD CPU(0, 5) "  vm stats threshold: 8\n" CPU(1, 6)
		"              new_field: 3\n" TAIL
		"  reserved_highatomic: 0\n  free_highatomic: 0\n";
	struct zoneinfo zi;
	struct zi_error err;

	(void)state;
	assert_int_equal(zoneinfo_parse(text, sizeof(text) - 1, &zi, &err), 0);
	assert_int_equal(zi.npagesets, 2);
	assert_int_equal(zi.zones[0].pagesets[1].value[ZI_COUNT], 6);
	assert_int_equal(zi.zones[0].field[ZI_MANAGED], 90);
	zoneinfo_free(&zi);
}

/* The watermark boost is read from the zone head (5.0+); without the line it is 0. */
static void test_watermark_boost(void **state)
{
	static const char boosted[] =
		"Node 0, zone   Normal\n  pages free     10\n        boost    12\n"
		"        min      1\n        low      14\n        high     15\n        spanned  99\n"
		"        present  99\n        managed  90\n  pagesets\n" CPU(0, 5) TAIL;
	static const char plain[] = HEAD CPU(0, 5) TAIL;
	struct zoneinfo zi;
	struct zi_error err;

	(void)state;
	assert_int_equal(zoneinfo_parse(boosted, sizeof(boosted) - 1, &zi, &err), 0);
	assert_int_equal(zi.zones[0].field[ZI_BOOST], 12);
	assert_int_equal(zi.zones[0].field[ZI_LOW], 14);
	zoneinfo_free(&zi);
	assert_int_equal(zoneinfo_parse(plain, sizeof(plain) - 1, &zi, &err), 0);
	assert_int_equal(zi.zones[0].field[ZI_BOOST], 0);
	zoneinfo_free(&zi);
}

/* A later record laid out differently from the first still parses. */
static void test_records_differ(void **state)
{
	static const char text[] =
		HEAD CPU(0, 5) "    cpu: 1\n              high_max: 50\n              count: 77\n"
		"              high:  40\n              batch: 12345678\n              high_min: 30\n"
		CPU(2, 9) TAIL;
	struct zoneinfo zi;
	struct zi_error err;

	(void)state;
	assert_int_equal(zoneinfo_parse(text, sizeof(text) - 1, &zi, &err), 0);
	assert_int_equal(zi.npagesets, 3);
	assert_int_equal(zi.zones[0].pagesets[1].value[ZI_COUNT], 77);
	assert_int_equal(zi.zones[0].pagesets[1].value[ZI_BATCH], 12345678);
	assert_int_equal(zi.zones[0].pagesets[1].value[ZI_HIGH_MAX], 50);
	assert_int_equal(zi.zones[0].pagesets[2].value[ZI_COUNT], 9);
	assert_int_equal(zi.zones[0].pagesets[2].value[ZI_BATCH], 7);
	zoneinfo_free(&zi);
}

/* Damage in the middle of a long run of CPU records: found at its line, in its words. */
static void test_damage_among_records(void **state)
{
	static const struct {
		const char *record;	/* printf format of record 20, given its cpu id */
		size_t line;		/* of the error, after the record's first line */
		const char *message;
	} cases[] = {
		{ "    cpu: 19\n              count:    1\n", 0, "cpu 19 listed after cpu 19" },
		{ "    cpu: %d\n              count:    12abc\n", 1, "count is not a number" },
		{ "    cpu: %d\n              count:    9999999999\n", 1, "count out of range" },
		{ "    cpu: %d\n              count:    -1\n", 1, "negative count" },
		{ "    cpu: %d\n              count:    1\n              count:    1\n", 2,
		  "given twice" },
		{ "    cpu: %d\n              count:    1\n              high:     40\n"
		  "              batch:    7\n              high_min: 30\n  vm stats threshold: 8\n",
		  6, "different fields" },
		{ "    cpu: %d\n              count:    1\n              batch:    7\n"
		  "              high:     40\n              high_min: 30\n"
		  "              high_max: 50\n  vm stats threshold: 8\n", 0, NULL },
		{ "    cpu: %d\n              count:    12345678\n              high:     40\n"
		  "              batch:    7\n              high_min: 30\n"
		  "              high_max: 50\n  vm stats threshold: 8\n", 0, NULL },
	};
	const char *record = "    cpu: %d\n              count:    %d\n              high:     40\n"
			     "              batch:    7\n              high_min: 30\n"
			     "              high_max: 50\n  vm stats threshold: 8\n";

	(void)state;
	for (size_t c = 0; c < ARRAY_SIZE(cases); c++) {
		char text[16384];
		int len = snprintf(text, sizeof(text), "%s", HEAD);
		struct zoneinfo zi;
		struct zi_error err;
		int rc;

		for (int cpu = 0; cpu < 40; cpu++) {
			len += snprintf(text + len, sizeof(text) - (size_t)len,
					cpu == 20 ? cases[c].record : record, cpu, cpu % 7);
		}
		len += snprintf(text + len, sizeof(text) - (size_t)len, "%s", TAIL);
		assert_true((size_t)len < sizeof(text));
		rc = zoneinfo_parse(text, (size_t)len, &zi, &err);
		if (!cases[c].message) {
			assert_int_equal(rc, 0);
			assert_int_equal(zi.npagesets, 40);
			assert_int_equal(zi.zones[0].pagesets[20].value[ZI_BATCH], 7);
			assert_int_equal(zi.zones[0].pagesets[20].value[ZI_HIGH], 40);
			assert_int_equal(zi.zones[0].pagesets[39].value[ZI_COUNT], 39 % 7);
			assert_int_equal(zi.zones[0].pagesets[39].cpu, 39);
			zoneinfo_free(&zi);
			continue;
		}
		/* HEAD is 9 lines and each record 7. */
		if (rc != -EINVAL || err.line != 9 + 7 * 20 + 1 + cases[c].line ||
		    !strstr(err.message, cases[c].message))
			fail_msg("case %zu: got %d, line %zu \"%s\"; expected line %zu \"%s\"", c, rc,
				 err.line, err.message, 9 + 7 * 20 + 1 + cases[c].line, cases[c].message);
	}
}

static void test_many_cpus_and_nodes(void **state)
{
	/* 4096 CPUs over 64 nodes: no fixed limit may stand in the way. */
	size_t cap = 64u << 20, len = 0;
	char *text = malloc(cap);
	struct zoneinfo zi;
	struct zi_error err;

	(void)state;
	assert_non_null(text);
	for (int node = 0; node < 64; node++) {
		len += (size_t)snprintf(text + len, cap - len,
					"Node %d, zone   Normal\n        present  1000\n  pagesets\n", node);
		for (int cpu = 0; cpu < 4096; cpu++)
			len += (size_t)snprintf(text + len, cap - len,
						"    cpu: %d\n              count: %d\n"
						"              high:  186\n              batch: 31\n",
						cpu, cpu % 100);
		len += (size_t)snprintf(text + len, cap - len, "  start_pfn:           1\n");
	}
	assert_int_equal(zoneinfo_parse(text, len, &zi, &err), 0);
	assert_int_equal(zi.nzones, 64);
	assert_int_equal(zi.npagesets, 64 * 4096);
	assert_int_equal(zi.zones[63].pagesets[4095].cpu, 4095);
	assert_int_equal(zi.zones[63].pagesets[4095].value[ZI_COUNT], 95);
	zoneinfo_free(&zi);
	free(text);
}

static bool same_model(const struct zoneinfo *a, const struct zoneinfo *b)
{
	if (a->nzones != b->nzones || a->npagesets != b->npagesets ||
	    a->pageset_fields != b->pageset_fields)
		return false;
	for (size_t i = 0; i < a->nzones; i++)
		if (a->zones[i].node != b->zones[i].node || a->zones[i].npagesets != b->zones[i].npagesets ||
		    strcmp(a->zones[i].name, b->zones[i].name) != 0 ||
		    memcmp(a->zones[i].field, b->zones[i].field, sizeof(a->zones[i].field)) != 0)
			return false;
	return memcmp(a->pageset_store, b->pageset_store,
		      a->npagesets * sizeof(*a->pageset_store)) == 0;
}

/* A line split anywhere between two reads parses as if read whole. */
static void test_chunked_feeding(void **state)
{
	static const char *const fixtures[] = { "debian-6.1-cpuless-node.zoneinfo",
						"live-6.18-2cpu.zoneinfo" };
	static const size_t chunks[] = { 1, 2, 3, 7, 64, 100, 4095, 65536 };

	(void)state;
	for (size_t f = 0; f < 2; f++) {
		char path[512];
		struct zoneinfo whole, fed;
		struct zi_error err;
		char *text;
		size_t len;

		snprintf(path, sizeof(path), "%s/zoneinfo/%s", FIXTURE_DIR, fixtures[f]);
		assert_int_equal(read_whole_file(path, &text, &len), 0);
		assert_int_equal(zoneinfo_parse(text, len, &whole, &err), 0);
		for (size_t c = 0; c < ARRAY_SIZE(chunks); c++) {
			struct zi_parser *p = zi_parser_begin(&fed, &err);

			assert_non_null(p);
			for (size_t off = 0; off < len; off += chunks[c])
				zi_parser_feed(p, text + off, len - off < chunks[c] ? len - off : chunks[c]);
			assert_int_equal(zi_parser_finish(p), 0);
			if (!same_model(&whole, &fed))
				fail_msg("%s in chunks of %zu differs", fixtures[f], chunks[c]);
			zoneinfo_free(&fed);
		}
		/* An error is found at the same line whatever the chunking. */
		text[len - 1] = 'x';
		for (size_t c = 0; c < ARRAY_SIZE(chunks); c++) {
			struct zi_parser *p = zi_parser_begin(&fed, &err);

			for (size_t off = 0; off < len; off += chunks[c])
				zi_parser_feed(p, text + off, len - off < chunks[c] ? len - off : chunks[c]);
			assert_int_equal(zi_parser_finish(p), -EINVAL);
			assert_non_null(strstr(err.message, "no newline"));
		}
		zoneinfo_free(&whole);
		free(text);
	}
}

/* Every length of number, at the end of the text or not, parses to its value. */
static void test_number_lengths(void **state)
{
	(void)state;
	for (int digits = 1; digits <= 10; digits++)
		for (int first = 1; first <= 2; first++) {
			char text[512], num[16];
			struct zoneinfo zi;
			struct zi_error err;
			long long want;
			int len;

			memset(num, '0' + first, sizeof(num));
			num[digits] = '\0';
			want = atoll(num);
			len = snprintf(text, sizeof(text),
				       "Node 0, zone DMA\n        present  %s\n  pagesets\n    cpu: %s\n"
				       "              count: %s\n              high:  0\n"
				       "              batch: %s\n  start_pfn: 1\n", num, num, num, num);
			int rc = zoneinfo_parse(text, (size_t)len, &zi, &err);

			if (want > 2147483647LL) {
				assert_int_equal(rc, -EINVAL);
				assert_non_null(strstr(err.message, "out of range"));
				continue;
			}
			assert_int_equal(rc, 0);
			assert_int_equal(zi.zones[0].field[ZI_PRESENT], want);
			assert_int_equal(zi.zones[0].pagesets[0].cpu, want);
			assert_int_equal(zi.zones[0].pagesets[0].value[ZI_COUNT], want);
			assert_int_equal(zi.zones[0].pagesets[0].value[ZI_BATCH], want);
			zoneinfo_free(&zi);
		}
}

struct bad_case {
	const char *name;
	const char *text;
	size_t line;		/* expected error line, 0 = whole text */
	const char *message;	/* expected substring */
};

static const struct bad_case bad_cases[] = {
	{ "empty", "", 0, "empty" },
	{ "garbage", "hello world\nthis is not zoneinfo\n", 0, "not a zoneinfo file" },
	{ "binary", "Node 0, zone DMA\n\0\n", 0, "NUL" },
	{ "truncated mid-line", HEAD "    cpu: 0\n              count:    1", 11, "no newline" },
	{ "truncated mid-record", HEAD "    cpu: 0\n              count:    1\n", 11, "lacks high" },
	{ "truncated after a cpu", HEAD CPU(0, 1), 15, "without start_pfn" },
	{ "pagesets without cpus", HEAD TAIL, 10, "list no cpu" },
	{ "count past INT_MAX", HEAD "    cpu: 0\n              count:    2147483648\n", 11,
	  "count out of range" },
	{ "managed past 2^64", "Node 0, zone DMA\n        managed  18446744073709551616\n", 2,
	  "managed out of range" },
	{ "negative count", HEAD "    cpu: 0\n              count:    -1\n", 11, "negative count" },
	{ "negative cpu", HEAD "    cpu: -3\n", 10, "negative cpu id" },
	{ "junk after number", HEAD "    cpu: 0\n              count:    12abc\n", 11,
	  "count is not a number" },
	{ "duplicate cpu", HEAD CPU(0, 1) CPU(0, 2) TAIL, 16, "cpu 0 listed after cpu 0" },
	{ "cpu out of order", HEAD CPU(2, 1) CPU(1, 2) TAIL, 16, "cpu 1 listed after cpu 2" },
	{ "cpu line before any zone", "    cpu: 0\nNode 0, zone DMA\n", 1, "outside a pagesets" },
	{ "cpu line outside pagesets", "Node 0, zone DMA\n    cpu: 0\n", 2, "outside a pagesets" },
	{ "cpu line after the tail", HEAD CPU(0, 1) TAIL "    cpu: 1\n", 18, "outside a pagesets" },
	{ "field before cpu", HEAD "              count:    1\n", 10, "before any cpu" },
	{ "field twice", HEAD "    cpu: 0\n              count:    1\n              count:    2\n", 12,
	  "given twice" },
	{ "mixed formats", HEAD CPU(0, 1) "    cpu: 1\n              count: 1\n"
	  "              high:  4\n              batch: 1\n" TAIL, 20, "different fields" },
	{ "zone twice", "Node 0, zone DMA\nNode 0, zone DMA\n", 2, "listed twice" },
	{ "truncated zone head", "Node 0, zone DMA\n  pages free     3840\n", 2,
	  "ends before its present line" },
	{ "present zone without pagesets", "Node 0, zone DMA\n        present  3998\n"
	  "Node 0, zone DMA32\n        present  0\n", 3, "present pages but no pagesets" },
	{ "nodes out of order", "Node 1, zone DMA\nNode 0, zone DMA\n", 2, "node 0 listed after node 1" },
	{ "bad header", "Node x, zone DMA\n", 1, "node id is not a number" },
	{ "no zone name", "Node 0, zone \n", 1, "malformed zone name" },
	{ "zone name with a quote", "Node 0, zone DM\"A\n", 1, "malformed zone name" },
	{ "zone name with an escape", "Node 0, zone \x1b[31m\n", 1, "malformed zone name" },
	{ "long zone name", "Node 0, zone ABCDEFGHIJKLMNOPQRSTUVWXYZ\n", 1, "malformed zone name" },
	/* Later records take a faster path once the first has set the layout. */
	{ "negative count, second cpu", HEAD CPU(0, 5) "    cpu: 1\n              count:    -5\n", 17,
	  "negative count" },
	{ "junk, second cpu", HEAD CPU(0, 5) "    cpu: 1\n              count:    12abc\n", 17,
	  "count is not a number" },
	{ "past INT_MAX, second cpu", HEAD CPU(0, 5) "    cpu: 1\n              count:    9999999999\n",
	  17, "count out of range" },
	{ "field twice, second cpu", HEAD CPU(0, 5) "    cpu: 1\n              count:    1\n"
	  "              count:    1\n", 18, "given twice" },
	{ "field missing, second cpu", HEAD CPU(0, 5) "    cpu: 1\n              count:    1\n"
	  "              high:     40\n              batch:    7\n              high_min: 30\n" TAIL,
	  21, "different fields" },
	{ "second pagesets", HEAD CPU(0, 1) TAIL "  pagesets\n", 18, "pagesets line outside" },
};

static void test_malformed(void **state)
{
	size_t failures = 0;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(bad_cases); i++) {
		const struct bad_case *c = &bad_cases[i];
		/* The binary case carries a NUL, so its length is counted by hand. */
		size_t len = strcmp(c->name, "binary") == 0 ? 19 : strlen(c->text);
		struct zoneinfo zi;
		struct zi_error err;

		int rc = zoneinfo_parse(c->text, len, &zi, &err);

		if (rc != -EINVAL || err.line != c->line || !strstr(err.message, c->message)) {
			print_error("%s: got %d, line %zu \"%s\"; expected line %zu \"%s\"\n",
				    c->name, rc, err.line, err.message, c->line, c->message);
			failures++;
		}
		assert_null(zi.zones);
		assert_null(zi.pageset_store);
	}
	assert_int_equal(failures, 0);
}

/* A copy holds the same zones and pagesets and shares no memory with the original. */
static void test_copy(void **state)
{
	struct zoneinfo zi, copy, again;

	(void)state;
	/* A node without CPUs: zones with pagesets and zones without. */
	parse_fixture("debian-6.1-cpuless-node.zoneinfo", &zi);
	parse_fixture("debian-6.1-cpuless-node.zoneinfo", &again);
	assert_int_equal(zoneinfo_copy(&copy, &zi), 0);
	assert_ptr_not_equal(copy.zones, zi.zones);
	assert_ptr_not_equal(copy.pageset_store, zi.pageset_store);
	/* What the copy holds outlives the original, and changes to it stay its own. */
	zoneinfo_free(&zi);
	assert_int_equal(copy.nzones, again.nzones);
	assert_int_equal(copy.npagesets, again.npagesets);
	assert_int_equal(copy.pageset_fields, again.pageset_fields);
	for (size_t i = 0; i < copy.nzones; i++) {
		const struct zi_zone *c = &copy.zones[i], *o = &again.zones[i];

		assert_int_equal(c->node, o->node);
		assert_string_equal(c->name, o->name);
		assert_memory_equal(c->field, o->field, sizeof(c->field));
		assert_int_equal(c->npagesets, o->npagesets);
		if (!o->pagesets) {
			assert_null(c->pagesets);
			continue;
		}
		assert_true(c->pagesets >= copy.pageset_store &&
			    c->pagesets + c->npagesets <= copy.pageset_store + copy.npagesets);
		assert_memory_equal(c->pagesets, o->pagesets, o->npagesets * sizeof(*o->pagesets));
	}
	zoneinfo_free(&copy);
	zoneinfo_free(&again);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_debian_6_1_numa),
		cmocka_unit_test(test_debian_6_1_cpuless_node),
		cmocka_unit_test(test_debian_6_12_lazy_high),
		cmocka_unit_test(test_live_6_18),
		cmocka_unit_test(test_debian_7_3),
		cmocka_unit_test(test_patched_7_3_batch_max),
		cmocka_unit_test(test_4_14_sparse_cpus),
		cmocka_unit_test(test_newest_mainline_extra_lines),
		cmocka_unit_test(test_watermark_boost),
		cmocka_unit_test(test_records_differ),
		cmocka_unit_test(test_damage_among_records),
		cmocka_unit_test(test_many_cpus_and_nodes),
		cmocka_unit_test(test_chunked_feeding),
		cmocka_unit_test(test_number_lengths),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_copy),
	};

	return cmocka_run_group_tests_name("zoneinfo", tests, NULL, NULL);
}
