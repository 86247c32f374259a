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

static int add_cell(struct rows *r, const char *s, size_t n)
{
	if (n > ROWS_CELL_MAX)
		return -EINVAL;
	if (reserve(r, n + 1))
		return -ENOMEM;
	r->buf[r->len] = (char)n;
	memcpy(r->buf + r->len + 1, s, n);
	r->len += n + 1;
	r->cells++;
	return 0;
}

int rows_add(struct rows *r, const char *s)
{
	return add_cell(r, s, strlen(s));
}

int rows_add_empty(struct rows *r)
{
	return add_cell(r, "", 0);
}

int rows_add_int(struct rows *r, long long v)
{
	char digits[24], *p = digits + sizeof(digits);
	unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;

	do {
		*--p = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		*--p = '-';
	return add_cell(r, p, (size_t)(digits + sizeof(digits) - p));
}

int rows_add_fmt(struct rows *r, const char *fmt, ...)
{
	char cell[ROWS_CELL_MAX + 1];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(cell, sizeof(cell), fmt, ap);
	va_end(ap);
	return n < 0 || (size_t)n > ROWS_CELL_MAX ? -EINVAL : add_cell(r, cell, (size_t)n);
}

struct cell {
	const char *s;
	size_t n;
};

/* The cell at *pos, moving *pos to the next one. */
static struct cell next_cell(const char **pos)
{
	struct cell c = { *pos + 1, (unsigned char)**pos };

	*pos += c.n + 1;
	return c;
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
	const char *pos = r->buf;
	int rc = 0;

	if (!tb)
		return -ENOMEM;
	scols_table_set_stream(tb, out);
	for (size_t i = 0; i < r->nrows && !rc; i++) {
		struct libscols_line *ln = scols_table_new_line(tb, NULL);

		if (!ln)
			rc = -ENOMEM;
		for (size_t c = 0; c < r->ncols && !rc; c++) {
			struct cell cell = next_cell(&pos);
			char text[ROWS_CELL_MAX + 1];

			memcpy(text, cell.s, cell.n);
			text[cell.n] = '\0';
			if (cell.n && scols_line_set_data(ln, c, text))
				rc = -ENOMEM;
		}
	}
	if (!rc && scols_print_table(tb))
		rc = -EIO;
	scols_unref_table(tb);
	return rc;
}

/*
 * The streaming writer's own buffer: a 60,000-row JSON is 12 MB of small
 * pieces, and stdio's per-call locking cost more than all the formatting.
 */
struct sink {
	FILE *f;
	size_t n;
	bool failed;
	char buf[64 * 1024];
};

static void sink_flush(struct sink *s)
{
	if (s->n && fwrite(s->buf, 1, s->n, s->f) != s->n)
		s->failed = true;
	s->n = 0;
}

static inline void sink_mem(struct sink *s, const char *p, size_t n)
{
	if (n <= sizeof(s->buf) - s->n) {
		memcpy(s->buf + s->n, p, n);
		s->n += n;
		return;
	}
	while (n) {
		size_t room = sizeof(s->buf) - s->n, k = n < room ? n : room;

		memcpy(s->buf + s->n, p, k);
		s->n += k;
		p += k;
		n -= k;
		if (s->n == sizeof(s->buf))
			sink_flush(s);
	}
}

static void sink_str(struct sink *s, const char *p)
{
	sink_mem(s, p, strlen(p));
}

static void sink_char(struct sink *s, char c)
{
	if (s->n == sizeof(s->buf))
		sink_flush(s);
	s->buf[s->n++] = c;
}

static void sink_spaces(struct sink *s, size_t n)
{
	static const char blanks[32] = "                                ";

	for (; n > sizeof(blanks); n -= sizeof(blanks))
		sink_mem(s, blanks, sizeof(blanks));
	sink_mem(s, blanks, n);
}

static void put_cell(struct sink *s, const struct coldesc *cd, size_t width, struct cell text,
		     bool first, bool last)
{
	bool right = cd->flags & SCOLS_FL_RIGHT;

	if (!first)
		sink_char(s, ' ');
	/* The last column is not padded after its text, nor when it is empty. */
	if (right && !(last && text.n == 0))
		sink_spaces(s, width - text.n);
	sink_mem(s, text.s, text.n);
	if (!right && !last)
		sink_spaces(s, width - text.n);
}

static struct cell header(const struct coldesc *tbl, const struct colsel *sel, size_t c)
{
	const char *name = tbl[sel->idx[c]].name;

	return (struct cell){ name, strlen(name) };
}

/* Aligned columns as wide as their widest cell or header, one space apart. */
static int stream_table(struct sink *s, const struct coldesc *tbl, const struct colsel *sel,
			const struct out_opts *opts, const struct rows *r)
{
	const char *pos = r->buf;
	size_t *width;

	if (!r->nrows)
		return 0;
	width = calloc(r->ncols, sizeof(*width));
	if (!width)
		return -ENOMEM;
	/* Headers count even when not printed, as libsmartcols counts them. */
	for (size_t c = 0; c < r->ncols; c++)
		width[c] = header(tbl, sel, c).n;
	for (size_t i = 0; i < r->nrows * r->ncols; i++) {
		struct cell cell = next_cell(&pos);

		if (cell.n > width[i % r->ncols])
			width[i % r->ncols] = cell.n;
	}
	for (size_t c = 0; c < r->ncols && !opts->noheadings; c++)
		put_cell(s, &tbl[sel->idx[c]], width[c], header(tbl, sel, c), c == 0,
			 c + 1 == r->ncols);
	if (!opts->noheadings)
		sink_char(s, '\n');
	pos = r->buf;
	for (size_t i = 0; i < r->nrows; i++) {
		for (size_t c = 0; c < r->ncols; c++)
			put_cell(s, &tbl[sel->idx[c]], width[c], next_cell(&pos), c == 0,
				 c + 1 == r->ncols);
		sink_char(s, '\n');
	}
	free(width);
	return 0;
}

static void stream_raw_or_pairs(struct sink *s, const struct coldesc *tbl,
				const struct colsel *sel, const struct out_opts *opts,
				const struct rows *r)
{
	bool pairs = opts->format == OUT_PAIRS;
	const char *pos = r->buf;

	if (!r->nrows)
		return;
	if (!pairs && !opts->noheadings) {
		for (size_t c = 0; c < r->ncols; c++) {
			if (c)
				sink_char(s, ' ');
			sink_str(s, tbl[sel->idx[c]].name);
		}
		sink_char(s, '\n');
	}
	for (size_t i = 0; i < r->nrows; i++) {
		for (size_t c = 0; c < r->ncols; c++) {
			struct cell cell = next_cell(&pos);

			if (c)
				sink_char(s, ' ');
			if (pairs) {
				/* Column names are already valid shell names. */
				sink_str(s, tbl[sel->idx[c]].name);
				sink_mem(s, "=\"", 2);
			}
			sink_mem(s, cell.s, cell.n);
			if (pairs)
				sink_char(s, '"');
		}
		sink_char(s, '\n');
	}
}

static int stream_json(struct sink *s, const struct coldesc *tbl, const struct colsel *sel,
		       const char *name, const struct rows *r)
{
	/* Each column's indented, lowercased key, made once. */
	struct {
		char text[48];
		size_t n;
	} *key = calloc(r->ncols, sizeof(*key));
	const char *pos = r->buf;

	if (!key)
		return -ENOMEM;
	for (size_t c = 0; c < r->ncols; c++) {
		int n = snprintf(key[c].text, sizeof(key[c].text), "         \"%s\": ",
				 tbl[sel->idx[c]].name);

		for (int i = 10; i < n - 3; i++)
			key[c].text[i] = (char)tolower((unsigned char)key[c].text[i]);
		key[c].n = (size_t)n;
	}
	sink_str(s, "{\n   \"");
	sink_str(s, name);
	sink_str(s, r->nrows ? "\": [\n" : "\": [\n\n");
	for (size_t i = 0; i < r->nrows; i++) {
		sink_str(s, i ? "      },{\n" : "      {\n");
		for (size_t c = 0; c < r->ncols; c++) {
			struct cell cell = next_cell(&pos);
			bool quote = cell.n && tbl[sel->idx[c]].json_type != SCOLS_JSON_NUMBER;

			sink_mem(s, key[c].text, key[c].n);
			/* Cells are digits and zone names ([A-Za-z0-9_]): nothing to escape. */
			if (!cell.n)
				sink_mem(s, "null", 4);
			if (quote)
				sink_char(s, '"');
			sink_mem(s, cell.s, cell.n);
			if (quote)
				sink_char(s, '"');
			if (c + 1 < r->ncols)
				sink_mem(s, ",\n", 2);
			else
				sink_char(s, '\n');
		}
	}
	if (r->nrows)
		sink_str(s, "      }\n");
	sink_str(s, "   ]\n}\n");
	free(key);
	return 0;
}

int print_rows_stream(FILE *out, const struct coldesc *tbl, const struct colsel *sel,
		      const struct out_opts *opts, const char *name, const struct rows *r)
{
	struct sink *s = malloc(sizeof(*s));
	int rc = 0;

	if (!s)
		return -ENOMEM;
	s->f = out;
	s->n = 0;
	s->failed = false;
	switch (opts->format) {
	case OUT_JSON:
		rc = stream_json(s, tbl, sel, name, r);
		break;
	case OUT_RAW:
	case OUT_PAIRS:
		stream_raw_or_pairs(s, tbl, sel, opts, r);
		break;
	case OUT_TABLE:
		rc = stream_table(s, tbl, sel, opts, r);
		break;
	}
	sink_flush(s);
	if (!rc && (s->failed || fflush(out) != 0))
		rc = -EIO;
	free(s);
	return rc;
}

int print_rows(const struct coldesc *tbl, const struct colsel *sel, const struct out_opts *opts,
	       const char *name, const struct rows *r)
{
	if (opts->format == OUT_TABLE && isatty(STDOUT_FILENO))
		return print_rows_scols(stdout, tbl, sel, opts, name, r);
	return print_rows_stream(stdout, tbl, sel, opts, name, r);
}
