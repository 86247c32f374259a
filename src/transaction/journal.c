/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "journal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomicfile.h"
#include "c.h"
#include "kernel.h"
#include "lock.h"
#include "msg.h"
#include "numparse.h"
#include "sysroot.h"

/*
 * v2 added the observed lines, v3 the inputs behind each; v1 and v2
 * journals still roll back.
 */
#define JOURNAL_MAGIC "pcpctl journal v3\n"
#define JOURNAL_MAGIC_V2 "pcpctl journal v2\n"
#define JOURNAL_MAGIC_V1 "pcpctl journal v1\n"

uint64_t journal_checksum(const char *s, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (size_t i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

size_t journal_format(const struct journal *j, char *buf, size_t size)
{
	size_t len = 0;

	len += (size_t)snprintf(buf + len, size - len, "%s", JOURNAL_MAGIC);
	for (size_t i = 0; i < j->n; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s %ld\n",
					sysctl_name(j->sysctl[i]), j->old[i]);
	for (size_t i = 0; j->have_wrote && i < j->n; i++)
		len += (size_t)snprintf(buf + len, size - len, "wrote %s %ld\n",
					sysctl_name(j->sysctl[i]), j->wrote[i]);
	for (size_t i = 0; i < j->nzones; i++) {
		const struct journal_zone *z = &j->zones[i];

		len += (size_t)snprintf(buf + len, size - len, "observed %d %s batch %d", z->node,
					z->name, z->batch);
		if (z->high >= 0)
			len += (size_t)snprintf(buf + len, size - len, " high %d", z->high);
		if (z->high_min >= 0)
			len += (size_t)snprintf(buf + len, size - len, " high_min %d high_max %d",
						z->high_min, z->high_max);
		if (z->have_inputs)
			len += (size_t)snprintf(buf + len, size - len, " managed %llu low %llu cpus %u",
						(unsigned long long)z->managed,
						(unsigned long long)z->low, z->cpus);
		len += (size_t)snprintf(buf + len, size - len, "\n");
	}
	if (j->persist) {
		len += (size_t)snprintf(buf + len, size - len, "persist\n");
		for (int s = 0; s < NSYSCTLS; s++)
			if (j->persisted.have[s])
				len += (size_t)snprintf(buf + len, size - len,
							"persisted %s %ld\n", sysctl_name(s),
							j->persisted.value[s]);
	}
	if (j->committed)
		len += (size_t)snprintf(buf + len, size - len, "committed\n");
	len += (size_t)snprintf(buf + len, size - len, "sum %016llx\n",
				(unsigned long long)journal_checksum(buf, len));
	return len;
}

/* The run directory beneath the root, through no link: an fd or a negative errno. */
static int run_dir(const struct sysroot *root)
{
	return sysroot_open_dir(root, PATH_RUN_DIR, 0);
}

int journal_files_init(const struct sysroot *root, struct journal_files *f)
{
	f->path = sysroot_path(root, PATH_JOURNAL);
	if (!f->path) {
		pcp_error("out of memory");
		return -ENOMEM;
	}
	f->dir = run_dir(root);
	if (f->dir >= 0)
		return 0;
	pcp_error("cannot open %s: %s", sysroot_name(root, PATH_RUN_DIR), sysroot_strerror(f->dir));
	free(f->path);
	f->path = NULL;
	return f->dir;
}

void journal_files_free(struct journal_files *f)
{
	if (f->path)
		close(f->dir);
	free(f->path);
	f->path = NULL;
}

/*
 * Whole or not at all: the text goes to a temporary file, fsync'ed, then
 * renamed over the journal, so a crash leaves the old journal (or none)
 * and perhaps the temporary file, never a torn journal.  Allocates nothing,
 * so that the commit record cannot fail for lack of memory.  Only a crashed
 * pcpctl leaves the temporary file, and we hold the lock.
 */
int journal_write_at(const struct journal_files *f, const struct journal *j)
{
	char buf[JOURNAL_MAX];
	size_t len = journal_format(j, buf, sizeof(buf));
	int rc = atomic_write_at(f->dir, NAME_JOURNAL, NAME_JOURNAL_TMP, 0600, buf, len);

	if (rc)
		pcp_error("cannot write the journal %s: %s", f->path, strerror(-rc));
	return rc;
}

int journal_remove_at(const struct journal_files *f)
{
	if (unlinkat(f->dir, NAME_JOURNAL, 0) < 0 && errno != ENOENT)
		return -errno;
	return fsync(f->dir) < 0 ? -errno : 0;
}

int journal_write(const struct sysroot *root, const struct journal *j)
{
	struct journal_files f;
	int rc = journal_files_init(root, &f);

	if (!rc)
		rc = journal_write_at(&f, j);
	journal_files_free(&f);
	return rc;
}

/* "NAME VALUE" of a "persisted" line: a setting the sysctl.d file held. */
static int parse_persisted(char *text, struct journal *j, char *why, size_t whylen)
{
	char *value = strchr(text, ' ');
	int s;

	if (!j->persist) {
		snprintf(why, whylen, "a persisted line comes before the persist line");
		return -EBADMSG;
	}
	if (value)
		*value++ = '\0';
	s = sysctl_by_name(text);
	if (s < 0 || !value) {
		snprintf(why, whylen, "malformed persisted line \"%s\"", text);
		return -EBADMSG;
	}
	if (j->persisted.have[s]) {
		snprintf(why, whylen, "persisted %s is recorded twice", text);
		return -EBADMSG;
	}
	if (parse_long(value, 0, INT_MAX, &j->persisted.value[s])) {
		snprintf(why, whylen, "persisted %s has an invalid value \"%s\"", text, value);
		return -EBADMSG;
	}
	j->persisted.have[s] = true;
	return 0;
}

/* "NAME VALUE" of a "wrote" line: what the change writes to a setting recorded above. */
static int parse_wrote(char *text, struct journal *j, unsigned *seen, char *why, size_t whylen)
{
	char *value = strchr(text, ' ');
	size_t i;

	if (value)
		*value++ = '\0';
	for (i = 0; i < j->n; i++)
		if (strcmp(sysctl_name(j->sysctl[i]), text) == 0)
			break;
	if (i == j->n || !value) {
		snprintf(why, whylen, "wrote line \"%s\" names no recorded setting", text);
		return -EBADMSG;
	}
	if (*seen & (1u << i)) {
		snprintf(why, whylen, "wrote %s is recorded twice", text);
		return -EBADMSG;
	}
	if (j->persist || j->committed) {
		snprintf(why, whylen, "a wrote line comes after the persist or committed line");
		return -EBADMSG;
	}
	if (parse_long(value, 0, INT_MAX, &j->wrote[i])) {
		snprintf(why, whylen, "wrote %s has an invalid value \"%s\"", text, value);
		return -EBADMSG;
	}
	*seen |= 1u << i;
	j->have_wrote = true;
	return 0;
}

/*
 * "NODE ZONE batch B [high H] [high_min A high_max M] [managed P low L
 * cpus C]" of an observed line: what a zone showed before the first write,
 * and in a v3 journal what that was computed from.
 */
static int parse_observed(char *text, bool v3, struct journal *j, char *why, size_t whylen)
{
	static const char *const keys[] = { "batch", "high", "high_min", "high_max",
					    "managed", "low", "cpus" };
	static const long max[] = { INT_MAX, INT_MAX, INT_MAX, INT_MAX, LONG_MAX, LONG_MAX,
				    INT_MAX };
	static const char zone_chars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
					 "0123456789";
	struct journal_zone *z = &j->zones[j->nzones];
	long v[ARRAY_SIZE(keys)], node;
	char *word[2 + 2 * ARRAY_SIZE(keys) + 1], *save;
	size_t n = 0, w = 2;
	bool bad, inputs;

	if (j->nzones == JOURNAL_ZONES_MAX) {
		snprintf(why, whylen, "it records more than %d zones", JOURNAL_ZONES_MAX);
		return -EBADMSG;
	}
	for (size_t k = 0; k < ARRAY_SIZE(v); k++)
		v[k] = -1;
	for (char *t = strtok_r(text, " ", &save); t && n < ARRAY_SIZE(word);
	     t = strtok_r(NULL, " ", &save))
		word[n++] = t;
	bad = n < 2 || n == ARRAY_SIZE(word) || parse_long(word[0], 0, INT_MAX, &node) ||
	      strlen(word[1]) >= sizeof(z->name) || word[1][strspn(word[1], zone_chars)];
	/* The keys in this order, each at most once; batch always. */
	for (size_t k = 0; !bad && k < ARRAY_SIZE(keys) && w + 1 < n; k++) {
		if (strcmp(word[w], keys[k]) != 0)
			continue;
		bad = parse_long(word[w + 1], 0, max[k], &v[k]) != 0;
		w += 2;
	}
	/* The inputs come all three or not at all, and only from v3 on. */
	inputs = v[4] >= 0;
	if (bad || w != n || v[0] < 0 || (v[2] < 0) != (v[3] < 0) ||
	    (v[5] < 0) != !inputs || (v[6] < 0) != !inputs || (inputs && !v3)) {
		snprintf(why, whylen, "malformed observed line");
		return -EBADMSG;
	}
	for (size_t i = 0; i < j->nzones; i++)
		if (j->zones[i].node == node && strcmp(j->zones[i].name, word[1]) == 0) {
			snprintf(why, whylen, "zone %s of node %ld is observed twice", word[1], node);
			return -EBADMSG;
		}
	*z = (struct journal_zone){ .node = (int)node, .batch = (int)v[0], .high = (int)v[1],
				    .high_min = (int)v[2], .high_max = (int)v[3],
				    .have_inputs = inputs };
	if (inputs) {
		z->managed = (uint64_t)v[4];
		z->low = (uint64_t)v[5];
		z->cpus = (unsigned)v[6];
	}
	snprintf(z->name, sizeof(z->name), "%s", word[1]);
	j->nzones++;
	return 0;
}

/*
 * The journal's envelope: its size, its first line (v1 and v3 say which
 * version) and its checksum line, which is cut off (text then ends after
 * the last record).  0 or -EBADMSG with why.
 */
static int check_envelope(char *text, size_t len, bool *v1, bool *v3, char *why, size_t whylen)
{
	unsigned long long want;
	char *sum, tail;

	if (len > JOURNAL_MAX || memchr(text, '\0', len)) {
		snprintf(why, whylen, "it is too large or binary");
		return -EBADMSG;
	}
	sum = strstr(text, "\nsum ");
	*v1 = strncmp(text, JOURNAL_MAGIC_V1, strlen(JOURNAL_MAGIC_V1)) == 0;
	*v3 = strncmp(text, JOURNAL_MAGIC, strlen(JOURNAL_MAGIC)) == 0;
	if (!*v1 && !*v3 && strncmp(text, JOURNAL_MAGIC_V2, strlen(JOURNAL_MAGIC_V2)) != 0) {
		snprintf(why, whylen, "it does not start with \"pcpctl journal v3\" (or v2, v1)");
		return -EBADMSG;
	}
	/* NOLINTNEXTLINE(cert-err34-c): 16 hex digits cannot overflow; the length is checked. */
	if (!sum || sscanf(sum + 5, "%16llx%c", &want, &tail) != 2 || tail != '\n' ||
	    (size_t)(sum + 5 + 17 - text) != len) {
		snprintf(why, whylen, "its checksum line is missing or malformed (truncated?)");
		return -EBADMSG;
	}
	if (journal_checksum(text, (size_t)(sum + 1 - text)) != want) {
		snprintf(why, whylen, "its checksum does not match its content (edited?)");
		return -EBADMSG;
	}
	sum[1] = '\0';
	return 0;
}

/* A setting's line, "NAME VALUE": the sysctl and its value before the change. */
static int parse_setting(const char *line, const char *value, struct journal *j, char *why,
			 size_t whylen)
{
	int s;

	if (j->committed || j->persist || j->have_wrote || j->nzones) {
		snprintf(why, whylen, "%s comes after the lines that follow the settings", line);
		return -EBADMSG;
	}
	s = sysctl_by_name(line);
	if (s < 0) {
		snprintf(why, whylen, "unknown setting \"%s\"", line);
		return -EBADMSG;
	}
	for (size_t i = 0; i < j->n; i++)
		if (j->sysctl[i] == (enum pcp_sysctl)s) {
			snprintf(why, whylen, "%s is recorded twice", line);
			return -EBADMSG;
		}
	if (parse_long(value, 0, INT_MAX, &j->old[j->n])) {
		snprintf(why, whylen, "%s has an invalid value \"%s\"", line, value);
		return -EBADMSG;
	}
	j->sysctl[j->n++] = (enum pcp_sysctl)s;
	return 0;
}

int journal_parse(char *text, size_t len, struct journal *j, char *why, size_t whylen)
{
	char *line, *save;
	unsigned seen = 0;
	bool v1, v3;
	int rc;

	memset(j, 0, sizeof(*j));
	rc = check_envelope(text, len, &v1, &v3, why, whylen);
	if (rc)
		return rc;
	for (line = strtok_r(text + strlen(JOURNAL_MAGIC), "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *value = strchr(line, ' ');

		if (j->committed) {
			snprintf(why, whylen, "\"%s\" follows the committed line", line);
			return -EBADMSG;
		}
		if (strcmp(line, "committed") == 0) {
			j->committed = true;
			continue;
		}
		if (strcmp(line, "persist") == 0) {
			if (j->persist) {
				snprintf(why, whylen, "persist is recorded twice");
				return -EBADMSG;
			}
			j->persist = true;
			continue;
		}
		if (!value) {
			snprintf(why, whylen, "malformed line \"%s\"", line);
			return -EBADMSG;
		}
		*value++ = '\0';
		if (strcmp(line, "observed") == 0) {
			if (v1 || j->persist || !j->n) {
				snprintf(why, whylen, "an observed line %s", v1 ? "in a v1 journal" :
					 "comes before the settings or after the persist line");
				return -EBADMSG;
			}
			rc = parse_observed(value, v3, j, why, whylen);
			if (rc)
				return rc;
			continue;
		}
		if (strcmp(line, "wrote") == 0 && j->nzones) {
			snprintf(why, whylen, "a wrote line comes after the observed lines");
			return -EBADMSG;
		}
		if (strcmp(line, "persisted") == 0 || strcmp(line, "wrote") == 0) {
			rc = line[0] == 'p' ? parse_persisted(value, j, why, whylen) :
					      parse_wrote(value, j, &seen, why, whylen);
			if (rc)
				return rc;
			continue;
		}
		rc = parse_setting(line, value, j, why, whylen);
		if (rc)
			return rc;
	}
	if (j->n == 0) {
		snprintf(why, whylen, "it records no setting");
		return -EBADMSG;
	}
	for (size_t i = 0; j->have_wrote && i < j->n; i++)
		if (!(seen & (1u << i))) {
			snprintf(why, whylen, "it records what was written to some settings only");
			return -EBADMSG;
		}
	return 0;
}

/*
 * The journal's bytes in buf (size > JOURNAL_MAX + 1, so that a larger file
 * shows), NUL-terminated, read from the run directory open as dir: 0,
 * -ENOENT, -EBADMSG when it is not ours (why says how) or another negative
 * errno.
 */
static int read_raw(int dir, char *buf, size_t size, size_t *len, char *why, size_t whylen)
{
	int fd = openat(dir, NAME_JOURNAL, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC), rc;
	ssize_t n;

	*len = 0;
	fd = fd < 0 ? -errno : fd;
	if (fd == -ELOOP) {
		snprintf(why, whylen, "it is a symbolic link");
		return -EBADMSG;
	}
	if (fd < 0)
		return fd;
	if (!run_file_is_private(fd, why, whylen)) {
		close(fd);
		return -EBADMSG;
	}
	n = read(fd, buf, size - 1);
	rc = n < 0 ? -errno : 0;
	close(fd);
	if (rc)
		return rc;
	/* read() returns at most size - 1; said again for GCC's -O3, which cannot see it. */
	*len = (size_t)n < size ? (size_t)n : size - 1;
	buf[*len] = '\0';
	return 0;
}

int journal_read(const struct sysroot *root, struct journal *j, char *why, size_t whylen)
{
	char buf[JOURNAL_MAX + 2];
	size_t n;
	int dir = run_dir(root), rc;

	if (dir == -ELOOP) {
		snprintf(why, whylen, "a symbolic link leads to it");
		return -EBADMSG;
	}
	if (dir < 0)
		return dir;
	rc = read_raw(dir, buf, sizeof(buf), &n, why, whylen);
	close(dir);
	return rc ? rc : journal_parse(buf, n, j, why, whylen);
}

/*
 * A journal that needs no rollback: the change completed, or it is empty or
 * cut inside its first line, which older pcpctl wrote before any setting
 * (the journal then appeared before its text).  Says why in note.
 */
static bool is_stale(int dir, char *note, size_t notelen)
{
	char buf[JOURNAL_MAX + 2], why[160];
	struct journal j;
	size_t n;

	if (read_raw(dir, buf, sizeof(buf), &n, why, sizeof(why)))
		return false;
	if (n <= strlen(JOURNAL_MAGIC) &&
	    (memcmp(buf, JOURNAL_MAGIC, n) == 0 || memcmp(buf, JOURNAL_MAGIC_V2, n) == 0 ||
	     memcmp(buf, JOURNAL_MAGIC_V1, n) == 0)) {
		snprintf(note, notelen, "it records no setting: a pcpctl stopped while creating it, "
			 "before it wrote any");
		return true;
	}
	if (journal_parse(buf, n, &j, why, sizeof(why)) == 0 && j.committed) {
		snprintf(note, notelen, "the change it records had completed; nothing to roll back");
		return true;
	}
	return false;
}

/* The note about a journal that needs no rollback, left for a change to remove. */
static void note_stale(const char *path, const char *why, const char *remover)
{
	pcp_note("%s is left over, but %s; %s removes it", path, why, remover);
}

/* journal_tidy, or with dry, journal_pending. */
static int tidy(const struct sysroot *root, bool dry)
{
	const char *path = sysroot_name(root, PATH_JOURNAL);
	const char *tmp = sysroot_name(root, PATH_JOURNAL_TMP);
	int dir = run_dir(root), rc;
	char note[160];
	struct stat st;

	/* No run directory holds no journal. */
	if (dir == -ENOENT)
		return 0;
	if (dir < 0) {
		pcp_error("cannot inspect %s: %s", path, sysroot_strerror(dir));
		return dir;
	}
	if (dry && fstatat(dir, NAME_JOURNAL_TMP, &st, AT_SYMLINK_NOFOLLOW) == 0)
		note_stale(tmp, "a pcpctl stopped while writing it, before it wrote any setting",
			   "the change");
	else if (!dry && unlinkat(dir, NAME_JOURNAL_TMP, 0) == 0)
		pcp_note("removed %s: a pcpctl stopped while writing its journal, before it wrote any "
			 "setting", tmp);
	if (is_stale(dir, note, sizeof(note))) {
		if (dry) {
			note_stale(path, note, "the change");
			rc = 0;
			goto out;
		}
		if (unlinkat(dir, NAME_JOURNAL, 0) < 0) {
			rc = -errno;
			pcp_error("cannot remove %s (%s): %s", path, note, strerror(errno));
			goto out;
		}
		pcp_note("removed %s: %s", path, note);
	}
	if (fstatat(dir, NAME_JOURNAL, &st, AT_SYMLINK_NOFOLLOW) == 0)
		rc = 1;
	else if (errno == ENOENT)
		rc = 0;
	else {
		rc = -errno;
		pcp_error("cannot inspect %s: %s", path, strerror(errno));
	}
out:
	close(dir);
	return rc;
}

int journal_tidy(const struct sysroot *root)
{
	return tidy(root, false);
}

int journal_pending(const struct sysroot *root)
{
	return tidy(root, true);
}

int journal_remove(const struct sysroot *root)
{
	struct journal_files f;
	int rc = journal_files_init(root, &f);

	if (!rc)
		rc = journal_remove_at(&f);
	journal_files_free(&f);
	return rc;
}

bool journal_exists(const struct sysroot *root)
{
	return sysroot_exists(root, PATH_JOURNAL);
}

void journal_say_leftover(const struct sysroot *root, bool refuse)
{
	char msg[PATH_MAX + 128];

	snprintf(msg, sizeof(msg), "an interrupted pcpctl change left %s; run '%s' "
		 "first, to restore the settings it recorded", sysroot_name(root, PATH_JOURNAL),
		 sysroot_command(root, "rollback"));
	if (refuse)
		pcp_error("%s", msg);
	else
		pcp_warn("%s", msg);
}

/*
 * Whether rollback would apply the journal rather than refuse it (why says
 * why not): it is intact and records only sysctls this kernel has.  One
 * this user may not read is taken as applicable: rollback will tell.
 */
static bool journal_applicable(const struct sysroot *root, char *why, size_t whylen)
{
	struct journal j;
	int rc = journal_read(root, &j, why, whylen);

	if (rc == -EBADMSG)
		return false;
	for (size_t i = 0; rc == 0 && i < j.n; i++) {
		char file[64];

		if (sysroot_probe(root, sysctl_file(j.sysctl[i], file, sizeof(file))) == 0) {
			snprintf(why, whylen, "it records vm.%s, which this kernel lacks",
				 sysctl_name(j.sysctl[i]));
			return false;
		}
	}
	return true;
}

/*
 * Without waiting: a pcpctl that holds the lock is changing the settings
 * now, and its journal is no sign of trouble.  With the lock free, the
 * journal was left by one that stopped.  The shared lock is held while the
 * journal is looked at again, so that a change cannot start or end meanwhile.
 */
void journal_warn_leftover(const struct sysroot *root)
{
	const char *lock = sysroot_name(root, PATH_LOCK), *path = sysroot_name(root, PATH_JOURNAL);
	char note[160];
	int dir, fd;

	if (!journal_exists(root))
		return;
	/* A run directory that is no directory, or a link, is not looked into: rollback says why. */
	dir = run_dir(root);
	fd = dir < 0 ? -1 : openat(dir, NAME_LOCK, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0 && flock(fd, LOCK_SH | LOCK_NB) < 0) {
		if (errno == EWOULDBLOCK)
			pcp_note("a pcpctl change is in progress (it holds %s); the values shown may "
				 "change when it finishes", lock);
	} else if (dir >= 0 && is_stale(dir, note, sizeof(note))) {
		/* Removing needs the lock to ourselves; another reader may share it. */
		if (fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0 && unlinkat(dir, NAME_JOURNAL, 0) == 0)
			pcp_note("removed %s: %s", path, note);
		else
			note_stale(path, note, "the next pcpctl change");
	} else if (journal_exists(root)) {
		/* Not gone since the first look, as it is when a change has just finished. */
		if (journal_applicable(root, note, sizeof(note)))
			pcp_warn("an interrupted pcpctl change left %s (no pcpctl is running it); "
				 "run '%s' to restore the settings it recorded", path,
				 sysroot_command(root, "rollback"));
		else
			pcp_warn("an interrupted pcpctl change left %s, which cannot be rolled back: "
				 "%s; set the values by hand, then run '%s'", path, note,
				 sysroot_command(root, "rollback --discard"));
	}
	if (fd >= 0)
		close(fd);
	if (dir >= 0)
		close(dir);
}
