/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "suggest.h"

#include <ctype.h>
#include <string.h>

bool one_edit_apart(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i = 0;

	if (la < lb) {
		const char *t = a;

		a = b, b = t;
		la = lb, lb = strlen(b);
	}
	if (la - lb > 1)
		return false;
	while (i < lb && a[i] == b[i])
		i++;
	if (i == la)
		return false;		/* the same string */
	if (la > lb)			/* a has one character more, at i */
		return strcmp(a + i + 1, b + i) == 0;
	if (strcmp(a + i + 1, b + i + 1) == 0)	/* one replaced */
		return true;
	return i + 1 < la && a[i] == b[i + 1] && a[i + 1] == b[i] &&
	       strcmp(a + i + 2, b + i + 2) == 0;
}

const char *suggest_name(const char *typo, const char *const *names, size_t n)
{
	const char *found = NULL;

	for (size_t i = 0; i < n; i++) {
		if (!one_edit_apart(typo, names[i]))
			continue;
		if (found && strcmp(found, names[i]) != 0)
			return NULL;
		found = names[i];
	}
	return found;
}

/* Names longer than this are no typo of any name pcpctl has. */
#define FOLD_MAX 64

static bool fold(const char *s, char out[FOLD_MAX])
{
	size_t i = 0;

	for (; s[i]; i++) {
		if (i + 1 == FOLD_MAX)
			return false;
		out[i] = (char)tolower((unsigned char)s[i]);
	}
	out[i] = '\0';
	return true;
}

const char *suggest_name_fold(const char *typo, const char *const *names, size_t n)
{
	/* zeroed: clang's analyzer does not follow fold()'s terminator into strlen() */
	char t[FOLD_MAX] = { 0 }, name[FOLD_MAX] = { 0 };
	const char *found = NULL;

	if (!fold(typo, t))
		return NULL;
	for (size_t i = 0; i < n; i++) {
		if (!fold(names[i], name) || (strcmp(t, name) != 0 && !one_edit_apart(t, name)))
			continue;
		if (found && strcmp(found, names[i]) != 0)
			return NULL;
		found = names[i];
	}
	return found;
}
