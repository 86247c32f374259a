/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The atomic replacement of export --output, in a real directory. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "atomicfile.h"
#include "sysroot.h"

static int make_dir(void **state)
{
	char *dir = strdup("/tmp/pcpctl-atomic-XXXXXX");

	assert_non_null(mkdtemp(dir));
	*state = dir;
	return 0;
}

static int remove_dir(void **state)
{
	char *dir = *state;
	DIR *d = opendir(dir);
	struct dirent *e;

	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.' || (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")))
			unlinkat(dirfd(d), e->d_name, 0);
	if (d)
		closedir(d);
	rmdir(dir);
	free(dir);
	return 0;
}

static size_t entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

static void test_replace(void **state)
{
	const char *dir = *state;
	char path[256], old[16] = "";
	struct stat st;
	char *text;
	size_t len;
	int fd;

	snprintf(path, sizeof(path), "%s/pcpctl.prom", dir);
	assert_int_equal(atomic_write_file(path, "first\n", 6), 0);
	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(atomic_write_file(path, "second\n", 7), 0);
	/* A reader that opened the old file still reads it whole: a new inode replaced it. */
	assert_int_equal(read(fd, old, sizeof(old) - 1), 6);
	assert_string_equal(old, "first\n");
	close(fd);
	assert_int_equal(read_whole_file(path, &text, &len), 0);
	assert_string_equal(text, "second\n");
	free(text);
	/* Readable by the exporter's user; no temporary file left behind. */
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0644);
	assert_int_equal(entries(dir), 1);
}

static void test_failure_leaves_nothing(void **state)
{
	const char *dir = *state;
	char path[256];

	snprintf(path, sizeof(path), "%s/missing/pcpctl.prom", dir);
	assert_int_equal(atomic_write_file(path, "x\n", 2), -ENOENT);
	/* Renaming onto a directory fails after the write: the temporary goes. */
	snprintf(path, sizeof(path), "%s/adir", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	assert_int_equal(atomic_write_file(path, "x\n", 2), -EISDIR);
	assert_int_equal(entries(dir), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_replace, make_dir, remove_dir),
		cmocka_unit_test_setup_teardown(test_failure_leaves_nothing, make_dir, remove_dir),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
