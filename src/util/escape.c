/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "escape.h"

#include <stdio.h>

/*
 * The length of the UTF-8 sequence at s (at most n bytes) of a character
 * that shows, or 0: malformed, overlong, a surrogate, past U+10FFFF, or a
 * C1 control (U+0080 to U+009F, which terminals read as ESC sequences).
 */
static size_t utf8_shown(const unsigned char *s, size_t n)
{
	size_t len = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 ? 2 : 0;
	unsigned int cp;

	if (!len || s[0] > 0xf4 || len > n)
		return 0;
	cp = s[0] & (0x7fU >> len);
	for (size_t k = 1; k < len; k++) {
		if ((s[k] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[k] & 0x3fU);
	}
	if (cp < (len == 2 ? 0xa0U : len == 3 ? 0x800U : 0x10000U) || cp > 0x10ffff ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

const char *escape_text(char *out, size_t size, const char *s, size_t n, bool utf8)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t o = 0;

	for (size_t i = 0; i < n && o + 5 < size;) {
		unsigned char c = u[i];
		size_t len = utf8 && c >= 0x80 ? utf8_shown(u + i, n - i) : 0;

		if (len) {
			if (o + len + 5 >= size)
				break;
			for (size_t k = 0; k < len; k++)
				out[o++] = s[i + k];
			i += len;
			continue;
		}
		if (c == '\r')
			o += (size_t)snprintf(out + o, size - o, "\\r");
		else if (c == '\t')
			o += (size_t)snprintf(out + o, size - o, "\\t");
		else if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\')
			o += (size_t)snprintf(out + o, size - o, "\\x%02x", c);
		else
			out[o++] = (char)c;
		i++;
	}
	out[o] = '\0';
	return out;
}
