#include "journal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lock.h"
#include "msg.h"
#include "numparse.h"
#include "sysroot.h"

#define JOURNAL_MAGIC "pcpctl journal v1\n"

uint64_t journal_checksum(const char *s, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (size_t i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

static int sync_dir(const struct sysroot *root, const char *dirpath)
{
	char *dir = sysroot_path(root, dirpath);
	int fd, rc = 0;

	if (!dir)
		return -ENOMEM;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	free(dir);
	if (fd < 0)
		return -errno;
	if (fsync(fd) < 0)
		rc = -errno;
	close(fd);
	return rc;
}

size_t journal_format(const struct journal *j, char *buf, size_t size)
{
	size_t len = 0;

	len += (size_t)snprintf(buf + len, size - len, "%s", JOURNAL_MAGIC);
	for (size_t i = 0; i < j->n; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s %ld\n",
					sysctl_name(j->sysctl[i]), j->old[i]);
	if (j->persist) {
		len += (size_t)snprintf(buf + len, size - len, "persist\n");
		for (int s = 0; s < NSYSCTLS; s++)
			if (j->persisted.have[s])
				len += (size_t)snprintf(buf + len, size - len,
							"persisted %s %ld\n", sysctl_name(s),
							j->persisted.value[s]);
	}
	len += (size_t)snprintf(buf + len, size - len, "sum %016llx\n",
				(unsigned long long)journal_checksum(buf, len));
	return len;
}

int journal_write(const struct sysroot *root, const struct journal *j)
{
	char buf[JOURNAL_MAX];
	size_t len = journal_format(j, buf, sizeof(buf));
	const char *path = sysroot_name(root, PATH_JOURNAL);
	int fd = sysroot_open_nofollow(root, PATH_JOURNAL, O_WRONLY | O_CREAT | O_EXCL, 0600);
	int rc = 0;

	if (fd < 0) {
		pcp_error("cannot create the journal %s: %s", path, strerror(-fd));
		return fd;
	}
	ssize_t written = write(fd, buf, len);
	if (written < 0)
		rc = -errno;	/* NOLINT(bugprone-branch-clone): write's errno; fsync's below */
	else if ((size_t)written != len)
		rc = -EIO;
	else if (fsync(fd) < 0)
		rc = -errno;
	if (close(fd) < 0 && !rc)
		rc = -errno;
	if (!rc)
		rc = sync_dir(root, PATH_RUN_DIR);
	if (rc) {
		pcp_error("cannot write the journal %s: %s", path, strerror(-rc));
		unlink(path);
	}
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

int journal_parse(char *text, size_t len, struct journal *j, char *why, size_t whylen)
{
	char *sum;
	char *line, *save;
	unsigned long long want;
	char tail;

	memset(j, 0, sizeof(*j));
	if (len > JOURNAL_MAX || memchr(text, '\0', len)) {
		snprintf(why, whylen, "it is too large or binary");
		return -EBADMSG;
	}
	sum = strstr(text, "\nsum ");
	if (strncmp(text, JOURNAL_MAGIC, strlen(JOURNAL_MAGIC)) != 0) {
		snprintf(why, whylen, "it does not start with \"pcpctl journal v1\"");
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
	for (line = strtok_r(text + strlen(JOURNAL_MAGIC), "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *value = strchr(line, ' ');
		int s;

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
		if (strcmp(line, "persisted") == 0) {
			int rc = parse_persisted(value, j, why, whylen);

			if (rc)
				return rc;
			continue;
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
	}
	if (j->n == 0) {
		snprintf(why, whylen, "it records no setting");
		return -EBADMSG;
	}
	return 0;
}

int journal_read(const struct sysroot *root, struct journal *j, char *why, size_t whylen)
{
	/* One byte more than a journal may hold, so that a larger file shows, and its NUL. */
	char buf[JOURNAL_MAX + 2];
	int fd = sysroot_open_nofollow(root, PATH_JOURNAL, O_RDONLY | O_NONBLOCK, 0), rc;
	ssize_t n;

	if (fd == -ELOOP) {
		snprintf(why, whylen, "it is a symbolic link");
		return -EBADMSG;
	}
	if (fd < 0)
		return fd;
	if (!run_file_is_private(fd)) {
		close(fd);
		snprintf(why, whylen, "it is not a private regular file of uid %u", (unsigned)geteuid());
		return -EBADMSG;
	}
	n = read(fd, buf, sizeof(buf) - 1);
	rc = n < 0 ? -errno : 0;
	close(fd);
	if (rc)
		return rc;
	buf[n] = '\0';
	return journal_parse(buf, (size_t)n, j, why, whylen);
}

int journal_remove(const struct sysroot *root)
{
	char *path = sysroot_path(root, PATH_JOURNAL);
	int rc = 0;

	if (!path)
		return -ENOMEM;
	if (unlink(path) < 0 && errno != ENOENT)
		rc = -errno;
	free(path);
	if (!rc)
		rc = sync_dir(root, PATH_RUN_DIR);
	return rc;
}

bool journal_exists(const struct sysroot *root)
{
	return sysroot_exists(root, PATH_JOURNAL);
}

void journal_say_leftover(const struct sysroot *root, bool refuse)
{
	char msg[PATH_MAX + 128];

	snprintf(msg, sizeof(msg), "an interrupted pcpctl change left %s; run 'pcpctl rollback' "
		 "first, to restore the settings it recorded", sysroot_name(root, PATH_JOURNAL));
	if (refuse)
		pcp_error("%s", msg);
	else
		pcp_warn("%s", msg);
}

void journal_warn_leftover(const struct sysroot *root)
{
	if (journal_exists(root))
		journal_say_leftover(root, false);
}
