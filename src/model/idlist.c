/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "idlist.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>

/* Reads one id, leaves *p after it.  Digits only: no sign, no blanks. */
static int read_id(const char **p, long *id)
{
	long v = 0;

	if (!isdigit((unsigned char)**p))
		return -EINVAL;
	for (; isdigit((unsigned char)**p); (*p)++) {
		v = v * 10 + (**p - '0');
		if (v > IDLIST_MAX_ID) {
			while (isdigit((unsigned char)**p))
				(*p)++;
			return -ERANGE;
		}
	}
	*id = v;
	return 0;
}

static int set_range(struct idlist *set, long lo, long hi)
{
	if ((size_t)hi >= set->nbits) {
		size_t nbits = ((size_t)hi / 8 + 1) * 8;
		unsigned char *bits = realloc(set->bits, nbits / 8);

		if (!bits)
			return -ENOMEM;
		for (size_t i = set->nbits / 8; i < nbits / 8; i++)
			bits[i] = 0;
		set->bits = bits;
		set->nbits = nbits;
	}
	for (long id = lo; id <= hi; id++)
		set->bits[id / 8] |= (unsigned char)(1u << (id % 8));
	return 0;
}

int idlist_parse(const char *text, struct idlist *out)
{
	struct idlist set = { 0 };
	const char *p = text;
	int rc = 0;

	if (!text || !*text)
		return -EINVAL;
	for (;;) {
		long lo, hi;

		rc = read_id(&p, &lo);
		if (rc)
			break;
		hi = lo;
		if (*p == '-') {
			p++;
			rc = read_id(&p, &hi);
			if (rc)
				break;
			if (hi < lo) {
				rc = -ERANGE;
				break;
			}
		}
		rc = set_range(&set, lo, hi);
		if (rc)
			break;
		if (*p == '\0')
			break;
		if (*p != ',') {
			rc = -EINVAL;
			break;
		}
		p++;
	}
	if (rc) {
		idlist_free(&set);
		return rc;
	}
	*out = set;
	return 0;
}

bool idlist_has(const struct idlist *set, long id)
{
	return id >= 0 && (size_t)id < set->nbits &&
	       (set->bits[id / 8] & (1u << (id % 8)));
}

void idlist_free(struct idlist *set)
{
	free(set->bits);
	set->bits = NULL;
	set->nbits = 0;
}
