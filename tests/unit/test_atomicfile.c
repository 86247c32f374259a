/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The atomic replacement of every file pcpctl writes, in a real directory. */
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

/* A file built through stdio is written whole, and a failed one leaves nothing. */
static void test_stream(void **state)
{
	const char *dir = *state;
	struct atomic_stream out;
	char path[256];
	char *text;
	size_t len;

	snprintf(path, sizeof(path), "%s/sweep.csv", dir);
	assert_int_equal(atomic_stream_open(&out), 0);
	fprintf(out.f, "batch,hmean\n%d,%.3f\n", 310, 1.5);
	assert_int_equal(atomic_stream_commit(&out, path), 0);
	assert_null(out.text);
	assert_int_equal(read_whole_file(path, &text, &len), 0);
	assert_string_equal(text, "batch,hmean\n310,1.500\n");
	free(text);
	snprintf(path, sizeof(path), "%s/missing/sweep.csv", dir);
	assert_int_equal(atomic_stream_open(&out), 0);
	fputs("x\n", out.f);
	assert_int_equal(atomic_stream_commit(&out, path), -ENOENT);
	assert_int_equal(entries(dir), 1);
}

/*
 * A fixed temporary name (the journal's, the sysctl.d file's): what a crash
 * left there is removed, a link there or at the name is replaced, never
 * followed, and the mode is the one asked whatever the umask.
 */
static void test_at_fixed_tmp(void **state)
{
	const char *dir = *state;
	char victim[256], path[256];
	struct stat st;
	char *text;
	size_t len;
	mode_t old;
	int dfd;

	snprintf(victim, sizeof(victim), "%s/victim", dir);
	assert_int_equal(atomic_write_file(victim, "root's own\n", 11), 0);
	dfd = open(dir, O_RDONLY | O_DIRECTORY);
	assert_true(dfd >= 0);
	assert_int_equal(symlinkat(victim, dfd, "journal.tmp"), 0);
	assert_int_equal(symlinkat(victim, dfd, "journal"), 0);
	old = umask(0);
	assert_int_equal(atomic_write_at(dfd, "journal", "journal.tmp", 0600, "j\n", 2), 0);
	umask(old);
	snprintf(path, sizeof(path), "%s/journal", dir);
	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(st.st_mode & 07777, 0600);
	assert_int_equal(read_whole_file(victim, &text, &len), 0);
	assert_string_equal(text, "root's own\n");
	free(text);
	/* victim, journal: the temporary file is gone */
	assert_int_equal(entries(dir), 2);
	unlinkat(dfd, "journal", 0);
	close(dfd);
}

/* The file lands in the directory that was opened, though its path now leads elsewhere. */
static void test_at_opened_dir(void **state)
{
	const char *dir = *state;
	char a[128], b[128], path[256];
	struct stat st;
	int dfd;

	snprintf(a, sizeof(a), "%s/a", dir);
	snprintf(b, sizeof(b), "%s/b", dir);
	assert_int_equal(mkdir(a, 0755), 0);
	dfd = open(a, O_RDONLY | O_DIRECTORY);
	assert_true(dfd >= 0);
	assert_int_equal(rename(a, b), 0);
	assert_int_equal(symlink("/nonexistent", a), 0);
	assert_int_equal(atomic_write_at(dfd, "f.prom", NULL, 0644, "x\n", 2), 0);
	close(dfd);
	snprintf(path, sizeof(path), "%s/f.prom", b);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0644);
	assert_int_equal(entries(b), 1);
	unlink(path);
	rmdir(b);
	unlink(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_replace, make_dir, remove_dir),
		cmocka_unit_test_setup_teardown(test_failure_leaves_nothing, make_dir, remove_dir),
		cmocka_unit_test_setup_teardown(test_stream, make_dir, remove_dir),
		cmocka_unit_test_setup_teardown(test_at_fixed_tmp, make_dir, remove_dir),
		cmocka_unit_test_setup_teardown(test_at_opened_dir, make_dir, remove_dir),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
