/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The model of /proc/zoneinfo that every command works from, and the parser
 * that builds it.  The parser is a pure function of the text: it reads no
 * file and prints nothing, so tests feed it strings and fixtures.
 */
#ifndef PCPCTL_ZONEINFO_H
#define PCPCTL_ZONEINFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The fields a kernel may print per CPU; high_min/high_max came in 6.13. */
enum zi_field {
	ZI_COUNT,
	ZI_HIGH,
	ZI_BATCH,
	ZI_HIGH_MIN,
	ZI_HIGH_MAX,
	ZI_NFIELDS
};

struct zi_pageset {
	int cpu;
	unsigned present;	/* bit (1 << enum zi_field) per field seen */
	int value[ZI_NFIELDS];
};

/* Zone-wide numbers, in pages, as printed before the pagesets. */
enum zi_zone_field {
	ZI_LOW,
	ZI_WMARK_HIGH,
	ZI_PRESENT,
	ZI_MANAGED,
	ZI_BOOST,		/* watermark boost, already part of min, low and high; 5.0+ */
	ZI_NZONE_FIELDS
};

/* Long enough for every zone name the kernel has (DMA32, Movable, Device...). */
#define ZI_ZONE_NAME_MAX 16

struct zi_zone {
	int node;
	char name[ZI_ZONE_NAME_MAX];
	uint64_t field[ZI_NZONE_FIELDS];
	struct zi_pageset *pagesets;	/* NULL for an unpopulated zone */
	size_t npagesets;
};

struct zoneinfo {
	struct zi_zone *zones;
	size_t nzones;
	size_t npagesets;
	/* Fields printed for every pageset of this kernel, as a bit mask. */
	unsigned pageset_fields;
	/* The pagesets of all zones, in file order; zone->pagesets point in here. */
	struct zi_pageset *pageset_store;
};

struct zi_error {
	size_t line;		/* 1-based; 0 when the error is about the whole text */
	char message[160];
};

/*
 * Parse zoneinfo text of len bytes.  On success fills *zi (free it with
 * zoneinfo_free) and returns 0.  On structural damage returns -EINVAL and
 * describes it in *err; on allocation failure returns -ENOMEM.
 */
int zoneinfo_parse(const char *text, size_t len, struct zoneinfo *zi,
		   struct zi_error *err);
void zoneinfo_free(struct zoneinfo *zi);
/* dst as a copy of src, which it shares nothing with: 0, or -ENOMEM with dst untouched. */
int zoneinfo_copy(struct zoneinfo *dst, const struct zoneinfo *src);

/*
 * The same, fed in chunks of any size (a line may span chunks), so that a
 * large zoneinfo is parsed as it is read, in constant memory: begin (NULL
 * when out of memory), feed each chunk, then finish, which frees the
 * parser and returns what zoneinfo_parse would.  feed returns the first
 * error early; later chunks are ignored.
 */
struct zi_parser;
struct zi_parser *zi_parser_begin(struct zoneinfo *zi, struct zi_error *err);
int zi_parser_feed(struct zi_parser *p, const char *chunk, size_t len);
int zi_parser_finish(struct zi_parser *p);

static inline bool zi_has(const struct zi_pageset *ps, enum zi_field f)
{
	return ps->present & (1u << f);
}

/* Smallest and largest value of a field over a populated zone's pagesets. */
void zi_zone_range(const struct zi_zone *z, enum zi_field f, int *lo, int *hi);

/* The name the kernel prints for a field, without its colon. */
const char *zi_field_name(enum zi_field f);

#endif
