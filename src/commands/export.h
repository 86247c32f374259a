/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pcpctl export: the pcp lists and sysctls for Prometheus. */
#ifndef PCPCTL_EXPORT_H
#define PCPCTL_EXPORT_H

#include <stdbool.h>

struct sysroot;

/* To file (replaced atomically) or, when NULL, stdout.  An exit code of msg.h. */
int cmd_export(const struct sysroot *root, const char *file, bool per_cpu);

#endif
