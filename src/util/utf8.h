/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * UTF-8 as RFC 3629 has it, for the JSON writers: file names and other
 * strings from the system are bytes, and a JSON document must be UTF-8.
 */
#ifndef PCPCTL_UTF8_H
#define PCPCTL_UTF8_H

#include <stddef.h>

/* U+FFFD, which stands for each byte that starts no character. */
#define UTF8_REPLACEMENT "\xef\xbf\xbd"

/*
 * The length of the character that starts at p (n bytes readable), or 0
 * when p starts none: a stray continuation byte, a truncated sequence, an
 * overlong form, a surrogate or a code point above U+10FFFF.
 */
size_t utf8_char_len(const unsigned char *p, size_t n);

/*
 * s with each byte that starts no character replaced by U+FFFD, in a new
 * string; NULL when out of memory.
 */
char *utf8_sanitize(const char *s);

#endif
