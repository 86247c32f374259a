/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A command as pcpctl.c dispatches it: each command's file defines its
 * entry, with its options, its help and its handlers; pcpctl.c reads the
 * command line once and hands the command what it held.
 */
#ifndef PCPCTL_COMMAND_H
#define PCPCTL_COMMAND_H

#include <stdbool.h>
#include <stdio.h>

#include <popt.h>

struct sysroot;
struct change_prep;

/* The options every command is given (pcpctl.c's table). */
struct common_opts {
	int json;
	const char *sysroot;
};

/* What the command line held for the command, besides its own options. */
struct command_args {
	const struct common_opts *common;
	/* Its operands, NULL-terminated; NULL when there are none. */
	char *const *args;
	/* How many of them came before a "--" (sweep's COMMAND follows one). */
	int before_dashdash;
};

struct command {
	const char *name;
	const char *summary;		/* one line of pcpctl --help */
	const char *usage;		/* what follows "pcpctl NAME" in its usage */
	/*
	 * Its own options, besides the common ones.  Where two commands have
	 * an option of the same name, it takes a value in both or in neither:
	 * before the command's name, the command line is read with every
	 * command's options.  An option without a value sets an int to 1.
	 */
	const struct poptOption *options;
	const char *options_help;	/* the lines of its options for NAME --help */
	void (*more_help)(FILE *out);	/* what NAME --help says after the options */
	/*
	 * NULL, or it writes /proc/sys/vm, which takes root: what it is to do,
	 * worked out once (*p), with the sysctls it is about to write in
	 * (*p)->plan.write (none may do), once its own usage and interface
	 * checks passed, or their exit code.  The dispatcher checks those
	 * before run, and a dry run checks it could.
	 */
	int (*prepare)(const struct sysroot *root, const struct command_args *a,
		       struct change_prep **p);
	int (*run)(const struct sysroot *root, const struct command_args *a);
	/* NULL, or what runs before privileges are dropped. */
	void (*setup)(const struct command_args *a);
	/* NULL, or it frees what setup, prepare and run kept, whatever came of them. */
	void (*done)(void);
	/* Its dry run: it writes nothing, so a tree need not be root's (check_tree). */
	const int *dry_run;
	bool takes_command;		/* operands: a COMMAND... or FILEs */
	bool switches_user;		/* its workload becomes another user: see drop_privileges() */
	const char *no_json;		/* NULL, or why it takes no --json (what it writes) */
};

extern const struct command show_command, status_command, set_command, reset_command,
	rollback_command, sweep_command, compare_command, plot_command, export_command;

#endif
