/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "zoneinfo_fast.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "zoneinfo_int.h"

/*
 * While the file's first CPU record is read, note each of its lines as
 * line_kind and the text before its number; the template is complete when
 * that record closes.  A line that does not end in a number, or whose text
 * is too long or too short to recognise, leaves no template.
 */
void zi_learn_record_line(struct zi_parser *p, const char *line, const char *nl)
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
 * Store a record read by zi_take_records() as cpu_line() and pageset_field()
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
	if (zi_reserve_pageset(p))
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

/* Each number of a record taken here has up to seven digits. */
const char *zi_take_records(struct zi_parser *p, const char *pos, const char *end)
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
