#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Hostile --sysroot trees: root's writes stay in a tree that is
# root's alone, and reads stay in the tree, bounded, of regular files only;
# anyone's writes are made relative to directories opened beneath the root.
# Every link leads to a decoy directory this test makes, never to the live
# /proc/sys/vm, /run or /etc.
# Usage: sysroot-escape.sh PCPCTL-SIM FIXTURE_DIR (as root)
set -u
sim=$(realpath "$1")
fixtures=$(realpath "$2")/zoneinfo
if [ "$(id -u)" != 0 ]; then
	echo "SKIP: the trees' owners and devices take root"
	exit 77
fi
. "$(dirname "$(realpath "$0")")/../lib.sh"
workdir

tree() { sysroot_tree "$work/$1" "$fixtures/debian-6.1-4cpu-2node.zoneinfo" --sim percpu_pagelist_batch=0 percpu_pagelist_high_fraction=0; }

# The decoy stands for root's own directories outside the tree.
decoy=$work/decoy
mkdir -p "$decoy/etc/sysctl.d" "$decoy/run/pcpctl" "$decoy/vm"
echo 0 >"$decoy/vm/percpu_pagelist_batch"
echo 0 >"$decoy/vm/percpu_pagelist_high_fraction"
printf 'pcpctl journal v2\n' >"$decoy/run/pcpctl/journal"
chmod 0600 "$decoy/run/pcpctl/journal"
snapshot() { find "$decoy" -printf '%p %s %m\n' | sort; cat "$decoy"/vm/*; }
before=$(snapshot)

# A tree owned by nobody, its etc and run links to root's directories.
t=$(tree nobody)
ln -s "$decoy/etc" "$t/etc"
ln -s "$decoy/run" "$t/run"
chown -R -h nobody "$t"
"$sim" --sysroot "$t" set --persist-only --fraction 8 >"$work/out" 2>"$work/err"
check "a tree owned by nobody: set --persist-only exits 2" "[ $? = 2 ]"
check "naming the tree and its owner" "grep -q 'refusing to write as root beneath $t: owned by uid $(id -u nobody), not root' $work/err"
"$sim" --sysroot "$t" set --fraction 8 --persist >"$work/out" 2>"$work/err"
check "and set --persist exits 2" "[ $? = 2 ]"
check "nothing written outside the tree" "[ \"\$(snapshot)\" = \"\$before\" ]"
check "no lock made outside it" "[ ! -e $decoy/run/pcpctl/lock ]"
"$sim" --sysroot "$t" show >"$work/out" 2>"$work/err"
check "show still reads any tree" "[ $? = 0 ]"
"$sim" --sysroot "$t" set --fraction 8 --dry-run >"$work/out" 2>"$work/err"
# (as root without CAP_DAC_OVERRIDE it may still not write nobody's sysctls: exit 4)
check "and a dry run does not refuse the tree" "[ $? != 2 ] && ! grep -q refusing $work/err"

# A root-owned tree whose proc/sys/vm leads out of it.
t=$(tree vm)
rm -r "$t/proc/sys/vm"
ln -s "$decoy/vm" "$t/proc/sys/vm"
"$sim" --sysroot "$t" set --fraction 8 >"$work/out" 2>"$work/err"
check "proc/sys/vm a link out: set exits 2" "[ $? = 2 ]"
check "naming proc/sys/vm" "grep -q 'beneath $t/proc/sys/vm: a symbolic link' $work/err"
check "the decoy's sysctls unwritten" "[ \"\$(snapshot)\" = \"\$before\" ]"

# A root-owned tree whose run leads to another journal: rollback must not take it.
t=$(tree run)
ln -s "$decoy/run" "$t/run"
"$sim" --sysroot "$t" rollback >"$work/out" 2>"$work/err"
check "run a link out: rollback exits 2" "[ $? = 2 ]"
check "naming run" "grep -q 'beneath $t/run: a symbolic link' $work/err"
check "the journal outside is kept" "[ \"\$(snapshot)\" = \"\$before\" ]"

# Inside a root-owned tree, a directory another user may change.
t=$(tree open)
mkdir -p "$t/etc/sysctl.d"
chmod 0777 "$t/etc"
"$sim" --sysroot "$t" set --persist-only --fraction 8 >"$work/out" 2>"$work/err"
check "etc writable by others: exits 2" "[ $? = 2 ]"
check "naming etc and its mode" "grep -q 'beneath $t/etc: writable by others (mode 0777)' $work/err"
check "nothing written there" "[ ! -e $t/etc/sysctl.d/90-pcpctl.conf ]"
chmod 0755 "$t/etc"
chown nobody "$t/etc/sysctl.d"
"$sim" --sysroot "$t" set --persist-only --fraction 8 >"$work/out" 2>"$work/err"
check "etc/sysctl.d owned by nobody: exits 2" "[ $? = 2 ] && grep -q 'beneath $t/etc/sysctl.d: owned by uid' $work/err"
chown root "$t/etc/sysctl.d"
"$sim" --sysroot "$t" set --persist-only --fraction 8 >"$work/out" 2>"$work/err"
check "the same tree, root's alone: written" "[ $? = 0 ] && [ -f $t/etc/sysctl.d/90-pcpctl.conf ]"

# Reads stay in the tree: an absolute link is the tree's own path.
t=$(tree readlink)
rm "$t/proc/sys/kernel/osrelease"
mkdir -p "$decoy/kernel" && echo 5.10.0-decoy >"$decoy/kernel/osrelease"
ln -s "$decoy/kernel/osrelease" "$t/proc/sys/kernel/osrelease"
"$sim" --sysroot "$t" status >"$work/out" 2>"$work/err"
check "a read through a link out of the tree fails" "[ $? != 0 ] && ! grep -q decoy $work/out"
rm -r "$decoy/kernel"
before=$(snapshot)

# A device as osrelease (/dev/zero's numbers): an error, not memory without end.
# The address space is bound so that a read without end fails fast; a
# sanitizer's build reserves terabytes of it at start, and is left unbound.
bounded() {
	if nm "$sim" 2>/dev/null | grep -q __asan_init; then "$@"; else (ulimit -v 1000000; exec "$@"); fi
}
t=$(tree zero)
rm "$t/proc/sys/kernel/osrelease"
mknod "$t/proc/sys/kernel/osrelease" c 1 5
bounded "$sim" --sysroot "$t" status >"$work/out" 2>"$work/err"
check "osrelease a device: status exits 1" "[ $? = 1 ]"
check "naming it" "grep -q '$t/proc/sys/kernel/osrelease' $work/err"
# A file larger than any osrelease: refused at the cap.
rm "$t/proc/sys/kernel/osrelease"
head -c $((8 << 20)) /dev/zero | tr '\0' x >"$t/proc/sys/kernel/osrelease"
bounded "$sim" --sysroot "$t" status >"$work/out" 2>"$work/err"
check "osrelease of 8 MiB: status exits 1" "[ $? = 1 ] && grep -q '$t/proc/sys/kernel/osrelease' $work/err"

# A FIFO as zoneinfo: no writer ever comes, and show must not wait for one.
t=$(tree fifo)
rm "$t/proc/zoneinfo"
mkfifo "$t/proc/zoneinfo"
# wait(a): show exits at once, refusing the FIFO; the 60 s are reached only by a show that waits for
#   a writer, which is the failure.
timeout 60 "$sim" --sysroot "$t" show >"$work/out" 2>"$work/err"
check "zoneinfo a FIFO: show exits 1 at once" "[ $? = 1 ]"
check "naming it" "grep -q '$t/proc/zoneinfo' $work/err"

# systemd-sysctl's directories read beneath the tree: a link to a directory
# or a file outside it is the tree's own path, which is not there.
t=$(tree sysctld)
mkdir -p "$decoy/usr/lib/sysctl.d" "$decoy/lib" "$t/etc/sysctl.d"
echo "vm.percpu_pagelist_high_fraction = 77" >"$decoy/usr/lib/sysctl.d/50-decoy.conf"
echo "vm.percpu_pagelist_batch = 99" >"$decoy/lib/60-decoy.conf"
ln -s "$decoy/usr" "$t/usr"
ln -s "$decoy/lib" "$t/lib"
ln -s /lib/60-decoy.conf "$t/etc/sysctl.d/60-decoy.conf"
"$sim" --sysroot "$t" status >"$work/out" 2>"$work/err"
check "usr a link out: status does not read its sysctl.d" "[ $? = 0 ] && ! grep -q '77' $work/out"
check "a sysctl.d file's link through lib out: not read" "! grep -q '99' $work/out"
rm -r "$decoy/usr" "$decoy/lib"

# A user without privilege in a tree of its own: the links lead to its own
# files outside the tree, which its writes must not reach either.
as_nobody() { setpriv --reuid nobody --regid "$(id -g nobody)" --clear-groups "$@"; }
chmod 0755 "$work"
mine=$work/mine
mkdir -p "$mine/etc/sysctl.d" "$mine/run"
printf '# Written by pcpctl; pcpctl reset --persist removes it.\nvm.percpu_pagelist_high_fraction = 8\n' \
	>"$mine/etc/sysctl.d/90-pcpctl.conf"
chown -R nobody "$mine"
mine_snapshot() { find "$mine" -printf '%p %s %m\n' | sort; cat "$mine/etc/sysctl.d/90-pcpctl.conf" 2>&1; }
mine_before=$(mine_snapshot)
t=$(tree own-etc)
ln -s "$mine/etc" "$t/etc"
chown -R -h nobody "$t"
as_nobody "$sim" --sysroot "$t" set --persist-only --fraction 16 >"$work/out" 2>"$work/err"
check "nobody's etc a link out: set --persist-only exits 1" "[ $? = 1 ]"
check "naming etc" "grep -q 'cannot write to $t/etc: a symbolic link on the way' $work/err"
as_nobody "$sim" --sysroot "$t" reset --persist >"$work/out" 2>"$work/err"
check "and reset --persist exits 1, naming etc" "[ $? = 1 ] && grep -q 'cannot write to $t/etc: a symbolic link' $work/err"
check "the sysctl.d file outside is neither written nor removed" "[ \"\$(mine_snapshot)\" = \"\$mine_before\" ]"
t=$(tree own-run)
mine_before=$(mine_snapshot)
ln -s "$mine/run" "$t/run"
chown -R -h nobody "$t"
as_nobody "$sim" --sysroot "$t" set --fraction 16 >"$work/out" 2>"$work/err"
check "nobody's run a link out: set exits 1" "[ $? = 1 ]"
check "naming run" "grep -q 'cannot create $t/run: a symbolic link on the way' $work/err"
check "no run/pcpctl, lock or journal made outside" "[ \"\$(mine_snapshot)\" = \"\$mine_before\" ]"
check "and the tree's sysctl unwritten" "[ \"\$(cat $t/proc/sys/vm/percpu_pagelist_high_fraction)\" = 0 ]"

finish
