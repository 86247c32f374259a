/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare.c - one row per (tasks, value), one column per sweep: the Hmean
 * (the mean of a metric better lower), its change against the first sweep,
 * positive where it is better, and a mark where Welch's t-test on the
 * samples says the difference is significant
 */
#include <errno.h>
#include <locale.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "atomicfile.h"
#include "command.h"
#include "escape.h"
#include "msg.h"
#include "report.h"
#include "stats.h"
#include "sweepset.h"
#include "welch.h"

struct compare_opts {
	const char **labels;	/* --label, once per input or never; NULL-terminated */
	const char *csv;	/* also write the cells as CSV */
	int partial;		/* also sweeps cut short */
	bool json;
	char *const *files;	/* the sweep JSON files, the first the baseline */
};

/* Wide enough for "  12345678.90 (+1234.56%)"; a wider cell or label widens its column. */
#define CELL_WIDTH 24
#define CELL_MAX 64

struct row {
	long tasks, value;
	const struct sweepfile_point **at;	/* each input's point of the row, or NULL */
};

struct cell {
	const struct sweepfile_point *pt;	/* NULL when the input lacks the row */
	bool has_change, tested, significant;
	double center;		/* sweepfile_center() */
	double change, p;	/* change: positive when better than the baseline */
};

static int row_order(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	if (x->tasks != y->tasks)
		return x->tasks < y->tasks ? -1 : 1;
	return (x->value > y->value) - (x->value < y->value);
}

/*
 * Each input's point of each row, found by one walk of its sorted points
 * along the sorted rows: a search per cell made compare quadratic in the
 * points (35 s for 40,000).  0 or -ENOMEM.
 */
static int place_points(const struct sweep_input *in, size_t nin, struct row *rows,
			size_t nrows, const struct sweepfile_point **at)
{
	for (size_t r = 0; r < nrows; r++)
		rows[r].at = at + r * nin;
	for (size_t i = 0; i < nin; i++) {
		const struct sweepfile *f = &in[i].f;
		const struct sweepfile_point **sorted = sweepfile_sorted(f);
		size_t r = 0;

		if (!sorted)
			return -ENOMEM;
		for (size_t j = 0; j < f->npoints; j++) {
			struct row want = { sorted[j]->tasks, sorted[j]->value, NULL };

			while (row_order(&rows[r], &want) < 0)
				r++;
			if (!rows[r].at[i])
				rows[r].at[i] = sorted[j];
		}
		free(sorted);
	}
	return 0;
}

/*
 * Every (tasks, value) of any input, sorted, each once, with each input's
 * point of it in *at (nrows x nin, for the caller to free).
 */
static struct row *collect_rows(const struct sweep_input *in, size_t nin, size_t *nrows,
				const struct sweepfile_point ***at)
{
	struct row *rows;
	size_t total = 0, n = 0;

	for (size_t i = 0; i < nin; i++)
		total += in[i].f.npoints;
	/* NOLINTNEXTLINE(clang-analyzer-optin.portability.UnixAPI): sweepset_load gives inputs with points */
	rows = calloc(total, sizeof(*rows));
	if (!rows)
		return NULL;
	for (size_t i = 0; i < nin; i++)
		for (size_t j = 0; j < in[i].f.npoints; j++)
			rows[n++] = (struct row){ in[i].f.points[j].tasks, in[i].f.points[j].value,
						  NULL };
	qsort(rows, n, sizeof(*rows), row_order);
	*nrows = 0;
	for (size_t i = 0; i < n; i++)
		if (*nrows == 0 || row_order(&rows[*nrows - 1], &rows[i]))
			rows[(*nrows)++] = rows[i];
	/* NOLINTNEXTLINE(bugprone-sizeof-expression): a matrix of pointers to points */
	*at = calloc(*nrows * nin, sizeof(**at));
	if (!*at || place_points(in, nin, rows, *nrows, *at)) {
		free(*at);
		*at = NULL;
		free(rows);
		return NULL;
	}
	return rows;
}

/* f: the sweeps' direction, which sweepset_load() made one for all */
static struct cell make_cell(const struct sweepfile *f, const struct sweepfile_point *base,
			     const struct sweepfile_point *pt)
{
	struct cell c = { .pt = pt };
	struct welch w;

	if (!pt)
		return c;
	c.center = sweepfile_center(f, pt);
	if (!base)
		return c;
	c.has_change = stats_gain_pct(c.center, sweepfile_center(f, base), f->better,
				      &c.change) == 0;
	if (pt != base && welch_test(pt->samples, pt->nsamples, base->samples, base->nsamples,
				     &w) == 0) {
		c.tested = true;
		c.p = w.p;
		c.significant = w.p < WELCH_ALPHA;
	}
	return c;
}

static void text_cell(const struct cell *c, char buf[CELL_MAX])
{
	int d;

	if (!c->pt) {
		snprintf(buf, CELL_MAX, "-");
		return;
	}
	d = stats_decimals(c->center, 2);
	if (!c->has_change)
		snprintf(buf, CELL_MAX, "%.*f (      -)", d, c->center);
	else
		snprintf(buf, CELL_MAX, c->significant ? "%.*f *%+7.2f%%*" : "%.*f (%+7.2f%%)",
			 d, c->center, c->change);
}

/*
 * The columns a label takes on a terminal: labels come from JSON (UTF-8
 * whatever the locale) or --label, and a wide character takes two columns.
 * Text that is not valid UTF-8 counts a column a byte.
 */
static size_t display_width(const char *s)
{
	/*
	 * Made once: without a locale archive each newlocale() maps the
	 * locale's files anew, which for every cell of a 40,000-point compare
	 * cost 4 s of system time.
	 */
	static locale_t utf8;
	size_t n = strlen(s), width = n;
	wchar_t *ws = calloc(n + 1, sizeof(*ws));

	if (!utf8)
		utf8 = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
	if (utf8 && ws) {
		locale_t old = uselocale(utf8);

		if (mbstowcs(ws, s, n + 1) != (size_t)-1) {
			int w = wcswidth(ws, n + 1);

			if (w >= 0)
				width = (size_t)w;
		}
		uselocale(old);
	}
	free(ws);
	return width;
}

/* s right-aligned in width columns, after a space. */
static void put_right(const char *s, size_t width)
{
	size_t w = display_width(s);

	printf(" %*s%s", (int)(width > w ? width - w : 0), "", s);
}

static void json_cell(const struct cell *c)
{
	if (!c->pt) {
		print_null(PRINT_JSON, NULL, "%s", "");
		return;
	}
	open_json_object(NULL);
	print_double(PRINT_JSON, "hmean", stats_format(c->pt->hmean, 3), c->pt->hmean);
	print_double(PRINT_JSON, "mean", stats_format(c->pt->mean, 3), c->pt->mean);
	print_double_or_null("change_pct", "%.4f", c->has_change, c->change);
	print_double_or_null("p", "%.6g", c->tested, c->p);
	print_bool(PRINT_JSON, "significant", "%s", c->significant);
	close_json_object();
}

static void csv_field(FILE *f, const char *s)
{
	if (!s[strcspn(s, ",\"\n\r")]) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static int write_csv(const char *path, const struct sweep_input *in, size_t nin,
		     const struct row *rows, size_t nrows)
{
	struct atomic_stream out;
	FILE *f;
	int err;

	if (atomic_stream_open(&out)) {
		pcp_error("out of memory");
		return EXIT_FAIL;
	}
	f = out.f;
	fprintf(f, "tasks,%s,label,hmean,change_pct,p,significant,mean\n", in[0].f.parameter);
	for (size_t r = 0; r < nrows; r++) {
		const struct sweepfile_point *base = rows[r].at[0];

		for (size_t i = 0; i < nin; i++) {
			struct cell c = make_cell(&in[0].f, base, rows[r].at[i]);

			if (!c.pt)
				continue;
			fprintf(f, "%ld,%ld,", rows[r].tasks, rows[r].value);
			csv_field(f, in[i].label);
			fprintf(f, ",%.*f,", stats_decimals(c.pt->hmean, 3), c.pt->hmean);
			if (c.has_change)
				fprintf(f, "%.4f", c.change);
			fputc(',', f);
			if (c.tested)
				fprintf(f, "%.6g", c.p);
			fprintf(f, ",%d,%.*f\n", c.significant, stats_decimals(c.pt->mean, 3),
				c.pt->mean);
		}
	}
	/* replaced as export's files are: a link there is replaced, never followed */
	err = atomic_stream_commit(&out, path);
	if (err) {
		pcp_error("cannot write %s: %s", path, strerror(-err));
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

static int print_table(bool json, const struct sweep_input *in, size_t nin,
		       const struct row *rows, size_t nrows)
{
	size_t *width = calloc(nin, sizeof(*width));
	char (*text)[CELL_MAX] = json ? NULL : calloc(nrows * nin + 1, sizeof(*text));

	if (!width || (!json && !text)) {
		pcp_error("out of memory");
		free(width);
		free(text);
		return EXIT_FAIL;
	}
	/* The text cells first: a column is as wide as its label and its widest cell. */
	for (size_t r = 0; text && r < nrows; r++) {
		const struct sweepfile_point *base = rows[r].at[0];

		for (size_t i = 0; i < nin; i++) {
			struct cell c = make_cell(&in[0].f, base, rows[r].at[i]);
			size_t w;

			text_cell(&c, text[r * nin + i]);
			w = strlen(text[r * nin + i]);
			if (w > width[i])
				width[i] = w;
		}
	}
	new_json_obj(json);
	print_string(PRINT_JSON, "parameter", "%s", in[0].f.parameter);
	print_string(PRINT_JSON, "workload", "%s", in[0].f.workload);
	print_string(PRINT_JSON, "better", "%s", stats_better_name(in[0].f.better));
	open_json_array("inputs");
	for (size_t i = 0; i < nin; i++) {
		open_json_object(NULL);
		print_string(PRINT_JSON, "file", "%s", in[i].path);
		print_string(PRINT_JSON, "label", "%s", in[i].label);
		close_json_object();
	}
	close_json_array();
	if (!json) {
		printf("%-5s %6s %9s", "", "TASKS", in[0].f.parameter[0] == 'b' ? "BATCH" : "FRACTION");
		for (size_t i = 0; i < nin; i++) {
			/* a host name or kernel from a file: an ESC in it must not reach the terminal */
			size_t size = 4 * strlen(in[i].label) + 6, len;
			char *shown = malloc(size);

			if (!shown) {
				pcp_error("out of memory");
				free(width);
				free(text);
				delete_json_obj();
				return EXIT_FAIL;
			}
			escape_text(shown, size, in[i].label, strlen(in[i].label), true);
			len = display_width(shown);
			if (width[i] < CELL_WIDTH)
				width[i] = CELL_WIDTH;
			if (len > width[i])
				width[i] = len;
			put_right(shown, width[i]);
			free(shown);
		}
		putchar('\n');
	}
	open_json_array("rows");
	for (size_t r = 0; r < nrows; r++) {
		const struct sweepfile_point *base = rows[r].at[0];

		open_json_object(NULL);
		print_string(PRINT_FP, NULL, "%-5s", in[0].f.better == BETTER_LOWER ? "Mean" : "Hmean");
		print_long(PRINT_ANY, "tasks", " %6ld", rows[r].tasks);
		print_long(PRINT_ANY, "value", " %9ld", rows[r].value);
		open_json_array("cells");
		for (size_t i = 0; i < nin; i++) {
			struct cell c = make_cell(&in[0].f, base, rows[r].at[i]);

			if (json)
				json_cell(&c);
			else
				put_right(text[r * nin + i], width[i]);
		}
		close_json_array();
		close_json_object();
		print_string(PRINT_FP, NULL, "%s", "\n");
	}
	close_json_array();
	free(width);
	free(text);
	return delete_json_obj() ? EXIT_FAIL : EXIT_OK;
}

static int cmd_compare(const struct compare_opts *o)
{
	const struct sweepfile_point **at = NULL;
	struct sweep_input *in = NULL;
	struct row *rows = NULL;
	size_t nin = 0, nrows = 0;
	int rc;

	rc = sweepset_load("compare", 2, o->files, o->labels, &in, &nin);
	if (rc)
		return rc;
	for (size_t i = 0; i < nin && !o->partial; i++)
		if (in[i].f.cut_short) {
			pcp_error("%s is a sweep cut short (\"complete\": false): the points it lacks "
				  "would read as never measured; compare it with --partial",
				  sweepset_name(in[i].path));
			rc = EXIT_USAGE;
			goto out;
		}
	rows = collect_rows(in, nin, &nrows, &at);
	if (!rows) {
		pcp_error("out of memory");
		rc = EXIT_FAIL;
		goto out;
	}
	rc = print_table(o->json, in, nin, rows, nrows);
	if (!rc && o->csv)
		rc = write_csv(o->csv, in, nin, rows, nrows);
out:
	sweepset_free(in, nin);
	free(rows);
	free(at);
	return rc;
}

static struct compare_opts cli;

static const struct poptOption compare_options[] = {
	{ "label", '\0', POPT_ARG_ARGV, &cli.labels, 0, NULL, NULL },
	{ "csv", '\0', POPT_ARG_STRING, &cli.csv, 0, NULL, NULL },
	{ "partial", '\0', POPT_ARG_NONE, &cli.partial, 0, NULL, NULL },
	POPT_TABLEEND
};

static int run(const struct sysroot *root, const struct command_args *a)
{
	(void)root;
	cli.json = a->common->json;
	cli.files = a->args;
	return cmd_compare(&cli);
}

const struct command compare_command = {
	.name = "compare", .run = run, .takes_command = true,
	.summary = "sweeps side by side: Hmean or mean, change, significance",
	.usage = "[--label NAME]... [options] FILE.json FILE.json...\n"
		 " (a FILE.json of - is standard input)",
	.options = compare_options, .options_help =
	"     --label NAME     the column of the next file (default: its host and kernel,\n"
	"                      else its name); once per file or never\n"
	"     --csv FILE       also write the cells as CSV\n"
	"     --partial        also sweeps cut short (\"complete\": false)\n"
	" -J, --json           print the table as JSON\n",
};
