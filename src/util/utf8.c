/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "utf8.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static inline bool continuation(unsigned char c)
{
	return (c & 0xc0) == 0x80;
}

size_t utf8_char_len(const unsigned char *p, size_t n)
{
	unsigned char c;
	/* The second byte's range narrows where the first alone allows overlongs or surrogates. */
	unsigned char lo = 0x80, hi = 0xbf;
	size_t len;

	if (n == 0)
		return 0;
	c = p[0];
	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		len = 2;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4;
	else
		return 0;
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	if (n < len || p[1] < lo || p[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if (!continuation(p[i]))
			return 0;
	return len;
}

char *utf8_sanitize(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s);
	/* Each byte becomes at most the three of U+FFFD. */
	char *out = malloc(3 * n + 1), *d = out;

	if (!out)
		return NULL;
	while (n) {
		size_t len = utf8_char_len(p, n);

		if (len) {
			d = mempcpy(d, p, len);
		} else {
			d = mempcpy(d, UTF8_REPLACEMENT, 3);
			len = 1;
		}
		p += len;
		n -= len;
	}
	*d = '\0';
	return out;
}
