/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pcpctl status: the kernel release and its pcp interfaces. */
#ifndef PCPCTL_STATUS_H
#define PCPCTL_STATUS_H

#include <stdbool.h>

struct sysroot;

int cmd_status(const struct sysroot *root, bool json);

/*
 * What status, set, reset and rollback report alike: the pcp sysctls as a
 * JSON object under key, each value or null (JSON only); and the label
 * "vm.NAME:" (or "kernel:" for NULL) a text line starts with.
 */
void print_settings(const char *key, const bool *have, const long *value);
void print_sysctl_label(const char *name);

#endif
