/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plot.h - pcpctl plot: sweeps from many machines on one SVG chart
 */
#ifndef PCPCTL_PLOT_H
#define PCPCTL_PLOT_H

#include <stdbool.h>
#include <stddef.h>

struct plot_opts {
	const char **labels;	/* --label, once per input or never; NULL-terminated */
	const char *output;	/* -o: the SVG file, replaced atomically */
	char *const *files;	/* the sweep JSON files */
};

struct sweep_input;

/*
 * The chart of the inputs (a panel per task count, a lock panel where
 * sampled, their labels in the legend) written to output, replaced
 * atomically, or to standard output for "-".  EXIT_OK, or EXIT_FAIL after
 * saying why.  sweep --plot draws its own sweep with it.
 */
int chart_write(const char *output, const struct sweep_input *in, size_t nin);

/*
 * Whether a file name fits what is drawn: SVG, whatever the name, unless
 * the name asks for another format (chart.png would be SVG under a PNG name).
 */
bool chart_svg_name(const char *path);

#endif
