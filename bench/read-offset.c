/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * How fast read() fills a buffer that starts at a given offset from a page
 * boundary.  pcpctl reads zoneinfo into a page-aligned buffer because on
 * some CPUs the kernel's copy is several times slower at small offsets,
 * which is where malloc puts a large block.
 *
 * Usage: read-offset FILE [OFFSET...]   (default offsets 0 8 16 32 64 2048)
 * Prints, per offset, the best of 30 whole-file reads in 128 KiB chunks and
 * its ratio to offset 0 (or to the first offset given).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define CHUNK (128 * 1024)
#define PAGE 4096
#define ROUNDS 30

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int read_whole(const char *path, char *buf, double *ms)
{
	int fd = open(path, O_RDONLY);
	double start;
	ssize_t n;

	if (fd < 0)
		return -errno;
	start = now_ms();
	while ((n = read(fd, buf, CHUNK)) > 0)
		;
	*ms = now_ms() - start;
	close(fd);
	return n < 0 ? -errno : 0;
}

int main(int argc, char **argv)
{
	static const long default_offsets[] = { 0, 8, 16, 32, 64, 2048 };
	size_t noffsets = argc > 2 ? (size_t)(argc - 2) : sizeof(default_offsets) / sizeof(long);
	char *area = aligned_alloc(PAGE, CHUNK + 2 * PAGE);
	double first = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: read-offset FILE [OFFSET...]\n");
		return 2;
	}
	if (!area) {
		fprintf(stderr, "read-offset: out of memory\n");
		return 1;
	}
	/* Touch every page first, so that no round pays page faults. */
	memset(area, 0, CHUNK + 2 * PAGE);
	printf("offset  best ms  x offset %s\n", argc > 2 ? argv[2] : "0");
	for (size_t i = 0; i < noffsets; i++) {
		long off = argc > 2 ? strtol(argv[2 + i], NULL, 0) : default_offsets[i];
		double best = 1e300;

		if (off < 0 || off >= PAGE) {
			fprintf(stderr, "read-offset: offset %ld is not within a page\n", off);
			return 2;
		}
		for (int r = 0; r < ROUNDS; r++) {
			double ms = 0;
			int rc = read_whole(argv[1], area + off, &ms);

			if (rc) {
				fprintf(stderr, "read-offset: %s: %s\n", argv[1], strerror(-rc));
				return 1;
			}
			if (ms < best)
				best = ms;
		}
		if (i == 0)
			first = best;
		printf("%6ld  %7.3f  %9.2f\n", off, best, best / first);
	}
	free(area);
	return 0;
}
