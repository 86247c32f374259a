/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare.h - pcpctl compare: sweeps side by side, in the form of mmtests'
 * compare-kernels
 */
#ifndef PCPCTL_COMPARE_H
#define PCPCTL_COMPARE_H

#include <stdbool.h>

struct compare_opts {
	const char **labels;	/* --label, once per input or never; NULL-terminated */
	const char *csv;	/* also write the cells as CSV */
	bool json;
	char *const *files;	/* the sweep JSON files, the first the baseline */
};

int cmd_compare(const struct compare_opts *o);

#endif
