/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The streaming writer must print exactly what libsmartcols prints for the
 * same rows, in every format, so that output does not depend on which of
 * the two prints it (libsmartcols takes a table, raw or pairs with a cell to
 * escape; JSON is always the stream's).
 * rows_fit: which columns a table on a narrow terminal keeps.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <libsmartcols.h>

#include "c.h"
#include "columns.h"
#include "output.h"

/* The last numbers: the order in which a narrow terminal leaves them out (0: never). */
static const struct coldesc cols[] = {
	{ "NODE", 0, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER, "", 0 },
	{ "ZONE", 0, 0, SCOLS_JSON_STRING, "", 0 },
	{ "LONG_HEADER", 0, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER, "", 2 },
	{ "RANGE", 0, SCOLS_FL_RIGHT, SCOLS_JSON_STRING, "", 1 },
	{ "NOTE", 0, 0, SCOLS_JSON_STRING, "", 3 },
};

/*
 * What libsmartcols prints of the rows, cell for cell: the oracle.  Its
 * JSON document gains the "version" member that every pcpctl document
 * starts with, and an empty array is [], as pcpctl prints it.
 */
static char *scols_render(const struct colsel *sel, const struct out_opts *o,
			  const struct rows *r)
{
	struct libscols_table *tb = columns_table(cols, sel, o, "things");
	const char *pos = r->buf;
	char *text = NULL, *open;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(tb);
	assert_non_null(f);
	for (size_t i = 0; i < r->nrows; i++) {
		struct libscols_line *ln = scols_table_new_line(tb, NULL);

		assert_non_null(ln);
		for (size_t c = 0; c < r->ncols; c++) {
			size_t n = (unsigned char)*pos;
			char cell[ROWS_CELL_MAX + 1];

			memcpy(cell, pos + 1, n);
			cell[n] = '\0';
			pos += n + 1;
			if (n || o->format == OUT_RAW)
				assert_int_equal(scols_line_set_data(ln, c, n ? cell : RAW_NONE), 0);
		}
	}
	scols_table_set_stream(tb, f);
	assert_int_equal(scols_print_table(tb), 0);
	assert_int_equal(fclose(f), 0);
	scols_unref_table(tb);
	if (o->format != OUT_JSON)
		return text;
	open = strchr(text, '[');
	if (open) {
		size_t blank = strspn(open + 1, " \n");

		if (open[1 + blank] == ']')
			memmove(open + 1, open + 1 + blank, strlen(open + 1 + blank) + 1);
	}
	assert_memory_equal(text, "{\n", 2);
	assert_true(asprintf(&open, "{\n   \"version\": 1,\n%s", text + 2) > 0);
	free(text);
	return open;
}

static char *render(bool scols, const struct colsel *sel, const struct out_opts *o,
		    const struct rows *r)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	if (scols)
		return scols_render(sel, o, r);
	f = open_memstream(&text, &len);
	assert_non_null(f);
	assert_int_equal(print_rows_stream(f, cols, sel, o, "things", r), 0);
	assert_int_equal(fclose(f), 0);
	return text;
}

/* Row i of a table whose cells vary in width, with empty cells in every column. */
static void add_row(struct rows *r, const size_t *idx, size_t n, int i)
{
	for (size_t c = 0; c < n; c++) {
		if ((i + (int)idx[c]) % 4 == 3) {
			assert_int_equal(rows_add_empty(r), 0);
			continue;
		}
		switch (idx[c]) {
		case 0:
			assert_int_equal(rows_add_int(r, i * 7919 % 100003), 0);
			break;
		case 1:
			assert_int_equal(rows_add(r, i % 2 ? "DMA32" : "Normal"), 0);
			break;
		case 2:
			assert_int_equal(rows_add_int(r, -i), 0);
			break;
		case 3:
			assert_int_equal(rows_add_fmt(r, "%d-%d", i, i * 1000), 0);
			break;
		default:
			assert_int_equal(rows_add(r, i % 3 ? "x" : "longer_note"), 0);
		}
	}
	assert_int_equal(rows_end(r), 0);
}

/* The white space outside JSON strings taken out, in place. */
static void squeeze_json(char *s)
{
	bool in_string = false;
	char *w = s;

	for (const char *r = s; *r; r++) {
		if (in_string && *r == '\\' && r[1]) {
			*w++ = *r++;
		} else if (*r == '"') {
			in_string = !in_string;
		} else if (!in_string && strchr(" \n\t", *r)) {
			continue;
		}
		*w++ = *r;
	}
	*w = '\0';
}

/* Runs of blanks made one, and none at the start of a line, in place. */
static void squeeze_blanks(char *s)
{
	char *w = s;

	for (const char *r = s; *r; r++) {
		if (*r == ' ' && (w == s || w[-1] == ' ' || w[-1] == '\n'))
			continue;
		*w++ = *r;
	}
	*w = '\0';
}

/*
 * The stream writer prints as libsmartcols 2.37 to 2.39 do, byte for byte,
 * on every system.  Other versions lay the same cells out otherwise: 2.36
 * (bullseye) prints a JSON row to a line; 2.41 and 2.42 (trixie, forky)
 * size table columns to the cells alone when the headings are not printed.
 */
static bool scols_lays_out_as_stream(void)
{
	const char *ver = NULL;
	int major = 0, minor = 0;

	scols_get_library_version(&ver);
	return ver && sscanf(ver, "%d.%d", &major, &minor) == 2 && major == 2 &&
	       minor >= 37 && minor <= 39;
}

static void test_parity(void **state)
{
	static const size_t orders[][5] = {
		{ 0, 1, 2, 3, 4 }, { 4, 3, 2, 1, 0 }, { 1, 0 }, { 0, 1 }, { 2 }, { 1 }, { 3, 2, 0 },
	};
	static const size_t lens[] = { 5, 5, 2, 2, 1, 1, 3 };
	static const enum out_format formats[] = { OUT_TABLE, OUT_RAW, OUT_PAIRS, OUT_JSON };
	static const size_t nrows[] = { 0, 1, 2, 17 };
	bool same_layout = scols_lays_out_as_stream();
	size_t compared = 0;

	(void)state;
	for (size_t o = 0; o < ARRAY_SIZE(lens); o++)
		for (size_t f = 0; f < 4; f++)
			for (int noheadings = 0; noheadings < 2; noheadings++)
				for (size_t n = 0; n < 4; n++) {
					struct colsel sel = { (size_t *)orders[o], lens[o] };
					struct out_opts opts = { .format = formats[f],
								 .noheadings = noheadings };
					struct rows r;
					char *a, *b;

					rows_init(&r, lens[o]);
					for (size_t i = 0; i < nrows[n]; i++)
						add_row(&r, orders[o], lens[o], (int)i);
					a = render(true, &sel, &opts, &r);
					b = render(false, &sel, &opts, &r);
					/*
					 * Over no rows libsmartcols prints no headings; the
					 * stream keeps them, so that an empty filter result
					 * still says what it would have shown.
					 */
					if (!nrows[n] && !noheadings &&
					    (formats[f] == OUT_TABLE || formats[f] == OUT_RAW)) {
						assert_string_equal(a, "");
						assert_string_equal(strchr(b, '\n'), "\n");
						assert_memory_equal(b, cols[orders[o][0]].name,
								    strlen(cols[orders[o][0]].name));
					} else {
						if (formats[f] == OUT_JSON && !same_layout) {
							squeeze_json(a);
							squeeze_json(b);
						}
						if (formats[f] == OUT_TABLE && noheadings && !same_layout) {
							squeeze_blanks(a);
							squeeze_blanks(b);
						}
						if (strcmp(a, b) != 0)
							fail_msg("format %zu, noheadings %d, %zu rows, "
								 "columns #%zu:\nlibsmartcols:\n%s\n"
								 "stream:\n%s", f, noheadings, nrows[n], o,
								 a, b);
					}
					free(a);
					free(b);
					rows_free(&r);
					compared++;
				}
	assert_int_equal(compared, 7 * 4 * 2 * 4);
}

/* A cell any caller might pass is escaped in every format, by both writers alike. */
static void test_escaped_cells(void **state)
{
	static const struct {
		enum out_format format;
		const char *escaped;
	} cases[] = {
		{ OUT_JSON, "a\\\"b\\\\c d\\u0001$" },
		{ OUT_RAW, "a\"b\\x5cc\\x20d\\x01$" },
		{ OUT_PAIRS, "a\\x22b\\x5cc d\\x01\\x24" },
		{ OUT_TABLE, "a\"b\\c d\\x01$" },
	};
	struct colsel sel = { (size_t[]){ 0, 1 }, 2 };

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct out_opts o = { .format = cases[i].format };
		struct rows r;
		char *stream, *scols;

		rows_init(&r, 2);
		assert_int_equal(rows_add_int(&r, 1), 0);
		assert_int_equal(rows_add(&r, "a\"b\\c d\001$"), 0);
		assert_int_equal(rows_end(&r), 0);
		stream = render(false, &sel, &o, &r);
		scols = render(true, &sel, &o, &r);
		if (!strstr(stream, cases[i].escaped))
			fail_msg("format %d: no %s in %s", cases[i].format, cases[i].escaped, stream);
		/* The stream escapes JSON's strings itself, and starts with the version. */
		if (cases[i].format == OUT_JSON)
			assert_memory_equal(stream, "{\n   \"version\": 1,\n   \"things\": [\n", 34);
		/* libsmartcols 2.36 puts a JSON row on one line: compare the documents, not the layout. */
		if (cases[i].format == OUT_JSON && !scols_lays_out_as_stream()) {
			squeeze_json(stream);
			squeeze_json(scols);
		}
		assert_string_equal(stream, scols);
		free(stream);
		free(scols);
		rows_free(&r);
	}
}

/*
 * A JSON table is UTF-8 whatever its cells hold: a byte that starts no
 * character (Latin-1, a stray continuation, an overlong, a surrogate) is
 * U+FFFD, and valid characters stay (libsmartcols would copy the bytes as
 * they are, so JSON is never its).
 */
static void test_json_cells_utf8(void **state)
{
	struct colsel sel = { (size_t[]){ 0, 1 }, 2 };
	struct out_opts o = { .format = OUT_JSON };
	struct rows r;
	char *stream;

	(void)state;
	rows_init(&r, 2);
	assert_int_equal(rows_add_int(&r, 1), 0);
	assert_int_equal(rows_add(&r, "caf\xe9 \x80 \xc0\xaf \xed\xa0\x80 \xc3\xa9\xf0\x9f\x98\x80"), 0);
	assert_int_equal(rows_end(&r), 0);
	stream = render(false, &sel, &o, &r);
	if (!strstr(stream, "\"caf\xef\xbf\xbd \xef\xbf\xbd \xef\xbf\xbd\xef\xbf\xbd "
			   "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd \xc3\xa9\xf0\x9f\x98\x80\""))
		fail_msg("not U+FFFD for each invalid byte: %s", stream);
	free(stream);
	rows_free(&r);
}

static void test_rows_must_be_complete(void **state)
{
	struct rows r;

	(void)state;
	rows_init(&r, 2);
	assert_int_equal(rows_add_int(&r, 1), 0);
	assert_int_equal(rows_end(&r), -EINVAL);
	assert_int_equal(rows_add_int(&r, -9223372036854775807LL - 1), 0);
	assert_int_equal(rows_end(&r), 0);
	assert_int_equal(r.buf[2], 20);
	assert_memory_equal(r.buf + 3, "-9223372036854775808", 20);
	rows_free(&r);
}

/* Numbers either side of every power of ten print as printf prints them. */
static void test_int_cells(void **state)
{
	struct rows r;
	size_t checked = 0;

	(void)state;
	rows_init(&r, 1);
	for (unsigned long long p = 1; ; p *= 10) {
		const long long values[] = { (long long)(p - 1), (long long)p, (long long)(p + 1),
					     -(long long)p, (long long)(2 * p - 1) };

		for (size_t i = 0; i < ARRAY_SIZE(values); i++) {
			char want[32];
			int n = snprintf(want, sizeof(want), "%lld", values[i]);
			size_t at = r.len;

			assert_int_equal(rows_add_int(&r, values[i]), 0);
			assert_int_equal(rows_end(&r), 0);
			assert_int_equal((unsigned char)r.buf[at], n);
			assert_memory_equal(r.buf + at + 1, want, (size_t)n);
			checked++;
		}
		if (p > 100000000000000000ULL)
			break;
	}
	assert_int_equal(rows_add_int(&r, 9223372036854775807LL), 0);
	assert_memory_equal(r.buf + r.len - 19, "9223372036854775807", 19);
	assert_int_equal(checked, 5 * 19);
	rows_free(&r);
}

static size_t longest_line(const char *text)
{
	size_t longest = 0;

	for (const char *p = text; *p; ) {
		size_t n = strcspn(p, "\n");

		longest = n > longest ? n : longest;
		p += n + (p[n] == '\n');
	}
	return longest;
}

/* The longest line of the stream's table of 17 rows of these columns. */
static size_t table_width(const size_t *idx, size_t n)
{
	struct colsel sel = { (size_t *)idx, n };
	struct out_opts o = { .format = OUT_TABLE };
	struct rows r;
	char *text;
	size_t w;

	rows_init(&r, n);
	for (int i = 0; i < 17; i++)
		add_row(&r, idx, n, i);
	text = render(false, &sel, &o, &r);
	w = longest_line(text);
	free(text);
	rows_free(&r);
	return w;
}

/*
 * At every width from more than the table needs down to 1: what rows_fit
 * keeps fits unless every column that may go is gone, columns go in their
 * order, and none goes that the width did not need to lose.
 */
static void test_fit(void **state)
{
	static const size_t all[] = { 0, 1, 2, 3, 4 };
	struct colsel sel = { (size_t *)all, 5 };
	size_t full = table_width(all, 5), droppable = 3, cut = 0;
	struct rows r;

	(void)state;
	rows_init(&r, 5);
	for (int i = 0; i < 17; i++)
		add_row(&r, all, 5, i);
	for (int width = (int)full + 3; width > 0; width--) {
		bool keep[5];
		size_t left = rows_fit(cols, &sel, &r, width, keep), idx[5], n = 0, last = 5;

		for (size_t c = 0; c < 5; c++) {
			if (keep[c]) {
				idx[n++] = c;
				continue;
			}
			assert_true(cols[c].drop > 0);
			for (size_t d = 0; d < 5; d++)
				if (cols[d].drop > 0 && cols[d].drop < cols[c].drop)
					assert_false(keep[d]);
			if (last == 5 || cols[c].drop > cols[last].drop)
				last = c;
		}
		assert_int_equal(left, 5 - n);
		if (left < droppable)
			assert_true(table_width(idx, n) <= (size_t)width);
		if (left) {
			/* The last column left out, put back, would not fit. */
			size_t back[5], m = 0;

			for (size_t c = 0; c < 5; c++)
				if (keep[c] || c == last)
					back[m++] = c;
			assert_true(table_width(back, m) > (size_t)width);
			cut++;
		} else {
			assert_true(full <= (size_t)width);
		}
	}
	/* Not a terminal: nothing is left out. */
	{
		bool keep[5];

		assert_int_equal(rows_fit(cols, &sel, &r, 0, keep), 0);
		for (size_t c = 0; c < 5; c++)
			assert_true(keep[c]);
	}
	assert_true(cut > droppable);
	rows_free(&r);
	/* A column with no value in any row goes first, whatever its order. */
	{
		struct out_opts o = { .format = OUT_TABLE };
		bool keep[5];
		char *text;
		size_t w;

		rows_init(&r, 5);
		for (int i = 0; i < 3; i++) {
			assert_int_equal(rows_add_int(&r, i), 0);
			assert_int_equal(rows_add(&r, "Normal"), 0);
			assert_int_equal(rows_add_int(&r, i), 0);
			assert_int_equal(rows_add(&r, "1-2"), 0);
			assert_int_equal(rows_add_empty(&r), 0);
			assert_int_equal(rows_end(&r), 0);
		}
		text = render(false, &sel, &o, &r);
		w = longest_line(text);
		free(text);
		assert_int_equal(rows_fit(cols, &sel, &r, (int)w - 1, keep), 1);
		assert_true(keep[0] && keep[1] && keep[2] && keep[3] && !keep[4]);
		rows_free(&r);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parity),
		cmocka_unit_test(test_escaped_cells),
		cmocka_unit_test(test_json_cells_utf8),
		cmocka_unit_test(test_rows_must_be_complete),
		cmocka_unit_test(test_int_cells),
		cmocka_unit_test(test_fit),
	};

	return cmocka_run_group_tests_name("output", tests, NULL, NULL);
}
