/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pcpctl: show and tune the page allocator's per-CPU page lists.
 * This file is the dispatch: the common options, the list of commands
 * (each command's file defines its entry: its options, help and handlers),
 * the one reading of the command line, and the checks every command that
 * writes passes before it runs.
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
#include "command.h"
#include "kernel.h"
#include "msg.h"
#include "privs.h"
#include "suggest.h"
#include "sysroot.h"

#ifndef PCPCTL_VERSION
#define PCPCTL_VERSION "unknown"
#endif

static struct common_opts common;
static int help, version;

static const struct poptOption common_options[] = {
	{ "json", 'J', POPT_ARG_NONE, &common.json, 0, NULL, NULL },
	{ "sysroot", '\0', POPT_ARG_STRING, &common.sysroot, 0, NULL, NULL },
	{ "help", 'h', POPT_ARG_NONE, &help, 0, NULL, NULL },
	{ "version", 'V', POPT_ARG_NONE, &version, 0, NULL, NULL },
	POPT_TABLEEND
};

static int run_help(const struct sysroot *root, const struct command_args *a);

static const struct poptOption help_options[] = { POPT_TABLEEND };

static const struct command help_command = {
	.name = "help", .run = run_help, .takes_command = true,
	.no_json = "it prints the help text",
	.summary = "print pcpctl's help, or COMMAND's (as COMMAND --help)",
	.usage = "[COMMAND]",
	.options = help_options, .options_help = "",
};

/* In the order of pcpctl --help. */
static const struct command *const commands[] = {
	&show_command, &status_command, &set_command, &reset_command, &rollback_command,
	&sweep_command, &compare_command, &plot_command, &export_command, &help_command,
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
		fprintf(out, " %-20s %s\n", commands[i]->name, commands[i]->summary);
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

static const struct poptOption *option_in(const struct poptOption *t, const char *longname,
					  char shortname)
{
	for (; t->longName || t->shortName; t++)
		if (longname ? t->longName && strcmp(t->longName, longname) == 0 :
			       t->shortName == shortname)
			return t;
	return NULL;
}

static const struct command *command_named(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		if (strcmp(name, commands[i]->name) == 0)
			return commands[i];
	return NULL;
}

static void unknown_command(const char *name)
{
	const char *names[ARRAY_SIZE(commands)];
	const char *guess;

	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		names[i] = commands[i]->name;
	/* Commands are lower case, so SHOW is show typed in capitals. */
	guess = suggest_name_fold(name, names, ARRAY_SIZE(names));
	if (guess)
		pcp_error("unknown command \"%s\" (did you mean \"%s\"?); see pcpctl --help",
			  name, guess);
	else
		pcp_error("unknown command \"%s\"; see pcpctl --help", name);
}

/* pcpctl help [COMMAND]: the help --help prints, on stdout, exit 0. */
static int run_help(const struct sysroot *root, const struct command_args *a)
{
	char *const *args = a->args;
	const struct command *cmd = args && args[0] ? command_named(args[0]) : NULL;

	(void)root;
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

/* The entry of cmd's option longname or shortname: its own table's, or a common one. */
static const struct poptOption *command_option(const struct command *cmd, const char *longname,
					       char shortname)
{
	const struct poptOption *o = option_in(cmd->options, longname, shortname);

	return o ? o : option_in(common_options, longname, shortname);
}

/* An option popt found in no command's table: a typo, said with the nearest of cmd's. */
static void unknown_option(const struct command *cmd, const char *bad)
{
	const struct poptOption *tables[] = { cmd->options, common_options };
	const char *names[32], *guess;
	size_t n = 0;

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

/*
 * What popt reads the command line with: every command's options and the
 * common ones, each name once (command.h), so that an option may come
 * before the command's name.  Each entry returns its index + 1 and leaves
 * the value to store(), which finds the option in the command's own table.
 */
static struct poptOption *every_option(void)
{
	size_t n = ARRAY_SIZE(common_options), k = 0;
	struct poptOption *every;

	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		for (const struct poptOption *o = commands[i]->options; o->longName; o++)
			n++;
	every = calloc(n, sizeof(*every));
	for (size_t i = 0; every && i <= ARRAY_SIZE(commands); i++) {
		const struct poptOption *t = i ? commands[i - 1]->options : common_options;

		for (const struct poptOption *o = t; o->longName; o++) {
			if (option_in(every, o->longName, '\0'))
				continue;
			every[k] = (struct poptOption){
				o->longName, o->shortName,
				o->argInfo == POPT_ARG_NONE ? POPT_ARG_NONE : POPT_ARG_STRING,
				NULL, (int)k + 1, NULL, NULL };
			k++;
		}
	}
	return every;
}

/*
 * An option given before the command was known, with its value (malloc'ed);
 * or what popt could not read there (error, bad): said once the command is.
 */
struct given {
	const struct poptOption *option;
	char *value;
	int error;
	const char *bad;
};

/* Give cmd's option (e) its value: an option without one sets an int to 1. */
static int store(const struct command *cmd, const struct poptOption *e, char *value)
{
	const struct poptOption *o = command_option(cmd, e->longName, '\0');
	size_t n = 0;
	char ***list, **grown;

	if (!o) {
		free(value);
		pcp_error("%s does not take --%s; see pcpctl %s --help", cmd->name, e->longName,
			  cmd->name);
		return EXIT_USAGE;
	}
	switch (o->argInfo) {
	case POPT_ARG_NONE:
		*(int *)o->arg = 1;
		return EXIT_OK;
	case POPT_ARG_STRING:
		free(*(char **)o->arg);
		*(char **)o->arg = value;
		return EXIT_OK;
	default:	/* POPT_ARG_ARGV: once per use */
		list = o->arg;
		while (*list && (*list)[n])
			n++;
		grown = realloc(*list, (n + 2) * sizeof(*grown));
		if (!grown) {
			free(value);
			pcp_error("out of memory");
			return EXIT_FAIL;
		}
		grown[n] = value;
		grown[n + 1] = NULL;
		*list = grown;
		return EXIT_OK;
	}
}

/* What popt could not read: bad, a word of argv, with popt's error. */
static int popt_failed(const struct command *cmd, int error, const char *bad)
{
	if (error == POPT_ERROR_MALLOC) {
		pcp_error("out of memory");
		return EXIT_FAIL;
	}
	if (error == POPT_ERROR_BADOPT)
		unknown_option(cmd, bad);
	else
		pcp_error("%s: %s; see pcpctl %s --help", bad, poptStrerror(error), cmd->name);
	return EXIT_USAGE;
}

/* What popt returns as it reads: its words other than options, in order, malloc'ed. */
struct words {
	char **word;		/* NULL-terminated */
	int n;
};

/*
 * The options popt finds in ctx, stored as cmd's; or, while no command is
 * known (NULL), kept in g[*ng] with what popt could not read, and read on
 * to the command's name, to be said as that command's.  The other words
 * into w.  An exit code.
 */
static int read_options(poptContext ctx, const struct poptOption *every,
			const struct command *cmd, struct given *g, int *ng, struct words *w)
{
	int v, rc;

	while ((v = poptGetNextOpt(ctx)) != -1) {
		const struct poptOption *e = v > 0 ? &every[v - 1] : NULL;
		char *value = NULL;

		if (v < 0) {
			const char *bad = poptBadOption(ctx, POPT_BADOPTION_NOALIAS);

			if (cmd || v == POPT_ERROR_MALLOC)
				return popt_failed(cmd, v, bad);
			g[(*ng)++] = (struct given){ .error = v, .bad = bad };
			continue;
		}
		/* a word (POPT_CONTEXT_ARG_OPTS) or a value: popt says nothing of one it could not copy */
		if (!e || e->argInfo != POPT_ARG_NONE) {
			value = poptGetOptArg(ctx);
			if (!value) {
				pcp_error("out of memory");
				return EXIT_FAIL;
			}
		}
		if (!e) {
			w->word[w->n++] = value;
			continue;
		}
		/* so that the first "--" on the line is where the options end */
		if (value && strcmp(value, "--") == 0) {
			free(value);
			pcp_error("--%s: give it a value; \"--\" ends the options", e->longName);
			return EXIT_USAGE;
		}
		if (!cmd) {
			g[(*ng)++] = (struct given){ .option = e, .value = value };
		} else if ((rc = store(cmd, e, value))) {
			return rc;
		}
	}
	return EXIT_OK;
}

/*
 * An argument before any "--" that looks like an option: popt took it for
 * none because POSIXLY_CORRECT stopped it at an earlier argument.  Taken
 * as a file or a COMMAND's word it changed what ran ("sweep ... /bin/echo
 * --dry-run" swept for real), so it is a usage error, said once.
 */
static bool option_left_over(const struct command_args *a)
{
	for (int i = 0; a->args && i < a->before_dashdash; i++) {
		const char *w = a->args[i];

		if (w[0] == '-' && w[1] && strcmp(w, "--") != 0) {
			pcp_error("%s: an option after an argument, which POSIXLY_CORRECT leaves "
				  "unread; give the options first (and a COMMAND after --)", w);
			return true;
		}
	}
	return false;
}

/*
 * How many of the words popt returned (w, from argv) came before the first
 * "--" of argv: every word after it is one of them, and no option's value
 * is "--" (read_options).
 */
static int before_dashdash(int argc, const char *const *argv, const struct words *w)
{
	int after = 0;

	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "--") == 0) {
			after = argc - i - 1;
			break;
		}
	/* POSIXLY_CORRECT: popt stopped before the "--", which it returns as a word */
	if (w->n > after && strcmp(w->word[w->n - after - 1], "--") == 0)
		return w->n - after - 1;
	return w->n - after;
}

static void free_option_strings(void)
{
	/* popt hands string arguments over as malloc'ed copies. */
	for (size_t i = 0; i <= ARRAY_SIZE(commands); i++)
		for (const struct poptOption *o = i ? commands[i - 1]->options : common_options;
		     o->longName; o++)
			if (o->argInfo == POPT_ARG_STRING) {
				free(*(char **)o->arg);
			} else if (o->argInfo == POPT_ARG_ARGV && *(char ***)o->arg) {
				for (char **a = *(char ***)o->arg; *a; a++)
					free(*a);
				free(*(char ***)o->arg);
			}
}

/* The command line as read: what popt read it with, and the words it returned. */
struct command_line {
	struct poptOption *every;
	poptContext ctx[2];
	struct words rest;	/* the command's name and what follows it */
	struct words args;	/* the operands */
};

static void command_line_free(struct command_line *l)
{
	for (int i = 0; i < 2; i++)
		if (l->ctx[i])
			poptFreeContext(l->ctx[i]);
	for (int i = 0; i < l->rest.n; i++)
		free(l->rest.word[i]);
	for (int i = 0; i < l->args.n; i++)
		free(l->args.word[i]);
	free(l->rest.word);
	free(l->args.word);
	free(l->every);
}

/*
 * The command line, read once: up to the command's name with every
 * command's options (POSIXLY_CORRECT or not: the name ends them), then the
 * rest as the command's.  *cmd and *named (its name was given), and in a
 * its operands; an exit code.  popt hands every word over as a copy,
 * whose allocation it would otherwise fail silently.
 */
static int read_command_line(int argc, const char **argv, struct command_line *l,
			     const struct command **cmd, bool *named, struct command_args *a)
{
	struct given *g = calloc((size_t)argc, sizeof(*g));
	int ng = 0, rc;

	l->every = every_option();
	l->rest.word = calloc((size_t)argc + 1, sizeof(*l->rest.word));
	l->args.word = calloc((size_t)argc + 1, sizeof(*l->args.word));
	if (g && l->every && l->rest.word && l->args.word)
		l->ctx[0] = poptGetContext("pcpctl", argc, argv, l->every,
					   POPT_CONTEXT_POSIXMEHARDER | POPT_CONTEXT_ARG_OPTS);
	if (!l->ctx[0]) {
		pcp_error("out of memory");
		rc = EXIT_FAIL;
		goto out;
	}
	rc = read_options(l->ctx[0], l->every, NULL, g, &ng, &l->rest);
	if (rc)
		goto out;
	/* a word after "--" is an operand, of show */
	*named = l->rest.n && before_dashdash(argc, argv, &l->rest) != 0;
	*cmd = command_named(*named ? l->rest.word[0] : "show");
	if (!*cmd) {
		unknown_command(l->rest.word[0]);
		rc = EXIT_USAGE;
		goto out;
	}
	for (int i = 0; i < ng && !rc; i++) {
		rc = g[i].error ? popt_failed(*cmd, g[i].error, g[i].bad) :
				  store(*cmd, g[i].option, g[i].value);
		g[i].value = NULL;
	}
	if (rc)
		goto out;
	if (!*named) {
		a->args = l->rest.n ? l->rest.word : NULL;
		goto out;
	}
	/* the name stands where popt looks for the program's */
	l->ctx[1] = poptGetContext("pcpctl", l->rest.n, (const char **)l->rest.word, l->every,
				   POPT_CONTEXT_ARG_OPTS);
	if (!l->ctx[1]) {
		pcp_error("out of memory");
		rc = EXIT_FAIL;
		goto out;
	}
	rc = read_options(l->ctx[1], l->every, *cmd, NULL, NULL, &l->args);
	a->args = l->args.n ? l->args.word : NULL;
	a->before_dashdash = before_dashdash(l->rest.n, (const char **)l->rest.word, &l->args);
out:
	for (int i = 0; i < ng; i++)
		free(g[i].value);
	free(g);
	return rc;
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
	struct command_args a = { .common = &common };
	const struct command *cmd = NULL;
	struct command_line line = { 0 };
	struct sysroot *root = NULL;
	bool named = false;
	int rc;

	rc = read_command_line(argc, argv, &line, &cmd, &named, &a);
	if (rc)
		goto out;
	rc = EXIT_USAGE;
	if (help) {
		if (named)
			command_usage(stdout, cmd);
		else
			usage(stdout);
		rc = msg_flush_stdout() ? EXIT_FAIL : EXIT_OK;
		goto out;
	}
	if (version) {
		printf("pcpctl %s\n", PCPCTL_VERSION);
		rc = msg_flush_stdout() ? EXIT_FAIL : EXIT_OK;
		goto out;
	}
	if (option_left_over(&a))
		goto out;
	if (a.args && a.args[0] && !cmd->takes_command) {
		pcp_error("unexpected argument \"%s\"; see pcpctl %s --help", a.args[0], cmd->name);
		goto out;
	}
	if (common.sysroot && !common.sysroot[0]) {
		pcp_error("--sysroot: give a directory");
		goto out;
	}
	if (common.sysroot && !sysroot_is_dir(common.sysroot))
		goto out;
	if (cmd->setup)
		cmd->setup(&a);
	if (drop_privileges(cmd->switches_user) < 0) {
		pcp_error("cannot drop capabilities; refusing to run with more than needed");
		rc = EXIT_FAIL;
		goto out;
	}
	root = sysroot_open(common.sysroot);
	if (!root) {
		pcp_error("out of memory");
		rc = EXIT_FAIL;
		goto out;
	}
	if (cmd->prepare) {
		struct change_prep *p = NULL;

		rc = cmd->dry_run && *cmd->dry_run ? EXIT_OK : check_tree(root);
		if (!rc)
			rc = cmd->prepare(root, &a, &p);
		if (!rc)
			rc = check_root(p->k, p->plan.write);
		if (rc)
			goto out;
	}
	if (common.json && cmd->no_json) {
		pcp_error("%s does not take --json: %s", cmd->name, cmd->no_json);
		rc = EXIT_USAGE;
		goto out;
	}
	rc = cmd->run(root, &a);
out:
	if (cmd && cmd->done)
		cmd->done();
	sysroot_free(root);
	free_option_strings();
	command_line_free(&line);
	return rc;
}
