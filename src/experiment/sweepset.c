/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sweepset.c - the sweep files of compare and plot, read and checked as one
 */
#include "sweepset.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "msg.h"

const char *sweepset_name(const char *path)
{
	return strcmp(path, "-") == 0 ? "standard input" : path;
}

static int load_one(struct sweep_input *x, const char *label)
{
	char why[256] = "";
	int rc = sweepfile_load(x->path, &x->f, why, sizeof(why));

	if (rc == -EBADMSG) {
		pcp_error("%s is not a sweep's JSON: %s", sweepset_name(x->path), why);
		return EXIT_FAIL;
	}
	if (rc) {
		pcp_error("cannot read %s: %s", sweepset_name(x->path), strerror(-rc));
		return EXIT_FAIL;
	}
	/* A table's column and a chart's legend: the directories would only widen it. */
	if (label)
		x->label = strdup(label);
	else if (x->f.host && x->f.kernel)
		rc = asprintf(&x->label, "%s %s", x->f.host, x->f.kernel) < 0 ? -ENOMEM : 0;
	else if (x->f.host)
		x->label = strdup(x->f.host);
	else if (strcmp(x->path, "-") == 0)
		x->label = strdup("stdin");
	else
		x->label = strdup(strrchr(x->path, '/') ? strrchr(x->path, '/') + 1 : x->path);
	if (rc || !x->label) {
		pcp_error("out of memory");
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

int sweepset_load(const char *cmd, size_t min, char *const *files, const char **labels,
		  struct sweep_input **in, size_t *nin)
{
	size_t n = 0, nlabels = 0;
	struct sweep_input *x;
	int rc = EXIT_OK;

	*in = NULL;
	*nin = 0;
	while (files && files[n])
		n++;
	while (labels && labels[nlabels])
		nlabels++;
	if (n == 0 || n < min) {
		pcp_error("%s needs at least %s sweep JSON file%s, e.g. pcpctl %s a.json b.json", cmd,
			  min == 1 ? "one" : "two", min == 1 ? "" : "s", cmd);
		return EXIT_USAGE;
	}
	if (nlabels && nlabels != n) {
		pcp_error("%zu --label for %zu files: give one per file, in their order, or none",
			  nlabels, n);
		return EXIT_USAGE;
	}
	for (size_t i = 0; i < nlabels; i++)
		if (!labels[i][0]) {
			pcp_error("--label: give a name; an empty label leaves its column or line "
				  "without one");
			return EXIT_USAGE;
		}
	for (size_t i = 0, dash = 0; i < n; i++)
		if (strcmp(files[i], "-") == 0 && ++dash > 1) {
			pcp_error("- (standard input) given twice: it can be read once");
			return EXIT_USAGE;
		}
	x = calloc(n, sizeof(*x));
	if (!x) {
		pcp_error("out of memory");
		return EXIT_FAIL;
	}
	for (size_t i = 0; i < n && !rc; i++) {
		x[i].path = files[i];
		rc = load_one(&x[i], nlabels ? labels[i] : NULL);
	}
	/* One table or chart only means something for one experiment. */
	for (size_t i = 1; i < n && !rc; i++)
		if (strcmp(x[i].f.parameter, x[0].f.parameter) != 0 ||
		    strcmp(x[i].f.workload, x[0].f.workload) != 0) {
			/* the workloads are the files' text: no ESC of theirs reaches the terminal */
			char w0[256], wi[256];

			pcp_error("%s sweeps %s with %s, but %s sweeps %s with %s: "
				  "%s sweeps of one parameter and one workload",
				  sweepset_name(x[0].path), x[0].f.parameter,
				  escape_text(w0, sizeof(w0), x[0].f.workload, strlen(x[0].f.workload),
					      true),
				  sweepset_name(x[i].path), x[i].f.parameter,
				  escape_text(wi, sizeof(wi), x[i].f.workload, strlen(x[i].f.workload),
					      true), cmd);
			rc = EXIT_USAGE;
		}
	if (rc) {
		sweepset_free(x, n);
		return rc;
	}
	*in = x;
	*nin = n;
	return EXIT_OK;
}

void sweepset_free(struct sweep_input *in, size_t nin)
{
	for (size_t i = 0; in && i < nin; i++) {
		sweepfile_free(&in[i].f);
		free(in[i].label);
	}
	free(in);
}
