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

/*
 * The machine moves under pcpctl: memory, a watermark or a CPU comes or
 * goes (argv: "managed 0 Normal 32768", "offline 1", ...; see simkernel.c).
 * 0, -EINVAL for words it does not know, or another negative errno.
 */
int sim_move(struct kernel *k, int argc, char **argv);

#endif
