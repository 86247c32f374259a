/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Strict number parsing for command-line values and kernel text. */
#ifndef PCPCTL_NUMPARSE_H
#define PCPCTL_NUMPARSE_H

#include <stdbool.h>

/*
 * Parse a whole string as a decimal integer in [min, max].  Leading blanks,
 * signs other than a leading '-' (only when min < 0), trailing junk, empty
 * strings and overflow are all refused.  Returns 0, -EINVAL (not a number)
 * or -ERANGE (a number outside [min, max]).
 */
int parse_long(const char *s, long min, long max, long *out);

/* A positive decimal with an optional fraction ("0.5", "2"), for durations. */
int parse_seconds(const char *s, double min, double max, double *out);

#endif
