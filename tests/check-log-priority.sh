#!/usr/bin/env bash
# Errors that stop the daemon reach journald at priority err: with stderr the stream
# JOURNAL_STREAM names, a bad configuration, a bad option and a board that cannot be opened
# each print one "<3>annabellad: ..." line; with another stderr, no prefix.
set -u
build=${1:-build}
. "$(dirname "$0")/lib.sh"
begin log-priority
fatal_at_err() { # NAME EXPECTED-STATUS ARGS...
	local what=$1 want=$2 status
	shift 2
	: >"$work/journal"
	JOURNAL_STREAM=$(stat -c '%d:%i' "$work/journal") "$build/annabellad" "$@" 2>>"$work/journal"
	status=$?
	[ "$status" = "$want" ]
	check $? "$what: status $status, not $want"
	grep -q '^<3>annabellad: ' "$work/journal"
	check $? "$what: not at priority err: $(cat "$work/journal")"
}

printf '[log]\nnonsense = 1\n' >"$work/bad.conf"
fatal_at_err "bad configuration" 2 --config "$work/bad.conf"
fatal_at_err "bad option" 2 --time sometimes
printf '[board]\nchip = /nonexistent/gpiochip\n' >"$work/nochip.conf"
fatal_at_err "no chip" 2 --config "$work/nochip.conf" --board gpiod --audio none \
	--state "$work/state" --control none
"$build/annabellad" --config "$work/bad.conf" 2>"$work/plain"
grep -q '^annabellad: .*bad.conf:2: ' "$work/plain"
check $? "outside the journal: $(cat "$work/plain")"
summary
