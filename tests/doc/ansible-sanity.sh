#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The collection pcpctl.pcpctl (ansible/) as Ansible's tools check it, offline:
# `ansible-galaxy collection build`, then `ansible-test sanity` on a copy laid
# out as ansible_collections/pcpctl/pcpctl, every test ansible-core 2.14 has
# (validate-modules, pep8, pylint, yamllint, ansible-doc, import, ...).
#
# ansible-test runs each test in a virtualenv it fills with pip from the
# network.  Here each one is made beforehand from Debian's Python with its
# system packages (python3-voluptuous, pycodestyle, pylint, python3-yaml,
# yamllint), marked as ready, so ansible-test runs the same checkers with
# Debian's packages and never calls pip.  A test whose tool Debian does not
# package fails here rather than being skipped.
#
# Usage: ansible-sanity.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
export PATH=/usr/sbin:/usr/bin:/sbin:/bin   # Debian's python3, not another in PATH
. "$(dirname "$(realpath "$0")")/../lib.sh"
workdir

need ansible-core python3-voluptuous pycodestyle pylint yamllint python3-yaml git ||
	{ echo "FAIL cannot install what the test needs"; exit 1; }
export HOME=$work/home ANSIBLE_HOME=$work/home/.ansible
mkdir -p "$HOME"

# --- ansible-galaxy collection build ------------------------------------------------
version=$(sed -n 's/^version: *//p' "$src/ansible/galaxy.yml")
if ansible-galaxy collection build "$src/ansible" --output-path "$work" >"$work/build.out" 2>&1 &&
	[ -f "$work/pcpctl-pcpctl-$version.tar.gz" ]; then
	ok "ansible-galaxy collection build: pcpctl-pcpctl-$version.tar.gz"
else
	bad "ansible-galaxy collection build"; sed 's/^/    /' "$work/build.out"
fi
listing=$(tar -tzf "$work/pcpctl-pcpctl-$version.tar.gz" 2>/dev/null)
for f in MANIFEST.json FILES.json README.md CHANGELOG.md meta/runtime.yml \
	plugins/modules/pcpctl.py examples/set-persistent.yml; do
	grep -qx "$f" <<<"$listing" && ok "the tarball holds $f" || bad "the tarball lacks $f"
done
license=$(tar -xzOf "$work/pcpctl-pcpctl-$version.tar.gz" MANIFEST.json 2>/dev/null |
	python3 -c 'import json, sys; print(json.load(sys.stdin)["collection_info"]["license"])')
[ "$license" = "['GPL-3.0-or-later']" ] && ok "MANIFEST.json: license GPL-3.0-or-later" ||
	bad "MANIFEST.json: license $license"

# --- ansible-test sanity -------------------------------------------------------------
coll=$work/ansible_collections/pcpctl/pcpctl
mkdir -p "$coll"
cp -r "$src/ansible/." "$coll"
cd "$coll" || exit 1
cloader=$(python3 -c 'from yaml import CLoader' 2>/dev/null && echo true || echo false)

tests=$(ansible-test sanity --list-tests --python 3.11 2>/dev/null)
[ -n "$tests" ] || bad "ansible-test sanity --list-tests lists nothing"
for t in $tests; do
	log=$work/sanity-$t.log
	ansible-test sanity --python 3.11 --test "$t" --color no >"$log" 2>&1
	rc=$?
	# The virtualenv ansible-test wanted: make it from Debian's Python, once.
	venv=$(sed -n 's/^FATAL: Python 3.11 at "\(.*\)\/bin\/python" does not have pip available.*/\1/p' "$log")
	if [ "$rc" != 0 ] && [ -n "$venv" ]; then
		python3 -m venv --system-site-packages --without-pip "$venv" &&
			echo "$cloader" >"$venv/meta.yaml.json" && touch "$venv/marker.txt"
		ansible-test sanity --python 3.11 --test "$t" --color no >"$log" 2>&1
		rc=$?
	fi
	if [ "$rc" = 0 ] && grep -q '^WARNING: Skipping sanity test' "$log"; then
		ok "ansible-test sanity --test $t: $(sed -n 's/^WARNING: Skipping sanity test "[^"]*" //p' "$log")"
	elif [ "$rc" = 0 ]; then
		ok "ansible-test sanity --test $t"
	else
		bad "ansible-test sanity --test $t"; grep -v '^WARNING: .*locale' "$log" | sed 's/^/    /' | head -30
	fi
done

finish
