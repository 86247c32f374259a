/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Text read from a file, made safe to show on a terminal. */
#ifndef PCPCTL_ESCAPE_H
#define PCPCTL_ESCAPE_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The n bytes at s with every byte that would not show, or would drive a
 * terminal (control characters, an ESC sequence's first byte, DEL), and '"'
 * and '\' as C escapes (\r, \t, \xNN), cut to fit size.  With utf8, a
 * valid UTF-8 sequence of a character that is no C1 control is kept as it
 * is; without, every byte above 0x7e is escaped.  Returns out.
 */
const char *escape_text(char *out, size_t size, const char *s, size_t n, bool utf8);

#endif
