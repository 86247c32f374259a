#include "zoneinfo.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

struct parser {
	const char *pos, *end;
	size_t lineno;
	enum section section;
	struct zoneinfo *zi;
	size_t zones_cap, pagesets_cap;
	size_t zone_first;	/* store index of the current zone's first pageset */
	size_t zones_in_node;
	bool zone_has_present;	/* the current zone printed its "present" line */
	bool in_cpu;		/* a "cpu:" record is open */
	struct zi_error *err;
};

static int fail(struct parser *p, size_t line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct parser *p, size_t line, const char *fmt, ...)
{
	va_list ap;

	p->err->line = line;
	va_start(ap, fmt);
	vsnprintf(p->err->message, sizeof(p->err->message), fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* If [s, e) starts with key, return the position after it. */
static const char *skip_key(const char *s, const char *e, const char *key, size_t keylen)
{
	if ((size_t)(e - s) < keylen || memcmp(s, key, keylen) != 0)
		return NULL;
	return s + keylen;
}
#define KEY(s, e, lit) skip_key((s), (e), (lit), sizeof(lit) - 1)

/* A decimal that must fill the rest of the line after optional blanks. */
static int parse_u64(const char *s, const char *e, uint64_t *out)
{
	uint64_t v = 0;

	while (s < e && *s == ' ')
		s++;
	if (s == e)
		return -EINVAL;
	for (; s < e; s++) {
		unsigned d = (unsigned)(*s - '0');

		if (d > 9)
			return -EINVAL;
		if (v > (UINT64_MAX - d) / 10)
			return -ERANGE;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

static int number(struct parser *p, const char *s, const char *e, uint64_t max,
		  const char *what, uint64_t *out)
{
	const char *t = s;
	int rc;

	while (t < e && *t == ' ')
		t++;
	if (t < e && *t == '-')
		return fail(p, p->lineno, "negative %s: %.*s", what, (int)(e - t), t);
	rc = parse_u64(s, e, out);
	if (rc == 0 && *out > max)
		rc = -ERANGE;
	if (rc == -ERANGE)
		return fail(p, p->lineno, "%s out of range: %.*s", what, (int)(e - t), t);
	if (rc)
		return fail(p, p->lineno, "%s is not a number: \"%.*s\"", what,
			    (int)(e - t), t);
	return 0;
}

static struct zi_zone *cur_zone(struct parser *p)
{
	return &p->zi->zones[p->zi->nzones - 1];
}

static struct zi_pageset *cur_pageset(struct parser *p)
{
	return &p->zi->pageset_store[p->zi->npagesets - 1];
}

static int close_cpu(struct parser *p)
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

static int close_zone(struct parser *p)
{
	int rc;

	/* The kernel prints pagesets for every zone with present pages. */
	if (p->section == ZONE_HEAD && !p->zone_has_present)
		return fail(p, p->lineno, "truncated record: node %d zone %s ends before its present line",
			    cur_zone(p)->node, cur_zone(p)->name);
	if (p->section == ZONE_HEAD && cur_zone(p)->field[ZI_PRESENT])
		return fail(p, p->lineno, "truncated record: node %d zone %s has present pages but no pagesets",
			    cur_zone(p)->node, cur_zone(p)->name);
	if (p->section == PAGESETS) {
		rc = close_cpu(p);
		if (rc)
			return rc;
		return fail(p, p->lineno, "truncated record: pagesets of node %d zone %s end without start_pfn",
			    cur_zone(p)->node, cur_zone(p)->name);
	}
	return 0;
}

static int zone_header(struct parser *p, const char *s, const char *e)
{
	const char *t = KEY(s, e, "Node ");
	struct zi_zone *z;
	uint64_t node = 0;
	const char *comma, *name;
	size_t namelen;
	int rc;

	comma = t ? memchr(t, ',', (size_t)(e - t)) : NULL;
	if (!comma || !(name = KEY(comma, e, ", zone ")))
		return fail(p, p->lineno, "malformed zone header: \"%.*s\"", (int)(e - s), s);
	rc = number(p, t, comma, INT_MAX, "node id", &node);
	if (rc)
		return rc;
	while (name < e && *name == ' ')
		name++;
	namelen = (size_t)(e - name);
	if (namelen == 0 || namelen >= ZI_ZONE_NAME_MAX || memchr(name, ' ', namelen))
		return fail(p, p->lineno, "malformed zone name: \"%.*s\"", (int)namelen, name);

	if (p->zi->nzones) {
		const struct zi_zone *prev = cur_zone(p);

		if ((int)node < prev->node)
			return fail(p, p->lineno, "node %d listed after node %d", (int)node, prev->node);
		if ((int)node != prev->node)
			p->zones_in_node = 0;
	}
	for (size_t i = p->zi->nzones - p->zones_in_node; i < p->zi->nzones; i++)
		if (strlen(p->zi->zones[i].name) == namelen &&
		    memcmp(p->zi->zones[i].name, name, namelen) == 0)
			return fail(p, p->lineno, "node %d zone %.*s listed twice", (int)node,
				    (int)namelen, name);
	if (++p->zones_in_node > ZONES_PER_NODE_MAX)
		return fail(p, p->lineno, "more than %d zones on node %d", ZONES_PER_NODE_MAX,
			    (int)node);

	rc = close_zone(p);
	if (rc)
		return rc;
	if (p->zi->nzones == p->zones_cap) {
		size_t cap = p->zones_cap ? p->zones_cap * 2 : 8;
		struct zi_zone *zones = realloc(p->zi->zones, cap * sizeof(*zones));

		if (!zones)
			return -ENOMEM;
		p->zi->zones = zones;
		p->zones_cap = cap;
	}
	z = &p->zi->zones[p->zi->nzones++];
	memset(z, 0, sizeof(*z));
	z->node = (int)node;
	memcpy(z->name, name, namelen);
	z->header_line = p->lineno;
	p->section = ZONE_HEAD;
	p->zone_has_present = false;
	return 0;
}

static int cpu_line(struct parser *p, const char *s, const char *e)
{
	struct zi_pageset *ps;
	uint64_t cpu;
	int rc;

	if (p->section != PAGESETS)
		return fail(p, p->lineno, "cpu line outside a pagesets section");
	rc = close_cpu(p);
	if (rc)
		return rc;
	rc = number(p, s, e, INT_MAX, "cpu id", &cpu);
	if (rc)
		return rc;
	/* The kernel walks online CPUs in increasing order, so this also catches duplicates. */
	if (p->zi->npagesets > p->zone_first && (int)cpu <= cur_pageset(p)->cpu)
		return fail(p, p->lineno, "cpu %d listed after cpu %d in node %d zone %s",
			    (int)cpu, cur_pageset(p)->cpu, cur_zone(p)->node, cur_zone(p)->name);

	if (p->zi->npagesets == p->pagesets_cap) {
		size_t cap = p->pagesets_cap ? p->pagesets_cap * 2 : 64;
		struct zi_pageset *store = realloc(p->zi->pageset_store, cap * sizeof(*store));

		if (!store)
			return -ENOMEM;
		p->zi->pageset_store = store;
		p->pagesets_cap = cap;
	}
	ps = &p->zi->pageset_store[p->zi->npagesets++];
	ps->cpu = (int)cpu;
	ps->present = 0;
	cur_zone(p)->npagesets++;
	p->in_cpu = true;
	return 0;
}

static int pageset_field(struct parser *p, enum zi_field f, const char *s, const char *e)
{
	struct zi_pageset *ps;
	uint64_t v;
	int rc;

	if (p->section != PAGESETS)
		return fail(p, p->lineno, "%s: line outside a pagesets section", field_names[f]);
	if (!p->in_cpu)
		return fail(p, p->lineno, "%s: line before any cpu: line", field_names[f]);
	ps = cur_pageset(p);
	if (zi_has(ps, f))
		return fail(p, p->lineno, "%s: given twice for cpu %d", field_names[f], ps->cpu);
	rc = number(p, s, e, INT_MAX, field_names[f], &v);
	if (rc)
		return rc;
	ps->value[f] = (int)v;
	ps->present |= 1u << f;
	return 0;
}

static int zone_field(struct parser *p, enum zi_zone_field f, const char *s, const char *e)
{
	static const char *const names[ZI_NZONE_FIELDS] = {
		"pages free", "min", "low", "high", "spanned", "present", "managed"
	};

	/* Per-node stats and later blocks may reuse these words; only the zone head counts. */
	if (p->section != ZONE_HEAD)
		return 0;
	if (f == ZI_PRESENT)
		p->zone_has_present = true;
	return number(p, s, e, UINT64_MAX, names[f], &cur_zone(p)->field[f]);
}

/* Lines whose meaning depends on the word they start with, after indentation. */
static int parse_line(struct parser *p, const char *s, const char *e)
{
	const char *t;

	while (s < e && *s == ' ')
		s++;
	if (s == e)
		return 0;

	switch (*s) {
	case 'N':
		if ((t = KEY(s, e, "Node ")))
			return zone_header(p, s, e);
		break;
	case 'c':
		if ((t = KEY(s, e, "cpu:")))
			return cpu_line(p, t, e);
		if ((t = KEY(s, e, "count:")))
			return pageset_field(p, ZI_COUNT, t, e);
		break;
	case 'h':
		if ((t = KEY(s, e, "high:")))
			return pageset_field(p, ZI_HIGH, t, e);
		if ((t = KEY(s, e, "high_min:")))
			return pageset_field(p, ZI_HIGH_MIN, t, e);
		if ((t = KEY(s, e, "high_max:")))
			return pageset_field(p, ZI_HIGH_MAX, t, e);
		if ((t = KEY(s, e, "high ")))
			return zone_field(p, ZI_WMARK_HIGH, t, e);
		break;
	case 'b':
		if ((t = KEY(s, e, "batch:")))
			return pageset_field(p, ZI_BATCH, t, e);
		break;
	case 'p':
		if ((t = KEY(s, e, "pages free ")))
			return zone_field(p, ZI_FREE, t, e);
		if ((t = KEY(s, e, "present ")))
			return zone_field(p, ZI_PRESENT, t, e);
		if (e - s == 8 && KEY(s, e, "pagesets")) {
			if (p->section != ZONE_HEAD)
				return fail(p, p->lineno, "pagesets line outside a zone head");
			p->section = PAGESETS;
			p->zone_first = p->zi->npagesets;
			return 0;
		}
		break;
	case 'm':
		if ((t = KEY(s, e, "min ")))
			return zone_field(p, ZI_MIN, t, e);
		if ((t = KEY(s, e, "managed ")))
			return zone_field(p, ZI_MANAGED, t, e);
		break;
	case 'l':
		if ((t = KEY(s, e, "low ")))
			return zone_field(p, ZI_LOW, t, e);
		break;
	case 's':
		if ((t = KEY(s, e, "spanned ")))
			return zone_field(p, ZI_SPANNED, t, e);
		if (KEY(s, e, "start_pfn:"))
			goto zone_tail;
		break;
	case 'n':
		if (KEY(s, e, "node_unreclaimable:"))
			goto zone_tail;
		break;
	}
	return 0;

zone_tail:
	if (p->section == PAGESETS) {
		int rc = close_cpu(p);

		if (rc)
			return rc;
		if (p->zi->npagesets == p->zone_first)
			return fail(p, p->lineno, "pagesets of node %d zone %s list no cpu",
				    cur_zone(p)->node, cur_zone(p)->name);
		p->section = ZONE_TAIL;
	}
	return 0;
}

int zoneinfo_parse(const char *text, size_t len, struct zoneinfo *zi, struct zi_error *err)
{
	struct parser p = {
		.pos = text, .end = text + len, .section = BEFORE_ZONES, .zi = zi, .err = err,
	};
	int rc = 0;

	memset(zi, 0, sizeof(*zi));
	memset(err, 0, sizeof(*err));
	if (len == 0) {
		snprintf(err->message, sizeof(err->message), "empty: no zones");
		return -EINVAL;
	}
	if (memchr(text, '\0', len)) {
		snprintf(err->message, sizeof(err->message), "binary data (a NUL byte)");
		return -EINVAL;
	}
	while (p.pos < p.end) {
		const char *nl = memchr(p.pos, '\n', (size_t)(p.end - p.pos));

		p.lineno++;
		if (!nl) {
			rc = fail(&p, p.lineno, "truncated: the last line has no newline");
			break;
		}
		rc = parse_line(&p, p.pos, nl);
		if (rc)
			break;
		p.pos = nl + 1;
	}
	if (!rc)
		rc = close_zone(&p);
	if (!rc && zi->nzones == 0)
		rc = fail(&p, 0, "no \"Node N, zone NAME\" line: not a zoneinfo file");
	if (rc) {
		if (rc == -ENOMEM)
			snprintf(err->message, sizeof(err->message), "out of memory");
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
