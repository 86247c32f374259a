#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Every source file, script, man page, completion, CMake file, unit, Ansible
# playbook and kernel patch names its license (scripts/spdx-add --check), and
# scripts/spdx-add, on a copy of the tree, adds exactly what is missing
# without breaking a file: a second run changes nothing, the lines that must
# stay first do, scripts still parse, patches keep their commit message.
# Usage: spdx.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
. "$(dirname "$(realpath "$0")")/../lib.sh"
workdir

if "$src/scripts/spdx-add" --check "$src" 2>"$work/missing"; then
	ok "every file that needs one has the right SPDX-License-Identifier"
else
	bad "$(wc -l <"$work/missing") files lack the right SPDX-License-Identifier (run scripts/spdx-add):"
	sed 's/^/    /' "$work/missing"
fi

# --- scripts/spdx-add on a copy ------------------------------------------------------
mkdir -p "$work/tree"
(cd "$src" && git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf -) |
	tar -xf - -C "$work/tree"
cp -r "$work/tree" "$work/before"
"$src/scripts/spdx-add" "$work/tree" >"$work/added" 2>&1 && ok "spdx-add ran ($(wc -l <"$work/added") files)" ||
	{ bad "spdx-add failed"; sed 's/^/    /' "$work/added"; }
"$src/scripts/spdx-add" --check "$work/tree" 2>"$work/after" &&
	ok "after spdx-add, --check passes" || { bad "after spdx-add:"; sed 's/^/    /' "$work/after"; }
cp -r "$work/tree" "$work/once"
out=$("$src/scripts/spdx-add" "$work/tree" 2>&1)
[ -z "$out" ] && diff -r "$work/once" "$work/tree" >/dev/null &&
	ok "a second run changes nothing" || bad "a second run changed: $out"

# Only whole lines were added, one per file, none removed.
changed=0
while IFS= read -r f; do
	f=${f%%: *}
	changed=$((changed + 1))
	removed=$(diff "$work/before/$f" "$work/tree/$f" | grep -c '^<')
	added=$(diff "$work/before/$f" "$work/tree/$f" | grep -c '^>')
	[ "$removed" = 0 ] && [ "$added" = 1 ] || bad "$f: $added lines added, $removed removed"
	first=$(head -1 "$work/before/$f")
	case $first in
	'#!'* | '#compdef'* | "'\\\""* | '# shellcheck shell='*)
		[ "$(head -1 "$work/tree/$f")" = "$first" ] || bad "$f: its first line moved" ;;
	esac
	case $first in
	'#!/bin/bash'* | '#!/usr/bin/env bash'*) bash -n "$work/tree/$f" || bad "$f: bash -n" ;;
	'#!'*python3*) python3 -m py_compile "$work/tree/$f" 2>/dev/null || bad "$f: does not compile" ;;
	esac
	case $f in
	patches/*.patch)
		(cd "$work" && git mailinfo msg patch <"$work/tree/$f" >/dev/null) &&
			! grep -q SPDX "$work/msg" && cmp -s <(grep '^[-+@ ]' "$work/patch") \
			<(cd "$work" && git mailinfo msg2 patch2 <"$work/before/$f" >/dev/null && grep '^[-+@ ]' patch2) ||
			bad "$f: the commit message or the diff changed" ;;
	esac
done <"$work/added"
ok "checked the $changed files spdx-add changed"
# Its output names the license by path.
for f in "$work"/tree/patches/linux-*/*.patch; do
	grep -qx 'SPDX-License-Identifier: GPL-2.0' "$f" && ok "${f#"$work"/tree/} is GPL-2.0" ||
		bad "${f#"$work"/tree/} is not GPL-2.0"
done
grep -q 'SPDX-License-Identifier: GPL-3.0-or-later' "$work/tree/ansible/plugins/modules/pcpctl.py" &&
	ok "the Ansible module is GPL-3.0-or-later" || bad "the Ansible module is not GPL-3.0-or-later"
grep -q '^/\* SPDX-License-Identifier: GPL-2.0-or-later \*/$' "$work/tree/src/pcpctl.c" &&
	ok "src/pcpctl.c is GPL-2.0-or-later" || bad "src/pcpctl.c is not GPL-2.0-or-later"

finish
