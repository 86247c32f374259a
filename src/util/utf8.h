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
 * The character at p (n > 0 bytes readable) as it stands inside a JSON
 * string, into out: '"' and '\' escaped, a control character as \u00XX,
 * a byte that starts no character as U+FFFD.  Sets *used to the bytes of p
 * it stands for and returns the length of out, at most UTF8_JSON_MAX.
 */
#define UTF8_JSON_MAX 6
size_t utf8_json_char(const unsigned char *p, size_t n, char *out, size_t *used);

#endif
