/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hostinfo.c - host name, kernel release, CPU model, online CPUs and NUMA
 * nodes, all through the sysroot
 */
#include "hostinfo.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "idlist.h"
#include "sysroot.h"

/* The first line of a file, or NULL when it cannot be read or is empty. */
static char *first_line(const struct sysroot *sr, const char *path)
{
	char *buf = NULL;

	if (sysroot_read_line(sr, path, &buf) < 0)
		return NULL;
	if (!buf[0]) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* x86's "model name", arm64's none: then NULL. */
static char *cpu_model(const struct sysroot *sr)
{
	static const char key[] = "model name";
	char *buf = NULL, *line, *model = NULL;
	size_t len;

	if (sysroot_read_file(sr, PATH_CPUINFO, &buf, &len) < 0)
		return NULL;
	for (line = buf; line && !model; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		const char *colon;

		if (strncmp(line, key, sizeof(key) - 1) != 0)
			continue;
		colon = strchr(line, ':');
		if (!colon || memchr(line, '\n', (size_t)(colon - line)))
			continue;
		colon += 1 + (colon[1] == ' ');
		model = strndup(colon, strcspn(colon, "\n"));
	}
	free(buf);
	return model;
}

static long count_cpus(const struct sysroot *sr)
{
	struct idlist l = { 0 };
	long n = 0;

	if (sysroot_read_cpulist(sr, PATH_CPU_ONLINE, &l) < 0)
		return -1;
	for (size_t i = 0; i < l.nbits; i++)
		n += idlist_has(&l, (long)i);
	idlist_free(&l);
	return n;
}

static long count_nodes(const struct sysroot *sr)
{
	DIR *d = sysroot_opendir(sr, PATH_NODES);
	struct dirent *e;
	long n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		n += strncmp(e->d_name, "node", 4) == 0 && e->d_name[4] >= '0' &&
		     e->d_name[4] <= '9';
	closedir(d);
	return n;
}

void hostinfo_read(const struct sysroot *sr, struct hostinfo *h)
{
	memset(h, 0, sizeof(*h));
	h->name = first_line(sr, PATH_HOSTNAME);
	h->kernel = first_line(sr, PATH_OSRELEASE);
	h->cpu_model = cpu_model(sr);
	h->online_cpus = count_cpus(sr);
	h->numa_nodes = count_nodes(sr);
}

void hostinfo_free(struct hostinfo *h)
{
	free(h->name);
	free(h->kernel);
	free(h->cpu_model);
	memset(h, 0, sizeof(*h));
}
