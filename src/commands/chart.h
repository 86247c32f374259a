/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * chart.h - pcpctl plot: sweeps from many machines on one SVG chart
 */
#ifndef PCPCTL_CHART_H
#define PCPCTL_CHART_H

struct plot_opts {
	const char **labels;	/* --label, once per input or never; NULL-terminated */
	const char *output;	/* -o: the SVG file, replaced atomically */
	char *const *files;	/* the sweep JSON files */
};

int cmd_plot(const struct plot_opts *o);

#endif
