/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plot.c - pcpctl plot: a throughput panel per task count with a line per
 * sweep, each followed by a lock-contention panel where a sweep sampled it
 */
#include "plot.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "atomicfile.h"
#include "command.h"
#include "msg.h"
#include "svg.h"
#include "sweepset.h"

/* What one chart is made of; every array is sized for the worst case. */
struct chart {
	long *tasks;			/* the task counts of any input, sorted */
	size_t ntasks;
	struct plot_point *pts;		/* room for every point twice */
	size_t npts;
	struct plot_series *series;	/* nin per panel */
	struct plot_panel *panels;
	size_t npanels;
	char (*names)[2][160];		/* id and title of each panel */
};

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

static void collect_tasks(struct chart *c, const struct sweep_input *in, size_t nin)
{
	size_t n = 0;

	for (size_t i = 0; i < nin; i++)
		for (size_t j = 0; j < in[i].f.npoints; j++)
			c->tasks[n++] = in[i].f.points[j].tasks;
	qsort(c->tasks, n, sizeof(*c->tasks), cmp_long);
	for (size_t j = 0; j < n; j++)
		if (c->ntasks == 0 || c->tasks[c->ntasks - 1] != c->tasks[j])
			c->tasks[c->ntasks++] = c->tasks[j];
}

/* Input i's points with this task count: throughput, or the lock share. */
static void fill_series(struct chart *c, struct plot_series *se, const struct sweepfile *f,
			long tasks, bool lock)
{
	*se = (struct plot_series){ .pts = &c->pts[c->npts], .best = PLOT_NO_BEST };
	for (size_t j = 0; j < f->npoints; j++) {
		const struct sweepfile_point *p = &f->points[j];

		if (p->tasks != tasks || (lock && !p->has_lock))
			continue;
		if (lock) {
			c->pts[c->npts++] = (struct plot_point){ (double)p->value, p->lock_pct,
								 p->lock_pct, p->lock_pct };
		} else {
			/* only a best the sweep found significant is marked */
			if (p->best)
				se->best = se->n;
			c->pts[c->npts++] = (struct plot_point){ (double)p->value,
								 sweepfile_center(f, p), p->min,
								 p->max };
		}
		se->n++;
	}
}

static void add_panel(struct chart *c, const struct sweep_input *in, size_t nin, long tasks,
		      bool lock, const char *ylabel)
{
	struct plot_panel *pa = &c->panels[c->npanels];
	char (*name)[160] = c->names[c->npanels];
	struct plot_series *se = &c->series[c->npanels * nin];
	size_t points = 0, len;

	for (size_t i = 0; i < nin; i++) {
		fill_series(c, &se[i], &in[i].f, tasks, lock);
		points += se[i].n;
	}
	/* a lock panel only where some sweep sampled the lock */
	if (points == 0)
		return;
	snprintf(name[0], sizeof(name[0]), "%stasks-%ld", lock ? "lock-" : "", tasks);
	snprintf(name[1], sizeof(name[1]), "%s%ld task%s", lock ? "zone lock contention, " : "",
		 tasks, tasks == 1 ? "" : "s");
	/* A sweep left out of the lock panel is named: no line is not a flat line. */
	len = strlen(name[1]);
	for (size_t i = 0, n = 0; lock && i < nin && len < sizeof(name[1]); i++) {
		bool measured = false;

		for (size_t j = 0; j < in[i].f.npoints; j++)
			measured |= in[i].f.points[j].tasks == tasks;
		if (!se[i].n && measured)
			len += (size_t)snprintf(name[1] + len, sizeof(name[1]) - len, "%s%s",
						n++ ? ", " : "; not sampled in ", in[i].label);
	}
	*pa = (struct plot_panel){ .id = name[0], .title = name[1], .bars = !lock, .series = se,
				   .ylabel = lock ? "% in spinlock slowpath" : ylabel };
	c->npanels++;
}

/*
 * What the measured axis counts: the files' unit (sweepset_load() lets
 * only one through), and which way is better when it is lower.
 */
static const char *y_unit(const struct sweep_input *in, char *buf, size_t size)
{
	const struct sweepfile *f = &in[0].f;
	const char *unit = f->unit ? f->unit :
			   strcmp(f->workload, "page_fault1") == 0 ? "ops/s" : "Hmean";

	snprintf(buf, size, "%s%s", unit, f->better == BETTER_LOWER ? ", lower is better" : "");
	return buf;
}

/*
 * How the sweeps were run, under the title: runs and seconds per point and
 * the setting held, where every file that says agrees; else that they differ.
 */
static void subtitle(char *buf, size_t size, const struct sweep_input *in, size_t nin)
{
	const struct sweepfile *f = &in[0].f;
	bool same_runs = true, same_duration = true, same_pin = true;
	const char *other = strcmp(f->parameter, "batch") == 0 ? "fraction" : "batch";
	size_t len = 0;

	for (size_t i = 1; i < nin; i++) {
		same_runs &= in[i].f.runs == f->runs;
		same_duration &= in[i].f.duration == f->duration;
		same_pin &= in[i].f.pinned == f->pinned && in[i].f.pin == f->pin;
	}
	buf[0] = '\0';
	if (!same_runs)
		len += (size_t)snprintf(buf + len, size - len, "runs per point differ");
	else if (f->runs)
		len += (size_t)snprintf(buf + len, size - len, "%ld run%s", f->runs,
					f->runs == 1 ? "" : "s");
	if (len < size && !same_duration)
		len += (size_t)snprintf(buf + len, size - len, "%sseconds per run differ",
					len ? ", " : "");
	else if (len < size && f->duration > 0)
		len += (size_t)snprintf(buf + len, size - len, "%s%g s", len ? " of " : "runs of ",
					f->duration);
	if (len < size && same_runs && f->runs)
		len += (size_t)snprintf(buf + len, size - len, " per point");
	if (len < size && !same_pin)
		snprintf(buf + len, size - len, "%s%s pinned differently", len ? ", " : "", other);
	else if (len < size && f->pinned)
		snprintf(buf + len, size - len, "%s%s pinned at %ld", len ? ", " : "", other, f->pin);
	else if (len < size && len)
		snprintf(buf + len, size - len, ", %s as it was", other);
}

static int build(struct chart *c, const struct sweep_input *in, size_t nin)
{
	static char ylabel[96];
	size_t total = 0;

	for (size_t i = 0; i < nin; i++)
		total += in[i].f.npoints;
	/* NOLINTNEXTLINE(clang-analyzer-optin.portability.UnixAPI): sweepset_load gives inputs with points */
	c->tasks = calloc(total, sizeof(*c->tasks));
	c->pts = calloc(2 * total, sizeof(*c->pts));
	c->series = calloc(2 * total * nin, sizeof(*c->series));
	c->panels = calloc(2 * total, sizeof(*c->panels));
	c->names = calloc(2 * total, sizeof(*c->names));
	if (!c->tasks || !c->pts || !c->series || !c->panels || !c->names)
		return -ENOMEM;
	collect_tasks(c, in, nin);
	for (size_t t = 0; t < c->ntasks; t++) {
		add_panel(c, in, nin, c->tasks[t], false, y_unit(in, ylabel, sizeof(ylabel)));
		add_panel(c, in, nin, c->tasks[t], true, NULL);
	}
	return 0;
}

static void chart_free(struct chart *c)
{
	free(c->tasks);
	free(c->pts);
	free(c->series);
	free(c->panels);
	free(c->names);
}

/* The chart is drawn in memory and then replaces the file: no half a chart. */
static int draw(const char *output, const struct sweep_input *in, size_t nin,
		const struct chart *c)
{
	bool batch = strcmp(in[0].f.parameter, "batch") == 0;
	const char **labels = calloc(nin, sizeof(*labels));
	char *svg = NULL;
	size_t len = 0;
	FILE *mem;
	int rc = -ENOMEM;

	mem = labels ? open_memstream(&svg, &len) : NULL;
	if (mem) {
		char title[512], sub[200];

		for (size_t i = 0; i < nin; i++)
			labels[i] = in[i].label;
		subtitle(sub, sizeof(sub), in, nin);
		snprintf(title, sizeof(title), "%s %s against pcp %s%s%s", in[0].f.workload,
			 in[0].f.better == BETTER_LOWER ? "cost (lower is better)" : "throughput",
			 batch ? "batch" : "high fraction", sub[0] ? "\n" : "", sub);
		rc = plot_chart(mem, title, batch ? "pcp batch (pages)" : "pcp high fraction",
				labels, nin, c->panels, c->npanels);
		if (fclose(mem) != 0 && !rc)
			rc = -ENOMEM;
	}
	if (!rc && strcmp(output, "-") == 0) {
		(void)fwrite(svg, 1, len, stdout);
		free(svg);
		free(labels);
		return msg_flush_stdout() ? EXIT_FAIL : EXIT_OK;
	}
	if (!rc)
		rc = atomic_write_file(output, svg, len);
	free(svg);
	free(labels);
	if (rc) {
		pcp_error("cannot write %s: %s", output, strerror(-rc));
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

int chart_write(const char *output, const struct sweep_input *in, size_t nin)
{
	struct chart c = { 0 };
	int rc;

	if (build(&c, in, nin)) {
		pcp_error("out of memory");
		rc = EXIT_FAIL;
	} else {
		rc = draw(output, in, nin, &c);
	}
	chart_free(&c);
	return rc;
}

bool chart_svg_name(const char *path)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	const char *dot = strrchr(base, '.');

	return !dot || dot == base || strcasecmp(dot, ".svg") == 0;
}

static int cmd_plot(const struct plot_opts *o)
{
	struct sweep_input *in = NULL;
	size_t nin = 0;
	int rc;

	if (!o->output) {
		pcp_error("plot writes a file: give it with -o, e.g. pcpctl plot a.json b.json -o chart.svg");
		return EXIT_USAGE;
	}
	if (!chart_svg_name(o->output)) {
		pcp_error("-o %s: plot draws SVG only; name the file .svg (or - for standard "
			  "output) and convert it, e.g. rsvg-convert chart.svg -o chart.png",
			  o->output);
		return EXIT_USAGE;
	}
	rc = sweepset_load("plot", 1, o->files, o->labels, &in, &nin);
	if (rc)
		return rc;
	rc = chart_write(o->output, in, nin);
	sweepset_free(in, nin);
	return rc;
}

static struct plot_opts cli;

static const struct poptOption plot_options[] = {
	{ "label", '\0', POPT_ARG_ARGV, &cli.labels, 0, NULL, NULL },
	{ "output", 'o', POPT_ARG_STRING, &cli.output, 0, NULL, NULL },
	POPT_TABLEEND
};

static int run(const struct sysroot *root, const struct command_args *a)
{
	(void)root;
	cli.files = a->args;
	return cmd_plot(&cli);
}

const struct command plot_command = {
	.name = "plot", .run = run, .takes_command = true, .no_json = "it writes an SVG chart",
	.summary = "sweeps on one SVG chart, a line per file",
	.usage = "-o FILE.svg [--label NAME]... [options] FILE.json...",
	.options = plot_options, .options_help =
	" -o, --output FILE    the SVG chart to write (replaced atomically; - for stdout)\n"
	"     --label NAME     the legend entry of the next file (default: its host\n"
	"                      and kernel, else its name); once per file or never\n",
};
