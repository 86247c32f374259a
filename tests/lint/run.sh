#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Static analysis: clang-tidy (the checks in .clang-tidy, every warning an
# error) and cppcheck over src/ (pcpctl.c and every part's folder) and the
# simulated kernel (its rules and simctl).  False positives are suppressed in
# tests/lint/cppcheck.supp or by a NOLINT comment, each with its reason.
# Both keep their verdicts on unchanged files in BUILD_DIR (tidy-cache/, cppcheck/).
# Usage: tests/lint/run.sh [BUILD_DIR]   (default build-lint, configured here)
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$top/build-lint}
cd "$top" || exit 1

. "$(dirname "$(realpath "$0")")/../lib.sh"
workdir
need clang-tidy cppcheck clang cmake pkg-config || { echo "FAIL cannot install the linters"; exit 1; }

# clang-tidy parses with clang's front end: give it clang's command lines.
if ! cmake -S . -B "$build" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON \
	-DCMAKE_C_COMPILER=clang >"$work/cmake.log" 2>&1; then
	cat "$work/cmake.log"; echo "lint: cannot configure $build"; exit 1
fi

files=(src/*.c src/*/*.c tests/sim/simkernel.c tests/sim/simrules.c tests/sim/simctl.c)
includes=()
for d in src/*/; do includes+=(-I"${d%/}"); done

# clang-tidy's verdict on a file follows from the translation unit as clang
# sees it, its command line, .clang-tidy and clang-tidy's own version: it is
# kept in $build/tidy-cache under the hash of those, so a file is analysed
# again only when one of them changed (the analyzer is the slow part).
cache=$build/tidy-cache
mkdir -p "$cache"
if ! python3 "$top/tests/lint/tidy-key.py" "$build" "${files[@]}" >"$work/keys" 2>"$work/keys.err"; then
	cat "$work/keys.err"; echo "lint: cannot preprocess the files for clang-tidy"; exit 1
fi
declare -A key
while read -r f k; do key[$f]=$k; done <"$work/keys"
todo=()
for f in "${files[@]}"; do
	[ -n "${key[$f]-}" ] || { echo "lint: no compile command for $f in $build"; exit 1; }
	[ -e "$cache/${key[$f]}" ] || todo+=("$f")
done
echo "# clang-tidy: ${#todo[@]} of ${#files[@]} files changed since their last analysis"
# One process per file, as many at once as there are CPUs; each writes its
# findings and exit status under the file's key.
# shellcheck disable=SC2016 # $1..$4 are sh -c's own arguments
for f in "${todo[@]}"; do printf '%s %s\n' "$f" "${key[$f]}"; done |
	xargs -r -P "$(nproc)" -n 2 sh -c 'clang-tidy -p "$1" --quiet "$3" >"$2/$4.tidy" 2>&1; echo $? >"$2/$4.rc"' \
		sh "$build" "$work"
# Only a clean verdict is kept: a file with findings, or a clang-tidy that
# crashed or was killed, is analysed again next time.
for f in "${files[@]}"; do
	k=${key[$f]}
	o=$work/$k
	if [ ! -e "$cache/$k" ] && [ "$(cat "$o.rc")" = 0 ] && ! grep -Eq '(warning|error): ' "$o.tidy"; then
		cp "$o.tidy" "$cache/$k.tmp" && mv "$cache/$k.tmp" "$cache/$k"
	fi
	if [ -e "$cache/$k" ]; then
		ok "clang-tidy $f"
		continue
	fi
	if grep -Eq '(warning|error): ' "$o.tidy"; then
		bad "clang-tidy $f"
	else
		bad "clang-tidy $f: clang-tidy exited $(cat "$o.rc") without a finding"
	fi
	grep -Ev '^[0-9]+ warnings? (and [0-9]+ errors? )?generated|^Suppressed [0-9]+ warnings|^Use -header-filter' "$o.tidy" | sed 's/^/    /'
done

# cppcheck keeps its own analysis of unchanged files in its build folder.
mkdir -p "$build/cppcheck"
if cppcheck --enable=warning,style,performance,portability --error-exitcode=1 --inline-suppr \
	--cppcheck-build-dir="$build/cppcheck" \
	--suppressions-list=tests/lint/cppcheck.supp --std=c11 -D_GNU_SOURCE \
	-DPCPCTL_VERSION='"lint"' -DPCPCTL_PATCHDIR='"lint"' "${includes[@]}" -j "$(nproc)" --quiet "${files[@]}" >"$work/cppcheck" 2>&1; then
	ok "cppcheck (${#files[@]} files)"
else
	bad "cppcheck"
	sed 's/^/    /' "$work/cppcheck"
fi

finish
