// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pcp-pump: order-3 page frees on one CPU without allocations on it, for the
 * pressure guest's free_high check.  A writer on CPU A sends 32 KiB messages
 * over an AF_UNIX stream socket pair; the kernel builds each from an order-3
 * page (page frags of PAGE_ALLOC_COSTLY_ORDER), and the reader on CPU B,
 * which frees them, allocates nothing meanwhile.
 *
 * usage: pcp-pump WRITER_CPU READER_CPU SECONDS
 * Prints "messages N" and exits 0, or a message and 1.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/*
 * 32 KiB: the kernel puts all but a page of a message in page frags of
 * PAGE_ALLOC_COSTLY_ORDER (order 3) and the rest in a small head; a larger
 * message also gets a head of its own above order 3, whose free would end
 * the run of high-order frees free_high looks for.
 */
#define MSG (32 * 1024)

static int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

int main(int argc, char **argv)
{
	static char buf[MSG];
	long n = 0;
	int sv[2];
	pid_t pid;
	time_t end;

	if (argc != 4) {
		fprintf(stderr, "usage: pcp-pump WRITER_CPU READER_CPU SECONDS\n");
		return 1;
	}
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0) {
		perror("socketpair");
		return 1;
	}
	pid = fork();
	if (pid < 0) {
		perror("fork");
		return 1;
	}
	if (pid == 0) {
		/* the reader: drains until the writer closes */
		close(sv[0]);
		if (pin(atoi(argv[2])) < 0) {
			perror("sched_setaffinity");
			_exit(1);
		}
		for (;;) {
			ssize_t r = read(sv[1], buf, sizeof(buf));

			if (r > 0)
				continue;
			if (r < 0 && errno == EINTR)
				continue;
			_exit(r < 0);
		}
	}
	close(sv[1]);
	if (pin(atoi(argv[1])) < 0) {
		perror("sched_setaffinity");
		kill(pid, SIGKILL);
		return 1;
	}
	memset(buf, 0x5a, sizeof(buf));
	end = time(NULL) + atoi(argv[3]);
	while (time(NULL) < end) {
		if (write(sv[0], buf, sizeof(buf)) != (ssize_t)sizeof(buf)) {
			perror("write");
			kill(pid, SIGKILL);
			return 1;
		}
		n++;
	}
	close(sv[0]);
	if (waitpid(pid, NULL, 0) < 0)
		return 1;
	printf("messages %ld\n", n);
	return 0;
}
