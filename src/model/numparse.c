/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "numparse.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>

int parse_long(const char *s, long min, long max, long *out)
{
	const char *p = s;
	bool negative = false;
	unsigned long magnitude = 0;

	if (!s)
		return -EINVAL;
	if (*p == '-') {
		negative = true;
		p++;
	}
	if (!isdigit((unsigned char)*p))
		return -EINVAL;
	for (; isdigit((unsigned char)*p); p++) {
		unsigned digit = (unsigned)(*p - '0');

		if (magnitude > (ULONG_MAX - digit) / 10) {
			/* Keep scanning so "99999999999x" is junk, not range. */
			while (isdigit((unsigned char)*p))
				p++;
			return *p ? -EINVAL : -ERANGE;
		}
		magnitude = magnitude * 10 + digit;
	}
	if (*p)
		return -EINVAL;
	if (negative) {
		/* A '-' is for ranges that allow negatives: "-0" is not 0 there. */
		if (magnitude > (unsigned long)LONG_MAX + 1 || min >= 0)
			return -ERANGE;
		long v = magnitude == (unsigned long)LONG_MAX + 1 ? LONG_MIN : -(long)magnitude;
		if (v < min || v > max)
			return -ERANGE;
		*out = v;
		return 0;
	}
	if (magnitude > (unsigned long)LONG_MAX || (long)magnitude < min ||
	    (long)magnitude > max)
		return -ERANGE;
	*out = (long)magnitude;
	return 0;
}

int parse_seconds(const char *s, double min, double max, double *out)
{
	char *end;
	double v;
	size_t dots = 0;

	if (!s || !isdigit((unsigned char)*s))
		return -EINVAL;
	/* strtod alone would take hex, exponents and "inf". */
	for (const char *p = s; *p; p++) {
		if (*p == '.')
			dots++;
		else if (!isdigit((unsigned char)*p))
			return -EINVAL;
	}
	if (dots > 1)
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (*end || errno || !isfinite(v))
		return -EINVAL;
	if (v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}
