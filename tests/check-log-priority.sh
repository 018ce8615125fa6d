#!/usr/bin/env bash
# Errors that stop the daemon reach journald at priority err: with stderr the stream
# JOURNAL_STREAM names, a bad configuration, a bad option and a board that cannot be opened
# each print one "<3>annabellad: ..." line; with another stderr, no prefix.
set -u
build=${1:-build}
work=$(mktemp -d "${TMPDIR:-/tmp}/annabella-logprio.XXXXXX")
trap 'rm -rf "$work"' EXIT
passed=0
failed=0
check() { # OK MESSAGE
	if [ "$1" = 0 ]; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		echo "log-priority: $2"
	fi
}
fatal_at_err() { # NAME EXPECTED-STATUS ARGS...
	local name=$1 want=$2 status
	shift 2
	: >"$work/journal"
	JOURNAL_STREAM=$(stat -c '%d:%i' "$work/journal") "$build/annabellad" "$@" 2>>"$work/journal"
	status=$?
	check $([ "$status" = "$want" ] && echo 0 || echo 1) "$name: status $status, not $want"
	check $(grep -q '^<3>annabellad: ' "$work/journal" && echo 0 || echo 1) \
		"$name: not at priority err: $(cat "$work/journal")"
}

printf '[log]\nnonsense = 1\n' >"$work/bad.conf"
fatal_at_err "bad configuration" 2 --config "$work/bad.conf"
fatal_at_err "bad option" 2 --time sometimes
printf '[board]\nchip = /nonexistent/gpiochip\n' >"$work/nochip.conf"
fatal_at_err "no chip" 2 --config "$work/nochip.conf" --board gpiod --audio none \
	--state "$work/state" --control none
"$build/annabellad" --config "$work/bad.conf" 2>"$work/plain"
check $(grep -q '^annabellad: .*bad.conf:2: ' "$work/plain" && echo 0 || echo 1) \
	"outside the journal: $(cat "$work/plain")"
echo "log-priority: $passed passed, $failed failed"
[ "$failed" = 0 ]
