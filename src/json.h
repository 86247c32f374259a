/* The few JSON pieces printed outside libsmartcols (objects, not tables). */
#ifndef PCPCTL_JSON_H
#define PCPCTL_JSON_H

#include <stdbool.h>
#include <stdio.h>

void json_string(FILE *out, const char *s);
/* A sysctl value, or null when the kernel lacks it (have == false). */
void json_optional_long(FILE *out, bool have, long value);

#endif
