/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "zoneinfo.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"

enum section {
	BEFORE_ZONES,
	ZONE_HEAD,	/* watermarks and stats before "pagesets" */
	PAGESETS,
	ZONE_TAIL,	/* node_unreclaimable, start_pfn and later lines */
};

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
};

/*
 * The kernel has at most six zone types; a node with more zones than this
 * is not zoneinfo, and the bound keeps the duplicate-zone check linear.
 */
#define ZONES_PER_NODE_MAX 64

static const char *const field_names[ZI_NFIELDS] = {
	[ZI_COUNT] = "count",
	[ZI_HIGH] = "high",
	[ZI_BATCH] = "batch",
	[ZI_HIGH_MIN] = "high_min",
	[ZI_HIGH_MAX] = "high_max",
};

#define REQUIRED_FIELDS ((1u << ZI_COUNT) | (1u << ZI_HIGH) | (1u << ZI_BATCH))

const char *zi_field_name(enum zi_field f)
{
	return field_names[f];
}

static struct zi_zone *cur_zone(struct zi_parser *p)
{
	return &p->zi->zones[p->zi->nzones - 1];
}

static struct zi_pageset *cur_pageset(struct zi_parser *p)
{
	return &p->zi->pageset_store[p->zi->npagesets - 1];
}

static const char *line_end(const char *s, const char *end)
{
	return memchr(s, '\n', (size_t)(end - s));
}

static const char *skip_blanks(const char *s, const char *end)
{
	while (s < end && *s == ' ')
		s++;
	return s;
}

static int fail(struct zi_parser *p, size_t line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct zi_parser *p, size_t line, const char *fmt, ...)
{
	va_list ap;

	p->err->line = line;
	va_start(ap, fmt);
	vsnprintf(p->err->message, sizeof(p->err->message), fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/*
 * The line handlers below see a buffer that holds a '\n' at or after the
 * line's start and ends at `end`: they scan to the newline themselves and
 * return its position, or NULL after recording an error in p->rc.  Only
 * lines they do not parse word by word need a memchr.
 */
#define FAIL(p, ...) ((p)->rc = fail((p), (p)->lineno, __VA_ARGS__), (const char *)NULL)
#define CHECK(p, expr) (((p)->rc = (expr)) ? (const char *)NULL : (const char *)1)

/* If the buffer at s starts with key, the position after it. */
static const char *skip_key(const char *s, const char *end, const char *key, size_t keylen)
{
	if ((size_t)(end - s) < keylen || memcmp(s, key, keylen) != 0)
		return NULL;
	return s + keylen;
}
#define KEY(s, end, lit) skip_key((s), (end), (lit), sizeof(lit) - 1)

/*
 * A decimal up to max after optional blanks, ending at the terminator
 * (the newline, or the comma of a zone header).  Returns the terminator's
 * position.  Inlined, so that max / 10 is a constant.
 */
static inline __attribute__((always_inline)) const char *
number(struct zi_parser *p, const char *s, const char *end, char terminator, uint64_t max,
       const char *what, uint64_t *out)
{
	const char *t = skip_blanks(s, end), *d = t;
	const uint64_t max_tens = max / 10, max_units = max % 10;
	uint64_t v = 0;

	for (unsigned digit; (digit = (unsigned)(*d - '0')) <= 9; d++) {
		/* Nine digits cannot overflow any max we are given. */
		if (d - t >= 9 && (v > max_tens || (v == max_tens && digit > max_units)))
			return FAIL(p, "%s out of range: %.*s", what, (int)(line_end(t, end) - t), t);
		v = v * 10 + digit;
	}
	if (*d == terminator && d > t) {
		*out = v;
		return d;
	}
	if (*t == '-')
		return FAIL(p, "negative %s: %.*s", what, (int)(line_end(t, end) - t), t);
	if (*t == terminator || *t == '\n')
		return FAIL(p, "%s is missing", what);
	return FAIL(p, "%s is not a number: \"%.*s\"", what, (int)(line_end(t, end) - t), t);
}

static int close_cpu(struct zi_parser *p)
{
	struct zi_pageset *ps;

	if (!p->in_cpu)
		return 0;
	p->in_cpu = false;
	ps = cur_pageset(p);
	if ((ps->present & REQUIRED_FIELDS) != REQUIRED_FIELDS)
		return fail(p, p->lineno, "truncated record: cpu %d of node %d zone %s lacks %s",
			    ps->cpu, cur_zone(p)->node, cur_zone(p)->name,
			    !zi_has(ps, ZI_COUNT) ? "count" :
			    !zi_has(ps, ZI_HIGH) ? "high" : "batch");
	if (p->zi->npagesets == 1)
		p->zi->pageset_fields = ps->present;
	else if (ps->present != p->zi->pageset_fields)
		return fail(p, p->lineno,
			    "cpu %d of node %d zone %s has different fields from the CPUs before it",
			    ps->cpu, cur_zone(p)->node, cur_zone(p)->name);
	return 0;
}

static int close_zone(struct zi_parser *p)
{
	/* The kernel prints pagesets for every zone with present pages. */
	if (p->section == ZONE_HEAD && !p->zone_has_present)
		return fail(p, p->lineno, "truncated record: node %d zone %s ends before its present line",
			    cur_zone(p)->node, cur_zone(p)->name);
	if (p->section == ZONE_HEAD && cur_zone(p)->field[ZI_PRESENT])
		return fail(p, p->lineno, "truncated record: node %d zone %s has present pages but no pagesets",
			    cur_zone(p)->node, cur_zone(p)->name);
	if (p->section == PAGESETS) {
		int rc = close_cpu(p);

		if (rc)
			return rc;
		return fail(p, p->lineno, "truncated record: pagesets of node %d zone %s end without start_pfn",
			    cur_zone(p)->node, cur_zone(p)->name);
	}
	return 0;
}

/*
 * Kernel zone names are letters and digits; holding to that keeps control
 * characters and quotes out of terminals and JSON.
 */
static bool plain_name(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_')
			return false;
	return true;
}

static const char *zone_header(struct zi_parser *p, const char *s, const char *end)
{
	const char *e = line_end(s, end);
	const char *t = s + 5;	/* after "Node " */
	const char *comma, *name;
	struct zi_zone *z;
	uint64_t node = 0;
	size_t namelen;

	comma = memchr(t, ',', (size_t)(e - t));
	if (!comma || !(name = KEY(comma, e, ", zone ")))
		return FAIL(p, "malformed zone header: \"%.*s\"", (int)(e - s), s);
	if (!number(p, t, end, ',', INT_MAX, "node id", &node))
		return NULL;
	while (name < e && *name == ' ')
		name++;
	namelen = (size_t)(e - name);
	if (namelen == 0 || namelen >= ZI_ZONE_NAME_MAX || !plain_name(name, namelen)) {
		char shown[80];

		return FAIL(p, "malformed zone name: \"%s\"%s",
			    escape_text(shown, sizeof(shown), name, namelen, false),
			    memchr(name, '\r', namelen) ? " (CRLF line endings: convert the file "
							   "with dos2unix)" : "");
	}

	if (p->zi->nzones) {
		const struct zi_zone *prev = cur_zone(p);

		if ((int)node < prev->node)
			return FAIL(p, "node %d listed after node %d", (int)node, prev->node);
		if ((int)node != prev->node)
			p->zones_in_node = 0;
	}
	for (size_t i = p->zi->nzones - p->zones_in_node; i < p->zi->nzones; i++)
		if (strlen(p->zi->zones[i].name) == namelen &&
		    memcmp(p->zi->zones[i].name, name, namelen) == 0)
			return FAIL(p, "node %d zone %.*s listed twice", (int)node, (int)namelen, name);
	if (++p->zones_in_node > ZONES_PER_NODE_MAX)
		return FAIL(p, "more than %d zones on node %d", ZONES_PER_NODE_MAX, (int)node);

	if (!CHECK(p, close_zone(p)))
		return NULL;
	if (p->zi->nzones == p->zones_cap) {
		size_t cap = p->zones_cap ? p->zones_cap * 2 : 8;
		struct zi_zone *zones = realloc(p->zi->zones, cap * sizeof(*zones));

		if (!zones)
			return CHECK(p, -ENOMEM);
		p->zi->zones = zones;
		p->zones_cap = cap;
	}
	z = &p->zi->zones[p->zi->nzones++];
	memset(z, 0, sizeof(*z));
	z->node = (int)node;
	memcpy(z->name, name, namelen);
	p->section = ZONE_HEAD;
	p->zone_has_present = false;
	return e;
}

/*
 * The store grows by doubling.  The first block (229 KB) is past malloc's
 * mmap threshold, so it is mapped rather than carved from the heap: its
 * pages are touched only as pagesets fill them, and growing it remaps it.
 * Heap blocks grown by copying touched about three times the pages, and
 * every first touch is a page fault.
 */
#define PAGESETS_FIRST 8192

/* Room for one more pageset in the store: 0 or -ENOMEM. */
static int reserve_pageset(struct zi_parser *p)
{
	size_t cap = p->pagesets_cap ? p->pagesets_cap * 2 : PAGESETS_FIRST;
	struct zi_pageset *store;

	if (p->zi->npagesets < p->pagesets_cap)
		return 0;
	store = realloc(p->zi->pageset_store, cap * sizeof(*store));
	if (!store)
		return -ENOMEM;
	p->zi->pageset_store = store;
	p->pagesets_cap = cap;
	return 0;
}

static const char *cpu_line(struct zi_parser *p, const char *s, const char *end)
{
	struct zi_pageset *ps;
	uint64_t cpu = 0;
	const char *e;

	if (p->section != PAGESETS)
		return FAIL(p, "cpu line outside a pagesets section");
	if (!CHECK(p, close_cpu(p)) || !(e = number(p, s, end, '\n', INT_MAX, "cpu id", &cpu)))
		return NULL;
	/* The kernel walks online CPUs in increasing order, so this also catches duplicates. */
	if (p->zi->npagesets > p->zone_first && (int)cpu <= cur_pageset(p)->cpu)
		return FAIL(p, "cpu %d listed after cpu %d in node %d zone %s", (int)cpu,
			    cur_pageset(p)->cpu, cur_zone(p)->node, cur_zone(p)->name);

	if (!CHECK(p, reserve_pageset(p)))
		return NULL;
	ps = &p->zi->pageset_store[p->zi->npagesets++];
	memset(ps, 0, sizeof(*ps));
	ps->cpu = (int)cpu;
	cur_zone(p)->npagesets++;
	p->in_cpu = true;
	return e;
}

static const char *pageset_field(struct zi_parser *p, enum zi_field f, const char *s,
				 const char *end)
{
	struct zi_pageset *ps;
	uint64_t v = 0;
	const char *e;

	/* in_cpu holds only inside a pagesets section. */
	if (!p->in_cpu)
		return p->section != PAGESETS ?
		       FAIL(p, "%s: line outside a pagesets section", field_names[f]) :
		       FAIL(p, "%s: line before any cpu: line", field_names[f]);
	ps = cur_pageset(p);
	if (zi_has(ps, f))
		return FAIL(p, "%s: given twice for cpu %d", field_names[f], ps->cpu);
	e = number(p, s, end, '\n', INT_MAX, field_names[f], &v);
	if (e) {
		ps->value[f] = (int)v;
		ps->present |= 1u << f;
	}
	return e;
}

static const char *zone_field(struct zi_parser *p, enum zi_zone_field f, const char *s,
			      const char *end)
{
	static const char *const names[ZI_NZONE_FIELDS] = {
		[ZI_LOW] = "low", [ZI_WMARK_HIGH] = "high", [ZI_PRESENT] = "present",
		[ZI_MANAGED] = "managed", [ZI_BOOST] = "boost",
	};

	/* Per-node stats and later blocks may reuse these words; only the zone head counts. */
	if (p->section != ZONE_HEAD)
		return line_end(s, end);
	if (f == ZI_PRESENT)
		p->zone_has_present = true;
	return number(p, s, end, '\n', UINT64_MAX, names[f], &cur_zone(p)->field[f]);
}

static const char *zone_tail(struct zi_parser *p, const char *s, const char *end)
{
	if (p->section == PAGESETS) {
		if (!CHECK(p, close_cpu(p)))
			return NULL;
		if (p->zi->npagesets == p->zone_first)
			return FAIL(p, "pagesets of node %d zone %s list no cpu", cur_zone(p)->node,
				    cur_zone(p)->name);
		p->section = ZONE_TAIL;
	}
	return line_end(s, end);
}

/*
 * One line, by the word it starts with after indentation; returns the
 * position of its newline, or NULL on an error (in p->rc).
 */
static const char *parse_line(struct zi_parser *p, const char *line, const char *end)
{
	const char *s = skip_blanks(line, end), *t;

	switch (*s) {
	case 'N':
		if (KEY(s, end, "Node "))
			return zone_header(p, s, end);
		break;
	case 'c':
		if ((t = KEY(s, end, "count:")))
			return pageset_field(p, ZI_COUNT, t, end);
		if ((t = KEY(s, end, "cpu:")))
			return cpu_line(p, t, end);
		break;
	case 'h':
		if ((t = KEY(s, end, "high:")))
			return pageset_field(p, ZI_HIGH, t, end);
		if ((t = KEY(s, end, "high_min:")))
			return pageset_field(p, ZI_HIGH_MIN, t, end);
		if ((t = KEY(s, end, "high_max:")))
			return pageset_field(p, ZI_HIGH_MAX, t, end);
		if ((t = KEY(s, end, "high ")))
			return zone_field(p, ZI_WMARK_HIGH, t, end);
		break;
	case 'b':
		if ((t = KEY(s, end, "batch:")))
			return pageset_field(p, ZI_BATCH, t, end);
		if ((t = KEY(s, end, "boost ")))
			return zone_field(p, ZI_BOOST, t, end);
		break;
	case 'p':
		if ((t = KEY(s, end, "present ")))
			return zone_field(p, ZI_PRESENT, t, end);
		/* A key never holds a newline, so s[8] is still inside the buffer. */
		if (KEY(s, end, "pagesets") && s[8] == '\n') {
			if (p->section != ZONE_HEAD)
				return FAIL(p, "pagesets line outside a zone head");
			p->section = PAGESETS;
			p->zone_first = p->zi->npagesets;
			return s + 8;
		}
		break;
	case 'm':
		if ((t = KEY(s, end, "managed ")))
			return zone_field(p, ZI_MANAGED, t, end);
		break;
	case 'l':
		if ((t = KEY(s, end, "low ")))
			return zone_field(p, ZI_LOW, t, end);
		break;
	case 's':
		if (KEY(s, end, "start_pfn:"))
			return zone_tail(p, s, end);
		break;
	case 'n':
		if (KEY(s, end, "node_unreclaimable:"))
			return zone_tail(p, s, end);
		break;
	}
	return line_end(s, end);
}

/* Parse the complete lines of [pos, end), which ends with a newline. */
static int parse_lines(struct zi_parser *p, const char *pos, const char *end)
{
	while (pos < end) {
		const char *e;

		p->lineno++;
		if (!(e = parse_line(p, pos, end)))
			return p->rc;
		pos = e + 1;
	}
	return 0;
}

struct zi_parser *zi_parser_begin(struct zoneinfo *zi, struct zi_error *err)
{
	struct zi_parser *p = calloc(1, sizeof(*p));

	memset(zi, 0, sizeof(*zi));
	memset(err, 0, sizeof(*err));
	if (!p)
		return NULL;
	p->section = BEFORE_ZONES;
	p->zi = zi;
	p->err = err;
	return p;
}

/* Keep the unfinished end of a chunk until the next one completes it. */
static int carry(struct zi_parser *p, const char *s, size_t n)
{
	if (n == 0)
		return 0;
	if (p->carry_len + n > LINE_MAX_BYTES)
		return fail(p, p->lineno + 1, "line longer than %u bytes", LINE_MAX_BYTES);
	if (p->carry_len + n > p->carry_cap) {
		size_t cap = p->carry_cap ? p->carry_cap : 256;
		char *bigger;

		while (cap < p->carry_len + n)
			cap *= 2;
		bigger = realloc(p->carry, cap);
		if (!bigger)
			return -ENOMEM;
		p->carry = bigger;
		p->carry_cap = cap;
	}
	/* carry_len + n > 0 at every call, so carry is allocated by now. */
	/* NOLINTNEXTLINE(clang-analyzer-core.NonNullParamChecker) */
	memcpy(p->carry + p->carry_len, s, n);
	p->carry_len += n;
	return 0;
}

int zi_parser_feed(struct zi_parser *p, const char *chunk, size_t len)
{
	const char *pos = chunk, *end = chunk + len, *last;

	if (p->rc || len == 0)
		return p->rc;
	p->fed = true;
	if (memchr(chunk, '\0', len))
		return p->rc = fail(p, 0, "binary data (a NUL byte)");
	last = memrchr(chunk, '\n', len);
	if (!last)
		return p->rc = carry(p, pos, len);
	if (p->carry_len) {
		const char *nl = memchr(pos, '\n', len);

		if ((p->rc = carry(p, pos, (size_t)(nl - pos) + 1)) ||
		    (p->rc = parse_lines(p, p->carry, p->carry + p->carry_len)))
			return p->rc;
		p->carry_len = 0;
		pos = nl + 1;
	}
	if (pos <= last && (p->rc = parse_lines(p, pos, last + 1)))
		return p->rc;
	return p->rc = carry(p, last + 1, (size_t)(end - last - 1));
}

int zi_parser_finish(struct zi_parser *p)
{
	struct zoneinfo *zi = p->zi;
	int rc = p->rc;

	if (!rc && !p->fed)
		rc = fail(p, 0, "empty: no zones");
	if (!rc && p->carry_len)
		rc = fail(p, p->lineno + 1, "truncated: the last line has no newline");
	if (!rc)
		rc = close_zone(p);
	if (!rc && zi->nzones == 0)
		rc = fail(p, 0, "no \"Node N, zone NAME\" line: not a zoneinfo file");
	if (rc == -ENOMEM)
		snprintf(p->err->message, sizeof(p->err->message), "out of memory");
	free(p->carry);
	free(p);
	if (rc) {
		zoneinfo_free(zi);
		return rc;
	}

	size_t first = 0;

	for (size_t i = 0; i < zi->nzones; i++) {
		struct zi_zone *z = &zi->zones[i];

		z->pagesets = z->npagesets ? zi->pageset_store + first : NULL;
		first += z->npagesets;
	}
	return 0;
}

int zoneinfo_parse(const char *text, size_t len, struct zoneinfo *zi, struct zi_error *err)
{
	struct zi_parser *p = zi_parser_begin(zi, err);

	if (!p) {
		snprintf(err->message, sizeof(err->message), "out of memory");
		return -ENOMEM;
	}
	zi_parser_feed(p, text, len);
	return zi_parser_finish(p);
}

void zoneinfo_free(struct zoneinfo *zi)
{
	free(zi->zones);
	free(zi->pageset_store);
	memset(zi, 0, sizeof(*zi));
}

int zoneinfo_copy(struct zoneinfo *dst, const struct zoneinfo *src)
{
	size_t nz = src->nzones, np = src->npagesets;
	struct zi_zone *zones = nz ? malloc(nz * sizeof(*zones)) : NULL;
	struct zi_pageset *store = np ? malloc(np * sizeof(*store)) : NULL;

	if ((nz && !zones) || (np && !store)) {
		free(zones);
		free(store);
		return -ENOMEM;
	}
	*dst = *src;
	dst->zones = zones;
	dst->pageset_store = store;
	if (np)
		memcpy(store, src->pageset_store, np * sizeof(*store));
	for (size_t i = 0; i < nz; i++) {
		zones[i] = src->zones[i];
		/* The zones point into the store: into the copy's now. */
		if (zones[i].pagesets)
			zones[i].pagesets = store + (src->zones[i].pagesets - src->pageset_store);
	}
	return 0;
}

void zi_zone_range(const struct zi_zone *z, enum zi_field f, int *lo, int *hi)
{
	*lo = *hi = z->npagesets ? z->pagesets[0].value[f] : 0;
	for (size_t i = 1; i < z->npagesets; i++) {
		int v = z->pagesets[i].value[f];

		if (v < *lo)
			*lo = v;
		if (v > *hi)
			*hi = v;
	}
}
