#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Root's sweep runs its workload as another user: a COMMAND that
# tries to write /etc, /proc/sys and a root-owned file and to read
# /etc/shadow is refused each time while the sweep still measures it, and
# page_fault1's tasks run as that user too.
# Usage: sweep-user.sh PCPCTL-SIM FIXTURE_DIR (as root)
set -u
sim=$(realpath "$1")
fixtures=$(realpath "$2")/zoneinfo
if [ "$(id -u)" != 0 ]; then
	echo "SKIP: switching users takes root"
	exit 77
fi
. "$(dirname "$(realpath "$0")")/../lib.sh"
workdir
etc=/etc/pcpctl-sweep-user.$$
at_exit 'rm -rf "$etc"'
# await (tests/lib.sh) polls here for: a page_fault1 task of the sweep runs as nobody, the sweep's tasks
# are gone.

t=$work/tree
sysroot_tree "$t" "$fixtures/debian-6.1-4cpu-2node.zoneinfo" --sim percpu_pagelist_batch=0 percpu_pagelist_high_fraction=0 >/dev/null

# A root-owned file the COMMAND must not change, where it could reach it.
owned=$work/owned
echo mine >"$owned"
chmod 0644 "$owned"
chmod 0755 "$work"

# Each attempt says whether it was allowed; "true >>FILE" opens for writing and
# writes nothing, so a core_pattern that could be opened is still unchanged.
# shellcheck disable=SC2016
probe='echo "ids $(id -u) $(id -g) $(id -G)"
grep -E "^(CapEff|CapPrm|NoNewPrivs)" /proc/self/status
mkdir '"$etc"' 2>/dev/null && echo "allowed /etc" || echo "denied /etc"
true 2>/dev/null >>/proc/sys/kernel/core_pattern && echo "allowed core_pattern" || echo "denied core_pattern"
echo theirs 2>/dev/null >'"$owned"' && echo "allowed owned" || echo "denied owned"
cat /etc/shadow >/dev/null 2>&1 && echo "allowed shadow" || echo "denied shadow"
echo r=7'

"$sim" --sysroot "$t" sweep --fraction 0,8 --tasks 1 --warmup 0 --metric 'r=([0-9]+)' --json \
	--workload-log "$work/log" -- sh -c "$probe" >"$work/out" 2>"$work/err"
check "the sweep exits 0" "[ $? = 0 ]"
check "and measures both points" "python3 -c 'import json; assert [p[\"hmean\"] for p in json.load(open(\"$work/out\"))[\"points\"]]==[7,7]'"
check "the COMMAND ran as nobody, in nobody's groups alone" \
	"[ \"\$(grep '^ids ' $work/log | sort -u)\" = \"ids \$(id -u nobody) \$(id -g nobody) \$(id -G nobody)\" ]"
check "with no capability" "! grep -E '^Cap(Eff|Prm):' $work/log | grep -qv '0000000000000000$'"
check "and no_new_privs" "grep -q '^NoNewPrivs:.1' $work/log"
for what in /etc core_pattern owned shadow; do
	check "it was refused $what every run" \
		"[ \$(grep -c '^denied $what\$' $work/log) = 2 ] && ! grep -q '^allowed $what\$' $work/log"
done
check "nothing was made in /etc" "[ ! -e $etc ]"
check "the root-owned file is as it was" "[ \"\$(cat $owned)\" = mine ]"
check "the log is pcpctl's, owned by root" "[ \"\$(stat -c %u $work/log)\" = 0 ]"

# --user names the user; root never, nor a user that does not exist.
"$sim" --sysroot "$t" sweep --fraction 8 --tasks 1 --warmup 0 --user daemon \
	--workload-log "$work/log" -- sh -c 'echo "ids $(id -u) $(id -g)"' >/dev/null 2>"$work/err"
check "--user daemon: exits 0" "[ $? = 0 ]"
check "and the COMMAND ran as daemon" "grep -qx \"ids \$(id -u daemon) \$(id -g daemon)\" $work/log"
"$sim" --sysroot "$t" sweep --fraction 8 --tasks 1 --user root -- true >"$work/out" 2>"$work/err"
check "--user root is a usage error" "[ $? = 2 ]"
check "that says why" "grep -q 'the workload never runs as root' $work/err"
"$sim" --sysroot "$t" sweep --fraction 8 --tasks 1 --user pcpctl-no-such-user -- true \
	>"$work/out" 2>"$work/err"
check "an unknown --user is a usage error" "[ $? = 2 ] && grep -q 'no such user' $work/err"

# Under sudo the default is sudo's caller (SUDO_UID and SUDO_GID); sudo run
# by root leaves 0, which is nobody.
SUDO_UID=$(id -u daemon) SUDO_GID=$(id -g daemon) "$sim" --sysroot "$t" sweep --fraction 8 \
	--dry-run -- true >"$work/out" 2>&1
check "under sudo, sudo's caller" "grep -qx \"user: daemon (uid \$(id -u daemon), gid \$(id -g daemon))\" $work/out"
SUDO_UID=0 SUDO_GID=0 "$sim" --sysroot "$t" sweep --fraction 8 --dry-run -- true >"$work/out" 2>&1
check "sudo by root: nobody" "grep -q '^user: nobody ' $work/out"

# page_fault1's tasks are the user's too, from before their first fault.
# wait(c): the sweep whose tasks are looked at, then SIGTERMed (it reaps its tasks before it exits):
#   its 30 s never run out; wait returns once it has.
"$sim" --sysroot "$t" sweep --fraction 8 --tasks 1 --duration 30 --warmup 0 \
	>"$work/out" 2>"$work/err" &
pid=$!
await pgrep -u nobody -f -- "$t" >/dev/null || bad "no page_fault1 task ran as nobody"
check "no page_fault1 task runs as root" "! pgrep -u root -P $pid >/dev/null"
kill -TERM $pid
wait $pid
check "and pcpctl still ends them: SIGTERM exits 1" "[ $? = 1 ]"
await eval "! pgrep -f -- '$t' >/dev/null" || bad "a page_fault1 task outlived the sweep"

finish
