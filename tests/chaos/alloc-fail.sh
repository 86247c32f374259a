#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Every allocation of show, show --json, status, set --fraction 8 --persist
# and rollback on the simulated kernel fails in turn (LD_PRELOAD shim
# failalloc.so, the Nth call for every N up to the run's count).  Each run
# succeeds, or exits 1 with a message (rollback may exit 5, keeping its
# journal, when the memory runs out while it restores), with no crash and no
# sanitizer report; a failed set leaves nothing changed and no journal.
# Usage: alloc-fail.sh PCPCTL-SIM FIXTURE_DIR FAILALLOC.SO
set -u
sim=$(realpath "$1")
fixtures=$(realpath "$2")/zoneinfo
shim=$(realpath "$3")
. "$(dirname "$0")/lib.sh"
# The sanitizer runtime is not first when the shim is preloaded: fine, the shim passes calls on.
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
reports='ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:|SUMMARY: .*Sanitizer'
sites=0

simtree "$work/base"
"$sim" --sysroot "$work/base" set --fraction 16 --persist >/dev/null
# A tree with an interrupted set --fraction 8 --persist for rollback.
cp -a "$work/base" "$work/crashed"
echo "crash verify" >"$work/crashed/sim/faults"
("$sim" --sysroot "$work/crashed" set --fraction 8 --batch 100 --persist >/dev/null 2>&1; exit) 2>/dev/null
rm "$work/crashed/sim/faults"

under() { # under N TREE ARGS...: run with the Nth allocation failing
	local n=$1 t=$2
	shift 2
	FAILALLOC_NTH=$n FAILALLOC_COUNT=$work/count LD_PRELOAD=$shim \
		"$sim" --sysroot "$t" "$@" >"$work/out" 2>"$work/err"
}

# alloc_case NAME TREE KIND ARGS...: KIND is read, set or rollback.
alloc_case() {
	local name=$1 base=$2 kind=$3 total n rc asked
	local -A exits=()
	shift 3
	rm -rf "$work/t"
	cp -a "$base" "$work/t"
	under 0 "$work/t" "$@"
	rc=$?
	total=$(cat "$work/count" 2>/dev/null)
	if [ $rc != 0 ] || [ "${total:-0}" -lt 10 ]; then
		bad "$name with the shim and no failure: exit $rc, ${total:-no} allocations counted"
		sed 's/^/    /' "$work/err" | head -20
		return
	fi
	if [ "$kind" != read ]; then
		asked=$(snapshot "$work/t")
		rm -rf "$work/t"
	fi
	for ((n = 1; n <= total; n++)); do
		if [ "$kind" != read ]; then rm -rf "$work/t"; cp -a "$base" "$work/t"; fi
		before=$(snapshot "$work/t")
		under "$n" "$work/t" "$@"
		rc=$?
		exits[$rc]=$((${exits[$rc]:-0} + 1))
		what="$name, allocation $n of $total failing: exit $rc"
		if grep -Eq "$reports" "$work/err"; then
			bad "$what: sanitizer report"; sed 's/^/    /' "$work/err" | head -20
		elif [ $rc != 0 ] && [ $rc != 1 ] && ! { [ "$kind" = rollback ] && [ $rc = 5 ]; }; then
			bad "$what"; sed 's/^/    /' "$work/err" | head -5
		elif [ $rc != 0 ] && [ ! -s "$work/err" ]; then
			bad "$what without a message"
		elif [ "$kind" = set ] && [ $rc = 1 ] &&
			{ [ "$(snapshot "$work/t")" != "$before" ] || [ -n "$(leftovers "$work/t")" ]; }; then
			bad "$what, but left something changed: $(leftovers "$work/t")"
		elif [ "$kind" = set ] && [ $rc = 0 ] && [ "$(snapshot "$work/t")" != "$asked" ]; then
			bad "$what, but the settings are not as asked"
		elif [ "$kind" = rollback ] && [ $rc != 0 ] &&
			! "$sim" --sysroot "$work/t" rollback >/dev/null 2>&1; then
			bad "$what, and the next rollback failed"
		elif [ "$kind" = rollback ] && [ "$(snapshot "$work/t")" != "$asked" ]; then
			bad "$what, and the settings are not those from before"
		else
			ok
		fi
	done
	echo "# $name: $total allocations, each failed once; exits: $(for c in "${!exits[@]}"; do
		printf '%s x%s ' "$c" "${exits[$c]}"; done)"
	sites=$((sites + total))
}

alloc_case "show" "$work/base" read show
alloc_case "show --json" "$work/base" read show --json
alloc_case "status" "$work/base" read status
alloc_case "set --fraction 8 --persist" "$work/base" set set --fraction 8 --persist
alloc_case "rollback" "$work/crashed" rollback rollback
echo "# $sites allocation calls failed in all; violations: $fail"
finish
