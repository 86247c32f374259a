/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "columns.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <libsmartcols.h>

static int lookup(const struct coldesc *tbl, size_t ntbl, const char *name, size_t len)
{
	for (size_t i = 0; i < ntbl; i++)
		if (strlen(tbl[i].name) == len && strncasecmp(tbl[i].name, name, len) == 0)
			return (int)i;
	return -1;
}

static int add_list(const struct coldesc *tbl, size_t ntbl, const char *list,
		    struct colsel *sel, const char **bad)
{
	const char *p = list;

	for (;;) {
		size_t len = strcspn(p, ",");
		int i = lookup(tbl, ntbl, p, len);

		if (i < 0) {
			*bad = p;
			return -EINVAL;
		}
		size_t *idx = realloc(sel->idx, (sel->n + 1) * sizeof(*idx));
		if (!idx)
			return -ENOMEM;
		sel->idx = idx;
		sel->idx[sel->n++] = (size_t)i;
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

int colsel_make(const struct coldesc *tbl, size_t ntbl, const char *defaults,
		const struct out_opts *opts, struct colsel *sel, const char **bad)
{
	int rc = 0;

	sel->idx = NULL;
	sel->n = 0;
	*bad = NULL;
	if (opts->all_columns) {
		sel->idx = calloc(ntbl, sizeof(*sel->idx));
		if (!sel->idx)
			return -ENOMEM;
		for (size_t i = 0; i < ntbl; i++)
			sel->idx[sel->n++] = i;
		return 0;
	}
	if (!opts->columns || opts->columns[0] == '+')
		rc = add_list(tbl, ntbl, defaults, sel, bad);
	if (!rc && opts->columns)
		rc = add_list(tbl, ntbl, opts->columns + (opts->columns[0] == '+'), sel, bad);
	if (rc)
		colsel_free(sel);
	return rc;
}

void colsel_free(struct colsel *sel)
{
	free(sel->idx);
	sel->idx = NULL;
	sel->n = 0;
}

struct libscols_table *columns_table(const struct coldesc *tbl, const struct colsel *sel,
				     const struct out_opts *opts, const char *name)
{
	struct libscols_table *tb = scols_new_table();

	if (!tb)
		return NULL;
	scols_table_enable_noheadings(tb, opts->noheadings);
	switch (opts->format) {
	case OUT_JSON:
		scols_table_enable_json(tb, 1);
		scols_table_set_name(tb, name);
		break;
	case OUT_RAW:
		scols_table_enable_raw(tb, 1);
		break;
	case OUT_PAIRS:
		scols_table_enable_export(tb, 1);
		break;
	case OUT_TABLE:
		break;
	}
	for (size_t i = 0; i < sel->n; i++) {
		const struct coldesc *cd = &tbl[sel->idx[i]];
		struct libscols_column *cl = scols_table_new_column(tb, cd->name, cd->whint,
								     cd->flags);
		if (!cl) {
			scols_unref_table(tb);
			return NULL;
		}
		scols_column_set_json_type(cl, cd->json_type);
	}
	return tb;
}

void columns_help(FILE *out, const struct coldesc *tbl, size_t ntbl)
{
	for (size_t i = 0; i < ntbl; i++)
		fprintf(out, " %10s  %s\n", tbl[i].name, tbl[i].help);
}
