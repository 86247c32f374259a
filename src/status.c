/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "status.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel.h"
#include "msg.h"
#include "report.h"
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

int cmd_status(const struct sysroot *root, bool json)
{
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
	}
	free(release);
	return delete_json_obj() ? EXIT_FAIL : EXIT_OK;
}
