/*
 * pcpctl: show and tune the page allocator's per-CPU page lists.
 * This file only parses options and dispatches to the commands.
 */
#include <popt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "change.h"
#include "journal.h"
#include "msg.h"
#include "privs.h"
#include "show.h"
#include "status.h"
#include "sweep.h"

#ifndef PCPCTL_VERSION
#define PCPCTL_VERSION "unknown"
#endif

/* One bit per option, so each command can say which it accepts. */
enum {
	OPT_JSON = 1 << 0, OPT_RAW = 1 << 1, OPT_PAIRS = 1 << 2, OPT_OUTPUT = 1 << 3,
	OPT_OUTPUT_ALL = 1 << 4, OPT_NOHEADINGS = 1 << 5, OPT_NODE = 1 << 6, OPT_ZONE = 1 << 7,
	OPT_CPU = 1 << 8, OPT_SUMMARY = 1 << 9, OPT_SYSROOT = 1 << 10, OPT_BATCH = 1 << 11,
	OPT_FRACTION = 1 << 12, OPT_DRY_RUN = 1 << 13, OPT_PERSIST = 1 << 14,
	OPT_HELP = 1 << 15, OPT_VERSION = 1 << 16, OPT_TASKS = 1 << 17, OPT_DURATION = 1 << 18,
	OPT_WARMUP = 1 << 19, OPT_RUNS = 1 << 20, OPT_METRIC = 1 << 21, OPT_CSV = 1 << 22,
	OPT_PLOT = 1 << 23,
};

#define SHOW_OPTS (OPT_JSON | OPT_RAW | OPT_PAIRS | OPT_OUTPUT | OPT_OUTPUT_ALL | \
		   OPT_NOHEADINGS | OPT_NODE | OPT_ZONE | OPT_CPU | OPT_SUMMARY | OPT_SYSROOT)
#define CHANGE_OPTS (OPT_JSON | OPT_SYSROOT | OPT_DRY_RUN | OPT_PERSIST)

static const struct command {
	const char *name;
	unsigned accepts;
} commands[] = {
	{ "show", SHOW_OPTS },
	{ "status", OPT_JSON | OPT_SYSROOT },
	{ "set", CHANGE_OPTS | OPT_BATCH | OPT_FRACTION },
	{ "reset", CHANGE_OPTS },
	{ "rollback", OPT_JSON | OPT_SYSROOT },
	{ "sweep", OPT_JSON | OPT_SYSROOT | OPT_BATCH | OPT_FRACTION | OPT_TASKS | OPT_DURATION |
		   OPT_WARMUP | OPT_RUNS | OPT_METRIC | OPT_CSV | OPT_PLOT },
};

static void usage(FILE *out)
{
	fputs("Usage:\n"
	      " pcpctl [options] [show]\n"
	      " pcpctl [options] status\n"
	      " pcpctl [options] set [--batch N] [--fraction N]\n"
	      " pcpctl [options] reset\n"
	      " pcpctl [options] rollback\n"
	      " pcpctl [options] sweep --batch VALUES | --fraction VALUES [-- COMMAND...]\n"
	      "\n"
	      "Show and tune the page allocator's per-CPU page lists (pcp).\n"
	      "\n"
	      "Commands:\n"
	      " show                 list each CPU's pcp count, high and batch (the default)\n"
	      " status               kernel release and the pcp sysctls this kernel has\n"
	      " set                  change batch and/or fraction, verified, or nothing changes\n"
	      " reset                put batch and fraction back to the kernel's defaults\n"
	      " rollback             restore what an interrupted set, reset or sweep recorded\n"
	      " sweep                measure a workload at each value, then restore the settings\n"
	      "\n"
	      "Options for show:\n"
	      " -J, --json           use JSON output format\n"
	      " -r, --raw            use raw output format\n"
	      " -P, --pairs          use key=\"value\" output format\n"
	      " -o, --output LIST    columns to print; +LIST adds to the default columns\n"
	      "     --output-all     print all columns\n"
	      " -n, --noheadings     do not print headings\n"
	      "     --node LIST      only these NUMA nodes (e.g. 0,2-3)\n"
	      "     --zone NAMES     only these zones (DMA, DMA32, Normal, HighMem, Movable, Device)\n"
	      "     --cpu LIST       only these CPUs (e.g. 0-3,8)\n"
	      " -s, --summary        one row per populated zone instead of one per CPU\n"
	      "\n"
	      "Options for set and reset:\n"
	      "     --batch N        pages moved per refill or drain: 0 (default) or 1 to the\n"
	      "                      kernel's vm.percpu_pagelist_batch_max (else 1007);\n"
	      "                      needs the vm.percpu_pagelist_batch kernel patch\n"
	      "     --fraction N     high = managed pages / N: 0 (default) or 8 and up\n"
	      "     --dry-run        validate and print what would change; write nothing\n"
	      "     --persist        also record the settings in /etc/sysctl.d/90-pcpctl.conf\n"
	      "                      (reset --persist removes them)\n"
	      "\n"
	      "Options for sweep:\n"
	      "     --batch VALUES   batches to measure: START:STOP:STEP or a list (31,63,310)\n"
	      "     --fraction VALUES  fractions to measure, likewise (0,8,16)\n"
	      "     --tasks N        page_fault1 processes, one pinned per CPU (default: all CPUs)\n"
	      "     --duration S     seconds measured per run (default 10)\n"
	      "     --warmup S       seconds run before measuring (default 2); with a COMMAND,\n"
	      "                      any S > 0 means one unmeasured run first\n"
	      "     --runs R         runs per value (default 1)\n"
	      "     --metric REGEX   take COMMAND's result from its output (first group)\n"
	      "                      instead of runs per second\n"
	      "     --csv FILE       also write the points as CSV\n"
	      "     --plot FILE      also draw throughput against the value as SVG\n"
	      "     -- COMMAND...    measure COMMAND instead of the built-in page_fault1\n"
	      "\n"
	      "Common options:\n"
	      " -J, --json           JSON output (status, set, reset, rollback too)\n"
	      "     --sysroot DIR    use DIR/proc, DIR/sys, DIR/run and DIR/etc instead of /\n"
	      " -h, --help           display this help\n"
	      " -V, --version        display version\n", out);
	show_columns_help(out);
	fputs("\nExit status: 0 success or already so, 1 failure (a change is rolled back),\n"
	      "2 usage error, 3 interface missing on this kernel, 4 insufficient privilege,\n"
	      "5 rollback failed (run pcpctl rollback). See pcpctl(8).\n", out);
}

static const char *const option_names[] = {
	"--json", "--raw", "--pairs", "--output", "--output-all", "--noheadings", "--node",
	"--zone", "--cpu", "--summary", "--sysroot", "--batch", "--fraction", "--dry-run",
	"--persist", "--help", "--version", "--tasks", "--duration", "--warmup", "--runs",
	"--metric", "--csv", "--plot",
};

static int dispatch(const struct command *cmd, const char *root, struct show_opts *show,
		    struct change_opts *change, struct sweep_opts *sweep)
{
	if (strcmp(cmd->name, "show") == 0) {
		journal_warn_leftover(root);
		return cmd_show(root, show);
	}
	if (strcmp(cmd->name, "status") == 0) {
		journal_warn_leftover(root);
		return cmd_status(root, change->json);
	}
	if (strcmp(cmd->name, "set") == 0)
		return cmd_set(root, change);
	if (strcmp(cmd->name, "reset") == 0)
		return cmd_reset(root, change);
	if (strcmp(cmd->name, "sweep") == 0)
		return cmd_sweep(root, sweep);
	return cmd_rollback(root, change->json);
}

int main(int argc, const char **argv)
{
	struct show_opts show = { 0 };
	struct change_opts change = { 0 };
	struct sweep_opts sweep = { 0 };
	const char *sysroot = NULL;
	const struct command *cmd = NULL;
	unsigned given = 0;
	int formats = 0, opt, rc = EXIT_USAGE;
	poptContext ctx;

	struct poptOption table[] = {
		{ "json", 'J', POPT_ARG_NONE, NULL, OPT_JSON, NULL, NULL },
		{ "raw", 'r', POPT_ARG_NONE, NULL, OPT_RAW, NULL, NULL },
		{ "pairs", 'P', POPT_ARG_NONE, NULL, OPT_PAIRS, NULL, NULL },
		{ "output", 'o', POPT_ARG_STRING, &show.out.columns, OPT_OUTPUT, NULL, NULL },
		{ "output-all", '\0', POPT_ARG_NONE, NULL, OPT_OUTPUT_ALL, NULL, NULL },
		{ "noheadings", 'n', POPT_ARG_NONE, NULL, OPT_NOHEADINGS, NULL, NULL },
		{ "node", '\0', POPT_ARG_STRING, &show.nodes, OPT_NODE, NULL, NULL },
		{ "zone", '\0', POPT_ARG_STRING, &show.zones, OPT_ZONE, NULL, NULL },
		{ "cpu", '\0', POPT_ARG_STRING, &show.cpus, OPT_CPU, NULL, NULL },
		{ "summary", 's', POPT_ARG_NONE, NULL, OPT_SUMMARY, NULL, NULL },
		{ "sysroot", '\0', POPT_ARG_STRING, &sysroot, OPT_SYSROOT, NULL, NULL },
		{ "batch", '\0', POPT_ARG_STRING, &change.batch, OPT_BATCH, NULL, NULL },
		{ "fraction", '\0', POPT_ARG_STRING, &change.fraction, OPT_FRACTION, NULL, NULL },
		{ "dry-run", '\0', POPT_ARG_NONE, NULL, OPT_DRY_RUN, NULL, NULL },
		{ "tasks", '\0', POPT_ARG_STRING, &sweep.tasks, OPT_TASKS, NULL, NULL },
		{ "duration", '\0', POPT_ARG_STRING, &sweep.duration, OPT_DURATION, NULL, NULL },
		{ "warmup", '\0', POPT_ARG_STRING, &sweep.warmup, OPT_WARMUP, NULL, NULL },
		{ "runs", '\0', POPT_ARG_STRING, &sweep.runs, OPT_RUNS, NULL, NULL },
		{ "metric", '\0', POPT_ARG_STRING, &sweep.metric, OPT_METRIC, NULL, NULL },
		{ "csv", '\0', POPT_ARG_STRING, &sweep.csv, OPT_CSV, NULL, NULL },
		{ "plot", '\0', POPT_ARG_STRING, &sweep.plot, OPT_PLOT, NULL, NULL },
		{ "persist", '\0', POPT_ARG_NONE, NULL, OPT_PERSIST, NULL, NULL },
		{ "help", 'h', POPT_ARG_NONE, NULL, OPT_HELP, NULL, NULL },
		{ "version", 'V', POPT_ARG_NONE, NULL, OPT_VERSION, NULL, NULL },
		POPT_TABLEEND
	};

	ctx = poptGetContext("pcpctl", argc, argv, table, 0);
	while ((opt = poptGetNextOpt(ctx)) > 0) {
		given |= (unsigned)opt;
		formats += opt == OPT_JSON || opt == OPT_RAW || opt == OPT_PAIRS;
	}
	if (opt < -1) {
		pcp_error("%s: %s; see pcpctl --help", poptBadOption(ctx, POPT_BADOPTION_NOALIAS),
			  poptStrerror(opt));
		goto out;
	}
	if (given & OPT_HELP) {
		usage(stdout);
		rc = EXIT_OK;
		goto out;
	}
	if (given & OPT_VERSION) {
		printf("pcpctl %s\n", PCPCTL_VERSION);
		rc = EXIT_OK;
		goto out;
	}

	const char **args = poptGetArgs(ctx);
	const char *name = args && args[0] ? args[0] : "show";

	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (strcmp(name, commands[i].name) == 0)
			cmd = &commands[i];
	if (!cmd) {
		pcp_error("unknown command \"%s\"; see pcpctl --help", name);
		goto out;
	}
	/* Only sweep takes more arguments: the workload command after --. */
	if (args && args[0] && args[1] && strcmp(cmd->name, "sweep") != 0) {
		pcp_error("unexpected argument \"%s\"; see pcpctl --help", args[1]);
		goto out;
	}
	if (given & ~cmd->accepts) {
		unsigned bad = given & ~cmd->accepts;

		pcp_error("%s does not take %s; see pcpctl --help", cmd->name,
			  option_names[__builtin_ctz(bad)]);
		goto out;
	}
	if (formats > 1) {
		pcp_error("--json, --raw and --pairs are mutually exclusive");
		goto out;
	}
	if (sysroot && !sysroot[0]) {
		pcp_error("--sysroot: give a directory");
		goto out;
	}
	if (drop_privileges() < 0) {
		pcp_error("cannot drop capabilities; refusing to run with more than needed");
		rc = EXIT_FAIL;
		goto out;
	}
	show.out.all_columns = given & OPT_OUTPUT_ALL;
	show.out.noheadings = given & OPT_NOHEADINGS;
	show.out.format = given & OPT_JSON ? OUT_JSON : given & OPT_RAW ? OUT_RAW :
			  given & OPT_PAIRS ? OUT_PAIRS : OUT_TABLE;
	show.summary = given & OPT_SUMMARY;
	change.json = given & OPT_JSON;
	change.dry_run = given & OPT_DRY_RUN;
	change.persist = given & OPT_PERSIST;
	sweep.batch = change.batch;
	sweep.fraction = change.fraction;
	sweep.json = change.json;
	sweep.command = args && args[0] && args[1] ? (char *const *)&args[1] : NULL;
	rc = dispatch(cmd, sysroot ? sysroot : "", &show, &change, &sweep);
out:
	/* popt hands string arguments over as malloc'ed copies. */
	for (const struct poptOption *po = table; po->longName; po++)
		if (po->argInfo == POPT_ARG_STRING)
			free(*(char **)po->arg);
	poptFreeContext(ctx);
	return rc;
}
