/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * svg.h - SVG chart of throughput against a swept value
 *
 * Plain SVG 1.1: no scripts, no external fonts or references, so the file
 * opens the same in a browser, an image viewer or a mail attachment.
 * Every data point is a <circle class="point"> (with a <title> tooltip),
 * its spread a <line class="range">, the best point is ringed by a
 * <circle class="best"> and labelled by <text class="best-label">.  A chart
 * of many sweeps has a <g class="panel"> per panel, in each a
 * <polyline class="trend"> per series, and a <g class="legend-entry"> per
 * named series.  On the x axis, 0 (the kernel's default) stands apart at
 * the left, labelled "default"; ticks are at the values drawn, or at
 * powers of two where the values span a factor of 16 or more (log2).  A
 * title may have a second line, after a newline: its subtitle.
 */
#ifndef PCPCTL_SVG_H
#define PCPCTL_SVG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* pass as best when no point is to be marked */
#define PLOT_NO_BEST	SIZE_MAX

struct plot_point {
	double x;		/* the swept value */
	double y;		/* the summary drawn as the point, e.g. Hmean */
	double ymin, ymax;	/* the bar; ymin <= y <= ymax */
};

/* One input's points in one panel. */
struct plot_series {
	const struct plot_point *pts;
	size_t n;		/* may be 0: nothing of this input in the panel */
	size_t best;		/* index into pts, or PLOT_NO_BEST */
};

struct plot_panel {
	const char *id;		/* the panel's XML id, or NULL */
	const char *title;	/* above the panel, or NULL */
	const char *ylabel;
	bool bars;		/* min-max bars, and a taller panel */
	const struct plot_series *series;	/* nseries of them */
};

/*
 * Panels one above the other, each with its own axes, under one title and
 * one legend.  Series i of every panel is drawn in colour i and named
 * labels[i] in the legend, tooltips and best labels; labels is NULL (no
 * legend) or holds nseries names.  Returns as plot_svg(); -EINVAL also for
 * a panel without a single point or an id that is not a plain XML name.
 */
int plot_chart(FILE *out, const char *title, const char *xlabel, const char *const *labels,
	       size_t nseries, const struct plot_panel *panels, size_t npanels);

/*
 * The chart of a single sweep (one panel with bars), written to out.  Text
 * arguments may be any bytes: they are escaped for XML, and what is not valid UTF-8 (or not allowed in XML,
 * such as control characters) becomes U+FFFD.  Numbers are written in the
 * C locale whatever the caller's locale is.  ylabel is the unit of y
 * (e.g. "ops/s") and appears on the axis and in the best point's label.
 *
 * Returns 0, or:
 *   -EINVAL  n == 0, a NULL argument, best >= n other than PLOT_NO_BEST,
 *            a non-finite value, or ymin <= y <= ymax not holding
 *   -ENOMEM  out of memory
 *   -EIO     writing to out failed (out is left to the caller to close)
 */
int plot_svg(FILE *out, const char *title, const char *xlabel,
	     const char *ylabel, const struct plot_point *pts, size_t n,
	     size_t best);

#endif /* PCPCTL_SVG_H */
