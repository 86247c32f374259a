/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * svg.c - SVG chart of throughput against a swept value
 */
#include "svg.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "c.h"

/* Canvas and margins in SVG user units (px).  The left margin holds tick
 * labels such as "12.5M" and the rotated axis label; below each panel's
 * x axis are its tick labels and xlabel. */
#define W		800.0
#define LEFT		90.0
#define RIGHT		30.0
#define TOP		60.0	/* the title, and the first legend entry */
#define BOTTOM		70.0
#define LEGEND_ROW	18.0
#define PANEL_TITLE	40.0
#define AREA_ALONE	370.0	/* one panel: a 500 px high chart */
#define AREA_BARS	300.0
#define AREA_SMALL	160.0
#define TICKS		6	/* aimed at, nice steps decide the exact count */
#define BEST_ROW	18.0	/* a best's label, above its panel's plot area */
/* Characters that fit across the plot area: 12 px bold, 14 px bold, 12 px. */
#define BEST_CHARS	88
#define TITLE_CHARS	76
#define LEGEND_CHARS	96
#define SUBTITLE	18.0	/* a second line of the title */

/* A palette that stays apart in print and for the common colour blindness;
 * red is the best point's. */
static const char *const colour[] = {
	"#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
	"#bcbd22", "#17becf",
};

/* The vertical extent of a panel's plot area, and the rows of bests above it. */
struct frame {
	double top, bottom;
	int nbest;
};

struct axis {
	double lo, hi, step;
	double px0, px1;	/* screen coordinates of lo and hi */
};

static double axis_map(const struct axis *a, double v)
{
	return a->px0 + (v - a->lo) / (a->hi - a->lo) * (a->px1 - a->px0);
}

/* Round the data range out to 1, 2 or 5 times a power of ten, so that
 * ticks fall on numbers a reader can add up. */
static void axis_fit(struct axis *a, double lo, double hi)
{
	double raw, mag, f;

	/* a single value: centre it, but show no negative throughput */
	if (hi <= lo && lo == 0) {
		hi = 1;
	} else if (hi <= lo) {
		double d = fabs(lo) * 0.1;

		lo -= d;
		hi += d;
	}
	raw = (hi - lo) / TICKS;
	mag = pow(10, floor(log10(raw)));
	f = raw / mag;
	a->step = (f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10) * mag;
	a->lo = floor(lo / a->step) * a->step;
	a->hi = ceil(hi / a->step) * a->step;
}

/*
 * The swept value's axis.  0 is the kernel's default, not a neighbour of
 * the smallest value: it has a slot of its own left of the axis, labelled
 * "default".  Ticks stand only at values a sweep can have (the swept ones,
 * or powers of two), and a range wider than XLOG_RATIO is drawn on a log2
 * scale, so that 8..1024 does not crowd 8..64 into a corner.
 */
#define XLOG_RATIO	16.0
#define XTICKS_MAX	12
#define XDEFAULT_GAP	60.0	/* from the default's slot to the axis */
#define XPAD		20.0	/* from either end of the axis to its outer values */

struct xscale {
	bool log, def;		/* log2 scale; a slot for 0 */
	double lo, hi;		/* the values other than 0 */
	double px0, px1, def_px;
	double ticks[XTICKS_MAX];
	int nticks;
};

static double x_map(const struct xscale *xs, double v)
{
	double f;

	if (xs->def && v == 0)
		return xs->def_px;
	if (xs->hi <= xs->lo)
		return (xs->px0 + xs->px1) / 2;
	f = xs->log ? (log2(v) - log2(xs->lo)) / (log2(xs->hi) - log2(xs->lo)) :
		      (v - xs->lo) / (xs->hi - xs->lo);
	return xs->px0 + f * (xs->px1 - xs->px0);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* vals: every x of the panel (n of them), sorted here. */
static void x_fit(struct xscale *xs, double *vals, size_t n)
{
	size_t distinct = 0, first = 0;

	*xs = (struct xscale){ .px0 = LEFT + XPAD, .px1 = W - RIGHT - XPAD };
	qsort(vals, n, sizeof(*vals), cmp_double);
	for (size_t i = 0; i < n; i++)
		if (i == 0 || vals[i] != vals[distinct - 1])
			vals[distinct++] = vals[i];
	if (distinct && vals[0] == 0 && distinct > 1) {
		xs->def = true;
		xs->def_px = LEFT + XPAD;
		xs->px0 = xs->def_px + XDEFAULT_GAP;
		first = 1;
	}
	xs->lo = distinct ? vals[first] : 0;
	xs->hi = distinct ? vals[distinct - 1] : 0;
	xs->log = xs->lo > 0 && xs->hi / xs->lo >= XLOG_RATIO && distinct - first >= 3;
	if (xs->log) {
		int e0 = (int)ceil(log2(xs->lo) - 1e-9), e1 = (int)floor(log2(xs->hi) + 1e-9);
		int every = (e1 - e0) / XTICKS_MAX + 1;

		for (int e = e0; e <= e1 && xs->nticks < XTICKS_MAX; e += every)
			xs->ticks[xs->nticks++] = ldexp(1, e);
	} else {
		size_t every = (distinct - first + XTICKS_MAX - 1) / XTICKS_MAX;

		for (size_t i = first; i < distinct && xs->nticks < XTICKS_MAX; i += every ? every : 1)
			xs->ticks[xs->nticks++] = vals[i];
	}
}

static double axis_tick(const struct axis *a, int k)
{
	return a->lo + k * a->step;
}

static int axis_nticks(const struct axis *a)
{
	return (int)floor((a->hi - a->lo) / a->step + 0.5) + 1;
}

/*
 * A number as a person reads it on an axis: 12.5M rather than 12500000.
 * The unit comes from scale, the largest magnitude on the axis, so all
 * labels of an axis share it; step sets the decimals.  Values below 10000
 * stay plain, as swept parameters usually are.
 */
static void fmt_num(char *buf, size_t sz, double v, double scale, double step)
{
	static const struct { double unit; const char *suffix; } si[] = {
		{ 1e12, "T" }, { 1e9, "G" }, { 1e6, "M" }, { 1e3, "k" },
	};
	double unit = 1;
	const char *suffix = "";
	int dec;
	size_t i;

	for (i = 0; scale >= 1e4 && i < ARRAY_SIZE(si); i++) {
		if (scale >= si[i].unit) {
			unit = si[i].unit;
			suffix = si[i].suffix;
			break;
		}
	}
	dec = step > 0 ? (int)ceil(-log10(step / unit) - 1e-9) : 0;
	if (dec < 0)
		dec = 0;
	/* a plain 0, not "0.0M" or "-0" */
	if (fabs(v / unit) < 0.5 * pow(10, -dec))
		snprintf(buf, sz, "0");
	else
		snprintf(buf, sz, "%.*f%s", dec, v / unit, suffix);
}

static double axis_scale(const struct axis *a)
{
	return fmax(fabs(a->lo), fabs(a->hi));
}

/* Decode one UTF-8 sequence that XML 1.0 allows as a character; return its
 * length, or 0 when it is malformed, overlong, a surrogate, or a code
 * point XML forbids (most C0 controls, U+FFFE, U+FFFF). */
static size_t xml_char(const unsigned char *s)
{
	unsigned int cp;
	size_t len, i;

	if (s[0] < 0x80) {
		cp = s[0];
		len = 1;
	} else if ((s[0] & 0xe0) == 0xc0) {
		cp = s[0] & 0x1f;
		len = 2;
	} else if ((s[0] & 0xf0) == 0xe0) {
		cp = s[0] & 0x0f;
		len = 3;
	} else if ((s[0] & 0xf8) == 0xf0) {
		cp = s[0] & 0x07;
		len = 4;
	} else {
		return 0;
	}
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) ||
	    (len == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	if (cp < 0x20 && cp != '\t' && cp != '\n' && cp != '\r')
		return 0;
	if ((cp >= 0xd800 && cp <= 0xdfff) || cp == 0xfffe || cp == 0xffff)
		return 0;
	return len;
}

static void xml_text(FILE *out, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;

	while (*s) {
		size_t len = xml_char(s);

		switch (len ? *s : 0) {
		case 0:
			fputs("\xef\xbf\xbd", out);	/* U+FFFD */
			s++;
			continue;
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&apos;", out); break;
		default:
			fwrite(s, 1, len, out);
			break;
		}
		s += len;
	}
}

/*
 * str cut to at most max characters, the last of them an ellipsis when it
 * is cut: text an SVG renderer would draw past the canvas.  Widths are
 * estimates (no font metrics here), so max leaves a margin.
 */
static void xml_text_fit(FILE *out, const char *str, size_t max)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t chars = 0, bytes = 0, cut = 0;

	for (; s[bytes]; chars++) {
		size_t len = xml_char(s + bytes);

		if (chars + 1 == max)
			cut = bytes;
		bytes += len ? len : 1;
	}
	if (chars <= max) {
		xml_text(out, str);
		return;
	}
	for (size_t i = 0; i < cut;) {
		size_t len = xml_char(s + i);
		char one[5] = { 0 };

		memcpy(one, s + i, len ? len : 1);
		xml_text(out, one);
		i += len ? len : 1;
	}
	fputs("\xe2\x80\xa6", out);	/* U+2026 */
}

static int check_points(const struct plot_point *pts, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const struct plot_point *p = &pts[i];

		if (!isfinite(p->x) || !isfinite(p->y) || !isfinite(p->ymin) ||
		    !isfinite(p->ymax) || !(p->ymin <= p->y && p->y <= p->ymax))
			return -EINVAL;
	}
	return 0;
}

static bool xml_name(const char *s)
{
	if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || *s == '_'))
		return false;
	return s[strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-")] == '\0';
}

static int check_chart(const char *title, const char *xlabel, const char *const *labels,
		       size_t nseries, const struct plot_panel *panels, size_t npanels)
{
	if (!title || !xlabel || !panels || npanels == 0 || nseries == 0)
		return -EINVAL;
	for (size_t i = 0; labels && i < nseries; i++)
		if (!labels[i])
			return -EINVAL;
	for (size_t p = 0; p < npanels; p++) {
		const struct plot_panel *pa = &panels[p];
		size_t points = 0;

		if (!pa->ylabel || !pa->series || (pa->id && !xml_name(pa->id)))
			return -EINVAL;
		for (size_t i = 0; i < nseries; i++) {
			const struct plot_series *se = &pa->series[i];

			if ((se->n && !se->pts) || (se->best >= se->n && se->best != PLOT_NO_BEST) ||
			    check_points(se->pts, se->n))
				return -EINVAL;
			points += se->n;
		}
		if (points == 0)
			return -EINVAL;
	}
	return 0;
}

static int cmp_x(const void *a, const void *b, void *arg)
{
	const struct plot_point *pts = arg;
	double xa = pts[*(const size_t *)a].x;
	double xb = pts[*(const size_t *)b].x;

	return (xa > xb) - (xa < xb);
}

/* The y axis's tick marks and labels, left of it. */
static void write_yticks(FILE *out, const struct axis *a)
{
	char buf[64];

	fputs("<g class=\"yticks\" font-size=\"12\" text-anchor=\"end\">\n", out);
	for (int k = 0; k < axis_nticks(a); k++) {
		double v = axis_tick(a, k), p = axis_map(a, v);

		fmt_num(buf, sizeof(buf), v, axis_scale(a), a->step);
		fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#000000\"/>\n",
			LEFT - 5, p, LEFT, p);
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\">%s</text>\n", LEFT - 8, p + 4, buf);
	}
	fputs("</g>\n", out);
}

/* The x axis's ticks below it, the default's slot first; a log2 axis says so. */
static void write_xticks(FILE *out, const struct frame *fr, const struct xscale *xs)
{
	fputs("<g class=\"xticks\" font-size=\"12\" text-anchor=\"middle\">\n", out);
	for (int k = -1; k < xs->nticks; k++) {
		double p = k < 0 ? xs->def_px : x_map(xs, xs->ticks[k]);

		if (k < 0 && !xs->def)
			continue;
		fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#000000\"/>\n",
			p, fr->bottom, p, fr->bottom + 5);
		if (k < 0)
			fprintf(out, "<text x=\"%.1f\" y=\"%.1f\">default</text>\n", p,
				fr->bottom + 20);
		else
			fprintf(out, "<text x=\"%.1f\" y=\"%.1f\">%.15g</text>\n", p,
				fr->bottom + 20, xs->ticks[k]);
	}
	if (xs->def)	/* the break between the default's slot and the axis */
		fprintf(out, "<text class=\"axis-break\" x=\"%.1f\" y=\"%.1f\">//</text>\n",
			(xs->def_px + xs->px0) / 2, fr->bottom + 4);
	if (xs->log)
		fprintf(out, "<text class=\"axis-scale\" x=\"%.1f\" y=\"%.1f\" font-size=\"11\" fill=\"#555555\" text-anchor=\"end\">log2 scale</text>\n",
			W - RIGHT, fr->bottom + BOTTOM - 20);
	fputs("</g>\n", out);
}

static void write_axes(FILE *out, const struct frame *fr, const struct xscale *ax,
		       const struct axis *ay, const char *xlabel, const char *ylabel)
{
	int k, nt;

	fputs("<g class=\"grid\" stroke=\"#dddddd\" stroke-width=\"1\">\n", out);
	nt = axis_nticks(ay);
	for (k = 0; k < nt; k++) {
		double y = axis_map(ay, axis_tick(ay, k));

		fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
			LEFT, y, W - RIGHT, y);
	}
	fputs("</g>\n", out);

	fputs("<g class=\"axes\" stroke=\"#000000\" stroke-width=\"1\">\n", out);
	fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
		LEFT, fr->bottom, W - RIGHT, fr->bottom);
	fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
		LEFT, fr->top, LEFT, fr->bottom);
	fputs("</g>\n", out);

	write_xticks(out, fr, ax);
	write_yticks(out, ay);

	fprintf(out, "<text class=\"xlabel\" x=\"%.1f\" y=\"%.1f\" font-size=\"14\" text-anchor=\"middle\">",
		(LEFT + W - RIGHT) / 2, fr->bottom + BOTTOM - 20);
	xml_text(out, xlabel);
	fputs("</text>\n", out);
	fprintf(out, "<text class=\"ylabel\" x=\"0\" y=\"0\" font-size=\"14\" text-anchor=\"middle\" transform=\"translate(20 %.1f) rotate(-90)\">",
		(fr->top + fr->bottom) / 2);
	xml_text(out, ylabel);
	fputs("</text>\n", out);
}

/*
 * What a point's tooltip and a best label call it: the input's label, if
 * any, and the axis's name without what it adds in parentheses.
 */
static void write_name(FILE *out, const char *label, const char *xlabel)
{
	const char *paren = strstr(xlabel, " (");
	char *name = paren ? strndup(xlabel, (size_t)(paren - xlabel)) : NULL;

	if (label) {
		xml_text(out, label);
		fputs(", ", out);
	}
	/* Without memory for the short name, the whole one does. */
	xml_text(out, name ? name : xlabel);
	free(name);
}

static void write_point(FILE *out, const struct xscale *ax, const struct axis *ay,
			const struct plot_point *p, bool bars, const char *label,
			const char *xlabel, const char *ylabel)
{
	double x = x_map(ax, p->x), y = axis_map(ay, p->y);
	double y0 = axis_map(ay, p->ymin), y1 = axis_map(ay, p->ymax);

	if (bars) {
		fprintf(out, "<line class=\"range\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
			x, y0, x, y1);
		fprintf(out, "<line class=\"range\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
			x - 4, y0, x + 4, y0);
		fprintf(out, "<line class=\"range\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
			x - 4, y1, x + 4, y1);
	}
	fprintf(out, "<circle class=\"point\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\"><title>", x, y);
	write_name(out, label, xlabel);
	fprintf(out, " %.15g: %.6g ", p->x, p->y);
	xml_text(out, ylabel);
	if (bars)
		fprintf(out, " (min %.6g, max %.6g)", p->ymin, p->ymax);
	fputs("</title></circle>\n", out);
}

/*
 * The k-th best of a panel: ringed where it is, and named on a row of its
 * own above the plot area, left-aligned in the series' colour with a ring
 * as the key, where it can neither leave the canvas nor cross a line.
 */
static void write_best(FILE *out, const struct frame *fr, const struct xscale *ax,
		       const struct axis *ay, const struct plot_point *p, int k,
		       const char *colour, const char *label, const char *xlabel,
		       const char *ylabel)
{
	double x = x_map(ax, p->x), y = axis_map(ay, p->y);
	double ly = fr->top - BEST_ROW * (fr->nbest - k) + 4;
	char buf[64];

	fprintf(out, "<circle class=\"best\" cx=\"%.1f\" cy=\"%.1f\" r=\"9\" fill=\"none\" stroke=\"#d62728\" stroke-width=\"2\"/>\n",
		x, y);
	fprintf(out, "<circle class=\"best-key\" cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"none\" stroke=\"#d62728\" stroke-width=\"2\"/>\n",
		LEFT + 6, ly - 4);
	size_t name = strstr(xlabel, " (") ? (size_t)(strstr(xlabel, " (") - xlabel) : strlen(xlabel);
	char rest[128];
	int n;

	/* four significant digits tell apart the neighbours of the best */
	fmt_num(buf, sizeof(buf), p->y, fabs(p->y), fabs(p->y) / 1000);
	if (p->x == 0 && ax->def)
		n = snprintf(rest, sizeof(rest), " = default (0), %s ", buf);
	else
		n = snprintf(rest, sizeof(rest), " = %.15g, %s ", p->x, buf);
	fprintf(out, "<text class=\"best-label\" x=\"%.1f\" y=\"%.1f\" font-size=\"12\" font-weight=\"bold\" fill=\"%s\" text-anchor=\"start\">best: ",
		LEFT + 16, ly, colour);
	if (label) {
		/* The label gives way: its colour and the legend name the series too. */
		size_t used = sizeof("best: , ") - 1 + name + (size_t)n + strlen(ylabel);

		xml_text_fit(out, label, used < BEST_CHARS - 8 ? BEST_CHARS - used : 8);
		fputs(", ", out);
	}
	write_name(out, NULL, xlabel);
	fputs(rest, out);
	xml_text(out, ylabel);
	fputs("</text>\n", out);
}

static int write_series(FILE *out, const struct xscale *ax, const struct axis *ay,
			const struct plot_series *se, bool bars, const char *colour,
			const char *label, const char *xlabel, const char *ylabel)
{
	/* the trend line must run left to right whatever the sweep order */
	size_t *order = malloc(se->n * sizeof(*order));
	size_t i = 0;

	if (!order)
		return -ENOMEM;
	for (size_t j = 0; j < se->n; j++)
		order[j] = j;
	qsort_r(order, se->n, sizeof(*order), cmp_x, (void *)se->pts);

	/* The default stands apart: a dashed step to the first value, not the line's start. */
	if (ax->def && se->n > 1 && se->pts[order[0]].x == 0) {
		fprintf(out, "<line class=\"to-default\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"1\" stroke-dasharray=\"4 3\"/>\n",
			x_map(ax, 0), axis_map(ay, se->pts[order[0]].y),
			x_map(ax, se->pts[order[1]].x), axis_map(ay, se->pts[order[1]].y), colour);
		i = 1;
	}
	fprintf(out, "<polyline class=\"trend\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"",
		colour);
	for (size_t j = i; j < se->n; j++)
		fprintf(out, "%s%.1f,%.1f", j > i ? " " : "",
			x_map(ax, se->pts[order[j]].x), axis_map(ay, se->pts[order[j]].y));
	fputs("\"/>\n", out);

	fprintf(out, "<g class=\"data\" stroke=\"%s\" fill=\"%s\" stroke-width=\"1.5\">\n", colour,
		colour);
	for (size_t j = 0; j < se->n; j++)
		write_point(out, ax, ay, &se->pts[order[j]], bars, label, xlabel, ylabel);
	fputs("</g>\n", out);
	free(order);
	return 0;
}

static int panel_bests(const struct plot_panel *pa, size_t nseries)
{
	int n = 0;

	for (size_t i = 0; i < nseries; i++)
		n += pa->series[i].best != PLOT_NO_BEST;
	return n;
}

/* The height of a panel: its title, its rows of bests, its plot area and what is below. */
static double panel_height(const struct plot_panel *pa, size_t nseries, bool alone)
{
	return (pa->title ? PANEL_TITLE : 0) + BEST_ROW * panel_bests(pa, nseries) + BOTTOM +
	       (!pa->bars ? AREA_SMALL : alone ? AREA_ALONE : AREA_BARS);
}

/* One panel from y = at; returns where the next one starts, or -ENOMEM. */
static double write_panel(FILE *out, double at, const struct plot_panel *pa, bool alone,
			  const char *const *labels, size_t nseries, const char *xlabel)
{
	struct frame fr = { .nbest = panel_bests(pa, nseries) };
	struct xscale ax;
	struct axis ay;
	double ymin = INFINITY, ymax = -INFINITY, *xs;
	size_t npts = 0;
	int nbest = 0;

	fr.top = at + (pa->title ? PANEL_TITLE : 0) + BEST_ROW * fr.nbest;
	fr.bottom = fr.top + (!pa->bars ? AREA_SMALL : alone ? AREA_ALONE : AREA_BARS);
	ay = (struct axis){ .px0 = fr.bottom, .px1 = fr.top };
	for (size_t i = 0; i < nseries; i++)
		npts += pa->series[i].n;
	/* check_chart gave every panel a point */
	xs = malloc((npts ? npts : 1) * sizeof(*xs));
	if (!xs)
		return -ENOMEM;
	npts = 0;
	for (size_t i = 0; i < nseries; i++)
		for (size_t j = 0; j < pa->series[i].n; j++) {
			const struct plot_point *p = &pa->series[i].pts[j];

			xs[npts++] = p->x;
			ymin = fmin(ymin, p->ymin);
			ymax = fmax(ymax, p->ymax);
		}
	/* Start throughput at zero unless that squeezes the data into the
	 * top half, where differences of a few percent would vanish. */
	if (ymin > 0 && ymin <= ymax / 2)
		ymin = 0;
	x_fit(&ax, xs, npts);
	free(xs);
	axis_fit(&ay, ymin, ymax);

	fputs("<g class=\"panel\"", out);
	if (pa->id)
		fprintf(out, " id=\"%s\"", pa->id);
	fputs(">\n", out);
	if (pa->title) {
		fprintf(out, "<text class=\"panel-title\" x=\"%.1f\" y=\"%.1f\" font-size=\"14\" font-weight=\"bold\">",
			LEFT, at + 22);
		xml_text_fit(out, pa->title, TITLE_CHARS);
		fputs("</text>\n", out);
	}
	write_axes(out, &fr, &ax, &ay, xlabel, pa->ylabel);
	for (size_t i = 0; i < nseries; i++)
		if (pa->series[i].n &&
		    write_series(out, &ax, &ay, &pa->series[i], pa->bars,
				 colour[i % ARRAY_SIZE(colour)], labels ? labels[i] : NULL, xlabel,
				 pa->ylabel))
			return -ENOMEM;
	for (size_t i = 0; i < nseries; i++)
		if (pa->series[i].best != PLOT_NO_BEST)
			write_best(out, &fr, &ax, &ay, &pa->series[i].pts[pa->series[i].best],
				   nbest++, colour[i % ARRAY_SIZE(colour)], labels ? labels[i] : NULL,
				   xlabel, pa->ylabel);
	fputs("</g>\n", out);
	return fr.bottom + BOTTOM;
}

static int write_svg(FILE *out, const char *title, const char *xlabel, const char *const *labels,
		     size_t nseries, const struct plot_panel *panels, size_t npanels)
{
	/* A title's second line, after a newline, is its subtitle. */
	const char *nl = strchr(title, '\n');
	char *head = nl ? strndup(title, (size_t)(nl - title)) : NULL;
	double top = TOP + (nl ? SUBTITLE : 0);
	double h = top + (labels ? LEGEND_ROW * (double)nseries : 0);
	bool bars = false;

	if (nl && !head)
		return -ENOMEM;
	/* the canvas height is the panels' sum: measure them first */
	for (size_t p = 0; p < npanels; p++) {
		bars |= panels[p].bars;
		h += panel_height(&panels[p], nseries, npanels == 1);
	}

	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n", out);
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\">\n",
		W, h, W, h);
	fputs("<title>", out);
	xml_text(out, head ? head : title);
	fputs("</title>\n", out);
	fprintf(out, "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" fill=\"#ffffff\"/>\n", W, h);
	fprintf(out, "<text class=\"title\" x=\"%.1f\" y=\"28\" font-size=\"16\" font-weight=\"bold\" text-anchor=\"middle\">",
		W / 2);
	xml_text(out, head ? head : title);
	fputs("</text>\n", out);
	if (nl) {
		fprintf(out, "<text class=\"subtitle\" x=\"%.1f\" y=\"46\" font-size=\"12\" fill=\"#333333\" text-anchor=\"middle\">",
			W / 2);
		xml_text(out, nl + 1);
		fputs("</text>\n", out);
	}
	free(head);
	if (bars)
		fprintf(out, "<text class=\"legend\" x=\"%.1f\" y=\"%.1f\" font-size=\"11\" fill=\"#555555\" text-anchor=\"end\">dot: value, bar: min to max</text>\n",
			W - RIGHT, top - 12);
	for (size_t i = 0; labels && i < nseries; i++) {
		double y = top - 12 + LEGEND_ROW * (double)i;

		fprintf(out, "<g class=\"legend-entry\"><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"3\"/>",
			LEFT, y - 4, LEFT + 24, y - 4, colour[i % ARRAY_SIZE(colour)]);
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\">", LEFT + 30, y);
		xml_text_fit(out, labels[i], LEGEND_CHARS);
		fputs("</text></g>\n", out);
	}

	h = top + (labels ? LEGEND_ROW * (double)nseries : 0);
	for (size_t p = 0; p < npanels; p++) {
		h = write_panel(out, h, &panels[p], npanels == 1, labels, nseries, xlabel);
		if (h < 0)
			return -ENOMEM;
	}
	fputs("</svg>\n", out);

	return fflush(out) != 0 || ferror(out) ? -EIO : 0;
}

int plot_chart(FILE *out, const char *title, const char *xlabel, const char *const *labels,
	       size_t nseries, const struct plot_panel *panels, size_t npanels)
{
	locale_t c, old;
	int rc;

	if (!out)
		return -EINVAL;
	rc = check_chart(title, xlabel, labels, nseries, panels, npanels);
	if (rc < 0)
		return rc;

	/* "%.1f" must print a dot in SVG even under a decimal-comma locale */
	c = newlocale(LC_ALL_MASK, "C", (locale_t)0);
	if (!c)
		return -ENOMEM;
	old = uselocale(c);
	rc = write_svg(out, title, xlabel, labels, nseries, panels, npanels);
	uselocale(old);
	freelocale(c);
	return rc;
}

int plot_svg(FILE *out, const char *title, const char *xlabel,
	     const char *ylabel, const struct plot_point *pts, size_t n,
	     size_t best)
{
	struct plot_series se = { .pts = pts, .n = n, .best = best };
	struct plot_panel pa = { .ylabel = ylabel, .bars = true, .series = &se };

	if (!pts || n == 0)
		return -EINVAL;
	return plot_chart(out, title, xlabel, NULL, 1, &pa, 1);
}
