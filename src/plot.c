/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plot.c - SVG chart of throughput against a swept value
 */
#include "plot.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "c.h"

/* Canvas and margins in SVG user units (px).  The left margin holds tick
 * labels such as "12.5M" and the rotated axis label. */
#define W		800.0
#define H		500.0
#define LEFT		90.0
#define RIGHT		30.0
#define TOP		60.0
#define BOTTOM		70.0
#define TICKS		6	/* aimed at, nice steps decide the exact count */

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

static int cmp_x(const void *a, const void *b, void *arg)
{
	const struct plot_point *pts = arg;
	double xa = pts[*(const size_t *)a].x;
	double xb = pts[*(const size_t *)b].x;

	return (xa > xb) - (xa < xb);
}

/* An axis's tick marks and labels: below the x axis, or left of the y axis (vertical). */
static void write_ticks(FILE *out, const struct axis *a, bool vertical)
{
	char buf[64];

	fprintf(out, "<g class=\"%s\" font-size=\"12\" text-anchor=\"%s\">\n",
		vertical ? "yticks" : "xticks", vertical ? "end" : "middle");
	for (int k = 0; k < axis_nticks(a); k++) {
		double v = axis_tick(a, k), p = axis_map(a, v);
		/* The mark runs out from the axis; the label stands beyond it. */
		double x1 = vertical ? LEFT - 5 : p, y1 = vertical ? p : H - BOTTOM;
		double x2 = vertical ? LEFT : p, y2 = vertical ? p : H - BOTTOM + 5;
		double tx = vertical ? LEFT - 8 : p, ty = vertical ? p + 4 : H - BOTTOM + 20;

		fmt_num(buf, sizeof(buf), v, axis_scale(a), a->step);
		fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#000000\"/>\n",
			x1, y1, x2, y2);
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\">%s</text>\n", tx, ty, buf);
	}
	fputs("</g>\n", out);
}

static void write_axes(FILE *out, const struct axis *ax, const struct axis *ay,
		       const char *xlabel, const char *ylabel)
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
		LEFT, H - BOTTOM, W - RIGHT, H - BOTTOM);
	fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
		LEFT, TOP, LEFT, H - BOTTOM);
	fputs("</g>\n", out);

	write_ticks(out, ax, false);
	write_ticks(out, ay, true);

	fprintf(out, "<text class=\"xlabel\" x=\"%.1f\" y=\"%.1f\" font-size=\"14\" text-anchor=\"middle\">",
		(LEFT + W - RIGHT) / 2, H - 20);
	xml_text(out, xlabel);
	fputs("</text>\n", out);
	fprintf(out, "<text class=\"ylabel\" x=\"0\" y=\"0\" font-size=\"14\" text-anchor=\"middle\" transform=\"translate(20 %.1f) rotate(-90)\">",
		(TOP + H - BOTTOM) / 2);
	xml_text(out, ylabel);
	fputs("</text>\n", out);
}

static void write_point(FILE *out, const struct axis *ax, const struct axis *ay,
			const struct plot_point *p, const char *xlabel,
			const char *ylabel)
{
	double x = axis_map(ax, p->x), y = axis_map(ay, p->y);
	double y0 = axis_map(ay, p->ymin), y1 = axis_map(ay, p->ymax);

	fprintf(out, "<line class=\"range\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
		x, y0, x, y1);
	fprintf(out, "<line class=\"range\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
		x - 4, y0, x + 4, y0);
	fprintf(out, "<line class=\"range\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
		x - 4, y1, x + 4, y1);
	fprintf(out, "<circle class=\"point\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\"><title>", x, y);
	xml_text(out, xlabel);
	fprintf(out, " %.15g: %.6g ", p->x, p->y);
	xml_text(out, ylabel);
	fprintf(out, " (min %.6g, max %.6g)</title></circle>\n", p->ymin, p->ymax);
}

static void write_best(FILE *out, const struct axis *ax, const struct axis *ay,
		       const struct plot_point *p, const char *xlabel,
		       const char *ylabel)
{
	double x = axis_map(ax, p->x), y = axis_map(ay, p->y);
	double ly = axis_map(ay, p->ymax) - 12;
	/* keep the label inside the canvas near either edge */
	const char *anchor = x > W - RIGHT - 150 ? "end" :
			     x < LEFT + 150 ? "start" : "middle";
	char buf[64];

	if (ly < TOP - 8)
		ly = TOP - 8;
	fprintf(out, "<circle class=\"best\" cx=\"%.1f\" cy=\"%.1f\" r=\"9\" fill=\"none\" stroke=\"#d62728\" stroke-width=\"2\"/>\n",
		x, y);
	fprintf(out, "<text class=\"best-label\" x=\"%.1f\" y=\"%.1f\" font-size=\"13\" font-weight=\"bold\" fill=\"#d62728\" text-anchor=\"%s\">best: ",
		x, ly, anchor);
	xml_text(out, xlabel);
	/* four significant digits tell apart the neighbours of the best */
	fmt_num(buf, sizeof(buf), p->y, fabs(p->y), fabs(p->y) / 1000);
	fprintf(out, " = %.15g, %s ", p->x, buf);
	xml_text(out, ylabel);
	fputs("</text>\n", out);
}

static int write_svg(FILE *out, const char *title, const char *xlabel,
		     const char *ylabel, const struct plot_point *pts, size_t n,
		     size_t best, const size_t *order)
{
	struct axis ax = { .px0 = LEFT, .px1 = W - RIGHT };
	struct axis ay = { .px0 = H - BOTTOM, .px1 = TOP };
	double xmin = pts[0].x, xmax = pts[0].x;
	double ymin = pts[0].ymin, ymax = pts[0].ymax;
	size_t i;

	for (i = 1; i < n; i++) {
		xmin = fmin(xmin, pts[i].x);
		xmax = fmax(xmax, pts[i].x);
		ymin = fmin(ymin, pts[i].ymin);
		ymax = fmax(ymax, pts[i].ymax);
	}
	/* Start throughput at zero unless that squeezes the data into the
	 * top half, where differences of a few percent would vanish. */
	if (ymin > 0 && ymin <= ymax / 2)
		ymin = 0;
	axis_fit(&ax, xmin, xmax);
	axis_fit(&ay, ymin, ymax);

	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n", out);
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\">\n",
		W, H, W, H);
	fputs("<title>", out);
	xml_text(out, title);
	fputs("</title>\n", out);
	fprintf(out, "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" fill=\"#ffffff\"/>\n", W, H);
	fprintf(out, "<text class=\"title\" x=\"%.1f\" y=\"28\" font-size=\"16\" font-weight=\"bold\" text-anchor=\"middle\">",
		W / 2);
	xml_text(out, title);
	fputs("</text>\n", out);
	fprintf(out, "<text class=\"legend\" x=\"%.1f\" y=\"48\" font-size=\"11\" fill=\"#555555\" text-anchor=\"end\">dot: value, bar: min to max</text>\n",
		W - RIGHT);

	write_axes(out, &ax, &ay, xlabel, ylabel);

	fputs("<polyline class=\"trend\" fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"1.5\" points=\"", out);
	for (i = 0; i < n; i++)
		fprintf(out, "%s%.1f,%.1f", i ? " " : "",
			axis_map(&ax, pts[order[i]].x),
			axis_map(&ay, pts[order[i]].y));
	fputs("\"/>\n", out);

	fputs("<g class=\"data\" stroke=\"#1f77b4\" fill=\"#1f77b4\" stroke-width=\"1.5\">\n", out);
	for (i = 0; i < n; i++)
		write_point(out, &ax, &ay, &pts[order[i]], xlabel, ylabel);
	fputs("</g>\n", out);

	if (best != PLOT_NO_BEST)
		write_best(out, &ax, &ay, &pts[best], xlabel, ylabel);
	fputs("</svg>\n", out);

	return fflush(out) != 0 || ferror(out) ? -EIO : 0;
}

int plot_svg(FILE *out, const char *title, const char *xlabel,
	     const char *ylabel, const struct plot_point *pts, size_t n,
	     size_t best)
{
	locale_t c, old;
	size_t *order, i;
	int rc;

	if (!out || !title || !xlabel || !ylabel || !pts || n == 0 ||
	    (best >= n && best != PLOT_NO_BEST))
		return -EINVAL;
	rc = check_points(pts, n);
	if (rc < 0)
		return rc;

	/* the trend line must run left to right whatever the sweep order */
	order = malloc(n * sizeof(*order));
	if (!order)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		order[i] = i;
	qsort_r(order, n, sizeof(*order), cmp_x, (void *)pts);

	/* "%.1f" must print a dot in SVG even under a decimal-comma locale */
	c = newlocale(LC_ALL_MASK, "C", (locale_t)0);
	if (!c) {
		free(order);
		return -ENOMEM;
	}
	old = uselocale(c);
	rc = write_svg(out, title, xlabel, ylabel, pts, n, best, order);
	uselocale(old);
	freelocale(c);
	free(order);
	return rc;
}
