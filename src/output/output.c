/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "output.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <libsmartcols.h>

#include "msg.h"
#include "numparse.h"
#include "report.h"
#include "utf8.h"

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

/*
 * Bytes kept readable past the last cell, so that the streaming writer may
 * copy a short cell as one fixed-size block.
 */
#define ROWS_SLACK 16

/*
 * Past malloc's mmap threshold, so that the arena is mapped: pages are
 * touched only as rows fill them, and growing it remaps rather than copies.
 */
#define ROWS_FIRST ((size_t)256 * 1024)

static __attribute__((noinline)) int grow(struct rows *r, size_t n)
{
	size_t cap = r->cap ? r->cap : ROWS_FIRST;
	char *buf;

	while (cap < r->len + n + ROWS_SLACK)
		cap *= 2;
	buf = realloc(r->buf, cap);
	if (!buf)
		return -ENOMEM;
	r->buf = buf;
	r->cap = cap;
	return 0;
}

static inline int reserve(struct rows *r, size_t n)
{
	return r->len + n + ROWS_SLACK > r->cap ? grow(r, n) : 0;
}

/*
 * Whether a cell copied to p (n bytes, ROWS_SLACK more readable after
 * them) holds a byte that some format escapes: a blank or control
 * character, DEL or any byte above it, or one of " $ \ ` (libsmartcols
 * escapes no other).
 */
static bool needs_escape(const char *p, size_t n)
{
#if defined(__SSE2__)
	/* Cells are short: 16 bytes at a time, the ones past the cell masked off. */
	for (size_t i = 0; i < n; i += 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(p + i));
		/* Signed: a byte from 0x80 up is negative, so below 0x21 too. */
		__m128i bad = _mm_or_si128(
			_mm_or_si128(_mm_cmplt_epi8(v, _mm_set1_epi8(0x21)),
				     _mm_cmpeq_epi8(v, _mm_set1_epi8(0x7f))),
			_mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')),
						  _mm_cmpeq_epi8(v, _mm_set1_epi8('$'))),
				     _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\\')),
						  _mm_cmpeq_epi8(v, _mm_set1_epi8('`')))));
		unsigned hits = (unsigned)_mm_movemask_epi8(bad);

		if (n - i < 16)
			hits &= (1u << (n - i)) - 1;
		if (hits)
			return true;
	}
	return false;
#else
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)p[i];

		if (c <= ' ' || c >= 0x7f || c == '"' || c == '$' || c == '\\' || c == '`')
			return true;
	}
	return false;
#endif
}

static int add_cell(struct rows *r, const char *s, size_t n)
{
	if (n > ROWS_CELL_MAX)
		return -EINVAL;
	if (reserve(r, n + 1))
		return -ENOMEM;
	r->buf[r->len] = (char)n;
	memcpy(r->buf + r->len + 1, s, n);
	if (!r->escape && needs_escape(r->buf + r->len + 1, n))
		r->escape = true;
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

static size_t decimal_digits(unsigned long long u)
{
	static const unsigned long long powers[20] = {
		1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL, 10000000ULL,
		100000000ULL, 1000000000ULL, 10000000000ULL, 100000000000ULL, 1000000000000ULL,
		10000000000000ULL, 100000000000000ULL, 1000000000000000ULL,
		10000000000000000ULL, 100000000000000000ULL, 1000000000000000000ULL,
		10000000000000000000ULL,
	};
	/* log10(2) ~ 1233 / 4096: the count from the bit length, then one compare. */
	size_t guess = (size_t)(64 - __builtin_clzll(u | 1)) * 1233 >> 12;

	return guess + 1 - (guess && u < powers[guess]);
}

/* Most cells are numbers: written in place, two digits a step. */
int rows_add_int(struct rows *r, long long v)
{
	static const char pairs[201] =
		"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
		"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
		"8081828384858687888990919293949596979899";
	unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
	size_t n = v < 0;
	char *p;

	n += decimal_digits(u);
	if (reserve(r, n + 1))
		return -ENOMEM;
	p = r->buf + r->len;
	*p = (char)n;
	if (v < 0)
		p[1] = '-';
	p += n + 1;
	for (; u >= 100; u /= 100)
		memcpy(p -= 2, pairs + 2 * (u % 100), 2);
	if (u >= 10)
		memcpy(p - 2, pairs + 2 * u, 2);
	else
		p[-1] = (char)('0' + u);
	r->len += n + 1;
	r->cells++;
	return 0;
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

/* A table, raw or pairs by libsmartcols, which escapes the cells that need it. */
static int print_rows_scols(FILE *out, const struct coldesc *tbl, const struct colsel *sel,
			    const struct out_opts *opts, const struct rows *r)
{
	struct libscols_table *tb;
	const char *pos = r->buf;
	int rc = 0;

	tb = columns_table(tbl, sel, opts, NULL);
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
			const char *data = cell.n ? text : opts->format == OUT_RAW ? RAW_NONE : NULL;

			memcpy(text, cell.s, cell.n);
			text[cell.n] = '\0';
			if (data && scols_line_set_data(ln, c, data))
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
#define SINK_SIZE ((size_t)64 * 1024)
/* Fixed-size copies may write this far past the bytes they keep. */
#define SINK_SLACK 64

struct sink {
	FILE *f;
	size_t n;
	int err;		/* errno of the first failed write, 0 while none failed */
	char buf[SINK_SIZE + SINK_SLACK];
};

static void sink_flush(struct sink *s)
{
	if (s->n && fwrite(s->buf, 1, s->n, s->f) != s->n && !s->err)
		s->err = errno ? errno : EIO;
	s->n = 0;
}

/*
 * Where the next n bytes go (n at most SINK_SIZE), flushing first when they
 * would not fit; the caller writes them and moves s->n.
 */
static inline char *sink_room(struct sink *s, size_t n)
{
	if (SINK_SIZE - s->n < n)
		sink_flush(s);
	return s->buf + s->n;
}

static inline void sink_done(struct sink *s, const char *end)
{
	s->n = (size_t)(end - s->buf);
}

/* A cell of the rows arena, which keeps ROWS_SLACK bytes readable after it. */
static inline char *put_text(char *d, struct cell c)
{
	if (c.n <= ROWS_SLACK)
		memcpy(d, c.s, ROWS_SLACK);
	else
		memcpy(d, c.s, c.n);
	return d + c.n;
}

static inline char *put_blanks(char *d, size_t n)
{
	/* 32 blanks, copied whole (the row's slack takes them); the NUL is never copied */
	static const char blanks[] = "                                ";

	if (n <= sizeof(blanks) - 1)
		memcpy(d, blanks, sizeof(blanks) - 1);
	else
		memset(d, ' ', n);
	return d + n;
}

static inline void sink_mem(struct sink *s, const char *p, size_t n)
{
	if (n <= SINK_SIZE - s->n) {
		memcpy(s->buf + s->n, p, n);
		s->n += n;
		return;
	}
	while (n) {
		size_t room = SINK_SIZE - s->n, k = n < room ? n : room;

		memcpy(s->buf + s->n, p, k);
		s->n += k;
		p += k;
		n -= k;
		if (s->n == SINK_SIZE)
			sink_flush(s);
	}
}

static void sink_str(struct sink *s, const char *p)
{
	sink_mem(s, p, strlen(p));
}

static void sink_char(struct sink *s, char c)
{
	if (s->n == SINK_SIZE)
		sink_flush(s);
	s->buf[s->n++] = c;
}

/* One table row of cells at *pos, padded to width; returns the end of what it wrote. */
static char *put_row(char *d, const struct coldesc *tbl, const struct colsel *sel,
		     const size_t *width, size_t ncols, const char **pos)
{
	for (size_t c = 0; c < ncols; c++) {
		struct cell text = next_cell(pos);
		bool right = tbl[sel->idx[c]].flags & SCOLS_FL_RIGHT, last = c + 1 == ncols;
		size_t pad = width[c] > text.n ? width[c] - text.n : 0;

		if (c)
			*d++ = ' ';
		/* The last column is not padded after its text, nor when it is empty. */
		if (right && !(last && text.n == 0))
			d = put_blanks(d, pad);
		d = put_text(d, text);
		if (!right && !last)
			d = put_blanks(d, pad);
	}
	*d++ = '\n';
	return d;
}

/*
 * Each column's width in a table: its widest cell or its header, which
 * counts even when not printed, as libsmartcols counts it, and at least its
 * absolute width hint (whint >= 1).  filled, unless NULL, says which columns
 * have a value in some row.  NULL on ENOMEM.
 */
static size_t *table_widths(const struct coldesc *tbl, const struct colsel *sel,
			    const struct rows *r, bool *filled)
{
	size_t *width = calloc(r->ncols ? r->ncols : 1, sizeof(*width));
	const char *pos = r->buf;

	if (!width)
		return NULL;
	for (size_t c = 0; c < r->ncols; c++) {
		const struct coldesc *cd = &tbl[sel->idx[c]];

		width[c] = strlen(cd->name);
		if (cd->whint >= 1 && (size_t)cd->whint > width[c])
			width[c] = (size_t)cd->whint;
		if (filled)
			filled[c] = false;
	}
	for (size_t i = 0; i < r->nrows; i++)
		for (size_t c = 0; c < r->ncols; c++) {
			struct cell cell = next_cell(&pos);

			if (cell.n > width[c])
				width[c] = cell.n;
			if (filled && cell.n)
				filled[c] = true;
		}
	return width;
}

/* Aligned columns width[] wide, one space apart, under their headings unless noheadings. */
static int stream_aligned(struct sink *s, const struct coldesc *tbl, const struct colsel *sel,
			  const size_t *width, bool noheadings, const struct rows *r)
{
	const char *pos;
	size_t row_max = 1;
	struct rows head;
	int rc = 0;

	rows_init(&head, sel->n);
	for (size_t c = 0; c < sel->n && !rc; c++)
		rc = rows_add(&head, tbl[sel->idx[c]].name);
	/* A cell is at most ROWS_CELL_MAX wide, padded or not: a row always fits in the sink. */
	for (size_t c = 0; c < sel->n; c++)
		row_max += (width[c] > ROWS_CELL_MAX ? width[c] : ROWS_CELL_MAX) + 1;
	if (!rc && !noheadings) {
		pos = head.buf;
		sink_done(s, put_row(sink_room(s, row_max), tbl, sel, width, sel->n, &pos));
	}
	pos = r ? r->buf : NULL;
	for (size_t i = 0; r && i < r->nrows && !rc; i++)
		sink_done(s, put_row(sink_room(s, row_max), tbl, sel, width, sel->n, &pos));
	rows_free(&head);
	return rc;
}

/* Aligned columns as wide as their widest cell or header, one space apart. */
static int stream_table(struct sink *s, const struct coldesc *tbl, const struct colsel *sel,
			const struct out_opts *opts, const struct rows *r)
{
	size_t *width = table_widths(tbl, sel, r, NULL);
	int rc;

	if (!width)
		return -ENOMEM;
	rc = stream_aligned(s, tbl, sel, width, opts->noheadings, r);
	free(width);
	return rc;
}

static void stream_raw_or_pairs(struct sink *s, const struct coldesc *tbl,
				const struct colsel *sel, const struct out_opts *opts,
				const struct rows *r)
{
	bool pairs = opts->format == OUT_PAIRS;
	const char *pos = r->buf;

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
			if (!pairs && !cell.n)
				sink_str(s, RAW_NONE);
			sink_mem(s, cell.s, cell.n);
			if (pairs)
				sink_char(s, '"');
		}
		sink_char(s, '\n');
	}
}

/* A string cell as JSON has it inside its quotes (report.c's strings alike). */
static char *put_json_text(char *d, struct cell c)
{
	const unsigned char *p = (const unsigned char *)c.s;
	size_t n = c.n, used;

	while (n) {
		d += utf8_json_char(p, n, d, &used);
		p += used;
		n -= used;
	}
	return d;
}

static int stream_json(struct sink *s, const struct coldesc *tbl, const struct colsel *sel,
		       int version, const char *name, const struct rows *r)
{
	/* Each column's indented, lowercased key, made once; padded for fixed-size copies. */
	struct {
		char text[64];
		size_t n;
		bool quote;
	} *key = calloc(r->ncols, sizeof(*key));
	const char *pos = r->buf;
	size_t row_max = sizeof("      },{\n");
	char head[32];

	if (!key)
		return -ENOMEM;
	for (size_t c = 0; c < r->ncols; c++) {
		int n = snprintf(key[c].text, sizeof(key[c].text), "         \"%s\": ",
				 tbl[sel->idx[c]].name);

		for (int i = 10; i < n - 3; i++)
			key[c].text[i] = (char)tolower((unsigned char)key[c].text[i]);
		key[c].n = (size_t)n;
		key[c].quote = tbl[sel->idx[c]].json_type != SCOLS_JSON_NUMBER;
		/* Key, a cell (each byte escaped, at worst) or null, two quotes, comma and newline. */
		row_max += key[c].n + (size_t)ROWS_CELL_MAX * (r->escape ? UTF8_JSON_MAX : 1) + 4;
	}
	snprintf(head, sizeof(head), "{\n   \"version\": %d,\n   \"", version);
	sink_str(s, head);
	sink_str(s, name);
	sink_str(s, r->nrows ? "\": [\n" : "\": []\n}\n");
	if (!r->nrows) {
		free(key);
		return 0;
	}
	for (size_t i = 0; i < r->nrows; i++) {
		char *d = sink_room(s, row_max);

		if (i) {
			memcpy(d, "      },{\n", 10);
			d += 10;
		} else {
			memcpy(d, "      {\n", 8);
			d += 8;
		}
		for (size_t c = 0; c < r->ncols; c++) {
			struct cell cell = next_cell(&pos);

			memcpy(d, key[c].text, sizeof(key[c].text));
			d += key[c].n;
			if (!cell.n) {
				memcpy(d, "null", 4);
				d += 4;
			} else if (key[c].quote) {
				*d++ = '"';
				d = r->escape ? put_json_text(d, cell) : put_text(d, cell);
				*d++ = '"';
			} else {
				d = put_text(d, cell);
			}
			if (c + 1 < r->ncols)
				*d++ = ',';
			*d++ = '\n';
		}
		sink_done(s, d);
	}
	if (r->nrows)
		sink_str(s, "      }\n");
	sink_str(s, "   ]\n}\n");
	free(key);
	return 0;
}

static struct sink *sink_open(FILE *out)
{
	struct sink *s = malloc(sizeof(*s));

	if (s) {
		s->f = out;
		s->n = 0;
		s->err = 0;
	}
	return s;
}

/* Flushes and frees s; rc, else the first failed write's negative errno. */
static int sink_close(struct sink *s, int rc)
{
	sink_flush(s);
	if (!rc && !s->err && fflush(s->f) != 0)
		s->err = errno ? errno : EIO;
	if (!rc && s->err)
		rc = -s->err;
	free(s);
	return rc;
}

int print_rows_stream(FILE *out, const struct coldesc *tbl, const struct colsel *sel,
		      const struct out_opts *opts, const char *name, const struct rows *r)
{
	struct sink *s;
	int rc = 0;

	/* JSON's strings are escaped here; libsmartcols escapes the other formats' cells. */
	if (r->escape && opts->format != OUT_JSON)
		return print_rows_scols(out, tbl, sel, opts, r);
	s = sink_open(out);
	if (!s)
		return -ENOMEM;
	switch (opts->format) {
	case OUT_JSON:
		rc = stream_json(s, tbl, sel,
				 opts->json_version ? opts->json_version : PCPCTL_JSON_VERSION, name, r);
		break;
	case OUT_RAW:
	case OUT_PAIRS:
		stream_raw_or_pairs(s, tbl, sel, opts, r);
		break;
	case OUT_TABLE:
		rc = stream_table(s, tbl, sel, opts, r);
		break;
	}
	return sink_close(s, rc);
}

int terminal_width(void)
{
	const char *env = getenv("COLUMNS");
	struct winsize ws;
	long cols;

	if (!isatty(STDOUT_FILENO))
		return 0;
	if (env && parse_long(env, 1, 100000, &cols) == 0)
		return (int)cols;
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col)
		return ws.ws_col;
	return 80;
}

size_t rows_fit(const struct coldesc *tbl, const struct colsel *sel, const struct rows *r,
		int width, bool *keep)
{
	bool *filled = calloc(sel->n ? sel->n : 1, sizeof(*filled));
	size_t *w = filled ? table_widths(tbl, sel, r, filled) : NULL, total = 0, left_out = 0;
	int order = 0;

	for (size_t c = 0; c < sel->n; c++)
		keep[c] = true;
	/* Out of memory: nothing left out, as for a pipe. */
	if (!w || width <= 0 || !sel->n) {
		free(filled);
		free(w);
		return 0;
	}
	for (size_t c = 0; c < sel->n; c++) {
		total += w[c] + (c > 0);
		if (tbl[sel->idx[c]].drop > order)
			order = tbl[sel->idx[c]].drop;
	}
	/*
	 * Round 0 takes the columns that may go and have no value in any row
	 * (FREE_PCT under --sysroot, HIGH_MIN before 6.13), then each order in
	 * turn, up to the largest a selected column has.
	 */
	for (int d = 0; d <= order && total > (size_t)width; d++)
		for (size_t c = 0; c < sel->n && total > (size_t)width; c++) {
			int drop = tbl[sel->idx[c]].drop;

			if (!keep[c] || !drop || (d ? drop != d : filled[c]))
				continue;
			keep[c] = false;
			left_out++;
			/* A column and its blank, on whichever side. */
			total -= w[c] + (left_out < sel->n);
		}
	free(filled);
	free(w);
	return left_out;
}

/* "A, B, C": the names of the columns not kept; NULL on ENOMEM. */
static char *left_out_names(const struct coldesc *tbl, const struct colsel *sel,
			    const bool *keep)
{
	size_t size = 1, len = 0;
	char *list;

	for (size_t c = 0; c < sel->n; c++)
		size += strlen(tbl[sel->idx[c]].name) + 2;
	list = malloc(size);
	if (!list)
		return NULL;
	list[0] = '\0';
	for (size_t c = 0; c < sel->n; c++)
		if (!keep[c])
			len += (size_t)snprintf(list + len, size - len, "%s%s", len ? ", " : "",
						tbl[sel->idx[c]].name);
	return list;
}

/* The kept columns' cells of r into kept, and their indexes into shown. */
static int rows_keep(const struct colsel *sel, const struct rows *r, const bool *keep,
		     struct colsel *shown, struct rows *kept)
{
	const char *pos = r->buf;
	int rc = 0;

	rows_init(kept, 0);
	shown->n = 0;
	shown->idx = calloc(sel->n ? sel->n : 1, sizeof(*shown->idx));
	if (!shown->idx)
		return -ENOMEM;
	for (size_t c = 0; c < sel->n; c++)
		if (keep[c])
			shown->idx[shown->n++] = sel->idx[c];
	kept->ncols = shown->n;
	for (size_t i = 0; i < r->nrows && !rc; i++) {
		for (size_t c = 0; c < r->ncols && !rc; c++) {
			struct cell cell = next_cell(&pos);

			if (keep[c])
				rc = add_cell(kept, cell.s, cell.n);
		}
		if (!rc)
			rc = rows_end(kept);
	}
	return rc;
}

/* A table on a terminal width columns wide. */
static int print_fitted(const struct coldesc *tbl, const struct colsel *sel,
			const struct out_opts *opts, const char *name, const struct rows *r,
			int width)
{
	bool *keep = calloc(sel->n ? sel->n : 1, sizeof(*keep));
	struct colsel shown = { 0 };
	struct rows kept;
	char *names;
	int rc;

	if (!keep)
		return -ENOMEM;
	if (!rows_fit(tbl, sel, r, width, keep)) {
		free(keep);
		return print_rows_stream(stdout, tbl, sel, opts, name, r);
	}
	rc = rows_keep(sel, r, keep, &shown, &kept);
	names = rc ? NULL : left_out_names(tbl, sel, keep);
	if (!rc && !names)
		rc = -ENOMEM;
	if (!rc) {
		pcp_note("left out for a terminal of %d columns: %s (--raw or -o shows them)",
			 width, names);
		rc = print_rows_stream(stdout, tbl, &shown, opts, name, &kept);
	}
	free(names);
	rows_free(&kept);
	colsel_free(&shown);
	free(keep);
	return rc;
}

int table_layout_fit(struct table_layout *l, const struct coldesc *tbl, const struct colsel *sel,
		     const struct rows *first, int termwidth)
{
	struct rows kept = { 0 };
	int rc = -ENOMEM;

	memset(l, 0, sizeof(*l));
	l->tbl = tbl;
	l->sel = sel;
	l->keep = calloc(sel->n ? sel->n : 1, sizeof(*l->keep));
	if (!l->keep)
		goto out;
	l->left_out = rows_fit(tbl, sel, first, termwidth, l->keep);
	rc = rows_keep(sel, first, l->keep, &l->shown, &kept);
	if (!rc) {
		l->width = table_widths(tbl, &l->shown, &kept, NULL);
		rc = l->width ? 0 : -ENOMEM;
	}
out:
	rows_free(&kept);
	if (rc)
		table_layout_free(l);
	return rc;
}

char *table_layout_left_out(const struct table_layout *l)
{
	return l->left_out ? left_out_names(l->tbl, l->sel, l->keep) : NULL;
}

int table_layout_print(FILE *out, const struct table_layout *l, bool heading,
		       const struct rows *r)
{
	struct colsel shown = { 0 };
	struct rows kept = { 0 };
	struct sink *s = sink_open(out);
	int rc = s ? 0 : -ENOMEM;

	if (!rc && r)
		rc = rows_keep(l->sel, r, l->keep, &shown, &kept);
	if (!rc)
		rc = stream_aligned(s, l->tbl, &l->shown, l->width, !heading, r ? &kept : NULL);
	if (s)
		rc = sink_close(s, rc);
	rows_free(&kept);
	colsel_free(&shown);
	return rc;
}

void table_layout_free(struct table_layout *l)
{
	free(l->keep);
	free(l->width);
	colsel_free(&l->shown);
	memset(l, 0, sizeof(*l));
}

int rows_print_failed(int err)
{
	if (err == -ENOMEM)
		pcp_error("out of memory");
	else
		msg_stdout_failed(-err);
	return EXIT_FAIL;
}

int print_rows(const struct coldesc *tbl, const struct colsel *sel, const struct out_opts *opts,
	       const char *name, const struct rows *r)
{
	int width = opts->format == OUT_TABLE ? terminal_width() : 0;

	if (width > 0)
		return print_fitted(tbl, sel, opts, name, r, width);
	return print_rows_stream(stdout, tbl, sel, opts, name, r);
}
