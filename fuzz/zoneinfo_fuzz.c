/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target: zoneinfo_parse over arbitrary bytes, then a walk of the
 * model it built that checks every invariant the commands rely on.  The same
 * bytes are also fed to the streaming parser in chunks of sizes drawn from
 * the input (lines split anywhere, empty chunks), which must build the same
 * model or fail the same way.  Any violation aborts, which libFuzzer reports
 * as a crash.
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c.h"
#include "check.h"
#include "zoneinfo.h"

#define REQUIRED ((1u << ZI_COUNT) | (1u << ZI_HIGH) | (1u << ZI_BATCH))
#define ALL_FIELDS ((1u << ZI_NFIELDS) - 1)


static size_t count_lines(const uint8_t *data, size_t size)
{
	size_t n = 0;

	for (size_t i = 0; i < size; i++)
		n += data[i] == '\n';
	return n;
}

static void check_zone(const struct zoneinfo *zi, const struct zi_zone *z, size_t first)
{
	size_t namelen = strnlen(z->name, sizeof(z->name));

	CHECK(namelen > 0 && namelen < sizeof(z->name));
	CHECK(!memchr(z->name, ' ', namelen));
	CHECK(z->node >= 0);

	/* The kernel prints pagesets for every zone with present pages. */
	CHECK(z->field[ZI_PRESENT] == 0 || z->npagesets > 0);
	if (z->npagesets == 0) {
		CHECK(z->pagesets == NULL);
		return;
	}
	/* The zone's pagesets are the next run of the store, in file order. */
	CHECK(z->pagesets == zi->pageset_store + first);
	CHECK(first + z->npagesets <= zi->npagesets);
	for (size_t i = 0; i < z->npagesets; i++) {
		const struct zi_pageset *ps = &z->pagesets[i];

		CHECK(ps >= zi->pageset_store && ps < zi->pageset_store + zi->npagesets);
		CHECK(ps->present == zi->pageset_fields);
		CHECK(ps->cpu >= 0);
		if (i)
			CHECK(ps->cpu > z->pagesets[i - 1].cpu);
		for (int f = 0; f < ZI_NFIELDS; f++)
			if (zi_has(ps, (enum zi_field)f))
				CHECK(ps->value[f] >= 0);
	}
	for (int f = 0; f < ZI_NFIELDS; f++) {
		int lo, hi, want_lo = INT_MAX, want_hi = INT_MIN;

		CHECK(zi_field_name((enum zi_field)f) != NULL);
		/* Callers ask only for fields this kernel prints (pageset_fields). */
		if (!(zi->pageset_fields & (1u << f)))
			continue;
		zi_zone_range(z, (enum zi_field)f, &lo, &hi);
		for (size_t i = 0; i < z->npagesets; i++) {
			int v = z->pagesets[i].value[f];

			want_lo = v < want_lo ? v : want_lo;
			want_hi = v > want_hi ? v : want_hi;
		}
		CHECK(lo == want_lo && hi == want_hi);
		CHECK(lo <= hi);
	}
}

/* Chunk sizes from the input itself: deterministic for each input. */
static uint64_t next_rand(uint64_t *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return *state;
}

static int parse_chunked(const uint8_t *data, size_t size, struct zoneinfo *zi,
			 struct zi_error *err)
{
	static const size_t sizes[] = { 0, 1, 2, 3, 7, 17, 64, 100, 4096 };
	uint64_t state = 0xcbf29ce484222325ull;
	struct zi_parser *p;
	size_t off = 0;

	for (size_t i = 0; i < size; i++)
		state = (state ^ data[i]) * 0x100000001b3ull;
	state |= 1;
	p = zi_parser_begin(zi, err);
	if (!p)
		return -ENOMEM;
	while (off < size) {
		size_t n = sizes[next_rand(&state) % (ARRAY_SIZE(sizes))];
		char *chunk;

		if (n > size - off)
			n = size - off;
		/* An exact-size copy, so ASan catches a read past the chunk. */
		chunk = malloc(n ? n : 1);
		if (!chunk)
			abort();
		memcpy(chunk, data + off, n);
		zi_parser_feed(p, chunk, n);
		free(chunk);
		off += n;
	}
	return zi_parser_finish(p);
}

static void check_same(const struct zoneinfo *a, const struct zoneinfo *b)
{
	CHECK(a->nzones == b->nzones && a->npagesets == b->npagesets);
	CHECK(a->pageset_fields == b->pageset_fields);
	for (size_t i = 0; i < a->nzones; i++) {
		const struct zi_zone *za = &a->zones[i], *zb = &b->zones[i];

		CHECK(za->node == zb->node && strcmp(za->name, zb->name) == 0);
		CHECK(memcmp(za->field, zb->field, sizeof(za->field)) == 0);
		CHECK(za->npagesets == zb->npagesets);
		CHECK((za->pagesets - a->pageset_store) == (zb->pagesets - b->pageset_store) ||
		      za->npagesets == 0);
	}
	for (size_t i = 0; i < a->npagesets; i++) {
		const struct zi_pageset *pa = &a->pageset_store[i], *pb = &b->pageset_store[i];

		CHECK(pa->cpu == pb->cpu && pa->present == pb->present);
		for (int f = 0; f < ZI_NFIELDS; f++)
			if (zi_has(pa, (enum zi_field)f))
				CHECK(pa->value[f] == pb->value[f]);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct zoneinfo zi;
	struct zi_error err;
	size_t nlines = count_lines(data, size);
	int rc;

	/* libFuzzer's buffer is exactly size bytes: reading past it is caught by ASan. */
	rc = zoneinfo_parse((const char *)data, size, &zi, &err);
	CHECK(strnlen(err.message, sizeof(err.message)) < sizeof(err.message));

	struct zoneinfo zc;
	struct zi_error errc;
	int rcc = parse_chunked(data, size, &zc, &errc);

	CHECK(rcc == rc);
	/*
	 * Whole, a NUL anywhere is found before any line is parsed; in chunks,
	 * an error in the lines before the NUL's chunk comes first.
	 */
	if (rc && !memchr(data, '\0', size))
		CHECK(errc.line == err.line && strcmp(errc.message, err.message) == 0);
	if (!rc)
		check_same(&zi, &zc);
	zoneinfo_free(&zc);

	if (rc) {
		CHECK(rc == -EINVAL || rc == -ENOMEM);
		CHECK(err.message[0] != '\0');
		CHECK(err.line <= nlines + 1);
		/* A failed parse leaves nothing to free, and freeing is harmless. */
		CHECK(zi.zones == NULL && zi.pageset_store == NULL);
		CHECK(zi.nzones == 0 && zi.npagesets == 0);
		zoneinfo_free(&zi);
		return 0;
	}

	CHECK(zi.nzones > 0 && zi.zones != NULL);
	CHECK((zi.npagesets == 0) == (zi.pageset_store == NULL));
	if (zi.npagesets) {
		CHECK((zi.pageset_fields & REQUIRED) == REQUIRED);
		CHECK((zi.pageset_fields & ~ALL_FIELDS) == 0);
	}

	size_t sum = 0;

	for (size_t i = 0; i < zi.nzones; i++) {
		const struct zi_zone *z = &zi.zones[i];

		if (i) {
			const struct zi_zone *prev = &zi.zones[i - 1];

			CHECK(z->node >= prev->node);
			/* No zone twice on a node. */
			for (size_t j = i; j-- > 0 && zi.zones[j].node == z->node;)
				CHECK(strcmp(zi.zones[j].name, z->name) != 0);
		}
		check_zone(&zi, z, sum);
		sum += z->npagesets;
	}
	CHECK(sum == zi.npagesets);

	zoneinfo_free(&zi);
	CHECK(zi.zones == NULL && zi.pageset_store == NULL && zi.nzones == 0);
	return 0;
}
