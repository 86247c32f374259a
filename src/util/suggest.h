/* SPDX-License-Identifier: GPL-2.0-or-later */
/* "Did you mean": the one name among several that a typo is closest to. */
#ifndef PCPCTL_SUGGEST_H
#define PCPCTL_SUGGEST_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Whether a and b are one edit apart: a character inserted, deleted,
 * replaced, or two neighbours swapped.  Equal strings are not.
 */
bool one_edit_apart(const char *a, const char *b);

/*
 * The only one of the n names that is one edit from typo, or NULL when
 * none or more than one is: a suggestion must not be a guess.
 */
const char *suggest_name(const char *typo, const char *const *names, size_t n);

#endif
