#!/usr/bin/env bash
# Bad input to annabellad (docs/commands.md "annabellad"): unknown options, malformed configs, scripts and
# line logs exit with status 2 and a message naming the file and line; the shipped configuration
# files load.
set -u
build=${1:-build}
. "$(dirname "$0")/lib.sh"
begin errors

expect() { # WANT_STATUS PATTERN ARGS...
	local want=$1 pattern=$2
	shift 2
	local out status
	out=$("$build/annabellad" --control none "$@" --time virtual --audio none --state "$work/state" 2>&1)
	status=$?
	[ "$status" -eq "$want" ] && grep -qE -- "$pattern" <<<"$out"
	check $? "annabellad $*: status $status (want $want), said: $out"
}

printf 'player white\n+100 lift e2\n+100 jump e4\n' >"$work/action.script"
expect 2 "action.script:3: " --board "sim:$work/action.script"
printf 'player white\n+100 lift e9\n' >"$work/square.script"
expect 2 "square.script:2: " --board "sim:$work/square.script"
printf 'player white\n+100 lift e2\nplayer black\n' >"$work/header.script"
expect 2 "header.script:3: " --board "sim:$work/header.script"
printf 'player white\n+100 stuck e2 full 300\n' >"$work/stuck.script"
expect 2 "stuck.script:2: bad level .full." --board "sim:$work/stuck.script"
printf 'player white\n+100 lift e2\n+100 bounce select\n' >"$work/bounce.script"
expect 2 "bounce.script:3: usage: bounce SQ.BUTTON MS" --board "sim:$work/bounce.script"
printf 'player white\n+100 crash after 0\n' >"$work/crashb.script"
expect 2 "crashb.script:2: bad byte count .0." --board "sim:$work/crashb.script"
printf 'player white\n+100 crash later\n' >"$work/crashw.script"
expect 2 "crashw.script:2: " --board "sim:$work/crashw.script"
printf 'player white\n+100 disk gone\n' >"$work/disk.script"
expect 2 "disk.script:2: bad disk state .gone." --board "sim:$work/disk.script"
expect 2 "not a configuration file .a directory." --config "$work" --board "sim:$work/square.script"
printf '[state]\ndir =\n' >"$work/empty.conf"
expect 2 "empty.conf:2: dir has no value" --config "$work/empty.conf" --board "sim:$work/square.script"
printf 'player white\ntime-control 40/\n' >"$work/tc.script"
expect 2 "tc.script:2: " --board "sim:$work/tc.script"
printf 'setup rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0\n+100 lift e2\n' \
	>"$work/fen.script"
expect 2 "fen.script:1: " --board "sim:$work/fen.script"
printf '# format: annabella line log 1\n1000 3 rising\n2000 3 sideways\n' >"$work/bad.log"
expect 2 "bad.log:3: " --board "replay:$work/bad.log"
printf '[game]\nplayer = white\n[voice]\nlanguage = xx\n' >"$work/lang.conf"
expect 2 "lang.conf:4: " --config "$work/lang.conf" --board "sim:$work/square.script"
printf '[game]\nthis line has no equals sign\n' >"$work/syntax.conf"
expect 2 "syntax.conf:2: " --config "$work/syntax.conf" --board "sim:$work/square.script"
printf '[board]\nwiring = spiral\n' >"$work/wiring.conf"
expect 2 "wiring.conf:2: " --config "$work/wiring.conf" --board "sim:$work/square.script"
printf '[game]\nplayer = white\n[rules]\nedition = 1999\n' >"$work/rules.conf"
expect 2 "rules.conf:4: edition must be 2023, 2018 or 2005" --config "$work/rules.conf" \
	--board "sim:$work/square.script"
printf '[control]\nsocket = control.sock\n' >"$work/socket.conf"
expect 2 "socket.conf:2: socket must be an absolute path or none" --config "$work/socket.conf" \
	--board "sim:$work/square.script"
printf '[control]\narbiter-pin = 12\n' >"$work/pin.conf"
expect 2 "pin.conf:2: arbiter-pin must be at least 4 digits" --config "$work/pin.conf" \
	--board "sim:$work/square.script"
printf '[game]\nevent = Open\nwhite = Berg \342\200\256annA\n' >"$work/turn.conf"
expect 2 "turn.conf:3: white: a character that breaks the line or turns the text" \
	--config "$work/turn.conf" --board "sim:$work/square.script"
expect 2 "missing.conf" --config "$work/missing.conf"
expect 2 "missing.script" --board "sim:$work/missing.script"
expect 2 "unknown option" --frobnicate
expect 2 "--time" --time sideways

# A tag that would turn the text or break its line, given by a board script's control line
# (the socket's own code): refused, and game.pgn never holds it.
printf 'player white\n+500 control assistant tags White Berg \342\200\256annA\n+500 control assistant tags Black Kühn\342\200\250[Result "0-1"]\n+500 control assistant tags Event Open\n+500 lift e2\n' \
	>"$work/tags.script"
"$build/annabellad" --control none --board "sim:$work/tags.script" --time virtual --audio none \
	--state "$work/tags" >"$work/tags.out" 2>&1
if [ "$(grep -c '^[0-9]* script assistant ([0-9]* bytes) => error request-control-character$' \
	"$work/tags/control.log")" = 2 ] &&
	grep -q '^\[Event "Open"\]' "$work/tags/game.pgn" &&
	! grep -qP '\x{202e}|\x{2028}' "$work/tags/game.pgn" &&
	grep -q '^\[White "?"\]' "$work/tags/game.pgn"; then
	ok
else
	bad "tags that turn the text: control.log and game.pgn:"
	indent <"$work/tags/control.log"
	show "$work/tags/game.pgn" 9
fi

# The shipped configuration files load and play a game on the simulated board.
dir=$(cd "$tests/.." && pwd)
printf 'player white\n+1000 lift e2\n+300 place e4\n+1500 lift e7\n+300 place e5\n' >"$work/game.script"
for conf in "$dir"/configs/annabella.conf "$dir"/configs/wirings/*.conf; do
	rm -rf "$work/state"
	if "$build/annabellad" --control none --config "$conf" --board "sim:$work/game.script" --time virtual \
		--audio none --state "$work/state" >"$work/out" 2>&1 &&
		grep -q '^1. e4 e5' "$work/state/game.pgn"; then
		ok
	else
		bad "$conf does not load and play: $(head -3 "$work/out")"
	fi
done

summary
