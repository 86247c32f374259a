/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Static column tables drive every output format (table, JSON, raw, pairs)
 * of output.h's writers, and the -o lists and --help that name them.
 */
#ifndef PCPCTL_COLUMNS_H
#define PCPCTL_COLUMNS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Only the files that build tables include libsmartcols.h. */
struct libscols_table;

struct coldesc {
	const char *name;
	double whint;		/* libsmartcols' width hint; from 1 up, the stream's least width */
	int flags;		/* SCOLS_FL_* of libsmartcols.h */
	int json_type;		/* SCOLS_JSON_* */
	const char *help;
	/*
	 * The order in which a terminal too narrow for a table's row leaves
	 * columns out: 1 first, then 2 ...; 0 is never left out.
	 */
	int drop;
};

enum out_format { OUT_TABLE, OUT_JSON, OUT_RAW, OUT_PAIRS };

/*
 * What --raw prints for a value that is not known (FREE_PCT off the live
 * kernel, HIGH_MIN before 6.13): a field, so awk's $N stays the same column.
 */
#define RAW_NONE "-"

struct out_opts {
	enum out_format format;
	bool noheadings;
	const char *columns;	/* -o LIST, or "+LIST" to add to the defaults */
	bool all_columns;
	int json_version;	/* the document's "version"; 0: PCPCTL_JSON_VERSION */
};

struct colsel {
	size_t *idx;
	size_t n;
};

/*
 * Resolve the columns to print: `defaults` (a comma list) unless opts name
 * others.  Returns 0, -ENOMEM, or -EINVAL with *bad pointing at the
 * unknown name inside the list (up to its comma).
 */
int colsel_make(const struct coldesc *tbl, size_t ntbl, const char *defaults,
		const struct out_opts *opts, struct colsel *sel, const char **bad);
void colsel_free(struct colsel *sel);

/* A table named `name` (the JSON key) with the selected columns; NULL on ENOMEM. */
struct libscols_table *columns_table(const struct coldesc *tbl, const struct colsel *sel,
				     const struct out_opts *opts, const char *name);

/* "  NAME  help" lines for --help. */
void columns_help(FILE *out, const struct coldesc *tbl, size_t ntbl);

#endif
