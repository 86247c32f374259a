/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "status.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel.h"
#include "msg.h"
#include "report.h"
#include "sysctld.h"
#include "sysroot.h"

/* Why a sysctl can be missing, for the human-readable status. */
static const char *const missing_reason[NSYSCTLS] = {
	[SYSCTL_BATCH] = "not available: needs the kernel patch in " PCPCTL_PATCHDIR "/",
	[SYSCTL_HIGH_FRACTION] = "not available: added in Linux 5.14",
	[SYSCTL_FRACTION] = "not available: removed in Linux 5.14",
};

void print_settings(const char *key, const bool *have, const long *value)
{
	open_json_object(key);
	for (int s = 0; s < NSYSCTLS; s++) {
		if (have[s])
			print_long(PRINT_JSON, sysctl_name(s), "%ld", value[s]);
		else
			print_null(PRINT_JSON, sysctl_name(s), "%s", "");
	}
	close_json_object();
}

void print_sysctl_label(const char *name)
{
	char label[48];

	if (name)
		snprintf(label, sizeof(label), "vm.%s:", name);
	print_string(PRINT_FP, NULL, "%-35s ", name ? label : "kernel:");
}

void print_sysctld_line(const char *key, const struct sysctld_line *l)
{
	open_json_object(NULL);
	print_string(PRINT_JSON, "key", "%s", key);
	print_string(PRINT_JSON, "file", "%s", l->file);
	print_string_or_null("target", l->target);
	print_string_or_null("value", l->value);
	close_json_object();
}

void print_sysctld_where(const struct sysctld_line *l, bool from)
{
	print_string(PRINT_FP, NULL, "%s", l->value ? l->value : "excluded");
	if (from)
		print_string(PRINT_FP, NULL, ", from %s", l->file);
	else
		print_string(PRINT_FP, NULL, " in %s", l->file);
	if (l->target)
		print_string(PRINT_FP, NULL, " -> %s", l->target);
	if (l->glob || !l->value)
		print_string(PRINT_FP, NULL, " (%s)", l->key);
}

/* What the sysctl.d files set for s at boot: which line wins, and every line that sets it. */
static void print_boot(const struct sysctld_key *k, const char *name, bool have)
{
	const struct sysctld_line *w = k->winner >= 0 ? &k->lines[k->winner] : NULL;

	print_string(PRINT_FP, NULL, "%-35s ", "  at boot:");
	if (!k->n || !k->lines) {
		print_null(PRINT_JSON, name, "%s", NULL);
		print_string(PRINT_FP, NULL, "%s\n", "not set in sysctl.d (the kernel's default)");
		return;
	}
	open_json_object(name);
	print_string_or_null("value", w ? w->value : NULL);
	print_string_or_null("file", w ? w->file : NULL);
	print_string_or_null("target", w ? w->target : NULL);
	if (w && w->value) {
		print_sysctld_where(w, true);
		print_string(PRINT_FP, NULL, "%s\n", have ? "" : "; this kernel lacks the sysctl");
	} else if (w) {
		print_string(PRINT_FP, NULL, "not set (the kernel's default): %s excludes it\n",
			     w->file);
	} else {
		print_string(PRINT_FP, NULL, "%s\n", "not set in sysctl.d (the kernel's default)");
	}
	open_json_array("holders");
	for (size_t i = 0; i < k->n; i++) {
		print_sysctld_line(k->lines[i].key, &k->lines[i]);
		if ((long)i == k->winner)
			continue;
		print_string(PRINT_FP, NULL, "%-35s ", "  overridden:");
		print_sysctld_where(&k->lines[i], false);
		print_string(PRINT_FP, NULL, "%s", "\n");
	}
	close_json_array();
	close_json_object();
}

int cmd_status(const struct sysroot *root, bool json)
{
	struct sysctld boot;
	struct kernel *k = kernel_open(root);
	long value[NSYSCTLS];
	bool have[NSYSCTLS];
	char *release;
	int rc = EXIT_OK;

	if (!k) {
		pcp_error("out of memory");
		return EXIT_FAIL;
	}
	release = kernel_release(k);
	if (!release) {
		pcp_error("cannot read the kernel release from %s: %s",
			  sysroot_name(root, PATH_OSRELEASE), strerror(errno));
		k->ops->close(k);
		return EXIT_FAIL;
	}
	if (kernel_read_settings(k, have, value))
		rc = EXIT_FAIL;
	k->ops->close(k);
	if (!rc && sysctld_read(root, NULL, &boot))
		rc = EXIT_FAIL;
	if (rc) {
		free(release);
		return rc;
	}

	new_json_obj(json);
	print_sysctl_label(NULL);
	print_string(PRINT_ANY, "kernel", "%s\n", release);
	print_settings("settings", have, value);
	for (int s = 0; s < NSYSCTLS; s++) {
		print_sysctl_label(sysctl_name(s));
		if (!have[s])
			print_string(PRINT_FP, NULL, "%s\n", missing_reason[s]);
		else
			print_long(PRINT_FP, NULL, value[s] ? "%ld\n" : "%ld (kernel default)\n",
				   value[s]);
		/* In JSON, "boot" follows "settings" as an object of its own. */
		if (!is_json_context())
			print_boot(&boot.key[s], sysctl_name(s), have[s]);
	}
	open_json_object("boot");
	for (int s = 0; s < NSYSCTLS && is_json_context(); s++)
		print_boot(&boot.key[s], sysctl_name(s), have[s]);
	close_json_object();
	sysctld_free(&boot);
	free(release);
	return delete_json_obj() ? EXIT_FAIL : EXIT_OK;
}
