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

/* A file's text in a message: no ESC of theirs reaches the terminal. */
static const char *shown(char buf[static 256], const char *text)
{
	return escape_text(buf, 256, text, strlen(text), true);
}

static bool same_argv(char *const *a, char *const *b)
{
	for (; a && b && *a && *b; a++, b++)
		if (strcmp(*a, *b) != 0)
			return false;
	return (!a || !*a) && (!b || !*b);
}

/*
 * Whether b measured what a did, so that their figures stand side by
 * side: one parameter, and one unit and direction of the metric.  What
 * ran may differ (iperf3 over loopback and over a veth pair are one
 * experiment), which is said but not refused.  Files without a unit are
 * from before pcpctl wrote one; for them the workload's name stands in.
 */
static int same_experiment(const char *cmd, const struct sweep_input *a,
			   const struct sweep_input *b)
{
	const char *na = sweepset_name(a->path), *nb = sweepset_name(b->path);
	char ua[256], ub[256];

	if (strcmp(a->f.parameter, b->f.parameter) != 0) {
		pcp_error("%s sweeps %s, but %s sweeps %s: %s puts side by side sweeps of one "
			  "parameter", na, a->f.parameter, nb, b->f.parameter, cmd);
		return EXIT_USAGE;
	}
	/* page_fault1's ops/s are its own, whatever a COMMAND's metric is named */
	if (!a->f.unit || !b->f.unit ||
	    (strcmp(a->f.workload, "page_fault1") == 0) != (strcmp(b->f.workload, "page_fault1") == 0)) {
		if (strcmp(a->f.workload, b->f.workload) == 0)
			return EXIT_OK;
		pcp_error("%s measures %s, but %s measures %s: %s puts side by side sweeps of "
			  "one metric", na,
			  shown(ua, a->f.workload), nb, shown(ub, b->f.workload), cmd);
		return EXIT_USAGE;
	}
	if (strcmp(a->f.unit, b->f.unit) != 0 || a->f.better != b->f.better) {
		pcp_error("%s measures %s, %s is better, but %s measures %s, %s is better: "
			  "%s puts side by side sweeps of one metric", na, shown(ua, a->f.unit),
			  stats_better_name(a->f.better), nb, shown(ub, b->f.unit),
			  stats_better_name(b->f.better), cmd);
		return EXIT_USAGE;
	}
	if (!same_argv(a->f.command, b->f.command) ||
	    (a->f.metric && b->f.metric && strcmp(a->f.metric, b->f.metric) != 0))
		pcp_warn("%s and %s ran different commands or --metric: compared as one metric, %s",
			 na, nb, shown(ua, a->f.unit));
	return EXIT_OK;
}

/*
 * Two sweeps of one host and kernel (TCP and UDP, before and after) would
 * share a label: each such one gets its file's name after it.
 */
static int distinct_labels(struct sweep_input *x, size_t n)
{
	bool *twin = calloc(n, sizeof(*twin));

	if (!twin)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			if (strcmp(x[i].label, x[j].label) == 0)
				twin[i] = twin[j] = true;
	for (size_t i = 0; i < n; i++) {
		const char *file = strcmp(x[i].path, "-") == 0 ? "stdin" :
				   strrchr(x[i].path, '/') ? strrchr(x[i].path, '/') + 1 : x[i].path;
		char *label;

		if (!twin[i] || strcmp(x[i].label, file) == 0)
			continue;
		if (asprintf(&label, "%s (%s)", x[i].label, file) < 0) {
			free(twin);
			return -ENOMEM;
		}
		free(x[i].label);
		x[i].label = label;
	}
	free(twin);
	return 0;
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
		rc = same_experiment(cmd, &x[0], &x[i]);
	if (!rc && !nlabels && distinct_labels(x, n)) {
		pcp_error("out of memory");
		rc = EXIT_FAIL;
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
