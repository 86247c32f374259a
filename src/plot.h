/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plot.h - SVG chart of throughput against a swept value
 *
 * Plain SVG 1.1: no scripts, no external fonts or references, so the file
 * opens the same in a browser, an image viewer or a mail attachment.
 * Every data point is a <circle class="point"> (with a <title> tooltip),
 * its spread a <line class="range">, the best point is ringed by a
 * <circle class="best"> and labelled by <text class="best-label">.
 */
#ifndef PCPCTL_PLOT_H
#define PCPCTL_PLOT_H

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

/*
 * Write the chart to out.  Text arguments may be any bytes: they are
 * escaped for XML, and what is not valid UTF-8 (or not allowed in XML,
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

#endif /* PCPCTL_PLOT_H */
