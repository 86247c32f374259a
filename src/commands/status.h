/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pcpctl status: the kernel release, its pcp interfaces and what sysctl.d sets at boot. */
#ifndef PCPCTL_STATUS_H
#define PCPCTL_STATUS_H

#include <stdbool.h>

/*
 * Where the batch patch is, for the messages that send an admin there: the
 * installed folder, or where that is absent (a build tree) the source's.
 */
const char *patch_dir(void);

/*
 * What status, set, reset and rollback report alike: the pcp sysctls as a
 * JSON object under key, each value or null (JSON only); and the label
 * "vm.NAME:" (or "kernel:" for NULL) a text line starts with.
 */
void print_settings(const char *key, const bool *have, const long *value);
void print_sysctl_label(const char *name);

struct sysctld_line;
/*
 * A sysctl.d line as a JSON object {"key", "file", "target", "value"}, key
 * as the caller names it (status: as written; set: the sysctl); and in
 * text "VALUE, from FILE" (from) or "VALUE in FILE", with " -> TARGET" for
 * a link and the key as written for a glob or an exclusion.
 */
void print_sysctld_line(const char *key, const struct sysctld_line *l);
void print_sysctld_where(const struct sysctld_line *l, bool from);

#endif
