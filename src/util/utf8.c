/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "utf8.h"

#include <stdbool.h>
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

size_t utf8_json_char(const unsigned char *p, size_t n, char *out, size_t *used)
{
	size_t len = utf8_char_len(p, n);

	*used = len ? len : 1;
	if (!len) {
		for (size_t i = 0; i < 3; i++)
			out[i] = UTF8_REPLACEMENT[i];
		return 3;
	}
	if (*p == '"' || *p == '\\') {
		out[0] = '\\';
		out[1] = (char)*p;
		return 2;
	}
	if (*p < 0x20) {
		static const char hex[] = "0123456789abcdef";

		out[0] = '\\';
		out[1] = 'u';
		out[2] = '0';
		out[3] = '0';
		out[4] = hex[*p >> 4];
		out[5] = hex[*p & 0xf];
		return 6;
	}
	memcpy(out, p, len);
	return len;
}
