#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The .deb as an admin gets it: build it from a copy of the tree with
# `dpkg-buildpackage -us -uc -b` (debian/), check it with lintian, its control
# fields and contents, install it with dpkg -i, run the
# installed pcpctl, find its man page with man -w, check that bash-completion
# and zsh load the installed completions, that status points at the installed
# kernel patches and that a playbook finds the module pcpctl.pcpctl.pcpctl with
# no configuration, then dpkg -r it and check that the
# machine's package set and files are as before.
#
# Usage: deb-install.sh        (needs root; if a pcpctl package or /usr/sbin/pcpctl
#                            is already there, stops after lintian: 77, "skipped")
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
. "$(dirname "$(realpath "$0")")/../lib.sh"
workdir
installed_by_us=''

cleanup() {
	if [ -n "$installed_by_us" ]; then
		dpkg -r pcpctl >/dev/null 2>&1
		dpkg -P pcpctl >/dev/null 2>&1
	fi
}
at_exit cleanup

if [ "$(id -u)" != 0 ]; then
	echo "skipped: dpkg -i needs root"
	exit 77
fi
need cmake gcc make pkg-config dpkg-dev debhelper lintian man-db bash-completion zsh fish ansible-core ||
	{ echo "FAIL cannot install what the test needs"; exit 1; }

snapshot() {
	dpkg-query -W -f='${Package} ${Version} ${Status}\n' | sort
}
# From here to the last snapshot no other test of pcpctl's installs or removes
# a package (scripts/deps and the tests that install take this lock too).
# wait(a): no other script of the project is installing or removing packages, held from the first
#   package snapshot to the last; 1800 s (the test's bound).
exec 8>/tmp/pcpctl-dpkg.lock
flock 8
snapshot >"$work/packages.before"

# --- build ---------------------------------------------------------------------
# debian/control's Build-Depends are scripts/deps' build list (less gcc and
# make, which build-essential gives), and its <!nocheck> ones come from --test;
# of alternatives (systemd-dev | systemd) the last, which every release has.
deps_list() { sed -n "s/^$1=(\(.*\))$/\1/p" "$src/scripts/deps" | tr ' ' '\n' | grep -v '^"' | sort; }
control_deps() { # control_deps nocheck|build
	awk '/^Build-Depends:/ { b = 1; sub(/^Build-Depends:/, ""); print; next }
		b && /^[ \t]/ { print; next } { b = 0 }' "$src/debian/control" |
		tr ',' '\n' | sed 's/^ *//; s/ *$//' | grep -v '^debhelper-compat' | grep . |
		if [ "$1" = nocheck ]; then sed -n 's/ <!nocheck>$//p'; else grep -v '<!nocheck>'; fi |
		sed 's/.*| *//; s/ .*//' | sort
}
check "Build-Depends is scripts/deps' build list without gcc and make" \
	diff <(deps_list build | grep -vx 'gcc\|make') <(control_deps build)
missing=$(comm -23 <(control_deps nocheck) <({ deps_list check; deps_list test; } | sort) | tr '\n' ' ')
[ -z "$missing" ] && ok "Build-Depends <!nocheck> are in scripts/deps' test list" ||
	bad "Build-Depends <!nocheck> not in scripts/deps --test: $missing"
version=$(sed -n '1s/^pcpctl (\([^)]*\)).*/\1/p' "$src/debian/changelog")
project=$(sed -n 's/^project(pcpctl VERSION \([^ ]*\) .*/\1/p' "$src/CMakeLists.txt")
[ "$version" = "$project" ] && ok "debian/changelog's version is the project's, $version" ||
	bad "debian/changelog has $version, CMakeLists.txt $project"

# The tree as it is (tracked and new files), without build directories.
mkdir -p "$work/src"
(cd "$src" && git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf -) |
	tar -xf - -C "$work/src"
# nocheck: this suite runs those tests itself; tests/fresh builds with them.
check "dpkg-buildpackage -us -uc -b" sh -c "cd '$work/src' &&
	DEB_BUILD_OPTIONS='nocheck parallel=$(nproc)' dpkg-buildpackage -us -uc -b"
deb=$(ls "$work"/pcpctl_*.deb 2>/dev/null | head -1)
if [ -z "$deb" ]; then
	bad "no .deb was built"
	finish
fi
ok "built $(basename "$deb")"
check "lintian on the .deb and .changes: no error, no warning" \
	lintian --fail-on error,warning "$deb" "$work"/pcpctl_*.changes

field() { dpkg-deb -f "$deb" "$1"; }
[ "$(field Package)" = pcpctl ] && ok "Package: pcpctl" || bad "Package: $(field Package)"
[ "$(field Section)" = admin ] && ok "Section: admin" || bad "Section: $(field Section)"
[[ $(field Maintainer) == *@* ]] && ok "Maintainer: $(field Maintainer)" || bad "no Maintainer"
[ -n "$(field Description)" ] && ok "Description: $(field Description | head -1)" || bad "no Description"
deps=$(field Depends)
for lib in libc6 libpopt0 libsmartcols1 libcap2 libjson-c5; do
	[[ ", $deps" == *", $lib ("* ]] && ok "Depends on $lib with a version" ||
		bad "Depends lacks $lib: $deps"
done
dpkg-deb -c "$deb" | awk '{print $NF}' | sed 's|^\./|/|' >"$work/contents"
collection=/usr/share/ansible/collections/ansible_collections/pcpctl/pcpctl
# The units go where this release's systemd.pc says (DEP-17).
unitdir=$(pkg-config --variable=systemdsystemunitdir systemd)
patches=$(cd "$src" && ls patches/linux-*/*.patch | sed 's|^|/usr/share/pcpctl/|')
schemas=$(cd "$src" && ls schema/*.json | sed 's|^|/usr/share/pcpctl/|')
for f in /usr/sbin/pcpctl /usr/share/man/man8/pcpctl.8.gz /usr/share/man/man7/pcpctl-transaction.7.gz \
	/usr/share/bash-completion/completions/pcpctl /usr/share/zsh/vendor-completions/_pcpctl \
	/usr/share/fish/vendor_completions.d/pcpctl.fish \
	/usr/share/pcpctl/patches/README.md $patches $schemas \
	$collection/galaxy.yml $collection/meta/runtime.yml $collection/plugins/modules/pcpctl.py \
	/usr/share/doc/pcpctl/README.md.gz \
	"$unitdir/pcpctl-textfile.service" "$unitdir/pcpctl-textfile.timer"; do
	grep -qx "$f" "$work/contents" && ok "the package holds $f" || bad "the package lacks $f"
done

# --- install -------------------------------------------------------------------
# Never replace what an admin installed: the package is built and checked, the
# rest is skipped (unless something above failed).
skip=''
dpkg-query -W -f='${Status}' pcpctl 2>/dev/null | grep -q 'install ok installed' &&
	skip="a pcpctl package is installed; this test would replace and remove it"
[ -z "$skip" ] && [ -e /usr/sbin/pcpctl ] &&
	skip="/usr/sbin/pcpctl exists (not from a package); dpkg -i would overwrite it"
if [ -n "$skip" ]; then
	echo "skipped: $skip"
	echo "$pass passed, $fail failed"
	[ "$fail" = 0 ] && exit 77 || exit 1
fi
while read -r f; do
	[ -e "$f" ] && [ ! -d "$f" ] && echo "$f"
done <"$work/contents" >"$work/preexisting"
[ -s "$work/preexisting" ] && bad "files of the package already exist: $(cat "$work/preexisting")" ||
	ok "none of the package's files exists before"

installed_by_us=1
check "dpkg -i" dpkg -i "$deb"
check "pcpctl is /usr/sbin/pcpctl in PATH" sh -c '[ "$(command -v pcpctl)" = /usr/sbin/pcpctl ]'
version=$(field Version)
check "pcpctl --version prints ${version%-*}" sh -c "pcpctl --version | grep -qx 'pcpctl ${version%-*}'"
check "pcpctl --help runs" pcpctl --help
# The textfile export's timer is for the admin to enable, not the package.
check "pcpctl-textfile.timer is installed disabled" \
	sh -c '! ls /etc/systemd/system/*.wants/pcpctl-textfile.* 2>/dev/null | grep -q .'
check "the installed service runs pcpctl export from /usr/sbin" \
	grep -qx 'ExecStart=/usr/sbin/pcpctl export --output /var/lib/prometheus/node-exporter/pcpctl.prom' \
	"$unitdir/pcpctl-textfile.service"

# Minimal Debian images exclude /usr/share/man in /etc/dpkg/dpkg.cfg.d/:
# dpkg then silently drops the page, and man cannot find it.
exclude=$(grep -rhs '^path-exclude' /etc/dpkg/dpkg.cfg.d/ | grep -E '/usr/share/man(/|\*|$)' | head -1)
if [ -n "$exclude" ]; then
	ok "dpkg here excludes man pages ($exclude): checking the packaged page instead"
	dpkg-deb --fsys-tarfile "$deb" | tar -xO ./usr/share/man/man8/pcpctl.8.gz >"$work/pcpctl.8.gz"
	check "man -l renders the packaged page" sh -c "man -l '$work/pcpctl.8.gz' | grep -q 'pcpctl - show and tune'"
else
	check "man -w pcpctl finds /usr/share/man/man8/pcpctl.8.gz" \
		sh -c '[ "$(man -w pcpctl)" = /usr/share/man/man8/pcpctl.8.gz ]'
	check "man pcpctl renders" sh -c "MANPAGER=cat MANWIDTH=80 man pcpctl | grep -q 'pcpctl - show and tune'"
	check "whatis knows pcpctl(8)" sh -c "whatis pcpctl 2>/dev/null | grep -q '^pcpctl (8)' || { mandb -q; whatis pcpctl | grep -q '^pcpctl (8)'; }"
fi

# The shells find the installed completions where they look by themselves.
check "bash-completion loads the installed completion on demand" bash -c \
	'. /usr/share/bash-completion/bash_completion; _completion_loader pcpctl; complete -p pcpctl | grep -q "_pcpctl pcpctl"'
check "zsh's compinit finds the installed _pcpctl" zsh -fc \
	'autoload -Uz compinit; compinit -u -D; [[ $_comps[pcpctl] == _pcpctl ]]'
"$here/completion.sh" /usr/sbin/pcpctl --installed >"$work/completion.out" 2>&1
if [ $? = 0 ]; then
	ok "the installed completions pass tests/doc/completion.sh ($(tail -1 "$work/completion.out"))"
else
	bad "the installed completions fail tests/doc/completion.sh:"
	grep -v '^ok' "$work/completion.out" | sed 's/^/    /' | head -20
fi

# A kernel without the batch sysctl (this one, unless patched) is told where
# the installed patches are.
if [ -e /proc/sys/vm/percpu_pagelist_batch ]; then
	ok "this kernel has the batch sysctl: no patch message to check"
else
	check "pcpctl status points at /usr/share/pcpctl/patches/" sh -c \
		"pcpctl status | grep -q 'kernel patch in /usr/share/pcpctl/patches/\$'"
	check "set --batch says where the patches are" sh -c \
		"pcpctl set --batch 310 --dry-run 2>&1 | grep -q 'patch from /usr/share/pcpctl/patches/ '"
fi

# The collection where ansible-core looks by itself: no ANSIBLE_* variable,
# no ansible.cfg, an empty home.
mkdir -p "$work/home" "$work/play"
cat >"$work/play/fqcn.yml" <<'EOF'
- hosts: localhost
  gather_facts: false
  tasks:
    - name: the installed module, in check mode (pcpctl --dry-run)
      pcpctl.pcpctl.pcpctl:
        fraction: 8
      check_mode: true
      register: r
    - ansible.builtin.assert:
        that: r.after.percpu_pagelist_high_fraction == 8 and not r.verified
EOF
clean_ansible() {
	(cd "$work/play" && env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME="$work/home" LANG=C.UTF-8 "$@")
}
installed_doc() { clean_ansible ansible-doc pcpctl.pcpctl.pcpctl | grep -q 'fraction'; }
check "ansible-doc pcpctl.pcpctl.pcpctl finds the installed module" installed_doc
check "a playbook calls pcpctl.pcpctl.pcpctl with no extra path" \
	clean_ansible ansible-playbook -c local -i localhost, fqcn.yml

# --- remove --------------------------------------------------------------------
check "dpkg -r pcpctl" dpkg -r pcpctl
dpkg -P pcpctl >/dev/null 2>&1
installed_by_us=''
check "pcpctl is no longer known to dpkg" sh -c \
	'! dpkg-query -W -f="\${Status}" pcpctl 2>/dev/null | grep -q installed'
while read -r f; do
	[ -e "$f" ] && [ ! -d "$f" ] && echo "$f"
done <"$work/contents" >"$work/left"
[ -s "$work/left" ] && bad "files left after dpkg -r: $(cat "$work/left")" || ok "no file of the package is left"
snapshot >"$work/packages.after"
if cmp -s "$work/packages.before" "$work/packages.after"; then
	ok "the installed packages are as before"
else
	bad "the installed packages changed:"; diff "$work/packages.before" "$work/packages.after" | head
fi
check "man -w pcpctl no longer finds it" sh -c '! man -w pcpctl'

finish
