/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the simulated kernel offers beyond the kernel interface (kernel.h). */
#ifndef PCPCTL_SIMKERNEL_H
#define PCPCTL_SIMKERNEL_H

struct kernel;

/*
 * Set every CPU's pcp values as the tree's kernel does at boot with the
 * sysctls in force, so that a tree made from another kernel's capture (another
 * generation, another page size) starts as that kernel would show it.
 */
int sim_boot(struct kernel *k);

#endif
