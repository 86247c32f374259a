/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The zoneinfo parser's state, shared by its line-by-line path
 * (zoneinfo.c) and its fast path (zoneinfo_fast.c); nothing else includes
 * this.
 */
#ifndef PCPCTL_ZONEINFO_INT_H
#define PCPCTL_ZONEINFO_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "zoneinfo.h"

enum section {
	BEFORE_ZONES,
	ZONE_HEAD,	/* watermarks and stats before "pagesets" */
	PAGESETS,
	ZONE_TAIL,	/* node_unreclaimable, start_pfn and later lines */
};

/*
 * A CPU record of a kernel's zoneinfo is a few lines of fixed text, each
 * ending in a number: cpu, the fields, "vm stats threshold".  The bounds
 * hold every layout from 4.x to 6.18 with room to spare.
 */
#define RECORD_LINES_MAX 8
#define RECORD_PREFIX_MAX 32

/*
 * The longest key parse_line() dispatches on, "node_unreclaimable:".  A
 * line it skips can be recognised by its text only if that text reaches
 * this far past the indentation: then every line that starts the same way
 * is skipped too.
 */
#define KEY_MAX 19

/* A line longer than this is not zoneinfo (its longest lines are ~100 bytes). */
#define LINE_MAX_BYTES (1u << 20)

struct zi_parser {
	size_t lineno;
	enum section section;
	struct zoneinfo *zi;
	size_t zones_cap, pagesets_cap;
	size_t zone_first;	/* store index of the current zone's first pageset */
	size_t zones_in_node;
	bool zone_has_present;	/* the current zone printed its "present" line */
	bool in_cpu;		/* a "cpu:" record is open */
	struct zi_error *err;
	int rc;			/* the first error; later input is ignored */
	bool fed;		/* any byte at all */
	char *carry;		/* a line split between two chunks */
	size_t carry_len, carry_cap;
	/*
	 * The file's first CPU record as a template: the exact text before
	 * each line's number, in order.  Every later record of a kernel's
	 * zoneinfo repeats that text, so zi_take_records() reads whole records
	 * by comparing it and converting the numbers; any record that differs
	 * goes through parse_line(), line by line.
	 */
	struct record_line {
		/* Aligned and zero-padded: compared 16 bytes at a time. */
		_Alignas(16) char text[RECORD_PREFIX_MAX];
		uint32_t mask;		/* one bit per byte of text */
		size_t len;
		int slot;		/* enum zi_field, RECORD_CPU or RECORD_SKIP */
	} record[RECORD_LINES_MAX];
	size_t nrecord;
	size_t record_span;	/* bytes a record may take, reads included */
	enum { LEARNING, LEARNED, UNUSABLE } record_state;
	int line_kind;		/* what parse_line() took the last line for */
	bool line_by_line;	/* zi_parser_line_by_line(): no fast path */
};

/* Kinds of record line besides the fields, numbered on from them. */
#define RECORD_CPU ZI_NFIELDS
#define RECORD_SKIP (ZI_NFIELDS + 1)
#define RECORD_SLOTS (ZI_NFIELDS + 2)

static inline struct zi_zone *cur_zone(struct zi_parser *p)
{
	return &p->zi->zones[p->zi->nzones - 1];
}

static inline struct zi_pageset *cur_pageset(struct zi_parser *p)
{
	return &p->zi->pageset_store[p->zi->npagesets - 1];
}

int zi_grow_pagesets(struct zi_parser *p);

/* Room for one more pageset in the store: 0 or -ENOMEM. */
static inline int zi_reserve_pageset(struct zi_parser *p)
{
	return p->zi->npagesets < p->pagesets_cap ? 0 : zi_grow_pagesets(p);
}

#endif
