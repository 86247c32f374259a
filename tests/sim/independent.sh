#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The simulated kernel shares no code with pcprules: none of its objects
# refers to a symbol that pcprules or topology define, or to pcpctl's reader
# of the page size, and no file of it includes their headers.  It may use the parser, the sysroot and the kernel
# interface to read and write its tree.
# Usage: independent.sh 'OBJ;OBJ...' 'LIB.a;LIB.a...' SIM_SOURCE_DIR  (the parts holding pcprules, topology)
set -u
IFS=';' read -ra objs <<<"$1"
IFS=';' read -ra libs <<<"$2"
src=$3
. "$(dirname "$(realpath "$0")")/../lib.sh"

# The archive's members for the rules: "pcprules.c.o:" headers in nm's output.
theirs=$( (nm --defined-only -g "${libs[@]}" 2>/dev/null | awk '
	/^$/ { next } /:$/ { member = ($0 ~ /^(pcprules|topology)[^\/:]*\.o:$/); next }
	member && NF >= 3 { print $3 }'
	# pcpctl's own reader of the page size (kernel.c): the simulator reads smaps itself.
	echo smaps_page_size; echo kernel_page_size) | sort -u)
n=$(echo "$theirs" | grep -c .)
# Without them the check below would pass whatever the simulator calls.
[ "$n" -gt 0 ] && ok "pcprules and topology define $n symbols in ${libs[*]##*/}" ||
	bad "no pcprules or topology symbols found in ${libs[*]}"
[ ${#objs[@]} -ge 2 ] && ok "${#objs[@]} objects of the simulated kernel" ||
	bad "expected the simulated kernel's objects, got: $1"

for o in "${objs[@]}"; do
	used=$(nm -u "$o" | awk '{ print $NF }' | sort -u)
	shared=$(comm -12 <(echo "$theirs") <(echo "$used"))
	[ -z "$shared" ] && ok "$(basename "$o") uses nothing of pcprules or topology" ||
		bad "$(basename "$o") uses: $(echo $shared)"
done

inc=$(grep -lE '#include[[:space:]]*"(pcprules|topology)\.h"' "$src"/*.c "$src"/*.h)
[ -z "$inc" ] && ok "no simulated kernel file includes pcprules.h or topology.h" ||
	bad "included by: $inc"

finish
