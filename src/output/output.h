/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Rows of cells built once from a column selection, and the two writers
 * that print them: libsmartcols, for tables on a terminal (where it fits
 * columns to the screen), and a streaming writer for everything else, which
 * prints the same bytes without a per-cell allocation, so that a machine
 * with 60,000 pagesets prints in milliseconds.  tests/test_output.c holds
 * the two to the same output.  The stream takes rows of plain cells only:
 * a cell that some format must escape sends the rows to libsmartcols.
 */
#ifndef PCPCTL_OUTPUT_H
#define PCPCTL_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "columns.h"

/*
 * Cells row after row, each a length byte and its text (at most
 * ROWS_CELL_MAX bytes); an empty cell is "no value".
 */
#define ROWS_CELL_MAX 255

struct rows {
	char *buf;
	size_t len, cap;
	size_t ncols, nrows;
	size_t cells;		/* cells added to the current row */
	bool escape;		/* a cell holds a byte that some format escapes */
};

void rows_init(struct rows *r, size_t ncols);
void rows_free(struct rows *r);
/* 0, -ENOMEM, or -EINVAL for a cell longer than ROWS_CELL_MAX. */
int rows_add(struct rows *r, const char *s);
int rows_add_int(struct rows *r, long long v);
int rows_add_empty(struct rows *r);
int rows_add_fmt(struct rows *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Close the current row; -EINVAL unless it has ncols cells. */
int rows_end(struct rows *r);

/* name is the JSON key of the array. 0 or a negative errno. */
int print_rows_scols(FILE *out, const struct coldesc *tbl, const struct colsel *sel,
		     const struct out_opts *opts, const char *name, const struct rows *r);
int print_rows_stream(FILE *out, const struct coldesc *tbl, const struct colsel *sel,
		      const struct out_opts *opts, const char *name, const struct rows *r);
/* stdout: libsmartcols for a table on a terminal, the stream otherwise. */
int print_rows(const struct coldesc *tbl, const struct colsel *sel, const struct out_opts *opts,
	       const char *name, const struct rows *r);

#endif
