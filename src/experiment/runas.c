/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "runas.h"

#include <errno.h>
#include <grp.h>
#include <linux/securebits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/prctl.h>
#include <unistd.h>

/* A whole decimal id: "1000", never "1e3" or "-1". */
static bool parse_id(const char *s, unsigned long *id)
{
	char *end;

	if (!s || !(*s >= '0' && *s <= '9'))
		return false;
	errno = 0;
	*id = strtoul(s, &end, 10);
	return !errno && !*end && *id < (unsigned long)(uid_t)-1;
}

/* The user's groups as login would give them; just gid without an entry. */
static int find_groups(const char *name, struct runas *ra)
{
	int n = 16;

	for (;;) {
		gid_t *g = realloc(ra->groups, (size_t)n * sizeof(*g));
		int want = n;

		if (!g)
			return -ENOMEM;
		ra->groups = g;
		if (!name) {
			g[0] = ra->gid;
			ra->ngroups = 1;
			return 0;
		}
		if (getgrouplist(name, ra->gid, g, &want) >= 0) {
			ra->ngroups = want;
			return 0;
		}
		/* glibc says how many it found; grow to that, not by guesses */
		n = want > n ? want : n * 2;
	}
}

/* The user uid, gid; name (NULL when no entry has one) finds its groups. */
static int fill(const char *name, uid_t uid, gid_t gid, struct runas *ra)
{
	*ra = (struct runas){ .uid = uid, .gid = gid };
	if (uid == 0)
		return -EPERM;
	if (name)
		snprintf(ra->name, sizeof(ra->name), "%s", name);
	else
		snprintf(ra->name, sizeof(ra->name), "%lu", (unsigned long)uid);
	return find_groups(name, ra);
}

/* sudo's caller, by the ids sudo left; the group is the one sudo names. */
static int find_sudo_user(const char *suid, const char *sgid, struct runas *ra)
{
	unsigned long uid, gid;
	struct passwd *pw;

	if (!parse_id(suid, &uid) || !parse_id(sgid, &gid))
		return -EINVAL;
	errno = 0;
	pw = getpwuid((uid_t)uid);
	if (!pw && errno == ENOMEM)
		return -ENOMEM;
	return fill(pw ? pw->pw_name : NULL, (uid_t)uid, (gid_t)gid, ra);
}

int runas_find(const char *user, struct runas *ra)
{
	const char *suid = getenv("SUDO_UID"), *sgid = getenv("SUDO_GID");
	struct passwd *pw;
	unsigned long id;

	*ra = (struct runas){ 0 };
	if (!user && suid && sgid) {
		int rc = find_sudo_user(suid, sgid, ra);

		/* sudo run by root leaves SUDO_UID=0: that is no one to run as */
		if (rc != -EPERM)
			return rc;
		runas_free(ra);
	}
	if (!user)
		user = "nobody";
	errno = 0;
	pw = getpwnam(user);
	if (!pw && errno == ENOMEM)
		return -ENOMEM;
	if (!pw && parse_id(user, &id)) {
		errno = 0;
		pw = getpwuid((uid_t)id);
		if (!pw && errno == ENOMEM)
			return -ENOMEM;
		/* a number no entry names is a user still: its group the same number */
		if (!pw)
			return fill(NULL, (uid_t)id, (gid_t)id, ra);
	}
	if (!pw)
		return -ENOENT;
	return fill(pw->pw_name, pw->pw_uid, pw->pw_gid, ra);
}

void runas_free(struct runas *ra)
{
	free(ra->groups);
	ra->groups = NULL;
	ra->ngroups = 0;
}

/* CAP_SETUID, CAP_SETGID and CAP_SETPCAP effective: the parent keeps them permitted only. */
static int raise_setid(void)
{
	static const cap_value_t setid[] = { CAP_SETUID, CAP_SETGID, CAP_SETPCAP };
	cap_t caps = cap_get_proc();
	int rc = 0;

	if (!caps)
		return -errno;
	if (cap_set_flag(caps, CAP_EFFECTIVE, 3, setid, CAP_SET) < 0 || cap_set_proc(caps) < 0)
		rc = -errno;
	cap_free(caps);
	return rc;
}

/* Whether any capability is left in any set. */
static int holds_capabilities(void)
{
	cap_t caps = cap_get_proc(), none = cap_init();
	int rc;

	if (!caps || !none)
		rc = -ENOMEM;
	else
		rc = cap_compare(caps, none) ? -EPERM : 0;
	cap_free(caps);
	cap_free(none);
	return rc;
}

int runas_enter(const struct runas *ra)
{
	uid_t r, e, s;
	int rc;

	/*
	 * Locked: exec of a uid 0 program grants no capabilities, a change of
	 * uid clears them, and none may be kept across it or made ambient.
	 */
	if ((rc = raise_setid()) < 0)
		return rc;
	if (prctl(PR_SET_SECUREBITS, SECBIT_NOROOT | SECBIT_NOROOT_LOCKED |
		  SECBIT_NO_SETUID_FIXUP_LOCKED | SECBIT_KEEP_CAPS_LOCKED |
		  SECBIT_NO_CAP_AMBIENT_RAISE | SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED, 0, 0, 0) < 0)
		return -errno;
	if (setgroups((size_t)ra->ngroups, ra->groups) < 0 ||
	    setresgid(ra->gid, ra->gid, ra->gid) < 0 ||
	    setresuid(ra->uid, ra->uid, ra->uid) < 0)
		return -errno;
	if (getresuid(&r, &e, &s) < 0)
		return -errno;
	if (r != ra->uid || e != ra->uid || s != ra->uid || setuid(0) == 0)
		return -EPERM;
	return holds_capabilities();
}
