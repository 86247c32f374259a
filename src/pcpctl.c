/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pcpctl: show and tune the page allocator's per-CPU page lists.
 * This file is the command table: each command's options, help and
 * handler, and the dispatch to the files that implement them.
 */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <popt.h>

#include "c.h"
#include "change.h"
#include "compare.h"
#include "export.h"
#include "journal.h"
#include "kernel.h"
#include "lockprof.h"
#include "msg.h"
#include "plot.h"
#include "privs.h"
#include "show.h"
#include "status.h"
#include "suggest.h"
#include "sweep.h"
#include "sysroot.h"

#ifndef PCPCTL_VERSION
#define PCPCTL_VERSION "unknown"
#endif

/* Where popt puts what the options say; the handlers hand it on. */
static struct {
	struct show_opts show;
	struct change_opts change;
	struct sweep_opts sweep;
	struct compare_opts compare;
	struct plot_opts plot;
	const char *sysroot;
	const char *export_file;
	int json, raw, pairs, output_all, noheadings, summary, per_cpu, dry_run, persist, discard;
	int persist_only;
	int help, version;
	int loose_words;	/* arguments given before any "--" (scan_args) */
} opt;

static struct poptOption common_options[] = {
	{ "json", 'J', POPT_ARG_NONE, &opt.json, 0, NULL, NULL },
	{ "sysroot", '\0', POPT_ARG_STRING, &opt.sysroot, 0, NULL, NULL },
	{ "help", 'h', POPT_ARG_NONE, &opt.help, 0, NULL, NULL },
	{ "version", 'V', POPT_ARG_NONE, &opt.version, 0, NULL, NULL },
	POPT_TABLEEND
};

static struct poptOption show_options[] = {
	{ "raw", 'r', POPT_ARG_NONE, &opt.raw, 0, NULL, NULL },
	{ "pairs", 'P', POPT_ARG_NONE, &opt.pairs, 0, NULL, NULL },
	{ "output", 'o', POPT_ARG_STRING, &opt.show.out.columns, 0, NULL, NULL },
	{ "output-all", '\0', POPT_ARG_NONE, &opt.output_all, 0, NULL, NULL },
	{ "noheadings", 'n', POPT_ARG_NONE, &opt.noheadings, 0, NULL, NULL },
	{ "node", '\0', POPT_ARG_STRING, &opt.show.nodes, 0, NULL, NULL },
	{ "zone", '\0', POPT_ARG_STRING, &opt.show.zones, 0, NULL, NULL },
	{ "cpu", '\0', POPT_ARG_STRING, &opt.show.cpus, 0, NULL, NULL },
	{ "summary", 's', POPT_ARG_NONE, &opt.summary, 0, NULL, NULL },
	{ "per-cpu", '\0', POPT_ARG_NONE, &opt.per_cpu, 0, NULL, NULL },
	{ "interval", '\0', POPT_ARG_STRING, &opt.show.interval, 0, NULL, NULL },
	{ "count", '\0', POPT_ARG_STRING, &opt.show.count, 0, NULL, NULL },
	POPT_TABLEEND
};

static struct poptOption export_options[] = {
	{ "output", 'o', POPT_ARG_STRING, &opt.export_file, 0, NULL, NULL },
	{ "per-cpu", '\0', POPT_ARG_NONE, &opt.per_cpu, 0, NULL, NULL },
	POPT_TABLEEND
};

static struct poptOption set_options[] = {
	{ "batch", '\0', POPT_ARG_STRING, &opt.change.batch, 0, NULL, NULL },
	{ "fraction", '\0', POPT_ARG_STRING, &opt.change.fraction, 0, NULL, NULL },
	{ "dry-run", '\0', POPT_ARG_NONE, &opt.dry_run, 0, NULL, NULL },
	{ "persist", '\0', POPT_ARG_NONE, &opt.persist, 0, NULL, NULL },
	{ "persist-only", '\0', POPT_ARG_NONE, &opt.persist_only, 0, NULL, NULL },
	POPT_TABLEEND
};

static struct poptOption reset_options[] = {
	{ "dry-run", '\0', POPT_ARG_NONE, &opt.dry_run, 0, NULL, NULL },
	{ "persist", '\0', POPT_ARG_NONE, &opt.persist, 0, NULL, NULL },
	{ "persist-only", '\0', POPT_ARG_NONE, &opt.persist_only, 0, NULL, NULL },
	POPT_TABLEEND
};

static struct poptOption rollback_options[] = {
	{ "discard", '\0', POPT_ARG_NONE, &opt.discard, 0, NULL, NULL },
	POPT_TABLEEND
};

static struct poptOption no_options[] = { POPT_TABLEEND };

static struct poptOption sweep_options[] = {
	{ "batch", '\0', POPT_ARG_STRING, &opt.sweep.batch, 0, NULL, NULL },
	{ "fraction", '\0', POPT_ARG_STRING, &opt.sweep.fraction, 0, NULL, NULL },
	{ "tasks", '\0', POPT_ARG_STRING, &opt.sweep.tasks, 0, NULL, NULL },
	{ "duration", '\0', POPT_ARG_STRING, &opt.sweep.duration, 0, NULL, NULL },
	{ "warmup", '\0', POPT_ARG_STRING, &opt.sweep.warmup, 0, NULL, NULL },
	{ "precision", '\0', POPT_ARG_STRING, &opt.sweep.precision, 0, NULL, NULL },
	{ "max-duration", '\0', POPT_ARG_STRING, &opt.sweep.max_duration, 0, NULL, NULL },
	{ "runs", '\0', POPT_ARG_STRING, &opt.sweep.runs, 0, NULL, NULL },
	{ "metric", '\0', POPT_ARG_STRING, &opt.sweep.metric, 0, NULL, NULL },
	{ "csv", '\0', POPT_ARG_STRING, &opt.sweep.csv, 0, NULL, NULL },
	{ "plot", '\0', POPT_ARG_STRING, &opt.sweep.plot, 0, NULL, NULL },
	{ "workload-log", '\0', POPT_ARG_STRING, &opt.sweep.workload_log, 0, NULL, NULL },
	{ "with-batch", '\0', POPT_ARG_STRING, &opt.sweep.with_batch, 0, NULL, NULL },
	{ "with-fraction", '\0', POPT_ARG_STRING, &opt.sweep.with_fraction, 0, NULL, NULL },
	{ "user", '\0', POPT_ARG_STRING, &opt.sweep.user, 0, NULL, NULL },
	{ "dry-run", '\0', POPT_ARG_NONE, &opt.dry_run, 0, NULL, NULL },
	POPT_TABLEEND
};

static struct poptOption compare_options[] = {
	{ "label", '\0', POPT_ARG_ARGV, &opt.compare.labels, 0, NULL, NULL },
	{ "csv", '\0', POPT_ARG_STRING, &opt.compare.csv, 0, NULL, NULL },
	POPT_TABLEEND
};

static struct poptOption plot_options[] = {
	{ "label", '\0', POPT_ARG_ARGV, &opt.plot.labels, 0, NULL, NULL },
	{ "output", 'o', POPT_ARG_STRING, &opt.plot.output, 0, NULL, NULL },
	POPT_TABLEEND
};

static int run_show(const struct sysroot *root, char *const *args)
{
	(void)args;
	if (opt.json + opt.raw + opt.pairs > 1) {
		pcp_error("--json, --raw and --pairs are mutually exclusive");
		return EXIT_USAGE;
	}
	opt.show.out.format = opt.json ? OUT_JSON : opt.raw ? OUT_RAW :
			      opt.pairs ? OUT_PAIRS : OUT_TABLE;
	opt.show.out.all_columns = opt.output_all;
	opt.show.out.noheadings = opt.noheadings;
	opt.show.summary = opt.summary;
	opt.show.per_cpu = opt.per_cpu;
	journal_warn_leftover(root);
	return cmd_show(root, &opt.show);
}

static int run_status(const struct sysroot *root, char *const *args)
{
	(void)args;
	journal_warn_leftover(root);
	return cmd_status(root, opt.json);
}

static int run_export(const struct sysroot *root, char *const *args)
{
	(void)args;
	if (opt.json) {
		pcp_error("export does not take --json: it writes the Prometheus text format");
		return EXIT_USAGE;
	}
	return cmd_export(root, opt.export_file, opt.per_cpu);
}

static void change_flags(void)
{
	opt.change.json = opt.json;
	opt.change.dry_run = opt.dry_run;
	opt.change.persist = opt.persist;
	opt.change.persist_only = opt.persist_only;
}

/*
 * What the command that writes prepared (see change_prep): the dispatcher
 * checks the privilege on it, then the handler runs it.
 */
static struct change_prep change_prep;
static struct sweep_prep sweep_prep;

static int run_change(const struct sysroot *root, char *const *args)
{
	(void)args;
	return cmd_change(root, &change_prep, opt.json);
}

static int prepare_set(const struct sysroot *root, char *const *args, struct change_prep **p)
{
	(void)args;
	change_flags();
	*p = &change_prep;
	return change_prepare(root, &opt.change, false, &change_prep);
}

static int prepare_reset(const struct sysroot *root, char *const *args, struct change_prep **p)
{
	(void)args;
	change_flags();
	*p = &change_prep;
	return change_prepare(root, &opt.change, true, &change_prep);
}

static int prepare_rollback(const struct sysroot *root, char *const *args, struct change_prep **p)
{
	(void)args;
	*p = &change_prep;
	return rollback_prepare(root, opt.discard, &change_prep);
}

static int run_rollback(const struct sysroot *root, char *const *args)
{
	(void)args;
	return cmd_rollback(root, &change_prep, opt.json, opt.discard);
}

/* The lock sampling needs what pcpctl is about to drop: open it first. */
static void sweep_setup(void)
{
	static char why[256];

	if (opt.sysroot) {
		opt.sweep.lockprof_why = "--sysroot: the live kernel alone can be sampled";
		return;
	}
	opt.sweep.lockprof = lockprof_open(why, sizeof(why));
	opt.sweep.lockprof_why = why;
}

static void sweep_flags(char *const *args)
{
	opt.sweep.json = opt.json;
	opt.sweep.dry_run = opt.dry_run;
	opt.sweep.command = args;
}

static int prepare_sweep(const struct sysroot *root, char *const *args, struct change_prep **p)
{
	/* whatever follows the COMMAND is its own: its options too */
	if (opt.loose_words) {
		pcp_error("give the COMMAND after --, as in pcpctl sweep --fraction 0,8 -- COMMAND "
			  "[ARG...]; see pcpctl sweep --help");
		return EXIT_USAGE;
	}
	sweep_flags(args);
	*p = &sweep_prep.change;
	return sweep_prepare(root, &opt.sweep, &sweep_prep);
}

static int run_sweep(const struct sysroot *root, char *const *args)
{
	(void)args;
	return cmd_sweep(root, &opt.sweep, &sweep_prep);
}

static int run_compare(const struct sysroot *root, char *const *args)
{
	(void)root;
	opt.compare.json = opt.json;
	opt.compare.files = args;
	return cmd_compare(&opt.compare);
}

static int run_plot(const struct sysroot *root, char *const *args)
{
	(void)root;
	if (opt.json) {
		pcp_error("plot does not take --json: it writes an SVG chart");
		return EXIT_USAGE;
	}
	opt.plot.files = args;
	return cmd_plot(&opt.plot);
}

static int run_help(const struct sysroot *root, char *const *args);

static const struct command {
	const char *name;
	int (*handler)(const struct sysroot *root, char *const *args);
	struct poptOption *options;	/* besides common_options */
	const char *summary;		/* one line of pcpctl --help */
	const char *usage;		/* what follows "pcpctl NAME" in its usage */
	const char *options_help;	/* the lines of its options for NAME --help */
	void (*more_help)(FILE *out);	/* what NAME --help says after the options */
	/*
	 * NULL, or it writes /proc/sys/vm, which takes root: what it is to do,
	 * worked out once (*p), with the sysctls it is about to write in
	 * (*p)->plan.write (none may do), once its own usage and interface
	 * checks passed, or their exit code.  The dispatcher checks those
	 * before the handler runs it, and a dry run checks it could.
	 */
	int (*prepare)(const struct sysroot *root, char *const *args, struct change_prep **p);
	bool takes_command;		/* a COMMAND... after the options */
	bool switches_user;		/* its workload becomes another user: see drop_privileges() */
	void (*setup)(void);		/* runs before privileges are dropped */
} commands[] = {
	{ "show", run_show, show_options,
	  "list each CPU's pcp count, high and batch (the default)",
	  "[options]",
	  " -J, --json           use JSON output format\n"
	  " -r, --raw            use raw output format\n"
	  " -P, --pairs          use key=\"value\" output format\n"
	  " -o, --output LIST    columns to print; +LIST adds to the default columns\n"
	  "     --output-all     print all columns\n"
	  " -n, --noheadings     do not print headings\n"
	  "     --node LIST      only these NUMA nodes (e.g. 0,2-3)\n"
	  "     --zone NAMES     only zones (DMA, DMA32, Normal, HighMem, Movable, Device)\n"
	  "     --cpu LIST       only these CPUs (e.g. 0-3,8)\n"
	  " -s, --summary        one row per populated zone instead of one per CPU\n"
	  "     --per-cpu        one row per CPU (the default, except with --interval)\n"
	  "     --interval SEC   a row per zone (or CPU) every SEC seconds, with the change\n"
	  "                      and pgalloc/pgfree per second; --json writes JSON Lines\n"
	  "     --count N        stop after N samples (default: at Ctrl-C or SIGTERM)\n",
	  show_columns_help, NULL, false, false, NULL },
	{ "status", run_status, no_options,
	  "kernel release, pcp sysctls, what sysctl.d sets at boot",
	  "[options]",
	  " -J, --json           use JSON output format\n",
	  NULL, NULL, false, false, NULL },
	{ "set", run_change, set_options,
	  "change batch and/or fraction, verified, or nothing changes",
	  "[--batch N] [--fraction N] [--dry-run] [--persist[-only]] [options]",
	  "     --batch N        pages moved per refill or drain: 0 (default) or 1 to the\n"
	  "                      default batch << CONFIG_PCP_BATCH_SCALE_MAX (2016 with\n"
	  "                      4 KiB pages and 5); needs the vm.percpu_pagelist_batch\n"
	  "                      kernel patch\n"
	  "     --fraction N     high = managed pages / N: 0 (default) or 8 and up\n"
	  "     --dry-run        check all the change needs (access, lock, journal, the\n"
	  "                      --persist file) and print what it would give each zone;\n"
	  "                      write nothing\n"
	  "     --persist        also record the settings in /etc/sysctl.d/90-pcpctl.conf\n"
	  "     --persist-only   only record them there, for the next boot; the kernel is\n"
	  "                      left as it is and need not have the sysctls\n"
	  " -J, --json           print the report as JSON\n",
	  NULL, prepare_set, false, false, NULL },
	{ "reset", run_change, reset_options,
	  "put batch and fraction back to the kernel's defaults",
	  "[--dry-run] [--persist[-only]] [options]",
	  "     --dry-run        check all the change needs (access, lock, journal, the\n"
	  "                      --persist file) and print what it would give each zone;\n"
	  "                      write nothing\n"
	  "     --persist        also remove the settings from /etc/sysctl.d/90-pcpctl.conf\n"
	  "     --persist-only   only remove them there; the kernel is left as it is\n"
	  " -J, --json           print the report as JSON\n",
	  NULL, prepare_reset, false, false, NULL },
	{ "rollback", run_rollback, rollback_options,
	  "restore what an interrupted set, reset or sweep recorded",
	  "[--discard] [options]",
	  "     --discard        remove a journal that can never be applied (the kernel\n"
	  "                      was replaced, or the rollback fails); print what it held\n"
	  " -J, --json           print the report as JSON\n",
	  NULL, prepare_rollback, false, false, NULL },
	{ "sweep", run_sweep, sweep_options,
	  "measure a workload at each value and restore the settings",
	  "--batch VALUES | --fraction VALUES [options] [-- COMMAND...]",
	  "     --batch VALUES   batches to measure: START:STOP:STEP or a list (31,63,310)\n"
	  "     --fraction VALUES  fractions to measure, likewise (0,8,16)\n"
	  "     --tasks LIST     task counts, each point measured with each: 1,2,4 or\n"
	  "                      25%,50%,100% of the CPUs (default: all); page_fault1\n"
	  "                      runs one process per CPU, a COMMAND gets PCPCTL_TASKS\n"
	  "     --with-fraction N  hold the fraction at N while sweeping --batch\n"
	  "     --with-batch N   hold the batch at N while sweeping --fraction\n"
	  "     --duration S     seconds measured per run (default 10)\n"
	  "     --precision P%   measure each point until the 95% interval of its Hmean\n"
	  "                      is within +-P%, for --duration S at least (a COMMAND:\n"
	  "                      --runs R runs and 2 at least, each run a sample)\n"
	  "     --max-duration S  and at most S seconds (default 60)\n"
	  "     --warmup S       seconds run before measuring (default 2); with a COMMAND,\n"
	  "                      any S > 0 means one unmeasured run before each value\n"
	  "     --runs R         runs per value (default 1)\n"
	  "     --metric REGEX   take COMMAND's result from its output (first group)\n"
	  "                      instead of runs per second\n"
	  "     --csv FILE       also write the points as CSV\n"
	  "     --plot FILE      also draw throughput against the value as SVG\n"
	  "     --workload-log FILE  write COMMAND's output to FILE (default: stderr)\n"
	  "     --user USER      run the workload as USER (default: sudo's caller, else\n"
	  "                      nobody); never root\n"
	  "     --dry-run        print the plan and its time, make every check a sweep\n"
	  "                      makes before its first write; write nothing\n"
	  " -J, --json           print the points as JSON\n"
	  "     -- COMMAND...    measure COMMAND instead of the built-in page_fault1\n",
	  NULL, prepare_sweep, true, true, sweep_setup },
	{ "compare", run_compare, compare_options,
	  "sweeps side by side: Hmean, change, significance",
	  "[--label NAME]... [options] FILE.json FILE.json...\n"
	  " (a FILE.json of - is standard input)",
	  "     --label NAME     the column of the next file (default: its host and kernel,\n"
	  "                      else its name); once per file or never\n"
	  "     --csv FILE       also write the cells as CSV\n"
	  " -J, --json           print the table as JSON\n",
	  NULL, NULL, true, false, NULL },
	{ "plot", run_plot, plot_options,
	  "sweeps on one SVG chart, a line per file",
	  "-o FILE.svg [--label NAME]... [options] FILE.json...",
	  " -o, --output FILE    the SVG chart to write (replaced atomically; - for stdout)\n"
	  "     --label NAME     the legend entry of the next file (default: its host\n"
	  "                      and kernel, else its name); once per file or never\n",
	  NULL, NULL, true, false, NULL },
	{ "export", run_export, export_options,
	  "the pcp lists and sysctls as Prometheus gauges",
	  "[--per-cpu] [--output FILE] [options]",
	  " -o, --output FILE    replace FILE atomically instead of writing to stdout\n"
	  "                      (- is stdout)\n"
	  "     --per-cpu        also a series per CPU (label cpu)\n",
	  NULL, NULL, false, false, NULL },
	{ "help", run_help, no_options,
	  "print pcpctl's help, or COMMAND's (as COMMAND --help)",
	  "[COMMAND]",
	  "",
	  NULL, NULL, true, false, NULL },
};

static const char common_help[] =
	"     --sysroot DIR    use DIR/proc, DIR/sys, DIR/run and DIR/etc instead of /\n"
	" -h, --help           display this help\n"
	" -V, --version        display version\n";

static const char exit_help[] =
	"\nExit status: 0 success or already so, 1 failure (a change is rolled back),\n"
	"2 usage error, 3 interface missing on this kernel, 4 insufficient privilege,\n"
	"5 rollback failed (run pcpctl rollback), 6 another writer changed a value;\n"
	"left as it is. See pcpctl(8).\n";

static void usage(FILE *out)
{
	fputs("Usage:\n"
	      " pcpctl [options] [show [show options]]\n"
	      " pcpctl [options] COMMAND [command options]\n"
	      "\n"
	      "Show and tune the page allocator's per-CPU page lists (pcp).\n"
	      "\n"
	      "Commands:\n", out);
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(out, " %-20s %s\n", commands[i].name, commands[i].summary);
	fputs("\nCommon options:\n"
	      " -J, --json           JSON output (all commands but export, plot and help)\n", out);
	fputs(common_help, out);
	fputs("\nRun 'pcpctl COMMAND --help' for the options of a command.\n", out);
	fputs(exit_help, out);
}

static void command_usage(FILE *out, const struct command *cmd)
{
	fprintf(out, "Usage:\n pcpctl %s %s\n\n", cmd->name, cmd->usage);
	fprintf(out, "%c%s.\n", toupper((unsigned char)cmd->summary[0]), cmd->summary + 1);
	if (cmd->prepare)
		fputs("Run it as root: it writes the vm sysctls.\n", out);
	if (*cmd->options_help)
		fprintf(out, "\nOptions:\n%s", cmd->options_help);
	fprintf(out, "\nCommon options:\n%s", common_help);
	if (cmd->more_help)
		cmd->more_help(out);
	fputs(exit_help, out);
}

/* Every table that may hold an option, the command's own and the others. */
static struct poptOption *const all_tables[] = {
	common_options, show_options, set_options, reset_options, rollback_options, sweep_options,
	export_options, compare_options, plot_options,
};

static const struct poptOption *option_in(const struct poptOption *t, const char *longname,
					  char shortname)
{
	for (; t->longName || t->shortName; t++)
		if (longname ? t->longName && strcmp(t->longName, longname) == 0 :
			       t->shortName == shortname)
			return t;
	return NULL;
}

static const struct poptOption *any_option(const char *longname, char shortname)
{
	for (size_t i = 0; i < ARRAY_SIZE(all_tables); i++) {
		const struct poptOption *o = option_in(all_tables[i], longname, shortname);

		if (o)
			return o;
	}
	return NULL;
}

static const struct command *command_named(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		if (strcmp(name, commands[i].name) == 0)
			return &commands[i];
	return NULL;
}

static void unknown_command(const char *name)
{
	const char *names[ARRAY_SIZE(commands)];
	const char *guess;

	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		names[i] = commands[i].name;
	/* Commands are lower case, so SHOW is show typed in capitals. */
	guess = suggest_name_fold(name, names, ARRAY_SIZE(names));
	if (guess)
		pcp_error("unknown command \"%s\" (did you mean \"%s\"?); see pcpctl --help",
			  name, guess);
	else
		pcp_error("unknown command \"%s\"; see pcpctl --help", name);
}

/* pcpctl help [COMMAND]: the help --help prints, on stdout, exit 0. */
static int run_help(const struct sysroot *root, char *const *args)
{
	const struct command *cmd = args && args[0] ? command_named(args[0]) : NULL;

	(void)root;
	if (opt.json) {
		pcp_error("help does not take --json: it prints the help text");
		return EXIT_USAGE;
	}
	if (args && args[0] && args[1]) {
		pcp_error("unexpected argument \"%s\"; help takes one command", args[1]);
		return EXIT_USAGE;
	}
	if (args && args[0] && !cmd) {
		unknown_command(args[0]);
		return EXIT_USAGE;
	}
	if (cmd)
		command_usage(stdout, cmd);
	else
		usage(stdout);
	return msg_flush_stdout() ? EXIT_FAIL : EXIT_OK;
}

/* An option popt did not find among cmd's: another command's, or a typo. */
static void unknown_option(const struct command *cmd, const char *bad)
{
	const struct poptOption *other = NULL, *tables[] = { cmd->options, common_options };
	const char *names[32], *guess;
	size_t n = 0;

	if (strncmp(bad, "--", 2) == 0) {
		char name[64];

		snprintf(name, sizeof(name), "%.*s", (int)strcspn(bad + 2, "="), bad + 2);
		other = any_option(name, '\0');
	} else if (bad[0] == '-' && bad[1]) {
		other = any_option(NULL, bad[1]);
	}
	if (other) {
		pcp_error("%s does not take --%s; see pcpctl %s --help", cmd->name, other->longName,
			  cmd->name);
		return;
	}
	for (size_t t = 0; t < ARRAY_SIZE(tables); t++)
		for (const struct poptOption *o = tables[t]; o->longName && n < ARRAY_SIZE(names); o++)
			names[n++] = o->longName;
	guess = strncmp(bad, "--", 2) == 0 ? suggest_name(bad + 2, names, n) : NULL;
	if (guess)
		pcp_error("%s: unknown option (did you mean --%s?); see pcpctl %s --help", bad, guess,
			  cmd->name);
	else
		pcp_error("%s: unknown option; see pcpctl %s --help", bad, cmd->name);
}

/* The entry of a command's option given as longname or shortname: its own table's, or common. */
static const struct poptOption *command_option(const struct command *cmd, const char *longname,
					       char shortname)
{
	const struct poptOption *o = option_in(cmd->options, longname, shortname);

	return o ? o : option_in(common_options, longname, shortname);
}

/* Whether an option takes a value, as cmd's table has it; before the command's name, any table. */
static bool takes_value(const struct command *cmd, const char *longname, char shortname)
{
	const struct poptOption *o = cmd ? command_option(cmd, longname, shortname) :
					   any_option(longname, shortname);

	return o && (o->argInfo == POPT_ARG_STRING || o->argInfo == POPT_ARG_ARGV);
}

/* What the one walk of argv before popt finds. */
struct argv_scan {
	int command;		/* the index of the command's name, 0 when none is given */
	int *options;		/* the indices of the words that give options, up to a "--" */
	int noptions;
	bool dashdash;		/* words follow a "--": popt hands them over as arguments */
	int loose;		/* the words before any "--" that are neither options, their values nor the command's name */
	int after;		/* the words after the first "--" */
};

/*
 * The command's name is the first word that is neither an option nor an
 * option's value; the words that follow a "--" are neither.  0, or -ENOMEM.
 */
static int scan_args(int argc, const char **argv, struct argv_scan *a)
{
	const struct command *cmd = NULL;

	*a = (struct argv_scan){ .options = calloc((size_t)argc, sizeof(*a->options)) };
	if (!a->options)
		return -ENOMEM;
	for (int i = 1; i < argc; i++) {
		const char *w = argv[i];

		if (strcmp(w, "--") == 0) {
			a->dashdash = i + 1 < argc;
			a->after = argc - i - 1;
			break;
		}
		if (w[0] != '-' || w[1] == '\0') {
			if (!a->command) {
				a->command = i;
				cmd = command_named(w);
			} else {
				a->loose++;
			}
			continue;
		}
		a->options[a->noptions++] = i;
		if (w[1] == '-') {
			char name[64];

			if (strchr(w, '='))
				continue;
			snprintf(name, sizeof(name), "%s", w + 2);
			i += takes_value(cmd, name, '\0');
			continue;
		}
		/* A cluster of short options: a value is the rest of it, or the next word. */
		for (const char *c = w + 1; *c; c++)
			if (takes_value(cmd, NULL, *c)) {
				i += c[1] == '\0';
				break;
			}
	}
	return 0;
}

/*
 * Whether popt dropped a value it could not copy (it says nothing then): an
 * option argv gives with a value whose variable is still NULL.  A lost
 * --sysroot would turn a run on a tree into one on the live system.
 */
static bool value_dropped(const struct command *cmd, const char **argv, const struct argv_scan *a)
{
	for (int n = 0; n < a->noptions; n++) {
		const char *w = argv[a->options[n]];
		const struct poptOption *o = NULL;

		if (w[1] == '-') {
			char name[64];

			snprintf(name, sizeof(name), "%.*s", (int)strcspn(w + 2, "="), w + 2);
			o = command_option(cmd, name, '\0');
		} else {
			for (const char *c = w + 1; *c && !o; c++) {
				o = command_option(cmd, NULL, *c);
				if (o && o->argInfo != POPT_ARG_STRING)
					o = NULL;
			}
		}
		if (o && o->argInfo == POPT_ARG_STRING && !*(char **)o->arg)
			return true;
	}
	return false;
}

/*
 * An argument before any "--" that looks like an option: popt took it for
 * none because POSIXLY_CORRECT stopped it at an earlier argument.  Taken
 * as a file or a COMMAND's word it changed what ran ("sweep ... /bin/echo
 * --dry-run" swept for real), so it is a usage error, said once.
 */
static bool option_left_over(const char **args, const struct argv_scan *a)
{
	int n = 0;

	while (args && args[n])
		n++;
	for (int i = 0; i < n - a->after; i++) {
		const char *w = args[i];

		if (w[0] == '-' && w[1] && strcmp(w, "--") != 0) {
			pcp_error("%s: an option after an argument, which POSIXLY_CORRECT leaves "
				  "unread; give the options first (and a COMMAND after --)", w);
			return true;
		}
	}
	return false;
}

static void free_option_strings(void)
{
	/* popt hands string arguments over as malloc'ed copies. */
	for (size_t i = 0; i < ARRAY_SIZE(all_tables); i++)
		for (const struct poptOption *o = all_tables[i]; o->longName; o++)
			if (o->argInfo == POPT_ARG_STRING) {
				free(*(char **)o->arg);
			} else if (o->argInfo == POPT_ARG_ARGV && *(char ***)o->arg) {
				for (char **a = *(char ***)o->arg; *a; a++)
					free(*a);
				free(*(char ***)o->arg);
			}
}

/*
 * For every command that writes: EXIT_NOPRIV unless this process may write
 * each sysctl in write[], in the one message for all of them.
 */
static int check_root(struct kernel *k, const bool write[NSYSCTLS])
{
	int rc = EXIT_OK;

	for (int s = 0; s < NSYSCTLS && !rc; s++) {
		char *path;
		int err;

		if (!write[s] || !(err = sysctl_write_access(k, s, &path)))
			continue;
		rc = EXIT_NOPRIV;
		if (err == -ENOMEM) {
			pcp_error("out of memory");
			rc = EXIT_FAIL;
		} else if (err == -EROFS) {
			pcp_error("%s is on a read-only file system (a container?); change it on the host",
				  path);
		} else if (geteuid() != 0) {
			pcp_error("writing %s needs root (euid 0): the kernel checks the file's owner "
				  "bits, which no capability overrides; run pcpctl as root", path);
		} else {
			pcp_error("cannot write %s: %s", path, strerror(-err));
		}
		free(path);
	}
	return rc;
}

/*
 * A command that writes, run by root on a tree: the tree must be root's
 * alone on the way to every directory written, or another user could lead
 * the writes out of it (to the live /proc/sys/vm, /run or /etc).  Reads
 * of any tree stay allowed: show, status, export and dry runs.
 */
static int check_tree(const struct sysroot *root)
{
	static const char *const dirs[] = { PATH_SYSCTL_VM, PATH_RUN, PATH_SYSCTL_D };

	if (geteuid() != 0 || sysroot_is_live(root))
		return EXIT_OK;
	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++) {
		const char *bad = NULL;
		char why[64];
		int err = sysroot_check_owned(root, dirs[i], &bad, why, sizeof(why));

		if (err == -EPERM) {
			pcp_error("--sysroot: refusing to write as root beneath %s: %s (root writes "
				  "only in a tree that is root's alone, with no link on the way)",
				  bad, why);
			return EXIT_USAGE;
		}
		if (err) {
			pcp_error("--sysroot %s: %s", sysroot_name(root, dirs[i]), strerror(-err));
			return EXIT_FAIL;
		}
	}
	return EXIT_OK;
}

/* A tree that is not there is a wrong --sysroot, not a kernel without files. */
static bool sysroot_is_dir(const char *dir)
{
	struct stat st;

	if (stat(dir, &st) < 0) {
		pcp_error("--sysroot %s: %s", dir, errno == ENOENT ? "no such directory" :
			  strerror(errno));
		return false;
	}
	if (!S_ISDIR(st.st_mode)) {
		pcp_error("--sysroot %s: not a directory", dir);
		return false;
	}
	return true;
}

int main(int argc, const char **argv)
{
	int rc = EXIT_USAGE, status, at;
	const struct command *cmd;
	struct sysroot *root = NULL;
	const char **av, **args;
	struct argv_scan words;
	poptContext ctx;

	if (scan_args(argc, argv, &words)) {
		pcp_error("out of memory");
		return EXIT_FAIL;
	}
	at = words.command;
	opt.loose_words = words.loose;
	cmd = command_named(at ? argv[at] : "show");
	if (!cmd) {
		unknown_command(argv[at]);
		free(words.options);
		return EXIT_USAGE;
	}

	struct poptOption table[] = {
		{ NULL, '\0', POPT_ARG_INCLUDE_TABLE, cmd->options, 0, NULL, NULL },
		{ NULL, '\0', POPT_ARG_INCLUDE_TABLE, common_options, 0, NULL, NULL },
		POPT_TABLEEND
	};

	/* popt sees the options and arguments without the command's name. */
	av = calloc((size_t)argc + 1, sizeof(*av));
	if (!av) {
		pcp_error("out of memory");
		free(words.options);
		return EXIT_FAIL;
	}
	for (int i = 0, j = 0; i < argc; i++)
		if (i != at || !at)
			av[j++] = argv[i];
	ctx = poptGetContext("pcpctl", at ? argc - 1 : argc, av, table, 0);
	/* Every option stores its value itself: popt returns at the end or an error. */
	while ((status = poptGetNextOpt(ctx)) > 0)
		;
	if (status < -1) {
		if (status == POPT_ERROR_BADOPT)
			unknown_option(cmd, poptBadOption(ctx, POPT_BADOPTION_NOALIAS));
		else
			pcp_error("%s: %s; see pcpctl %s --help",
				  poptBadOption(ctx, POPT_BADOPTION_NOALIAS), poptStrerror(status),
				  cmd->name);
		goto out;
	}
	if (opt.help) {
		if (at)
			command_usage(stdout, cmd);
		else
			usage(stdout);
		rc = msg_flush_stdout() ? EXIT_FAIL : EXIT_OK;
		goto out;
	}
	if (opt.version) {
		printf("pcpctl %s\n", PCPCTL_VERSION);
		rc = msg_flush_stdout() ? EXIT_FAIL : EXIT_OK;
		goto out;
	}
	args = poptGetArgs(ctx);
	if (option_left_over(args, &words))
		goto out;
	if (value_dropped(cmd, argv, &words) || (!args && cmd->takes_command && words.dashdash)) {
		pcp_error("out of memory");
		rc = EXIT_FAIL;
		goto out;
	}
	if (args && args[0] && !cmd->takes_command) {
		pcp_error("unexpected argument \"%s\"; see pcpctl %s --help", args[0], cmd->name);
		goto out;
	}
	if (opt.sysroot && !opt.sysroot[0]) {
		pcp_error("--sysroot: give a directory");
		goto out;
	}
	if (opt.sysroot && !sysroot_is_dir(opt.sysroot))
		goto out;
	if (cmd->setup)
		cmd->setup();
	if (drop_privileges(cmd->switches_user) < 0) {
		pcp_error("cannot drop capabilities; refusing to run with more than needed");
		rc = EXIT_FAIL;
		goto out;
	}
	root = sysroot_open(opt.sysroot);
	if (!root) {
		pcp_error("out of memory");
		rc = EXIT_FAIL;
		goto out;
	}
	if (cmd->prepare) {
		struct change_prep *p = NULL;

		rc = opt.dry_run ? EXIT_OK : check_tree(root);
		if (!rc)
			rc = cmd->prepare(root, args ? (char *const *)args : NULL, &p);
		if (!rc)
			rc = check_root(p->k, p->plan.write);
		if (rc)
			goto out;
	}
	rc = cmd->handler(root, args ? (char *const *)args : NULL);
out:
	change_prep_free(&change_prep);
	sweep_prep_free(&sweep_prep);
	lockprof_close(opt.sweep.lockprof);
	sysroot_free(root);
	free_option_strings();
	poptFreeContext(ctx);
	free(av);
	free(words.options);
	return rc;
}
