/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Rows of cells built once from a column selection, and the two writers
 * that print them: libsmartcols, and a streaming writer, which prints the
 * same bytes without a per-cell allocation, so that a machine with 60,000
 * pagesets prints in milliseconds.  tests/unit/test_output.c holds
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

/*
 * The rows as opts says, name being the JSON key of the array; 0 or a
 * negative errno.  A table, raw or pairs with a cell to escape is printed
 * by libsmartcols, byte for byte what the stream prints of other cells.
 */
int print_rows_stream(FILE *out, const struct coldesc *tbl, const struct colsel *sel,
		      const struct out_opts *opts, const char *name, const struct rows *r);
/*
 * The width of the terminal on standard output: COLUMNS first, as
 * libsmartcols takes it, else the terminal's own, else 80; 0 when standard
 * output is not a terminal (a pipe or a file gets every column).
 */
int terminal_width(void);

/*
 * Which selected columns a table fits in width columns: each as wide as its
 * heading or widest cell, as the stream prints it, one blank apart.  While
 * a row is wider, columns are left out: first those that may go
 * (coldesc.drop > 0) and are empty in every row, then by coldesc.drop, 1
 * first.  keep holds sel->n flags; returns how many are left out (none
 * when width is 0).
 */
size_t rows_fit(const struct coldesc *tbl, const struct colsel *sel, const struct rows *r,
		int width, bool *keep);

/*
 * A table laid out once and printed a block of rows at a time: show
 * --interval prints each sample under one heading with the widths of the
 * first, as vmstat(8) does, where widths set per block would shift the
 * columns between samples.  The layout keeps what rows_fit kept for a
 * terminal termwidth columns wide (0: every column), each column as wide as
 * table_widths makes it for the first block; a later cell wider than its
 * column is printed whole.  tbl and sel must outlive the layout.
 */
struct table_layout {
	const struct coldesc *tbl;
	const struct colsel *sel;
	bool *keep;		/* sel->n flags: the column is printed */
	struct colsel shown;	/* the printed columns */
	size_t *width;		/* shown.n widths */
	size_t left_out;
};
/* 0 or -ENOMEM. */
int table_layout_fit(struct table_layout *l, const struct coldesc *tbl, const struct colsel *sel,
		     const struct rows *first, int termwidth);
/* "A, B": the columns left out, NULL when none is or out of memory; the caller frees it. */
char *table_layout_left_out(const struct table_layout *l);
/* The heading when asked, then r's rows (r may be NULL); 0 or a negative errno. */
int table_layout_print(FILE *out, const struct table_layout *l, bool heading,
		       const struct rows *r);
void table_layout_free(struct table_layout *l);

/* Says why rows were not printed: err is -ENOMEM or a failed write's; returns EXIT_FAIL. */
int rows_print_failed(int err);

/*
 * stdout through the stream.  A table on a terminal is first fitted to its
 * width by rows_fit (so that the output does not depend on the
 * libsmartcols of the machine), and a note on stderr names what was left
 * out; --raw, --pairs and JSON are never cut.
 */
int print_rows(const struct coldesc *tbl, const struct colsel *sel, const struct out_opts *opts,
	       const char *name, const struct rows *r);

#endif
