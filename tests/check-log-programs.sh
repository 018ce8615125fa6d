#!/usr/bin/env bash
# The one logger as each program uses it (README: Logs): the program's name and the
# command's, the category and the level in each line, and the syslog priority in front
# under journald (stderr the stream $JOURNAL_STREAM names), for the tool's commands and its
# networked helpers as for the daemon (tests/check-log-priority.sh).
set -u
build=${1:-build}
work=$(mktemp -d "${TMPDIR:-/tmp}/annabella-logprog.XXXXXX")
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$work"' EXIT
passed=0
failed=0
check() { # FILE PATTERN WHAT
	if grep -q -- "$2" "$1"; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		echo "log-programs: $3: $(cat "$1")"
	fi
}
journal() { # NAME ARGS...: runs the tool with stderr as a journal stream into $work/NAME
	local name=$1
	shift
	: >"$work/$name"
	JOURNAL_STREAM=$(stat -c '%d:%i' "$work/$name") "$build/annabella" "$@" \
		>/dev/null 2>>"$work/$name"
}

journal web web --listen nowhere
check "$work/web" "^<3>annabella web: error: --listen 'nowhere': give ADDR:PORT" \
	"annabella web's error"
journal fsck fsck "$work/no-such-dir"
check "$work/fsck" "^<3>annabella fsck: error: $work/no-such-dir: " "annabella fsck's error"
journal unknown frobnicate
check "$work/unknown" "^<3>annabella: error: unknown command 'frobnicate'" "an unknown command"
check "$work/unknown" "^usage:" "the usage after an unknown command, without a prefix"

# The relay, as a service: its start at info, a broker that refuses at warn (net).
: >"$work/relay"
JOURNAL_STREAM=$(stat -c '%d:%i' "$work/relay") "$build/annabella" relay --mqtt 127.0.0.1:1 \
	--listen 127.0.0.1:0 --boards pi-01 >/dev/null 2>>"$work/relay" &
relay=$!
for _ in $(seq 50); do
	grep -q 'broker' "$work/relay" && break
	sleep 0.1
done
kill "$relay" 2>/dev/null
wait "$relay" 2>/dev/null
check "$work/relay" "^<6>annabella relay: listening on http://127.0.0.1:" "the relay's start"
check "$work/relay" "^<4>annabella relay: net: warn: broker 127.0.0.1:1: .*; retrying" \
	"the relay's broker, refused"

# Outside the journal: the same lines without the priority.
"$build/annabella" web --listen nowhere 2>"$work/plain"
check "$work/plain" "^annabella web: error: --listen 'nowhere'" "outside the journal"
echo "log-programs: $passed passed, $failed failed"
[ "$failed" = 0 ]
