#include "output.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void rows_init(struct rows *r, size_t ncols)
{
	memset(r, 0, sizeof(*r));
	r->ncols = ncols;
}

void rows_free(struct rows *r)
{
	free(r->buf);
	memset(r, 0, sizeof(*r));
}

static int reserve(struct rows *r, size_t n)
{
	if (r->len + n > r->cap) {
		size_t cap = r->cap ? r->cap : 4096;
		char *buf;

		while (cap < r->len + n)
			cap *= 2;
		buf = realloc(r->buf, cap);
		if (!buf)
			return -ENOMEM;
		r->buf = buf;
		r->cap = cap;
	}
	return 0;
}

int rows_add(struct rows *r, const char *s)
{
	size_t n = strlen(s) + 1;

	if (reserve(r, n))
		return -ENOMEM;
	memcpy(r->buf + r->len, s, n);
	r->len += n;
	r->cells++;
	return 0;
}

int rows_add_empty(struct rows *r)
{
	return rows_add(r, "");
}

int rows_add_int(struct rows *r, long long v)
{
	char digits[24], *p = digits + sizeof(digits);
	unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;

	*--p = '\0';
	do {
		*--p = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		*--p = '-';
	return rows_add(r, p);
}

int rows_add_fmt(struct rows *r, const char *fmt, ...)
{
	char cell[64];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cell, sizeof(cell), fmt, ap);
	va_end(ap);
	return rows_add(r, cell);
}

int rows_end(struct rows *r)
{
	if (r->cells != r->ncols)
		return -EINVAL;
	r->cells = 0;
	r->nrows++;
	return 0;
}

int print_rows_scols(FILE *out, const struct coldesc *tbl, const struct colsel *sel,
		     const struct out_opts *opts, const char *name, const struct rows *r)
{
	struct libscols_table *tb = columns_table(tbl, sel, opts, name);
	const char *cell = r->buf;
	int rc = 0;

	if (!tb)
		return -ENOMEM;
	scols_table_set_stream(tb, out);
	for (size_t i = 0; i < r->nrows && !rc; i++) {
		struct libscols_line *ln = scols_table_new_line(tb, NULL);

		if (!ln)
			rc = -ENOMEM;
		for (size_t c = 0; c < r->ncols && !rc; c++) {
			if (*cell && scols_line_set_data(ln, c, cell))
				rc = -ENOMEM;
			cell += strlen(cell) + 1;
		}
	}
	if (!rc && scols_print_table(tb))
		rc = -EIO;
	scols_unref_table(tb);
	return rc;
}

static void put_padding(FILE *out, size_t n)
{
	while (n--)
		putc(' ', out);
}

/* What libsmartcols prints as a pairs name or JSON key: a shell name, or lowercase. */
static void put_name(FILE *out, const char *name, bool lower)
{
	for (const char *p = name; *p; p++)
		putc(lower ? tolower((unsigned char)*p) : *p, out);
}

static void put_cell(FILE *out, const struct coldesc *cd, size_t width, const char *s,
		     bool first, bool last)
{
	size_t n = strlen(s);
	bool right = cd->flags & SCOLS_FL_RIGHT;

	if (!first)
		putc(' ', out);
	/* The last column is not padded after its text, nor when it is empty. */
	if (right && !(last && n == 0))
		put_padding(out, width - n);
	fputs(s, out);
	if (!right && !last)
		put_padding(out, width - n);
}

/* Aligned columns as wide as their widest cell or header, one space apart. */
static void stream_table(FILE *out, const struct coldesc *tbl, const struct colsel *sel,
			 const struct out_opts *opts, const struct rows *r)
{
	size_t *width;
	const char *cell = r->buf;

	if (!r->nrows)
		return;
	width = calloc(r->ncols, sizeof(*width));
	if (!width)
		return;
	/* Headers count even when not printed, as libsmartcols counts them. */
	for (size_t c = 0; c < r->ncols; c++)
		width[c] = strlen(tbl[sel->idx[c]].name);
	for (size_t i = 0; i < r->nrows * r->ncols; i++) {
		size_t n = strlen(cell);

		if (n > width[i % r->ncols])
			width[i % r->ncols] = n;
		cell += n + 1;
	}
	for (size_t c = 0; c < r->ncols && !opts->noheadings; c++)
		put_cell(out, &tbl[sel->idx[c]], width[c], tbl[sel->idx[c]].name, c == 0,
			 c + 1 == r->ncols);
	if (!opts->noheadings)
		putc('\n', out);
	cell = r->buf;
	for (size_t i = 0; i < r->nrows; i++) {
		for (size_t c = 0; c < r->ncols; c++) {
			put_cell(out, &tbl[sel->idx[c]], width[c], cell, c == 0, c + 1 == r->ncols);
			cell += strlen(cell) + 1;
		}
		putc('\n', out);
	}
	free(width);
}

static void stream_raw_or_pairs(FILE *out, const struct coldesc *tbl, const struct colsel *sel,
				const struct out_opts *opts, const struct rows *r)
{
	bool pairs = opts->format == OUT_PAIRS;
	const char *cell = r->buf;

	if (!r->nrows)
		return;
	if (!pairs && !opts->noheadings)
		for (size_t c = 0; c < r->ncols; c++)
			fprintf(out, "%s%s", c ? " " : "", tbl[sel->idx[c]].name);
	if (!pairs && !opts->noheadings)
		putc('\n', out);
	for (size_t i = 0; i < r->nrows; i++) {
		for (size_t c = 0; c < r->ncols; c++) {
			if (c)
				putc(' ', out);
			if (pairs) {
				put_name(out, tbl[sel->idx[c]].name, false);
				fprintf(out, "=\"%s\"", cell);
			} else {
				fputs(cell, out);
			}
			cell += strlen(cell) + 1;
		}
		putc('\n', out);
	}
}

static void stream_json(FILE *out, const struct coldesc *tbl, const struct colsel *sel,
			const char *name, const struct rows *r)
{
	const char *cell = r->buf;

	fprintf(out, "{\n   \"%s\": [\n", name);
	if (!r->nrows)
		putc('\n', out);
	for (size_t i = 0; i < r->nrows; i++) {
		fputs(i ? "      },{\n" : "      {\n", out);
		for (size_t c = 0; c < r->ncols; c++) {
			const struct coldesc *cd = &tbl[sel->idx[c]];

			fputs("         \"", out);
			put_name(out, cd->name, true);
			fputs("\": ", out);
			/* Cells are digits and zone names ([A-Za-z0-9_]), nothing to escape. */
			if (!*cell)
				fputs("null", out);
			else if (cd->json_type == SCOLS_JSON_NUMBER)
				fputs(cell, out);
			else
				fprintf(out, "\"%s\"", cell);
			fputs(c + 1 < r->ncols ? ",\n" : "\n", out);
			cell += strlen(cell) + 1;
		}
		if (i + 1 == r->nrows)
			fputs("      }\n", out);
	}
	fputs("   ]\n}\n", out);
}

int print_rows_stream(FILE *out, const struct coldesc *tbl, const struct colsel *sel,
		      const struct out_opts *opts, const char *name, const struct rows *r)
{
	switch (opts->format) {
	case OUT_JSON:
		stream_json(out, tbl, sel, name, r);
		break;
	case OUT_RAW:
	case OUT_PAIRS:
		stream_raw_or_pairs(out, tbl, sel, opts, r);
		break;
	case OUT_TABLE:
		stream_table(out, tbl, sel, opts, r);
		break;
	}
	return ferror(out) ? -EIO : 0;
}

int print_rows(const struct coldesc *tbl, const struct colsel *sel, const struct out_opts *opts,
	       const char *name, const struct rows *r)
{
	if (opts->format == OUT_TABLE && isatty(STDOUT_FILENO))
		return print_rows_scols(stdout, tbl, sel, opts, name, r);
	return print_rows_stream(stdout, tbl, sel, opts, name, r);
}
