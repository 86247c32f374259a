/*
 * pcpctl: show and tune the page allocator's per-CPU page lists.
 * This file only parses options and dispatches to the commands.
 */
#include <popt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "msg.h"
#include "show.h"
#include "status.h"

#ifndef PCPCTL_VERSION
#define PCPCTL_VERSION "unknown"
#endif

enum {
	OPT_HELP = 1, OPT_VERSION, OPT_JSON, OPT_RAW, OPT_PAIRS, OPT_OUTPUT_ALL,
	OPT_NOHEADINGS, OPT_SUMMARY,
};

struct options {
	struct show_opts show;
	int formats;		/* how many of --json, --raw, --pairs were given */
};

static void usage(FILE *out)
{
	fputs("Usage:\n"
	      " pcpctl [options] [show]\n"
	      " pcpctl [options] status\n"
	      "\n"
	      "Show the page allocator's per-CPU page lists (pcp) of every node, zone and CPU.\n"
	      "\n"
	      "Commands:\n"
	      " show                 list each CPU's pcp count, high and batch (the default)\n"
	      " status               kernel release and the pcp sysctls this kernel has\n"
	      "\n"
	      "Options:\n"
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
	      "     --sysroot DIR    read DIR/proc/... instead of the live system\n"
	      " -h, --help           display this help\n"
	      " -V, --version        display version\n", out);
	show_columns_help(out);
	fputs("\nExit status: 0 success, 1 failure, 2 usage error, 3 interface missing,\n"
	      "4 insufficient privilege, 5 rollback failed. See pcpctl(8).\n", out);
}

static const char *const commands[] = { "show", "status" };

/* Which options each command accepts, so that a misplaced one is a usage error. */
static bool show_only_given(const struct options *o)
{
	return o->show.out.columns || o->show.out.all_columns || o->show.out.noheadings ||
	       o->show.nodes || o->show.zones || o->show.cpus || o->show.summary ||
	       o->show.out.format == OUT_RAW || o->show.out.format == OUT_PAIRS;
}

int main(int argc, const char **argv)
{
	struct options o = { 0 };
	const char *sysroot = NULL;
	poptContext ctx;
	int opt;

	struct poptOption table[] = {
		{ "json", 'J', POPT_ARG_NONE, NULL, OPT_JSON, NULL, NULL },
		{ "raw", 'r', POPT_ARG_NONE, NULL, OPT_RAW, NULL, NULL },
		{ "pairs", 'P', POPT_ARG_NONE, NULL, OPT_PAIRS, NULL, NULL },
		{ "output", 'o', POPT_ARG_STRING, &o.show.out.columns, 0, NULL, NULL },
		{ "output-all", '\0', POPT_ARG_NONE, NULL, OPT_OUTPUT_ALL, NULL, NULL },
		{ "noheadings", 'n', POPT_ARG_NONE, NULL, OPT_NOHEADINGS, NULL, NULL },
		{ "node", '\0', POPT_ARG_STRING, &o.show.nodes, 0, NULL, NULL },
		{ "zone", '\0', POPT_ARG_STRING, &o.show.zones, 0, NULL, NULL },
		{ "cpu", '\0', POPT_ARG_STRING, &o.show.cpus, 0, NULL, NULL },
		{ "summary", 's', POPT_ARG_NONE, NULL, OPT_SUMMARY, NULL, NULL },
		{ "sysroot", '\0', POPT_ARG_STRING, &sysroot, 0, NULL, NULL },
		{ "help", 'h', POPT_ARG_NONE, NULL, OPT_HELP, NULL, NULL },
		{ "version", 'V', POPT_ARG_NONE, NULL, OPT_VERSION, NULL, NULL },
		POPT_TABLEEND
	};

	ctx = poptGetContext("pcpctl", argc, argv, table, 0);
	while ((opt = poptGetNextOpt(ctx)) > 0) {
		switch (opt) {
		case OPT_HELP:
			usage(stdout);
			poptFreeContext(ctx);
			return EXIT_OK;
		case OPT_VERSION:
			printf("pcpctl %s\n", PCPCTL_VERSION);
			poptFreeContext(ctx);
			return EXIT_OK;
		case OPT_JSON:
			o.show.out.format = OUT_JSON;
			o.formats++;
			break;
		case OPT_RAW:
			o.show.out.format = OUT_RAW;
			o.formats++;
			break;
		case OPT_PAIRS:
			o.show.out.format = OUT_PAIRS;
			o.formats++;
			break;
		case OPT_OUTPUT_ALL:
			o.show.out.all_columns = true;
			break;
		case OPT_NOHEADINGS:
			o.show.out.noheadings = true;
			break;
		case OPT_SUMMARY:
			o.show.summary = true;
			break;
		}
	}
	if (opt < -1) {
		pcp_error("%s: %s; see pcpctl --help", poptBadOption(ctx, POPT_BADOPTION_NOALIAS),
			  poptStrerror(opt));
		poptFreeContext(ctx);
		return EXIT_USAGE;
	}

	const char **args = poptGetArgs(ctx);
	const char *command = args && args[0] ? args[0] : "show";
	int rc = EXIT_USAGE;

	if (args && args[0] && args[1])
		pcp_error("unexpected argument \"%s\"; see pcpctl --help", args[1]);
	else if (o.formats > 1)
		pcp_error("--json, --raw and --pairs are mutually exclusive");
	else if (sysroot && !sysroot[0])
		pcp_error("--sysroot: give a directory");
	else if (strcmp(command, commands[0]) == 0)
		rc = cmd_show(sysroot ? sysroot : "", &o.show);
	else if (strcmp(command, commands[1]) == 0) {
		if (show_only_given(&o))
			pcp_error("status takes only --json and --sysroot");
		else
			rc = cmd_status(sysroot ? sysroot : "", o.show.out.format == OUT_JSON);
	} else
		pcp_error("unknown command \"%s\"; see pcpctl --help", command);
	poptFreeContext(ctx);
	return rc;
}
