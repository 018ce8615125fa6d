#!/usr/bin/env bash
# One writer per state directory (docs/state.md "State directory": `lock`), in real time with a live
# script: while a daemon plays, a second daemon on the same directory exits 2 naming the
# first's pid and writes nothing; `annabella fsck` (a check and a repair) refuses the
# directory, naming the pid and saying how to stop the service; a journal replaced under the
# daemon (as a repair's atomic write would: a copy renamed over it, then another game's start)
# is noticed at the next record and the whole record written again, the other journal kept
# under games/; once the daemon has stopped the record is whole and a new daemon starts.
set -u
build=${1:-build}
. "$(dirname "$0")/lib.sh"
begin lock
state=$work/state
made() { [ "$(records "$build" "$state" made | wc -l)" = "$1" ]; } # N: the journal has N moves
mkfifo "$work/live"
spawn "$build/annabellad" --board "sim:$work/live" --time real --audio none --control none \
	--state "$state" >"$work/a.out" 2>&1
pid=$!
exec 3>"$work/live"
printf 'player white\ntime-control 300+0\n\n' >&3
# The actions once the game is open (what follows the header at once may be read with it).
wait_for 10 test -s "$state/journal" || give_up "the daemon did not start: $(tail -3 "$work/a.out")"
printf '+100 press opponent-clock\n+300 lift e2\n+300 place e4\n+300 press player-clock\n' >&3
wait_for 10 made 1 || give_up "the daemon did not play e4: $(tail -3 "$work/a.out")"

# A second daemon: refused before it writes anything (no restart, no second device note, no
# second start line: the first daemon's checkpoints go on meanwhile).
printf 'player white\ntime-control 300+0\n' >"$work/none.script"
"$build/annabellad" --board "sim:$work/none.script" --time virtual --audio none --control none \
	--state "$state" >"$work/b.out" 2>&1
rc=$?
if [ $rc -eq 2 ] && grep -q "in use by process $pid" "$work/b.out" &&
	[ -z "$(records "$build" "$state" restart)" ] &&
	[ "$(records "$build" "$state" journal | grep -c ' journal device ')" = 1 ] &&
	[ "$(grep -c ' start ' "$state/control.log")" = 1 ] &&
	[ "$(grep -c ' start ' "$state/speech.log")" = 1 ]; then
	ok
else
	bad "a second daemon: exit $rc (the first is $pid)"
	show "$work/b.out"
	records "$build" "$state" journal | indent
fi

# fsck, a check and a repair: refused while the daemon runs.
for how in "" --repair; do
	"$build/annabella" fsck "$state" $how >"$work/fsck.out" 2>&1
	rc=$?
	if [ $rc -eq 2 ] && grep -q "in use by process $pid" "$work/fsck.out" &&
		grep -q 'systemctl stop annabellad' "$work/fsck.out"; then ok; else
		bad "fsck $how while the daemon runs: exit $rc"
		show "$work/fsck.out"
	fi
done

# The journal replaced under the daemon: a copy renamed over it (the same records), then the
# start of the game only (not the start of this journal: kept aside).
cp "$state/journal" "$work/copy" && mv "$work/copy" "$state/journal"
printf '+300 lift e7\n+300 place e5\n+300 press opponent-clock\n' >&3
wait_for 10 made 2
check $? "the journal replaced by a copy: e5 is not in it: $(tail -3 "$work/a.out")"
head -n 2 "$state/journal" >"$work/other" && printf 'garbage\n' >>"$work/other"
cp "$work/other" "$work/copy" && mv "$work/copy" "$state/journal"
printf '+300 lift g1\n+300 place f3\n+300 press player-clock\n' >&3
wait_for 10 made 3
check $? "the journal replaced by another: Nf3 is not in it: $(tail -3 "$work/a.out")"
exec 3>&-
stop "$pid"
"$build/annabella" fsck "$state" >"$work/fsck.out" 2>&1
rc=$?
kept=$(ls "$state"/games/*-replaced-*.journal 2>/dev/null)
if [ $rc -eq 0 ] && grep -q '3 moves recovered' "$work/fsck.out" && [ -n "$kept" ] &&
	cmp -s "$kept" "$work/other"; then
	ok
else
	bad "after the journal was replaced twice: fsck exit $rc, kept: ${kept:-none}"
	show "$work/fsck.out"
	show "$work/a.out" 8
fi
"$build/annabellad" --board "sim:$work/none.script" --time virtual --audio none --control none \
	--state "$state" >"$work/c.out" 2>&1
check $? "a daemon after the first stopped: $(tail -2 "$work/c.out")"
summary
