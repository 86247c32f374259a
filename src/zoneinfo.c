#include "zoneinfo.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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
	 * zoneinfo repeats that text, so take_records() reads whole records
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
};

/* Kinds of record line besides the fields, numbered on from them. */
#define RECORD_CPU ZI_NFIELDS
#define RECORD_SKIP (ZI_NFIELDS + 1)
#define RECORD_SLOTS (ZI_NFIELDS + 2)

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

static const char *line_end(const char *s, const char *end)
{
#if defined(__SSE2__)
	/* Lines are short: a library call would cost more than the search. */
	const __m128i nl = _mm_set1_epi8('\n');

	for (; end - s >= 16; s += 16) {
		unsigned hits = (unsigned)_mm_movemask_epi8(
			_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)s), nl));

		if (hits)
			return s + __builtin_ctz(hits);
	}
#endif
	return memchr(s, '\n', (size_t)(end - s));
}

/* If the buffer at s starts with key, the position after it. */
static const char *skip_key(const char *s, const char *end, const char *key, size_t keylen)
{
	if ((size_t)(end - s) < keylen || memcmp(s, key, keylen) != 0)
		return NULL;
	return s + keylen;
}
#define KEY(s, end, lit) skip_key((s), (end), (lit), sizeof(lit) - 1)

/* Indentation is most of zoneinfo's bytes: skip it a word at a time. */
static const char *skip_blanks(const char *s, const char *end)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	static const uint64_t blanks = 0x2020202020202020ULL;

	while (end - s >= 8) {
		uint64_t w;

		memcpy(&w, s, 8);
		w ^= blanks;
		/* The lowest non-zero byte is the first one that is not a blank. */
		if (w)
			return s + (__builtin_ctzll(w) >> 3);
		s += 8;
	}
#endif
	while (s < end && *s == ' ')
		s++;
	return s;
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* How many of the 8 characters in w, first in the lowest byte, are digits before another. */
static inline unsigned leading_digits(uint64_t w)
{
	const uint64_t high = 0xF0F0F0F0F0F0F0F0ULL, zeros = 0x3030303030303030ULL;
	/* A carry out of a byte only disturbs bytes after the first non-digit. */
	uint64_t other = ((w & high) ^ zeros) | (((w + 0x0606060606060606ULL) & high) ^ zeros);

	return other ? (unsigned)__builtin_ctzll(other) >> 3 : 8;
}

/* The value of the first n (1..8) digits of w, combined pairwise in three steps. */
static inline uint64_t digits_value(uint64_t w, unsigned n)
{
	uint64_t x = (w - 0x3030303030303030ULL) << (8 * (8 - n));

	x = x * 10 + (x >> 8);
	return (((x & 0x000000FF000000FFULL) * (100 + (1000000ULL << 32))) +
		(((x >> 16) & 0x000000FF000000FFULL) * (1 + (10000ULL << 32)))) >> 32;
}
#endif

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

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/* Most numbers are a few digits: take up to seven at once (no overflow possible). */
	if (end - t >= 8) {
		uint64_t w;
		unsigned n;

		memcpy(&w, t, 8);
		n = leading_digits(w);
		if (n && n < 8) {
			v = digits_value(w, n);
			d = t + n;
		}
	}
#endif
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

static struct zi_zone *cur_zone(struct zi_parser *p)
{
	return &p->zi->zones[p->zi->nzones - 1];
}

static struct zi_pageset *cur_pageset(struct zi_parser *p)
{
	return &p->zi->pageset_store[p->zi->npagesets - 1];
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
	if (namelen == 0 || namelen >= ZI_ZONE_NAME_MAX || !plain_name(name, namelen))
		return FAIL(p, "malformed zone name: \"%.*s\"", (int)namelen, name);

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
 * Room for one more pageset.  The first block (229 KB) is past malloc's
 * mmap threshold, so it is mapped rather than carved from the heap: its
 * pages are touched only as pagesets fill them, and growing it remaps it.
 * Heap blocks grown by copying touched about three times the pages, and
 * every first touch is a page fault.
 */
#define PAGESETS_FIRST 8192

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
	p->line_kind = RECORD_CPU;
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
		p->line_kind = (int)f;
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

/*
 * While the file's first CPU record is read, note each of its lines as
 * line_kind and the text before its number; the template is complete when
 * that record closes.  A line that does not end in a number, or whose text
 * is too long or too short to recognise, leaves no template.
 */
static void learn_record_line(struct zi_parser *p, const char *line, const char *nl)
{
	const char *digits = nl;
	struct record_line *r;
	size_t len;

	if (p->zi->npagesets != 1 || !p->in_cpu) {
		if (p->zi->npagesets >= 1) {
			p->record_state = p->nrecord ? LEARNED : UNUSABLE;
			p->record_span += RECORD_PREFIX_MAX;
		}
		return;
	}
	while (digits > line && (unsigned)(digits[-1] - '0') <= 9)
		digits--;
	len = (size_t)(digits - line);
	if (p->nrecord == RECORD_LINES_MAX || digits == nl || len == 0 || len > RECORD_PREFIX_MAX ||
	    (p->line_kind == RECORD_SKIP && len < (size_t)(skip_blanks(line, nl) - line) + KEY_MAX)) {
		p->record_state = UNUSABLE;
		return;
	}
	r = &p->record[p->nrecord++];
	memcpy(r->text, line, len);
	r->mask = len == 32 ? UINT32_MAX : (1u << len) - 1;
	r->len = len;
	r->slot = p->line_kind;
	/* The text, up to seven digits and the newline; the last compare reads 32 bytes. */
	p->record_span += len + 8;
}

#if defined(__SSE2__)
/* Whether s starts with the text of r; reads 32 bytes of s. */
static inline bool record_text_at(const char *s, const struct record_line *r)
{
	__m128i lo = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)s),
				    _mm_load_si128((const __m128i *)r->text));
	__m128i hi = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(s + 16)),
				    _mm_load_si128((const __m128i *)(r->text + 16)));
	uint32_t same = (uint32_t)_mm_movemask_epi8(lo) | (uint32_t)_mm_movemask_epi8(hi) << 16;

	return (~same & r->mask) == 0;
}
#else
static inline bool record_text_at(const char *s, const struct record_line *r)
{
	return memcmp(s, r->text, r->len) == 0;
}
#endif

/*
 * Store a record read by take_records() as cpu_line() and pageset_field()
 * would have; false, with nothing changed, when they would have found
 * something to say about it.
 */
static bool store_record(struct zi_parser *p, const int *slots)
{
	struct zi_pageset *ps;
	int cpu = slots[RECORD_CPU];

	if (p->zi->npagesets > p->zone_first) {
		ps = cur_pageset(p);
		if ((p->in_cpu && ps->present != p->zi->pageset_fields) || cpu <= ps->cpu)
			return false;
	}
	if (reserve_pageset(p))
		return false;
	ps = &p->zi->pageset_store[p->zi->npagesets++];
	ps->cpu = cpu;
	ps->present = p->zi->pageset_fields;
	memcpy(ps->value, slots, sizeof(ps->value));
	cur_zone(p)->npagesets++;
	/* Open, as after its last line: the next line closes it. */
	p->in_cpu = true;
	return true;
}

/*
 * Whole CPU records laid out like the template, each number of up to seven
 * digits, from pos on; returns where the first other line starts.
 */
static const char *take_records(struct zi_parser *p, const char *pos, const char *end)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	while ((size_t)(end - pos) >= p->record_span) {
		/* A field the kernel does not print stays 0, as in cpu_line(). */
		int slots[RECORD_SLOTS] = { 0 };
		const char *s = pos;

		for (size_t i = 0; i < p->nrecord; i++) {
			const struct record_line *r = &p->record[i];
			uint64_t w;
			unsigned n;

			if (!record_text_at(s, r))
				return pos;
			s += r->len;
			memcpy(&w, s, 8);
			n = leading_digits(w);
			if (n == 0 || n == 8 || s[n] != '\n')
				return pos;
			slots[r->slot] = (int)digits_value(w, n);
			s += n + 1;
		}
		if (!store_record(p, slots))
			return pos;
		p->lineno += p->nrecord;
		pos = s;
	}
#else
	(void)p, (void)end;
#endif
	return pos;
}

/* Parse the complete lines of [pos, end), which ends with a newline. */
static int parse_lines(struct zi_parser *p, const char *pos, const char *end)
{
	while (pos < end) {
		const char *e;

		if (p->record_state == LEARNED && p->section == PAGESETS &&
		    (pos = take_records(p, pos, end)) == end)
			break;
		p->lineno++;
		p->line_kind = RECORD_SKIP;
		if (!(e = parse_line(p, pos, end)))
			return p->rc;
		if (p->record_state == LEARNING)
			learn_record_line(p, pos, e);
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
