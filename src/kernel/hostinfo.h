/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hostinfo.h - what a sweep records of the machine it ran on, so that
 * sweeps from many machines can be put side by side (compare, plot)
 */
#ifndef PCPCTL_HOSTINFO_H
#define PCPCTL_HOSTINFO_H

struct sysroot;

struct hostinfo {
	char *name;		/* NULL for each one the root does not tell */
	char *kernel;
	char *cpu_model;
	long online_cpus;	/* -1 when unknown */
	long numa_nodes;	/* -1 when unknown */
};

/* Read what the root has; what it lacks (or memory lacks) stays unknown. */
void hostinfo_read(const struct sysroot *sr, struct hostinfo *h);
/* The "host" object of a JSON report, null for each unknown. */
void hostinfo_print_json(const struct hostinfo *h);
void hostinfo_free(struct hostinfo *h);

#endif
