/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The sysroot object over a real temporary tree. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cmocka.h>

#include "idlist.h"
#include "sysroot.h"

static char tree[] = "/tmp/pcpctl-test-sysroot-XXXXXX";

static void put(const char *rel, const char *text)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s%s", tree, rel);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static void test_prefix(void **state)
{
	struct sysroot *sr;
	char cwd[PATH_MAX], want[PATH_MAX + 32];

	(void)state;
	sr = sysroot_open(NULL);
	assert_true(sysroot_is_live(sr));
	assert_string_equal(sysroot_name(sr, PATH_ZONEINFO), "/proc/zoneinfo");
	sysroot_free(sr);
	/* "/" is the live system; trailing slashes do not double in paths. */
	sr = sysroot_open("/");
	assert_true(sysroot_is_live(sr));
	sysroot_free(sr);
	sr = sysroot_open("/srv/tree//");
	assert_false(sysroot_is_live(sr));
	assert_string_equal(sysroot_name(sr, PATH_LOCK), "/srv/tree/run/pcpctl/lock");
	sysroot_free(sr);
	/* A relative tree is named by its absolute path. */
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	sr = sysroot_open("rel/tree");
	snprintf(want, sizeof(want), "%s/rel/tree/proc/zoneinfo", strcmp(cwd, "/") ? cwd : "");
	assert_string_equal(sysroot_name(sr, PATH_ZONEINFO), want);
	sysroot_free(sr);
}

/* The command a message tells the admin to run: with the --sysroot it was given. */
static void test_command(void **state)
{
	struct sysroot *sr;

	(void)state;
	sr = sysroot_open(NULL);
	assert_string_equal(sysroot_command(sr, "rollback"), "pcpctl rollback");
	sysroot_free(sr);
	sr = sysroot_open("/srv/tree-1/");
	assert_string_equal(sysroot_command(sr, "rollback --discard"),
			    "pcpctl --sysroot /srv/tree-1 rollback --discard");
	sysroot_free(sr);
	/* a path a shell would split, or expand, in double quotes */
	sr = sysroot_open("/srv/my tree/$x\"");
	assert_string_equal(sysroot_command(sr, "rollback"),
			    "pcpctl --sysroot \"/srv/my tree/\\$x\\\"\" rollback");
	sysroot_free(sr);
}

static void test_files(void **state)
{
	struct sysroot *sr = sysroot_open(tree);
	struct idlist cpus;
	char *text, link[PATH_MAX];
	size_t len;

	(void)state;
	put("/list", "0-3,8\n");
	assert_int_equal(sysroot_read_cpulist(sr, "/list", &cpus), 0);
	assert_true(idlist_has(&cpus, 3) && idlist_has(&cpus, 8) && !idlist_has(&cpus, 4));
	idlist_free(&cpus);
	/* A CPU-less node has an empty list. */
	put("/list", "\n");
	assert_int_equal(sysroot_read_cpulist(sr, "/list", &cpus), 0);
	assert_false(idlist_has(&cpus, 0));
	idlist_free(&cpus);
	put("/list", "3-1\n");
	assert_int_not_equal(sysroot_read_cpulist(sr, "/list", &cpus), 0);
	assert_int_equal(sysroot_read_cpulist(sr, "/none", &cpus), -ENOENT);

	put("/value", "0\n");
	assert_int_equal(sysroot_write_string(sr, "/value", "310\n"), 0);
	assert_int_equal(sysroot_read_file(sr, "/value", &text, &len), 0);
	assert_string_equal(text, "310\n");
	free(text);
	/* A planted link is neither written through nor opened. */
	snprintf(link, sizeof(link), "%s/link", tree);
	assert_int_equal(symlink("value", link), 0);
	assert_int_equal(sysroot_write_string(sr, "/link", "1\n"), -ELOOP);
	assert_int_equal(sysroot_open_nofollow(sr, "/link", O_RDONLY, 0), -ELOOP);
	assert_true(sysroot_exists(sr, "/link"));
	assert_false(sysroot_exists(sr, "/none"));
	assert_int_equal(sysroot_probe(sr, "/link"), 1);
	assert_int_equal(sysroot_probe(sr, "/none"), 0);
	/* Under a file: not "missing", which a rollback would take for no journal. */
	assert_int_equal(sysroot_probe(sr, "/value/x"), -ENOTDIR);
	assert_false(sysroot_exists(sr, "/value/x"));
	/* write_string creates nothing. */
	assert_int_equal(sysroot_write_string(sr, "/none", "1\n"), -ENOENT);
	unlink(link);
	snprintf(link, sizeof(link), "%s/list", tree);
	unlink(link);
	snprintf(link, sizeof(link), "%s/value", tree);
	unlink(link);
	sysroot_free(sr);
}

static bool have_openat2(void)
{
	struct open_how how = { .flags = O_PATH };
	int fd = (int)syscall(__NR_openat2, AT_FDCWD, "/", &how, sizeof(how));

	if (fd >= 0)
		close(fd);
	return fd >= 0 || errno != ENOSYS;
}

static void at(char *buf, const char *rel)
{
	snprintf(buf, PATH_MAX, "%s%s", tree, rel);
}

/* The directories that writes are made in: opened beneath the root, through no link. */
static void test_dirs(void **state)
{
	struct sysroot *sr = sysroot_open(tree);
	char path[PATH_MAX], other[PATH_MAX], buf[64];
	struct dirent *e;
	struct stat st;
	int fd, n = 0;
	DIR *d;

	(void)state;
	at(path, "/d");
	assert_int_equal(sysroot_open_dir(sr, "/d/sub", 0), -ENOENT);
	assert_int_equal(sysroot_open_dir(sr, "/d/sub", 0755), -ENOENT);
	fd = sysroot_open_dir(sr, "/d", 0700);
	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	/* fsync'able, as a directory's new entry needs */
	assert_int_equal(fsync(fd), 0);
	close(fd);
	fd = sysroot_open_dir(sr, "/", 0);
	assert_true(fd >= 0);
	close(fd);
	/* A link to a directory inside the tree is still a link: not written beneath. */
	at(other, "/dlink");
	assert_int_equal(symlink("d", other), 0);
	assert_int_equal(sysroot_open_dir(sr, "/dlink", 0755), -ELOOP);
	assert_int_equal(sysroot_open_dir(sr, "/dlink/x", 0755), -ELOOP);
	assert_string_equal(sysroot_strerror(-ELOOP),
			    "a symbolic link on the way, which pcpctl does not follow; remove it");
	/*
	 * Reads follow it, inside the tree: an absolute link is the tree's own
	 * path.  Without openat2 (before 5.6, or under valgrind 3.19) the walk
	 * follows none.
	 */
	put("/d/f", "x\n");
	at(other, "/abs");
	assert_int_equal(symlink("/d", other), 0);
	d = sysroot_opendir(sr, "/dlink");
	assert_int_equal(sysroot_readlink(sr, "/dlink", buf, sizeof(buf)), 1);
	if (have_openat2()) {
		assert_non_null(d);
		while ((e = readdir(d)))
			n += strcmp(e->d_name, "f") == 0;
		closedir(d);
		assert_int_equal(n, 1);
		d = sysroot_opendir(sr, "/abs");
		assert_non_null(d);
		closedir(d);
		assert_int_equal(sysroot_readlink(sr, "/abs/f", buf, sizeof(buf)), -EINVAL);
	} else {
		assert_null(d);
		assert_null(sysroot_opendir(sr, "/abs"));
		assert_int_equal(sysroot_readlink(sr, "/abs/f", buf, sizeof(buf)), -ELOOP);
	}
	assert_null(sysroot_opendir(sr, "/none"));
	assert_int_equal(errno, ENOENT);
	unlink(other);
	at(other, "/dlink");
	unlink(other);
	at(other, "/d/f");
	unlink(other);
	rmdir(path);
	sysroot_free(sr);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_prefix),
		cmocka_unit_test(test_command),
		cmocka_unit_test(test_files),
		cmocka_unit_test(test_dirs),
	};
	int rc;

	if (!mkdtemp(tree))
		return 1;
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	rmdir(tree);
	return rc;
}
