/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "privs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/capability.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "c.h"
#include "sysroot.h"

/*
 * After capset's EPERM: 0 when this process holds what want says already,
 * so nothing was refused that mattered (a seccomp filter such as systemd's
 * SystemCallFilter= with SystemCallErrorNumber=EPERM refuses capset
 * whatever it asks); else -EPERM, or -ENOMEM.
 */
static int holds_exactly(cap_t want)
{
	cap_t now = cap_get_proc();
	int rc;

	if (!now)
		return -ENOMEM;
	rc = cap_compare(now, want) ? -EPERM : 0;
	cap_free(now);
	return rc;
}

int drop_privileges(bool switch_user)
{
	static const cap_value_t setid[] = { CAP_SETUID, CAP_SETGID, CAP_SETPCAP };
	static const cap_value_t kill = CAP_KILL;
	cap_t none;
	int rc = 0;

	/* The bounding set can only shrink while CAP_SETPCAP is still ours. */
	if (CAP_IS_SUPPORTED(CAP_SETPCAP) && cap_get_bound(CAP_SETPCAP) == 1) {
		for (cap_value_t c = 0; c <= CAP_LAST_CAP; c++)
			if (cap_get_bound(c) == 1 && cap_drop_bound(c) < 0 && errno != EPERM)
				return -errno;
	}
	if (CAP_AMBIENT_SUPPORTED() && cap_reset_ambient() < 0)
		return -errno;
	none = cap_init();
	if (!none)
		return -errno;
	if (switch_user && geteuid() == 0 &&
	    (cap_set_flag(none, CAP_PERMITTED, ARRAY_SIZE(setid), setid, CAP_SET) < 0 ||
	     cap_set_flag(none, CAP_PERMITTED, 1, &kill, CAP_SET) < 0 ||
	     cap_set_flag(none, CAP_EFFECTIVE, 1, &kill, CAP_SET) < 0))
		rc = -errno;
	if (!rc && cap_set_proc(none) < 0)
		rc = errno == EPERM ? holds_exactly(none) : -errno;
	cap_free(none);
	if (!rc && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		rc = -errno;
	return rc;
}

int sysctl_write_access(const struct kernel *k, enum pcp_sysctl s, char **path)
{
	int dir, rc;

	*path = sysctl_path(k, s);
	if (!*path)
		return -ENOMEM;
	/* asked where the write goes: in the directory beneath the root, through no link */
	dir = sysroot_open_dir(k->root, PATH_SYSCTL_VM, 0);
	if (dir < 0)
		return dir;
	rc = faccessat(dir, sysctl_name(s), W_OK, AT_EACCESS) < 0 ? -errno : 0;
	close(dir);
	if (rc)
		return rc;
	free(*path);
	*path = NULL;
	return 0;
}
