/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The zoneinfo parser's fast path: scanning and number conversion a word
 * or a vector at a time, and whole CPU records read against a template
 * (zoneinfo_fast.c).  zi_parser_line_by_line() turns the interpreting
 * parts off, so that tests and the fuzzer can check both paths agree.
 */
#ifndef PCPCTL_ZONEINFO_FAST_H
#define PCPCTL_ZONEINFO_FAST_H

#include <stdint.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "zoneinfo_int.h"

static inline const char *line_end(const char *s, const char *end)
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

/* Indentation is most of zoneinfo's bytes: skip it a word at a time. */
static inline const char *skip_blanks(const char *s, const char *end)
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
 * While the first CPU record is read, note the line from line to nl as
 * part of the template (p->line_kind says what parse_line() took it for).
 */
void zi_learn_record_line(struct zi_parser *p, const char *line, const char *nl);

/*
 * Whole CPU records laid out like the template from pos on; returns where
 * the first other line starts.
 */
const char *zi_take_records(struct zi_parser *p, const char *pos, const char *end);

#endif
