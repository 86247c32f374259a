/*
 * The journal that makes a change crash-safe (src/lock.h serialises
 * changes): the old value of every sysctl a change is about to write, and
 * with --persist what the sysctl.d file held, fsync'ed before the first
 * write and removed once the change is verified and persisted.
 */
#ifndef PCPCTL_JOURNAL_H
#define PCPCTL_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel.h"
#include "persist.h"

struct sysroot;

struct journal {
	size_t n;
	enum pcp_sysctl sysctl[NSYSCTLS];
	long old[NSYSCTLS];
	/* The change also rewrites the sysctl.d file; what it held before. */
	bool persist;
	struct persisted persisted;
};

/* Larger than any journal we write; a bigger file is not ours. */
#define JOURNAL_MAX 4096

/* FNV-1a of the text before the journal's "sum" line. */
uint64_t journal_checksum(const char *s, size_t len);
/* The journal's text, checksum line included, in buf (JOURNAL_MAX bytes); its length. */
size_t journal_format(const struct journal *j, char *buf, size_t size);
/*
 * The journal in text, which holds len bytes and a NUL after them and is
 * cut up in place: 0, or -EBADMSG with why saying what is wrong.
 */
int journal_parse(char *text, size_t len, struct journal *j, char *why, size_t whylen);

/* 0, or a negative errno after printing why. */
int journal_write(const struct sysroot *root, const struct journal *j);
/*
 * 0; -ENOENT when there is no journal; -EBADMSG when it is damaged,
 * tampered with or not ours (why says how); other negative errnos.
 */
int journal_read(const struct sysroot *root, struct journal *j, char *why, size_t whylen);
int journal_remove(const struct sysroot *root);
bool journal_exists(const struct sysroot *root);

/*
 * The one message about a leftover journal (an interrupted change): an
 * error when it stops a change (refuse), else a warning.
 */
void journal_say_leftover(const struct sysroot *root, bool refuse);
/* show and status warn when there is one. */
void journal_warn_leftover(const struct sysroot *root);

#endif
