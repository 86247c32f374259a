/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "sysctld.h"

#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "c.h"
#include "msg.h"
#include "persist.h"
#include "sysroot.h"

/* systemd-sysctl's directories, first the one whose file of a name wins (Debian 12 has no /lib). */
static const char *const dirs[] = {
	"/etc/sysctl.d", "/run/sysctl.d", "/usr/local/lib/sysctl.d", "/usr/lib/sysctl.d",
};

/* A link chain longer than this is a loop (as the kernel's own limit). */
#define MAX_LINKS 40

struct entry {
	char *name;
	const char *dir;
	bool ours;		/* stands for the text of ours, not for what is on disk */
};

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->name, ((const struct entry *)b)->name);
}

static bool taken(const struct entry *e, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(e[i].name, name) == 0)
			return true;
	return false;
}

static void free_entries(struct entry *e, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(e[i].name);
	free(e);
}

static int add_entry(struct entry **e, size_t *n, size_t *cap, const char *name, const char *dir,
		     bool ours)
{
	if (*n == *cap) {
		size_t bigger = *cap ? *cap * 2 : 16;
		struct entry *more = realloc(*e, bigger * sizeof(**e));

		if (!more)
			return -ENOMEM;
		*e = more;
		*cap = bigger;
	}
	(*e)[*n] = (struct entry){ .name = strdup(name), .dir = dir, .ours = ours };
	if (!(*e)[*n].name)
		return -ENOMEM;
	(*n)++;
	return 0;
}

/* The *.conf names, each from the first directory that has it, sorted by name. */
static int list_entries(const struct sysroot *root, const struct persisted *ours,
			struct entry **out, size_t *nout)
{
	struct entry *e = NULL;
	size_t n = 0, cap = 0;
	int rc = 0;
	bool any = false;

	for (int s = 0; ours && s < NSYSCTLS; s++)
		any |= ours->have[s];
	/* Without a setting there is to be no file, and the name is free for the others. */
	if (any)
		rc = add_entry(&e, &n, &cap, NAME_PERSIST, dirs[0], true);
	for (size_t d = 0; !rc && d < ARRAY_SIZE(dirs); d++) {
		DIR *dir = sysroot_opendir(root, dirs[d]);
		struct dirent *de;

		/* As systemd-sysctl: a directory that is missing or unreadable holds nothing. */
		if (!dir)
			continue;
		while (!rc && (de = readdir(dir))) {
			size_t len = strlen(de->d_name);

			if (len < 5 || strcmp(de->d_name + len - 5, ".conf") != 0 ||
			    taken(e, n, de->d_name))
				continue;
			/* With ours, /etc's 90-pcpctl.conf is what ours says, whatever is there. */
			if (ours && d == 0 && strcmp(de->d_name, NAME_PERSIST) == 0)
				continue;
			rc = add_entry(&e, &n, &cap, de->d_name, dirs[d], false);
		}
		closedir(dir);
	}
	if (rc) {
		free_entries(e, n);
		return rc;
	}
	if (n)
		qsort(e, n, sizeof(*e), by_name);
	*out = e;
	*nout = n;
	return 0;
}

/* path with "." and ".." resolved lexically, in place; ".." stops at "/". */
static void clean_path(char *path)
{
	char *out = path, *in = path;

	while (*in) {
		size_t len;

		while (*in == '/')
			in++;
		len = strcspn(in, "/");
		if (len == 0)
			break;
		if (len == 1 && in[0] == '.') {
			in += len;
			continue;
		}
		if (len == 2 && in[0] == '.' && in[1] == '.') {
			while (out > path && *--out != '/')
				;
			in += len;
			continue;
		}
		*out++ = '/';
		memmove(out, in, len);
		out += len;
		in += len;
	}
	if (out == path)
		*out++ = '/';
	*out = '\0';
}

/*
 * Where the entry dir/name leads, its links followed inside the root (an
 * absolute link is taken from the root, as systemd-sysctl's own root is):
 * *to is the path (as PATH_*, malloc'ed), NULL for an entry that is no
 * link.  0, or -ELOOP, -ENOMEM.
 */
static int resolve(const struct sysroot *root, const char *dir, const char *name, char **to)
{
	char *path, link[PATH_MAX];
	int hops = 0;

	*to = NULL;
	if (asprintf(&path, "%s/%s", dir, name) < 0)
		return -ENOMEM;
	for (;;) {
		ssize_t len = sysroot_readlink(root, path, link, sizeof(link) - 1);
		char *next;

		if (len < 0)
			break;
		if (++hops > MAX_LINKS) {
			free(path);
			return -ELOOP;
		}
		link[len] = '\0';
		if (link[0] == '/')
			next = strdup(link);
		else if (asprintf(&next, "%.*s/%s", (int)(strrchr(path, '/') - path), path, link) < 0)
			next = NULL;
		free(path);
		if (!next)
			return -ENOMEM;
		clean_path(next);
		path = next;
	}
	if (hops)
		*to = path;
	else
		free(path);
	return 0;
}

/*
 * The text systemd-sysctl reads for the entry: *text malloc'ed, NULL for
 * nothing (a mask, a dangling link, something other than a file), *target
 * the path a link leads to.  0, or -ENOMEM after saying so.
 */
static int entry_text(const struct sysroot *root, const struct entry *e,
		      const struct persisted *ours, char **text, char **target)
{
	char *to, *path;
	size_t len;
	int rc;

	*text = NULL;
	*target = NULL;
	if (e->ours) {
		char buf[PERSIST_MAX + 1];

		if (persist_text(ours, buf) && !(*text = strdup(buf)))
			return -ENOMEM;
		return 0;
	}
	rc = resolve(root, e->dir, e->name, &to);
	if (rc == -ELOOP) {
		pcp_warn("%s/%s: too many levels of symbolic links; left out of the boot settings",
			 sysroot_name(root, e->dir), e->name);
		return 0;
	}
	if (rc)
		return rc;
	if (to && strcmp(to, "/dev/null") == 0) {
		*target = to;
		return 0;
	}
	if (to) {
		*target = sysroot_path(root, to);
		path = to;
		rc = *target ? 0 : -ENOMEM;
	} else if (asprintf(&path, "%s/%s", e->dir, e->name) < 0) {
		path = NULL;
		rc = -ENOMEM;
	}
	if (rc) {
		free(path);
		free(*target);
		*target = NULL;
		return -ENOMEM;
	}
	/*
	 * Read beneath the root, as systemd-sysctl --root reads: a dangling link
	 * reads as nothing, and a FIFO or directory holds no assignment.
	 */
	rc = sysroot_read_file(root, path, text, &len);
	if (rc == -ENOENT || rc == -EINVAL || rc == -ENOTDIR) {
		rc = 0;
	} else if (rc && rc != -ENOMEM) {
		pcp_warn("cannot read %s: %s; what it sets at boot is left out",
			 sysroot_name(root, path), strerror(-rc));
		rc = 0;
	}
	free(path);
	return rc;
}

static char *strip(char *s)
{
	char *end;

	s += strspn(s, " \t\r\n");
	end = s + strlen(s);
	while (end > s && strchr(" \t\r\n", end[-1]))
		*--end = '\0';
	return s;
}

/*
 * key as /proc/sys/KEY, in out: a dot first makes dots and slashes swap
 * places, empty and "." components go.
 */
static void normalize(const char *key, char *out, size_t size)
{
	size_t first = strcspn(key, "./"), o = 0;
	bool swap = key[first] == '.';
	char buf[PATH_MAX];

	snprintf(buf, sizeof(buf), "%s", key);
	for (char *c = buf; swap && *c; c++)
		if (*c == '.' || *c == '/')
			*c = *c == '.' ? '/' : '.';
	out[0] = '\0';
	for (char *save, *part = strtok_r(buf, "/", &save); part; part = strtok_r(NULL, "/", &save)) {
		if (strcmp(part, ".") == 0)
			continue;
		o += (size_t)snprintf(out + o, o < size ? size - o : 0, "%s%s", o ? "/" : "", part);
	}
}

static int add_line(struct sysctld_key *k, const char *file, const char *target, const char *key,
		    const char *value, bool glob)
{
	struct sysctld_line *more = realloc(k->lines, (k->n + 1) * sizeof(*more));
	struct sysctld_line *l;

	if (!more)
		return -ENOMEM;
	k->lines = more;
	l = &k->lines[k->n++];
	*l = (struct sysctld_line){
		.file = strdup(file), .target = target ? strdup(target) : NULL,
		.key = strdup(key), .value = value ? strdup(value) : NULL, .glob = glob,
	};
	if (!l->file || (target && !l->target) || !l->key || (value && !l->value))
		return -ENOMEM;
	return 0;
}

/* The lines of text that apply to a pcp key, added to d. */
static int parse(struct sysctld *d, const char *file, const char *target, char *text)
{
	char *save;

	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *p = strip(line), *eq, *value = NULL;
		char norm[PATH_MAX];
		bool glob;

		if (!*p || *p == '#' || *p == ';')
			continue;
		eq = strchr(p, '=');
		if (eq) {
			*eq = '\0';
			value = strip(eq + 1);
		} else if (*p != '-') {
			continue;	/* not an assignment: systemd-sysctl ignores it too */
		}
		/* "-key = value" only may fail quietly; "-key" keeps globs away from key. */
		if (*p == '-')
			p++;
		p = strip(p);
		normalize(p, norm, sizeof(norm));
		glob = strpbrk(norm, "*?[") != NULL;
		for (int s = 0; s < NSYSCTLS; s++) {
			char want[64];
			int rc;

			snprintf(want, sizeof(want), "vm/%s", sysctl_name(s));
			if (glob ? fnmatch(norm, want, FNM_PATHNAME) != 0 : strcmp(norm, want) != 0)
				continue;
			rc = add_line(&d->key[s], file, target, p, value, glob);
			if (rc)
				return rc;
		}
	}
	return 0;
}

static bool same_value(const char *a, const char *b)
{
	return a && b ? strcmp(a, b) == 0 : a == b;
}

/*
 * The line in force: systemd-sysctl keeps one assignment per key as
 * written (normalized), replaced by a later one only when the value
 * differs, in the order of the last replacement; it writes them in that
 * order, a glob only to keys no line names without one.
 */
static long winner(const struct sysctld_key *k)
{
	long explicit = -1, glob = -1;

	for (size_t i = 0; i < k->n; i++) {
		const struct sysctld_line *l = &k->lines[i];
		bool replaces = true;
		char a[PATH_MAX], b[PATH_MAX];

		if (l->glob && !l->value)
			continue;	/* a "-glob" excludes nothing */
		normalize(l->key, a, sizeof(a));
		/* The last line kept for the same key text, if its value is the same, stays. */
		for (size_t j = i; j-- > 0;) {
			normalize(k->lines[j].key, b, sizeof(b));
			if (strcmp(a, b) == 0) {
				replaces = !same_value(l->value, k->lines[j].value);
				break;
			}
		}
		if (!replaces)
			continue;
		if (l->glob)
			glob = (long)i;
		else
			explicit = (long)i;
	}
	return explicit >= 0 ? explicit : glob;
}

int sysctld_read(const struct sysroot *root, const struct persisted *ours, struct sysctld *d)
{
	struct entry *e = NULL;
	size_t n = 0;
	int rc;

	memset(d, 0, sizeof(*d));
	for (int s = 0; s < NSYSCTLS; s++)
		d->key[s].winner = -1;
	rc = list_entries(root, ours, &e, &n);
	for (size_t i = 0; !rc && i < n; i++) {
		char *text, *target, *file;

		rc = entry_text(root, &e[i], ours, &text, &target);
		if (rc)
			break;
		if (asprintf(&file, "%s%s/%s", root->prefix, e[i].dir, e[i].name) < 0) {
			file = NULL;
			rc = -ENOMEM;
		} else if (text) {
			rc = parse(d, file, target, text);
		}
		free(file);
		free(text);
		free(target);
	}
	free_entries(e, n);
	if (rc) {
		pcp_error("out of memory");
		sysctld_free(d);
		return rc;
	}
	for (int s = 0; s < NSYSCTLS; s++)
		d->key[s].winner = winner(&d->key[s]);
	return 0;
}

void sysctld_free(struct sysctld *d)
{
	for (int s = 0; s < NSYSCTLS; s++) {
		for (size_t i = 0; i < d->key[s].n; i++) {
			free(d->key[s].lines[i].file);
			free(d->key[s].lines[i].target);
			free(d->key[s].lines[i].key);
			free(d->key[s].lines[i].value);
		}
		free(d->key[s].lines);
		d->key[s].lines = NULL;
		d->key[s].n = 0;
		d->key[s].winner = -1;
	}
}
