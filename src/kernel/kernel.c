/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "kernel.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "msg.h"
#include "numparse.h"
#include "sysroot.h"
#include "zoneinfo.h"

static const char *const names[NSYSCTLS] = {
	[SYSCTL_BATCH] = "percpu_pagelist_batch",
	[SYSCTL_HIGH_FRACTION] = "percpu_pagelist_high_fraction",
	[SYSCTL_FRACTION] = "percpu_pagelist_fraction",
};

const char *sysctl_name(enum pcp_sysctl s)
{
	return names[s];
}

int sysctl_by_name(const char *name)
{
	for (int s = 0; s < NSYSCTLS; s++)
		if (strcmp(name, names[s]) == 0)
			return s;
	return -1;
}

const char *sysctl_file(enum pcp_sysctl s, char *buf, size_t size)
{
	snprintf(buf, size, PATH_SYSCTL_VM "%s", names[s]);
	return buf;
}

char *sysctl_path(const struct kernel *k, enum pcp_sysctl s)
{
	char file[64];

	return sysroot_path(k->root, sysctl_file(s, file, sizeof(file)));
}

int sysctl_parse_value(const char *text, long *value)
{
	char buf[32];
	size_t n = strcspn(text, "\n");

	if (n == 0 || n >= sizeof(buf) || (text[n] && text[n + 1]))
		return -EINVAL;
	memcpy(buf, text, n);
	buf[n] = '\0';
	return parse_long(buf, INT_MIN, INT_MAX, value) ? -EINVAL : 0;
}

struct kernel *kernel_new(const struct sysroot *root, const struct kernel_ops *ops)
{
	struct kernel *k = calloc(1, sizeof(*k));

	if (!k)
		return NULL;
	k->ops = ops;
	k->root = root;
	return k;
}

void kernel_free(struct kernel *k)
{
	free(k);
}

int kernel_open_zoneinfo_file(struct kernel *k)
{
	/* A tree may link its zoneinfo to a capture in it; the parser bounds its lines. */
	return sysroot_open_read(k->root, PATH_ZONEINFO);
}

int kernel_read_sysctl_file(struct kernel *k, enum pcp_sysctl s, long *value)
{
	char file[64], *text;
	size_t len;
	int rc = sysroot_read_file(k->root, sysctl_file(s, file, sizeof(file)), &text, &len);

	if (rc)
		return rc;
	rc = sysctl_parse_value(text, value);
	free(text);
	return rc;
}

static const char *const vm_names[NVMCOUNTERS] = {
	[VM_PGALLOC_DMA] = "pgalloc_dma",
	[VM_PGALLOC_DMA32] = "pgalloc_dma32",
	[VM_PGALLOC_NORMAL] = "pgalloc_normal",
	[VM_PGALLOC_HIGH] = "pgalloc_high",
	[VM_PGALLOC_MOVABLE] = "pgalloc_movable",
	[VM_PGFREE] = "pgfree",
	[VM_PGFAULT] = "pgfault",
};

const char *vm_counter_name(enum vm_counter v)
{
	return vm_names[v];
}

int vmstat_parse(const char *text, struct vm_counters *c)
{
	memset(c, 0, sizeof(*c));
	for (const char *line = text; *line; ) {
		size_t len = strcspn(line, "\n");
		size_t name_len = strcspn(line, " ");

		/* "name value": anything else is a file that is not vmstat. */
		if (name_len >= len || name_len == 0)
			goto bad;
		for (int v = 0; v < NVMCOUNTERS; v++) {
			size_t num_len = len - name_len - 1;
			char num[24];
			char *end;

			if (strlen(vm_names[v]) != name_len || strncmp(line, vm_names[v], name_len) != 0)
				continue;
			if (num_len == 0 || num_len >= sizeof(num))
				goto bad;
			memcpy(num, line + name_len + 1, num_len);
			num[num_len] = '\0';
			errno = 0;
			c->value[v] = strtoull(num, &end, 10);
			if (errno || *end || num[0] < '0' || num[0] > '9')
				goto bad;
			c->present |= 1u << v;
		}
		line += len + (line[len] == '\n');
	}
	return 0;
bad:
	/* Nothing of a damaged file counts. */
	memset(c, 0, sizeof(*c));
	return -EINVAL;
}

int kernel_read_vmstat_file(struct kernel *k, struct vm_counters *c)
{
	char *text;
	size_t len;
	int rc = sysroot_read_paced(k->root, PATH_VMSTAT, &text, &len);

	if (rc)
		return rc;
	rc = vmstat_parse(text, c);
	free(text);
	return rc;
}

/* The file, and what it holds when that is no number (the sim reports -EINVAL for it too). */
static void say_unreadable(struct kernel *k, enum pcp_sysctl s, int err)
{
	char file[64], *text = NULL;
	size_t len;
	const char *path = sysroot_name(k->root, sysctl_file(s, file, sizeof(file)));

	if (err == -EINVAL && sysroot_read_file(k->root, file, &text, &len) == 0) {
		len = strcspn(text, "\n");
		pcp_error("cannot read vm.%s: %s holds \"%.*s\", not a whole number",
			  sysctl_name(s), path, (int)(len > 40 ? 40 : len), text);
	} else {
		pcp_error("cannot read vm.%s from %s: %s", sysctl_name(s), path, strerror(-err));
	}
	free(text);
}

int kernel_read_settings(struct kernel *k, bool have[NSYSCTLS], long value[NSYSCTLS])
{
	int rc = 0;

	for (int s = 0; s < NSYSCTLS; s++) {
		int err = k->ops->read_sysctl(k, s, &value[s]);

		have[s] = err == 0;
		if (err && err != -ENOENT) {
			say_unreadable(k, s, err);
			rc = -EIO;
		}
	}
	return rc;
}

char *kernel_release(const struct kernel *k)
{
	char *text = NULL;
	int rc = sysroot_read_line(k->root, PATH_OSRELEASE, &text);

	if (rc) {
		errno = -rc;
		return NULL;
	}
	return text;
}

int smaps_page_size(const char *text, long *bytes)
{
	static const char key[] = "KernelPageSize:";
	const char *line = text;
	char num[16];
	size_t n;
	long kib;

	while (strncmp(line, key, sizeof(key) - 1) != 0) {
		line = strchr(line, '\n');
		if (!line)
			return -ENOENT;
		line++;
	}
	line += sizeof(key) - 1;
	line += strspn(line, " \t");
	/* "KernelPageSize:       4 kB" */
	n = strspn(line, "0123456789");
	if (n == 0 || n >= sizeof(num) || strncmp(line + n, " kB", 3) != 0 ||
	    (line[n + 3] != '\n' && line[n + 3] != '\0'))
		return -EINVAL;
	memcpy(num, line, n);
	num[n] = '\0';
	if (parse_long(num, 1, LONG_MAX / 1024, &kib))
		return -EINVAL;
	*bytes = kib * 1024;
	return 0;
}

static long root_page_size(const struct sysroot *root, bool *assumed)
{
	char *text = NULL;
	size_t len;
	long bytes;
	int rc;

	*assumed = false;
	if (sysroot_is_live(root))
		return sysconf(_SC_PAGESIZE);
	rc = sysroot_read_file(root, PATH_SELF_SMAPS, &text, &len);
	if (!rc) {
		rc = smaps_page_size(text, &bytes);
		free(text);
		if (!rc)
			return bytes;
	}
	if (rc != -ENOENT) {
		pcp_error("%s: %s", sysroot_name(root, PATH_SELF_SMAPS),
			  rc == -EINVAL ? "its KernelPageSize line is no page size" : strerror(-rc));
		return rc;
	}
	pcp_warn("%s does not record the page size: 4 KiB is assumed. Copy "
		 "/proc/self/smaps of the system the tree comes from there", sysroot_name(root, PATH_SELF_SMAPS));
	*assumed = true;
	return 4096;
}

long kernel_page_size(struct kernel *k, bool *assumed)
{
	long size;

	if (k->page_size) {
		*assumed = k->page_size_assumed;
		return k->page_size;
	}
	/* Kept, so that a tree that does not say is warned of once; an error is said at each ask. */
	size = root_page_size(k->root, assumed);
	if (size > 0) {
		k->page_size = size;
		k->page_size_assumed = *assumed;
	}
	return size;
}

int kernel_scale_max(const struct sysroot *root)
{
	char *config = NULL;
	const char *at;
	size_t len;
	long scale = -ENOENT;

	if (sysroot_read_boot_config(root, &config, &len))
		return -ENOENT;
	/* One line of the kernel's .config: CONFIG_PCP_BATCH_SCALE_MAX=5 */
	for (at = config; (at = strstr(at, "CONFIG_PCP_BATCH_SCALE_MAX=")); at++)
		if (at == config || at[-1] == '\n') {
			scale = strtol(at + strlen("CONFIG_PCP_BATCH_SCALE_MAX="), NULL, 10);
			break;
		}
	free(config);
	return scale >= 0 && scale <= 30 ? (int)scale : -ENOENT;
}


/*
 * Big enough that a 1,792-CPU zoneinfo (11 MB) takes few reads, small
 * enough to stay in cache, and to cost few page faults on smaller files.
 */
#define ZONEINFO_CHUNK ((size_t)64 * 1024)

/*
 * Page-aligned: the kernel copies file data out of whole pages, and on AMD
 * EPYC (Zen) that copy runs 6 to 11 times slower into a buffer 8 or 16
 * bytes past a page boundary, which is where malloc puts a block this big
 * (bench/README.md has the figures).
 */
#define ZONEINFO_CHUNK_ALIGN ((size_t)4096)

int kernel_load_zoneinfo(struct kernel *k, struct zoneinfo *zi)
{
	struct zi_parser *parser;
	struct zi_error err;
	char *chunk = aligned_alloc(ZONEINFO_CHUNK_ALIGN, ZONEINFO_CHUNK);
	int fd, rc = 0;

	fd = chunk ? k->ops->open_zoneinfo(k) : -ENOMEM;
	if (fd < 0) {
		pcp_error("cannot read %s: %s", sysroot_name(k->root, PATH_ZONEINFO), strerror(-fd));
		free(chunk);
		return fd;
	}
	parser = zi_parser_begin(zi, &err);
	if (!parser)
		rc = -ENOMEM;
	while (parser && !rc) {
		ssize_t n = read(fd, chunk, ZONEINFO_CHUNK);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			rc = -errno;
			pcp_error("cannot read %s: %s", sysroot_name(k->root, PATH_ZONEINFO), strerror(errno));
			break;
		}
		if (n == 0)
			break;
		/* The parser keeps its first error for finish: read no further. */
		if (zi_parser_feed(parser, chunk, (size_t)n))
			break;
	}
	close(fd);
	free(chunk);
	if (!parser) {
		pcp_error("out of memory reading %s", sysroot_name(k->root, PATH_ZONEINFO));
		return -ENOMEM;
	}
	if (rc) {
		/* finish frees what the parser built; the read error is what to report */
		zi_parser_finish(parser);
		return rc;
	}
	rc = zi_parser_finish(parser);
	if (rc == -ENOMEM)
		pcp_error("out of memory reading %s", sysroot_name(k->root, PATH_ZONEINFO));
	else if (rc && err.line)
		pcp_error("%s:%zu: %s", sysroot_name(k->root, PATH_ZONEINFO), err.line, err.message);
	else if (rc)
		pcp_error("%s: %s", sysroot_name(k->root, PATH_ZONEINFO), err.message);
	return rc;
}

long long meminfo_memfree_kib(const char *text)
{
	static const char key[] = "MemFree:";

	for (const char *l = text; l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		unsigned long long kib;
		char *end;

		if (strncmp(l, key, sizeof(key) - 1) != 0)
			continue;
		l += sizeof(key) - 1;
		l += strspn(l, " ");
		if (*l < '0' || *l > '9')
			return -1;
		errno = 0;
		kib = strtoull(l, &end, 10);
		/* "MemFree:  123 kB": the kernel has always counted it in KiB */
		if (errno || kib > LLONG_MAX || strncmp(end, " kB", 3) != 0 ||
		    (end[3] != '\n' && end[3] != '\0'))
			return -1;
		return (long long)kib;
	}
	return -1;
}

long long kernel_memfree_kib(const struct kernel *k)
{
	long long kib;
	char *text;
	size_t len;

	if (!sysroot_is_live(k->root) || sysroot_read_file(k->root, PATH_MEMINFO, &text, &len))
		return -1;
	kib = meminfo_memfree_kib(text);
	free(text);
	return kib;
}
