/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The journal that makes a change crash-safe (src/lock.h serialises
 * changes): the old value of every sysctl a change is about to write, what
 * the kernel showed per zone before it (the restore is checked against
 * that, not against pcpctl's model), and with --persist what the sysctl.d
 * file held, fsync'ed before the first write and removed once the change
 * is verified and persisted.
 */
#ifndef PCPCTL_JOURNAL_H
#define PCPCTL_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel.h"
#include "persist.h"

struct sysroot;

/* The most zones a journal records; a machine with more records none. */
#define JOURNAL_ZONES_MAX 256

/*
 * What one populated zone showed before the change's first write: the
 * values that do not move by themselves.  -1 for one not recorded (not
 * printed, set lazily, or not the same on every CPU).
 */
struct journal_zone {
	int node;
	char name[16];
	int batch, high, high_min, high_max;
	/*
	 * What the kernel computed those from (v3): managed pages, the low
	 * watermark without its boost, the CPUs high is split over.  A restore
	 * compares with the values only while these hold.
	 */
	bool have_inputs;
	uint64_t managed, low;
	unsigned cpus;
};

struct journal {
	size_t n;
	enum pcp_sysctl sysctl[NSYSCTLS];
	long old[NSYSCTLS];
	/* The change also rewrites the sysctl.d file; what it held before. */
	bool persist;
	struct persisted persisted;
	/*
	 * What the change writes to each recorded setting (wrote[i] for
	 * sysctl[i]): a rollback leaves a value that differs from both, which
	 * another writer set.  Journals of a sweep session do not have them.
	 */
	bool have_wrote;
	long wrote[NSYSCTLS];
	/* The change completed: there is nothing to roll back, only the file to remove. */
	bool committed;
	/* The zones observed before the first write (none in v1 journals and sweeps'). */
	size_t nzones;
	struct journal_zone zones[JOURNAL_ZONES_MAX];
};

/* Larger than any journal we write; a bigger file is not ours. */
#define JOURNAL_MAX 65536

/* FNV-1a of the text before the journal's "sum" line. */
uint64_t journal_checksum(const char *s, size_t len);
/* The journal's text, checksum line included, in buf (JOURNAL_MAX bytes); its length. */
size_t journal_format(const struct journal *j, char *buf, size_t size);
/*
 * The journal in text, which holds len bytes and a NUL after them and is
 * cut up in place: 0, or -EBADMSG with why saying what is wrong.
 */
int journal_parse(char *text, size_t len, struct journal *j, char *why, size_t whylen);

/*
 * The journal's directory, open, and its name for messages, made before a
 * change's first write (with the lock held, which makes the directory) so
 * that writing its commit record and removing it need no memory.  Zeroed,
 * or after a failed init, it holds nothing to free.
 */
struct journal_files {
	char *path;
	int dir;
};

/* 0, or a negative errno after printing why. */
int journal_files_init(const struct sysroot *root, struct journal_files *f);
void journal_files_free(struct journal_files *f);

/*
 * Replace the journal with j, whole or not at all (a temporary file,
 * fsync'ed and renamed): 0, or a negative errno after printing why.
 */
int journal_write_at(const struct journal_files *f, const struct journal *j);
int journal_write(const struct sysroot *root, const struct journal *j);
/* 0 (also when there is none) or a negative errno. */
int journal_remove_at(const struct journal_files *f);
/*
 * 0; -ENOENT when there is no journal; -EBADMSG when it is damaged,
 * tampered with or not ours (why says how); other negative errnos.
 */
int journal_read(const struct sysroot *root, struct journal *j, char *why, size_t whylen);
int journal_remove(const struct sysroot *root);
bool journal_exists(const struct sysroot *root);

/*
 * With the lock held, before a change or a rollback: remove, with a note,
 * what needs no rollback (the temporary file, a journal that records no
 * setting or a completed change).  1 when a journal remains to roll back,
 * 0 when none does, or a negative errno after printing why.
 */
int journal_tidy(const struct sysroot *root);
/*
 * For a dry run, with the lock held: what journal_tidy returns, removing
 * nothing; what it would remove is noted.
 */
int journal_pending(const struct sysroot *root);

/*
 * The one message about a leftover journal (an interrupted change) when it
 * stops a change (refuse: an error), else a warning.
 */
void journal_say_leftover(const struct sysroot *root, bool refuse);
/*
 * show and status call this: a journal is a change in progress (the lock
 * is held), one that completed (removed), or an interrupted one (warning).
 */
void journal_warn_leftover(const struct sysroot *root);

#endif
