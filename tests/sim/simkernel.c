/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A simulated kernel behind the kernel interface, for tests of the change
 * transaction.  Its state is a sysroot tree: proc/zoneinfo (a real capture
 * to start from), the files of proc/sys/vm, proc/sys/kernel/osrelease, the node
 * cpulists and proc/self/smaps (the page size).  A sysctl write validates like
 * the kernel, and unless the value is already set, recomputes batch and high
 * by the simulator's own rules (simrules.c) for the release's generation and
 * the page size, and rewrites zoneinfo.  Faults come from DIR/sim/faults, one per
 * line:
 *   fail-write K ERRNO      the K-th write (counted in DIR/sim/writes) fails
 *   mismatch-after-write K  the K-th write leaves one pageset off by one
 *   mismatch-always         every write does
 *   boost-after-write K N   after the K-th write kswapd moves every zone's
 *                           watermark boost by N pages (N < 0 clears it)
 *   crash STEP              SIGKILL at the transaction checkpoint STEP
 *   hold STEP               stop at checkpoint STEP: create DIR/sim/held,
 *                           then wait until the test creates DIR/sim/release
 *                           and remove both (from "journal" on, pcpctl holds
 *                           its lock meanwhile)
 *   foreign-write STEP NAME=VALUE
 *                           another writer sets vm.NAME at checkpoint STEP
 *   delay MICROSECONDS [SEED]
 *                           pause a random time up to this at every
 *                           checkpoint and before every write takes effect,
 *                           so that a kill at a random moment can land in
 *                           every window of the transaction
 *   move STEP WHAT...       the machine moves at checkpoint STEP (every
 *                           such line of the step), as sim_move() says;
 *                           STEP "read" is every read of zoneinfo, whose
 *                           limits are recomputed only after it: memory
 *                           that never holds still
 * A sysctl write happens in a child process, so that, as in the kernel, a
 * SIGKILL of pcpctl cannot cut it in half.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "c.h"
#include "idlist.h"
#include "kernel.h"
#include "numparse.h"
#include "simkernel.h"
#include "simrules.h"
#include "sysroot.h"
#include "zoneinfo.h"

static char *tree_path(const struct kernel *k, const char *rel)
{
	return sysroot_path(k->root, rel);
}

static int read_text(const struct kernel *k, const char *rel, char **text)
{
	char *path = tree_path(k, rel);
	size_t len;
	int rc;

	if (!path)
		return -ENOMEM;
	rc = read_whole_file(path, text, &len);
	free(path);
	return rc;
}

/* Replace a tree file atomically, as the kernel's view changes at once. */
static int write_text(const struct kernel *k, const char *rel, const char *text, size_t len)
{
	char *path = tree_path(k, rel);
	char *tmp = NULL;
	FILE *f;
	int rc = 0;

	if (!path || asprintf(&tmp, "%s.sim-tmp", path) < 0) {
		free(path);
		return -ENOMEM;
	}
	f = fopen(tmp, "w");
	if (!f)
		rc = -errno;
	else {
		if (fwrite(text, 1, len, f) != len)
			rc = -EIO;
		if (fclose(f) != 0 && !rc)
			rc = -errno;
		if (!rc && rename(tmp, path) < 0)
			rc = -errno;
	}
	free(tmp);
	free(path);
	return rc;
}

static char *sysctl_rel(enum pcp_sysctl s)
{
	char *rel;

	if (asprintf(&rel, PATH_SYSCTL_VM "%s", sysctl_name(s)) < 0)
		return NULL;
	return rel;
}

/* Does DIR/sim/faults have "WORD ARG..." with the given first argument? */
static bool fault(const struct kernel *k, const char *word, const char *arg, char *rest,
		  size_t restlen)
{
	char *text, *line, *save;
	bool found = false;

	if (read_text(k, "/sim/faults", &text))
		return false;
	for (line = strtok_r(text, "\n", &save); line && !found; line = strtok_r(NULL, "\n", &save)) {
		char w[64], a[64], r[64] = "";
		int n = sscanf(line, "%63s %63s %63s", w, a, r);

		if (n >= 1 && strcmp(w, word) == 0 && (!arg || (n >= 2 && strcmp(a, arg) == 0))) {
			found = true;
			if (rest)
				snprintf(rest, restlen, "%s", r);
		}
	}
	free(text);
	return found;
}

static int errno_by_name(const char *name)
{
	static const struct {
		const char *name;
		int value;
	} names[] = { { "EINVAL", EINVAL }, { "EIO", EIO }, { "EACCES", EACCES },
		      { "EROFS", EROFS }, { "EPERM", EPERM }, { "ENOSPC", ENOSPC } };

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (strcmp(name, names[i].name) == 0)
			return names[i].value;
	return EIO;
}

static long next_write_number(struct kernel *k)
{
	char *text = NULL, buf[32];
	long n = 0;

	if (read_text(k, "/sim/writes", &text) == 0)
		sysctl_parse_value(text, &n);
	free(text);
	n++;
	snprintf(buf, sizeof(buf), "%ld\n", n);
	write_text(k, "/sim/writes", buf, strlen(buf));
	return n;
}

/* The tree's page size: its proc/self/smaps, as a guest's own (simrules.h). */
static unsigned page_shift(const struct kernel *k)
{
	char *smaps = NULL;
	unsigned long size;
	unsigned shift = 0;

	read_text(k, "/proc/self/smaps", &smaps);
	size = sim_page_size_of_smaps(smaps);
	free(smaps);
	while ((1UL << shift) < size)
		shift++;
	return shift;
}

static long patch_batch_max(const struct kernel *k)
{
	char *text = NULL;
	long max;

	/* Patch v2's read-only file where a tree has it; v3 computes it at boot. */
	if (read_text(k, PATH_SYSCTL_VM "percpu_pagelist_batch_max", &text) ||
	    sysctl_parse_value(text, &max) || max < 1)
		max = sim_patch_batch_max(page_shift(k), SIM_SCALE_MAX);
	free(text);
	return max;
}

/*
 * proc_dointvec_minmax() with the sysctl's bounds: the patch's 0..batch_max;
 * the fractions' 0 or 8..INT_MAX (percpu_pagelist_fraction_sysctl_handler()
 * up to 5.13, percpu_pagelist_high_fraction_sysctl_handler() from 5.14).
 */
static bool valid_value(const struct kernel *k, enum pcp_sysctl s, long v)
{
	if (s == SYSCTL_BATCH)
		return v >= 0 && v <= patch_batch_max(k);
	return v == 0 || (v >= SIM_MIN_FRACTION && v <= INT_MAX);
}

/*
 * cpumask_weight(cpumask_of_node(nid)) in zone_highsize(): the zone's node's
 * CPUs that are online (those with a pageset), or every online CPU when the
 * node has none or the kernel no NUMA.
 */
static unsigned split_cpus(const struct kernel *k, const struct zi_zone *z)
{
	struct idlist node;
	char path[80];
	unsigned n = 0;

	snprintf(path, sizeof(path), PATH_NODES "/node%d/cpulist", z->node);
	if (sysroot_read_cpulist(k->root, path, &node) == 0) {
		for (size_t i = 0; i < z->npagesets; i++)
			if (idlist_has(&node, z->pagesets[i].cpu))
				n++;
		idlist_free(&node);
	}
	return n ? n : (unsigned)z->npagesets;
}

/*
 * What the kernel sets in one zone.  A write recomputes every CPU's batch
 * (and high_min/high_max); high too up to 6.6, and from 6.7 only on the
 * writing CPU, the first, as the others set theirs when they next free.
 * At boot every CPU has it.
 */
static void recompute_zone(const struct kernel *k, const struct sim_kernel *sk, bool boot,
			   struct zi_zone *z)
{
	struct sim_zone in = {
		.managed = z->field[ZI_MANAGED], .low = z->field[ZI_LOW], .split = split_cpus(k, z),
	};
	struct sim_pcp pcp;

	sim_zone_pcp(sk, &in, &pcp);
	for (size_t i = 0; i < z->npagesets; i++) {
		struct zi_pageset *ps = &z->pagesets[i];

		ps->value[ZI_BATCH] = pcp.batch;
		ps->value[ZI_HIGH_MIN] = pcp.high_min;
		ps->value[ZI_HIGH_MAX] = pcp.high_max;
		if (sk->gen < SIM_GEN_6_7 || boot || i == 0)
			ps->value[ZI_HIGH] = pcp.high;
	}
}

/*
 * Rewrite the numbers of the batch/high lines in place, zone by zone, so
 * that every other line of the capture stays as the real kernel printed it.
 */
static int rewrite_zoneinfo(struct kernel *k, const char *text, size_t len,
			    const struct zoneinfo *zi, long boost)
{
	static const struct {
		const char *key;
		enum zi_field field;
	} keys[] = { { "high:", ZI_HIGH }, { "batch:", ZI_BATCH }, { "high_min:", ZI_HIGH_MIN },
		     { "high_max:", ZI_HIGH_MAX } };
	char *out = malloc(len * 2 + 64);
	size_t o = 0, zone = 0, pageset = 0;
	bool seen_zone = false;
	int rc;

	if (!out)
		return -ENOMEM;
	for (const char *p = text; p < text + len;) {
		const char *nl = memchr(p, '\n', (size_t)(text + len - p));
		const char *s = p;
		size_t linelen = (size_t)(nl - p) + 1;
		bool done = false;

		while (*s == ' ')
			s++;
		if (strncmp(s, "Node ", 5) == 0) {
			zone = seen_zone ? zone + 1 : 0;
			seen_zone = true;
			pageset = 0;
		} else if (strncmp(s, "cpu:", 4) == 0) {
			pageset++;
		}
		/* The boost is part of the low watermark that zoneinfo prints. */
		if (boost && !pageset && seen_zone &&
		    (strncmp(s, "low ", 4) == 0 || strncmp(s, "boost ", 6) == 0)) {
			const char *num = s + strcspn(s, "0123456789");

			memcpy(out + o, p, (size_t)(num - p));
			o += (size_t)(num - p);
			o += (size_t)sprintf(out + o, "%ld\n", strtol(num, NULL, 10) + boost);
			done = true;
		}
		for (size_t i = 0; i < ARRAY_SIZE(keys) && pageset && !done; i++) {
			size_t kl = strlen(keys[i].key);
			const char *num;

			if (strncmp(s, keys[i].key, kl) != 0)
				continue;
			for (num = s + kl; *num == ' '; num++)
				;
			memcpy(out + o, p, (size_t)(num - p));
			o += (size_t)(num - p);
			o += (size_t)sprintf(out + o, "%d\n",
					     zi->zones[zone].pagesets[pageset - 1].value[keys[i].field]);
			done = true;
		}
		if (!done) {
			memcpy(out + o, p, linelen);
			o += linelen;
		}
		p = nl + 1;
	}
	rc = write_text(k, PATH_ZONEINFO, out, o);
	free(out);
	return rc;
}

static int recompute(struct kernel *k, bool boot, bool mismatch, long boost)
{
	struct sim_kernel sk = { .page_shift = page_shift(k) };
	long value[NSYSCTLS];
	bool have[NSYSCTLS];
	struct zoneinfo zi;
	struct zi_error err;
	char *text, *release;
	size_t len;
	int rc;

	release = kernel_release(k);
	if (!release)
		return -errno;
	rc = sim_gen_of_release(release, &sk.gen) ? 0 : -EINVAL;
	free(release);
	if (rc)
		return rc;
	for (int s = 0; s < NSYSCTLS; s++)
		have[s] = kernel_read_sysctl_file(k, s, &value[s]) == 0;
	/* Each generation reads its own fraction: a tree's other one is no kernel's. */
	if (sk.gen <= SIM_GEN_4_19)
		sk.fraction = have[SYSCTL_FRACTION] ? value[SYSCTL_FRACTION] : 0;
	else
		sk.fraction = have[SYSCTL_HIGH_FRACTION] ? value[SYSCTL_HIGH_FRACTION] : 0;
	sk.patch_batch = have[SYSCTL_BATCH] ? value[SYSCTL_BATCH] : 0;
	rc = read_text(k, PATH_ZONEINFO, &text);
	if (rc)
		return rc;
	len = strlen(text);
	rc = zoneinfo_parse(text, len, &zi, &err);
	if (rc) {
		free(text);
		return rc;
	}
	for (size_t i = 0; i < zi.nzones; i++)
		recompute_zone(k, &sk, boot, &zi.zones[i]);
	if (mismatch) {
		for (size_t i = 0; i < zi.nzones; i++)
			if (zi.zones[i].npagesets) {
				zi.zones[i].pagesets[zi.zones[i].npagesets - 1].value[ZI_BATCH]++;
				break;
			}
	}
	rc = rewrite_zoneinfo(k, text, len, &zi, boost);
	zoneinfo_free(&zi);
	free(text);
	return rc;
}

int sim_boot(struct kernel *k)
{
	return recompute(k, true, false, 0);
}

/* The value takes effect: the file, then batch and high recomputed. */
static int set_value(struct kernel *k, enum pcp_sysctl s, long value, long nth)
{
	char nthtext[32], boost[64];
	char *rel, buf[32];
	long current;
	int rc;

	snprintf(nthtext, sizeof(nthtext), "%ld", nth);
	rc = kernel_read_sysctl_file(k, s, &current);
	if (rc)
		return rc;
	if (!valid_value(k, s, value))
		return -EINVAL;
	if (value == current)
		return 0;
	rel = sysctl_rel(s);
	if (!rel)
		return -ENOMEM;
	snprintf(buf, sizeof(buf), "%ld\n", value);
	rc = write_text(k, rel, buf, strlen(buf));
	free(rel);
	if (rc)
		return rc;
	return recompute(k, false, fault(k, "mismatch-always", NULL, NULL, 0) ||
			    fault(k, "mismatch-after-write", nthtext, NULL, 0),
			 fault(k, "boost-after-write", nthtext, boost, sizeof(boost)) ?
			 strtol(boost, NULL, 10) : 0);
}

/*
 * The "delay MICROSECONDS [SEED]" fault: a random pause, from a generator
 * seeded once per process by SEED (a test's replayable seed) and the pid.
 */
static void random_delay(struct kernel *k)
{
	static unsigned seed;
	static bool seeded;
	char *text, *line, *save;
	unsigned long us = 0, given = 0;

	if (read_text(k, "/sim/faults", &text))
		return;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (strncmp(line, "delay ", 6) == 0) {
			char *end;

			us = strtoul(line + 6, &end, 10);
			given = strtoul(end, NULL, 10);
			break;
		}
	free(text);
	if (!line || !us || us > 10UL * 1000 * 1000)
		return;
	if (!seeded) {
		seed = (unsigned)given ^ (unsigned)getpid();
		seeded = true;
	}
	/* wait(c): the "delay US SEED" fault: random pauses at every checkpoint, for the chaos
	 * kills. */
	usleep((useconds_t)((unsigned long)rand_r(&seed) % us));
}

static int sim_write_sysctl(struct kernel *k, enum pcp_sysctl s, long value)
{
	long n = next_write_number(k);
	char nth[32], rest[64];
	int status;
	pid_t pid;

	snprintf(nth, sizeof(nth), "%ld", n);
	if (fault(k, "fail-write", nth, rest, sizeof(rest)))
		return -errno_by_name(rest);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		random_delay(k);
		_exit(-set_value(k, s, value, n));
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(status) ? -WEXITSTATUS(status) : -EIO;
}

/* "foreign-write STEP NAME=VALUE": another process sets the sysctl now. */
static void foreign_write(struct kernel *k, const char *step)
{
	char what[64], *eq;
	long value;
	int s;

	if (!fault(k, "foreign-write", step, what, sizeof(what)))
		return;
	eq = strchr(what, '=');
	if (!eq)
		return;
	*eq = '\0';
	s = sysctl_by_name(what);
	if (s >= 0 && parse_long(eq + 1, 0, INT_MAX, &value) == 0)
		set_value(k, (enum pcp_sysctl)s, value, 0);
}

/* The line of zoneinfo text at p, up to its newline, as a string in buf. */
static const char *line_at(const char *p, const char *end, char *buf, size_t size)
{
	const char *nl = memchr(p, '\n', (size_t)(end - p));
	size_t n = (size_t)((nl ? nl : end) - p);

	snprintf(buf, size, "%.*s", (int)(n < size ? n : size - 1), p);
	return nl ? nl + 1 : end;
}

/* "Node N, zone   NAME" of the zone asked for. */
static bool is_zone_header(const char *line, int node, const char *zone)
{
	char *end;
	long n;

	if (strncmp(line, "Node ", 5) != 0)
		return false;
	n = strtol(line + 5, &end, 10);
	if (n != node || strncmp(end, ", zone ", 7) != 0)
		return false;
	end += strspn(end + 7, " ") + 7;
	return strcmp(end, zone) == 0;
}

/* The N of a "cpu: N" line (its blanks skipped), or -1. */
static long cpu_of_line(const char *s)
{
	char *end;
	long n;

	if (strncmp(s, "cpu: ", 5) != 0)
		return -1;
	n = strtol(s + 5, &end, 10);
	return end > s + 5 && n >= 0 ? n : -1;
}

/* A CPU's block of a zone's pagesets: "    cpu: N" and the lines indented below it. */
static bool in_cpu_block(const char *line)
{
	return strncmp(line, "      ", 6) == 0 || strncmp(line, "  vm stats threshold", 20) == 0;
}

/*
 * zoneinfo with one zone's "managed" or "low" line moved by delta, a CPU's
 * blocks taken out (offline) or copied from each zone's first CPU (online):
 * what the kernel prints after memory, a watermark or a CPU came or went.
 */
static int edit_zoneinfo(struct kernel *k, int node, const char *zone, const char *key,
			 long delta, long cpu, bool online)
{
	char *text, *out, line[256], first[4096] = "";
	size_t len, o = 0, flen = 0;
	bool here = false, pagesets = false, skip = false, copying = false, placed = false;
	int rc = read_text(k, PATH_ZONEINFO, &text);

	if (rc)
		return rc;
	len = strlen(text);
	out = malloc(len * 2 + 4096);
	if (!out) {
		free(text);
		return -ENOMEM;
	}
	for (const char *p = text, *end = text + len; p < end;) {
		const char *next = line_at(p, end, line, sizeof(line));
		const char *s = line + strspn(line, " ");
		long n = cpu_of_line(s);
		bool cpu_line = n >= 0;

		/* The zone's pagesets end here: an online CPU not placed yet goes last. */
		if (pagesets && !cpu_line && !in_cpu_block(line)) {
			if (online && !placed)
				o += (size_t)sprintf(out + o, "    cpu: %ld\n%s", cpu, first);
			pagesets = skip = copying = false;
		}
		if (strncmp(line, "Node ", 5) == 0) {
			here = key && is_zone_header(line, node, zone);
			flen = 0;
			first[0] = '\0';
			placed = false;
		}
		if (cpu_line) {
			/* Before the first higher CPU, once the zone's first block is known. */
			if (online && !placed && n > cpu && flen) {
				o += (size_t)sprintf(out + o, "    cpu: %ld\n%s", cpu, first);
				placed = true;
			}
			placed = placed || (online && n == cpu);
			copying = !pagesets;
			pagesets = true;
			skip = !online && n == cpu;
		} else if (copying && flen + strlen(line) + 2 < sizeof(first)) {
			flen += (size_t)sprintf(first + flen, "%s\n", line);
		}
		if (here && strncmp(s, key, strlen(key)) == 0 && s[strlen(key)] == ' ' &&
		    !strchr(s, ':')) {
			const char *num = s + strcspn(s, "0123456789");

			o += (size_t)sprintf(out + o, "%.*s%ld\n", (int)(num - line), line,
					     strtol(num, NULL, 10) + delta);
		} else if (!skip) {
			o += (size_t)sprintf(out + o, "%s\n", line);
		}
		p = next;
	}
	if (pagesets && online && !placed)
		o += (size_t)sprintf(out + o, "    cpu: %ld\n%s", cpu, first);
	rc = write_text(k, PATH_ZONEINFO, out, o);
	free(out);
	free(text);
	return rc;
}

/*
 * A pageset line copied from another zone, as per_cpu_pages_init() leaves
 * it in a new zone's pageset: count and high 0 (the rest follows from the
 * recompute).
 */
static int fresh_pageset_line(char *out, const char *line)
{
	const char *s = line + strspn(line, " ");
	const char *num = s + strcspn(s, "0123456789");

	if (strncmp(s, "count:", 6) == 0 || strncmp(s, "high:", 5) == 0)
		return sprintf(out, "%.*s0\n", (int)(num - line), line);
	return sprintf(out, "%s\n", line);
}

/* A populated zone's lines from "pagesets" on, with the CPUs' blocks given. */
static size_t pagesets_text(char *out, const char *cpus, unsigned long start_pfn)
{
	return (size_t)sprintf(out, "  pagesets\n%s  node_unreclaimable:  0\n"
			       "  start_pfn:           %lu\n", cpus, start_pfn);
}

/*
 * zoneinfo with an empty zone given PAGES pages: spanned and present grown
 * and, where the kernel prints none for an unpopulated zone, the pagesets
 * setup_zone_pageset() gives it on every online CPU (those of the first
 * populated zone), then node_unreclaimable and a start_pfn above every zone's
 * end.  Its managed pages stay 0, so that a recompute sizes the pagesets as
 * the onlining does before the pages count.
 */
static int populate_zoneinfo(struct kernel *k, int node, const char *zone, long pages)
{
	char *text, *out, *cpus, line[256];
	size_t len, o = 0, c = 0;
	unsigned long spanned = 0, end_pfn = 0;
	bool copying = false, copied = false, here = false, found = false, empty = true;
	int rc = read_text(k, PATH_ZONEINFO, &text);

	if (rc)
		return rc;
	len = strlen(text);
	out = malloc(len * 2 + 256);
	cpus = malloc(len + 1);
	if (!out || !cpus) {
		rc = -ENOMEM;
		goto out;
	}
	for (const char *p = text, *end = text + len; p < end;) {
		const char *s;

		p = line_at(p, end, line, sizeof(line));
		s = line + strspn(line, " ");
		if (strncmp(s, "spanned ", 8) == 0) {
			spanned = strtoul(s + 8, NULL, 10);
		} else if (strncmp(s, "start_pfn:", 10) == 0) {
			unsigned long start = strtoul(s + 10, NULL, 10);

			if (start + spanned > end_pfn)
				end_pfn = start + spanned;
		}
		copying = !copied && (cpu_of_line(s) >= 0 || (copying && in_cpu_block(line)));
		if (copying)
			c += (size_t)fresh_pageset_line(cpus + c, line);
		copied = copied || (c && !copying);
	}
	/* The CPUs' blocks come from a zone that has them: with none, no CPU is known. */
	if (!c) {
		rc = -EINVAL;
		goto out;
	}
	for (const char *p = text, *end = text + len; p < end;) {
		const char *next = line_at(p, end, line, sizeof(line));
		const char *s = line + strspn(line, " ");

		if (strncmp(line, "Node ", 5) == 0) {
			if (here)
				o += pagesets_text(out + o, cpus, end_pfn);
			here = is_zone_header(line, node, zone);
			found = found || here;
		}
		empty = empty && !(here && strcmp(s, "pagesets") == 0);
		if (here && (strncmp(s, "spanned ", 8) == 0 || strncmp(s, "present ", 8) == 0)) {
			const char *num = s + strcspn(s, "0123456789");

			o += (size_t)sprintf(out + o, "%.*s%ld\n", (int)(num - line), line,
					     strtol(num, NULL, 10) + pages);
		} else {
			o += (size_t)sprintf(out + o, "%s\n", line);
		}
		p = next;
	}
	if (here)
		o += pagesets_text(out + o, cpus, end_pfn);
	/* Memory onlined into a populated zone is "managed"'s move, not this one. */
	rc = found && empty ? write_text(k, PATH_ZONEINFO, out, o) : -EINVAL;
out:
	free(cpus);
	free(out);
	free(text);
	return rc;
}

/*
 * online_pages() into an empty zone: setup_zone_pageset() sizes its pagesets
 * while it has no managed pages (batch 1, high from the low watermark alone),
 * then the pages count, and the recompute that sizes them for those pages
 * comes a moment later.
 */
static int populate_zone(struct kernel *k, int node, const char *zone, long pages)
{
	int rc = populate_zoneinfo(k, node, zone, pages);

	if (!rc)
		rc = recompute(k, false, false, 0);
	if (!rc)
		rc = edit_zoneinfo(k, node, zone, "managed", pages, -1, false);
	return rc;
}

/*
 * The machine moves under pcpctl, WHAT being one of
 *   managed NODE ZONE DELTA   memory onlined (offlined, DELTA < 0): the
 *                             zone's managed pages move, and every zone's
 *                             limits are recomputed (zone_pcp_update())
 *   balloon NODE ZONE DELTA   a balloon: managed pages move, nothing is
 *                             recomputed (adjust_managed_page_count())
 *   late NODE ZONE DELTA      as managed, but the recompute comes only after
 *                             zoneinfo is read once more: a reader between
 *                             the two sees limits no inputs it can see explain
 *   populate NODE ZONE PAGES  memory onlined into an empty zone (no
 *                             pagesets printed): it gets pagesets of
 *                             batch 1 sized for no pages, then the pages,
 *                             and the recompute only after zoneinfo is read
 *                             once more, as with late
 *   low NODE ZONE DELTA       a min_free_kbytes write: the low watermark
 *                             moves, every zone recomputed
 *   offline CPU, online CPU   CPU hotplug: the CPU's pagesets go or come
 *                             (copied from the zone's first CPU), every zone
 *                             recomputed
 */
int sim_move(struct kernel *k, int argc, char **argv)
{
	long delta = 0, node = 0, cpu = -1;
	const char *what = argc > 0 ? argv[0] : "";
	bool zone_move = argc == 4 && parse_long(argv[1], 0, INT_MAX, &node) == 0 &&
			 parse_long(argv[3], LONG_MIN / 2, LONG_MAX / 2, &delta) == 0;
	bool cpu_move = argc == 2 && parse_long(argv[1], 0, INT_MAX, &cpu) == 0;
	int rc;

	if (zone_move && !strcmp(what, "populate") && delta > 0)
		rc = populate_zone(k, (int)node, argv[2], delta);
	else if (zone_move && (!strcmp(what, "managed") || !strcmp(what, "balloon") ||
			       !strcmp(what, "late") || !strcmp(what, "low")))
		rc = edit_zoneinfo(k, (int)node, argv[2], strcmp(what, "low") ? "managed" : "low",
				   delta, -1, false);
	else if (cpu_move && (!strcmp(what, "offline") || !strcmp(what, "online")))
		rc = edit_zoneinfo(k, -1, "", NULL, 0, cpu, !strcmp(what, "online"));
	else
		return -EINVAL;
	if (rc || !strcmp(what, "balloon"))
		return rc;
	if (!strcmp(what, "late") || !strcmp(what, "populate"))
		return write_text(k, "/sim/pending-recompute", "", 0);
	return recompute(k, false, false, 0);
}

/* Every "move STEP WHAT..." line of the step, in order; whether any moved the machine. */
static bool move_at(struct kernel *k, const char *step)
{
	char *text, *line, *save;
	bool moved = false;

	if (read_text(k, "/sim/faults", &text))
		return false;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *word[8], *wsave;
		int n = 0;

		for (char *w = strtok_r(line, " ", &wsave); w && n < 8; w = strtok_r(NULL, " ", &wsave))
			word[n++] = w;
		if (n >= 3 && !strcmp(word[0], "move") && !strcmp(word[1], step))
			moved |= sim_move(k, n - 2, word + 2) == 0;
	}
	free(text);
	return moved;
}

/*
 * zoneinfo as it is; a "late" or "populate" move's recompute, or that of a
 * move at "read", lands right after this read, which sees the file as it was.
 */
static int sim_open_zoneinfo(struct kernel *k)
{
	char *pending = tree_path(k, "/sim/pending-recompute");
	bool moved = move_at(k, "read");
	int fd = kernel_open_zoneinfo_file(k);

	if (fd >= 0 && pending && (unlink(pending) == 0 || moved))
		recompute(k, false, false, 0);
	free(pending);
	return fd;
}

/*
 * "hold STEP": a test waits for the marker, not for a time, however slow
 * the machine; the bound only ends a hold that a dead test left behind.
 */
static void hold(struct kernel *k)
{
	char *held = tree_path(k, "/sim/held"), *release = tree_path(k, "/sim/release");
	int fd;

	if (held && release && (fd = open(held, O_WRONLY | O_CREAT | O_CLOEXEC, 0644)) >= 0) {
		close(fd);
		/* wait(a): the test creates sim/release; 60,000 polls of 10 ms (at least 600 s). */
		for (int i = 0; i < 10 * 60 * 100 && access(release, F_OK) != 0; i++)
			usleep(10 * 1000);
		unlink(release);
		unlink(held);
	}
	free(held);
	free(release);
}

static void sim_checkpoint(struct kernel *k, const char *step)
{
	random_delay(k);
	if (fault(k, "crash", step, NULL, 0))
		raise(SIGKILL);
	foreign_write(k, step);
	move_at(k, step);
	if (fault(k, "hold", step, NULL, 0))
		hold(k);
}

static const struct kernel_ops sim_ops = {
	.open_zoneinfo = sim_open_zoneinfo,
	.read_vmstat = kernel_read_vmstat_file,
	.read_sysctl = kernel_read_sysctl_file,
	.write_sysctl = sim_write_sysctl,
	.checkpoint = sim_checkpoint,
	.close = kernel_free,
};

struct kernel *kernel_open(const struct sysroot *root)
{
	return kernel_new(root, &sim_ops);
}
