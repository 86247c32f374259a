#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# "Tuning a networking server" as the README and pcpctl(8) give it, run as it
# stands: two network namespaces joined by a veth pair, iperf3 and sockperf
# servers in one, sweeps of the live kernel's fraction with the clients in the
# other (--netns).  Then a sweep whose COMMAND fails and one stopped by
# SIGINT.  After each: the pcp settings as before, no journal, and neither a
# namespace, nor a veth, nor a server left.
# Usage: network.sh PCPCTL
set -u
pcpctl=$(realpath "$1")
here=$(dirname "$(realpath "$0")")
. "$here/../lib.sh"
workdir
need iproute2 iperf3 sockperf || exit 1
# the README's commands call pcpctl by name: this build's
mkdir "$work/bin" && ln -s "$pcpctl" "$work/bin/pcpctl"
export PATH="$work/bin:$PATH"
vm=/proc/sys/vm
settings() { cat $vm/percpu_pagelist_high_fraction $vm/percpu_pagelist_batch 2>/dev/null; }
before=$(settings)
fraction=$(cat $vm/percpu_pagelist_high_fraction)
servers() { pgrep -f '^(iperf3 -s -D -B|sockperf server -i) 10\.231\.0\.2' >/dev/null; }
leftovers() { # what the commands made that is still there, one per line
	ip netns list | grep -Eo '^pcp[ab]\b'
	ip -o link show 2>/dev/null | grep -Eo 'pcp[ab]0'
	servers && echo "a server"
	[ -e /run/pcpctl/journal ] && echo "the journal"
	[ "$(settings)" = "$before" ] || echo "the pcp settings changed"
}
# A test that fails midway leaves nothing either.
at_exit 'for s in pcpb pcpa; do ip netns pids $s 2>/dev/null | xargs -r kill -9; ip netns del $s 2>/dev/null; done'
# pcpctl restores the batch with the fraction; a test that fails midway, the fraction.
at_exit "[ \"\$(cat $vm/percpu_pagelist_high_fraction)\" = $fraction ] || echo $fraction >$vm/percpu_pagelist_high_fraction"

if ip netns list | grep -qE '^pcp[ab]\b'; then
	bad "namespaces pcpa or pcpb exist already: not this test's to remove"
	finish
fi

# The README's block, and the man page's, which must be the same text.
readme=$(awk '/^## Tuning a networking server/ { on = 1 } on && /^```sh/ { code = 1; next }
	code && /^```/ { exit } code' "$here/../../README.md")
man=$(awk '/^\.SS Tuning a networking server/ { on = 1 } on && /^\.EX/ { code = 1; next }
	code && /^\.EE/ { exit } code' "$here/../../man/pcpctl.8" |
	sed -e 's/\\-/-/g' -e "s/\\\\(aq/'/g" -e 's/\\e/\\/g')
check "the README's commands are there" "[ \$(wc -l <<<\"\$readme\") -gt 10 ]"
same "pcpctl(8) gives the README's commands" "$readme" "$man"
# The lines that make the namespaces and start the servers, and those that remove them.
setup=$(sed '/^pcpctl /,$d' <<<"$readme")
teardown=$(sed -n '/^ip netns pids/,$p' <<<"$readme")

cd "$work" || exit 1
expect "a dry run with no namespace pcpa exits 2" 2 \
	pcpctl sweep --fraction 0,8 --netns pcpa --dry-run --metric-json a.b -- iperf3 -c 10.231.0.2
check "  and says how to make it" "grep -q 'there is no /run/netns/pcpa; make it with ip netns add pcpa' $work/err"

# wait(c): the README's sweeps: 2 fractions x 4 runs (a warm-up run each) of 2 s
#   clients; their servers daemonize before ip netns exec returns.
bash -e -o pipefail -c "$readme" >"$work/readme.out" 2>"$work/readme.err"
check "the README's commands exit 0" "[ $? = 0 ]"
sed 's/^/    /' "$work/readme.out"
check "  iperf3: bits_per_second, higher is better" \
	"grep -q '^sweep of fraction over 2 values: iperf3 with PCPCTL_TASKS=[0-9]*, 3 runs per point; HMEAN, MIN and MAX in bits_per_second\$' $work/readme.out"
check "  sockperf: P99 in usec, lower is better" \
	"grep -q '^sweep of fraction over 2 values: sockperf .*; MEAN, P50 and P99 in usec, lower is better\$' $work/readme.out"
check "  a row per fraction in each, and a verdict" \
	"[ \$(grep -Ec '^ +(0|8) +[0-9]+ ' $work/readme.out) = 4 ] && [ \$(grep -Ec '^(best: |no fraction was)' $work/readme.out) = 2 ]"
check "  both restored the settings" "[ \$(grep -c '^the settings from before are restored\$' $work/readme.out) = 2 ]"
same "  and left nothing behind" "" "$(leftovers)"

# A COMMAND that fails: no server on port 5299, refused at once.
bash -e -c "$setup" >/dev/null 2>&1
check "the namespaces and servers are made again" "servers"
expect "a sweep whose iperf3 cannot connect exits 1" 1 pcpctl sweep --fraction 0,8 --netns pcpa \
	--metric-json end.sum_received.bits_per_second -- iperf3 -c 10.231.0.2 -p 5299 -t 1 -J
# iperf3 -J reports the failure in its JSON ("error"), not always in its status
check "  names the workload and what it lacked" \
	"grep -q \"the workload \\\"iperf3 -c 10.231.0.2 -p 5299 -t 1 -J\\\" printed JSON with nothing at --metric-json 'end.sum_received.bits_per_second'\" $work/err"
bash -e -o pipefail -c "$teardown" >/dev/null 2>&1
same "  and, after the README's last lines, nothing is left" "" "$(leftovers)"

# Ctrl-C in the middle of the latency sweep.
bash -e -c "$setup" >/dev/null 2>&1
pcpctl sweep --fraction 0,8 --runs 3 --netns pcpa --better lower \
	--metric 'percentile 99.000 = +([0-9.]+)' --metric-unit usec \
	-- sockperf ping-pong -i 10.231.0.2 -t 2 >"$work/int.out" 2>"$work/int.err" &
sweep=$!
# await: the sweep has started its first point.
await grep -qs 'value 1/2: fraction 0' "$work/int.err"
kill -INT "$sweep"
# wait(a): the interrupted sweep restores the settings and exits (await above bounds its start).
wait "$sweep"
check "an interrupted sweep exits 1" "[ $? = 1 ]"
check "  says it restored the settings" "grep -q 'interrupted by signal 2; the settings from before were restored' $work/int.err"
check "  and no sockperf client is left" "! pgrep -f '^sockperf ping-pong -i 10.231.0.2' >/dev/null"
bash -e -o pipefail -c "$teardown" >/dev/null 2>&1
same "  and, after the README's last lines, nothing is left" "" "$(leftovers)"
finish
