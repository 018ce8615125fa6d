#!/usr/bin/env bash
# Golden replay tests: each tests/regress/cases/NAME/ holds the input of one or more daemon
# runs on one state directory (run1.script, run2.script, ... as sim: scripts, or runN.log as
# replay: line logs; optional annabella.conf; runN.damage, a shell script run with the state
# directory as $1 before run N, damages it as storage or a person might) and the expected
# output in expected/
# (game.pgn, speech.log, and control.log where the case has one: the replies to the script's
# control lines).  The daemon runs in virtual time without audio.
# With --update, the expectations are rewritten from this build (review the diff!).
# REGRESS_WRAP runs the daemon under a command (make valgrind: memcheck).
set -u
build=${1:-build}
update=${2:-}
dir=$(cd "$(dirname "$0")" && pwd)
daemon=$(cd "$build" && pwd)/annabellad
passed=0
failed=0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The wall clock, and the journal's anchor: its chain, and its line (the journal notes the
# storage's sync latency as the machine gives it, so its lines are not the same each run).
normalise() { # FILE: rewritten in place
	sed -i -E -e 's/^([0-9]+) start [^ ]+ (synced|unsynced) /\1 start WALLCLOCK SYNC /' \
		-e 's/^\[JournalChain "[0-9a-f]+"\]$/[JournalChain "CHAIN"]/' \
		-e 's/^\[JournalLine "[0-9]+"\]$/[JournalLine "LINE"]/' "$1"
}

# Utterances of one moment on the two channels (the speaker and the earphone) are written by
# whichever starts first; in virtual time they start at the same millisecond, in either order.
# Their order within a channel is kept and checked; across channels at one moment it is not.
same_moment_by_channel() { # FILE: rewritten in place
	awk '
		function flush(   i) {
			for (i = 1; i <= n; i++) if (ch[i] == "public") print line[i]
			for (i = 1; i <= n; i++) if (ch[i] != "public") print line[i]
			n = 0
		}
		$1 != at { flush(); at = $1 }
		{ n++; line[n] = $0; ch[n] = $2 }
		END { flush() }' "$1" >"$1.tmp" && mv "$1.tmp" "$1"
}

for case in "$dir"/cases/*/; do
	name=$(basename "$case")
	state="$work/$name"
	mkdir -p "$state"
	conf=()
	[ -f "$case/annabella.conf" ] && conf=(--config "$case/annabella.conf")
	ok=1
	for run in $(ls "$case" | grep -E '^run[0-9]+\.(script|log)$' | sort -V); do
		case "$run" in
		*.script) board="sim:$case/$run" ;;
		*.log) board="replay:$case/$run" ;;
		esac
		if [ -f "$case/${run%.*}.damage" ] && ! bash "$case/${run%.*}.damage" "$state"; then
			echo "regress: $name: ${run%.*}.damage failed"
			ok=0
		fi
		# A subshell, so its report of an expected SIGKILL (the script's crash) goes nowhere.
		rc=$( (
			${REGRESS_WRAP:-} "$daemon" "${conf[@]}" --board "$board" --time virtual --audio none --control none \
				--state "$state" >"$state/$run.out" 2>&1
			echo $?
		) 2>/dev/null)
		expect_rc=0
		sed 's/#.*//' "$case/$run" |
			grep -qE '^(\+[0-9]+[[:space:]]+)?crash([[:space:]]+unsynced)?[[:space:]]*$' &&
			expect_rc=137
		if [ $rc -ne $expect_rc ]; then
			echo "regress: $name: $run exited $rc (expected $expect_rc)"
			sed 's/^/    /' "$state/$run.out" | head -20
			ok=0
		fi
	done
	for f in game.pgn speech.log control.log; do
		[ -f "$state/$f" ] && normalise "$state/$f"
	done
	[ -f "$state/speech.log" ] && same_moment_by_channel "$state/speech.log"
	if [ "$update" = --update ]; then
		mkdir -p "$case/expected"
		cp "$state/game.pgn" "$state/speech.log" "$case/expected/"
		if [ -f "$case/expected/control.log" ] ||
			grep -q -E '^(\+[0-9]+[[:space:]]+)?control ' "$case"/run*.script 2>/dev/null; then
			cp "$state/control.log" "$case/expected/"
		fi
		continue
	fi
	files=(game.pgn speech.log)
	[ -f "$case/expected/control.log" ] && files+=(control.log)
	for f in "${files[@]}"; do
		if ! diff -u "$case/expected/$f" "$state/$f" >"$state/$f.diff" 2>&1; then
			echo "regress: $name: $f differs:"
			head -40 "$state/$f.diff" | sed 's/^/    /'
			ok=0
		fi
	done
	if [ $ok -eq 1 ]; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		echo "regress: $name FAILED"
	fi
done
if [ "$update" = --update ]; then
	echo "regress: expectations rewritten; review them with git diff"
	exit 0
fi
echo "regress: $passed passed, $failed failed"
[ $failed -eq 0 ]
