/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "tuned.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "c.h"

#include "sysroot.h"

#define PATH_TUNED_DAEMON	"/usr/sbin/tuned"
/* tuned's CFG_DEF_REAPPLY_SYSCTL */
#define REAPPLY_SYSCTL_DEFAULT	true

/* tuned's get_bool: 1, y, yes, t or true, in any case and between blanks; all else is false. */
static bool tuned_true(const char *v, size_t n)
{
	static const char *const yes[] = { "1", "y", "yes", "t", "true" };

	while (n && (*v == ' ' || *v == '\t')) {
		v++;
		n--;
	}
	while (n && (v[n - 1] == ' ' || v[n - 1] == '\t' || v[n - 1] == '\r'))
		n--;
	for (size_t i = 0; i < ARRAY_SIZE(yes); i++)
		if (strlen(yes[i]) == n && strncasecmp(v, yes[i], n) == 0)
			return true;
	return false;
}

/*
 * As tuned reads it (configparser, "=" the delimiter, "#" starting a
 * comment anywhere): the last reapply_sysctl line wins.
 */
bool tuned_reapply_sysctl(const char *conf, bool dflt)
{
	bool value = dflt;

	for (const char *l = conf; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		size_t len = strcspn(l, "#\n");
		const char *eq = memchr(l, '=', len);
		const char *k = l;
		size_t klen;

		if (!eq)
			continue;
		k += strspn(k, " \t");
		klen = (size_t)(eq - k);
		while (klen && (k[klen - 1] == ' ' || k[klen - 1] == '\t'))
			klen--;
		if (klen == strlen("reapply_sysctl") && strncmp(k, "reapply_sysctl", klen) == 0)
			value = tuned_true(eq + 1, len - (size_t)(eq + 1 - l));
	}
	return value;
}

int tuned_read(const struct sysroot *root, struct tuned *t)
{
	char *conf = NULL;
	size_t len;
	int rc;

	t->installed = sysroot_exists(root, PATH_TUNED_DAEMON);
	t->reapply_sysctl = REAPPLY_SYSCTL_DEFAULT;
	rc = sysroot_read_file(root, PATH_TUNED_MAIN_CONF, &conf, &len);
	if (rc == -ENOENT)
		return 0;
	if (rc < 0)
		return rc;
	t->installed = true;
	t->reapply_sysctl = tuned_reapply_sysctl(conf, REAPPLY_SYSCTL_DEFAULT);
	free(conf);
	return 0;
}
