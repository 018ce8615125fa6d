#!/usr/bin/env bash
# The state directory as storage and people leave it, with real
# mounts and owners:
#  - read-only at start: the state directory bind-mounted read-only (a card the kernel
#    remounted read-only); the daemon starts in real time, resumes the game in memory, says
#    the fault once, privately, and writes everything when the mount is made writable again;
#  - `annabella fsck --repair` run as root on a directory owned by the service's user: what
#    it writes keeps that owner and the modes, and the service, as that user, goes on;
#  - six plain restarts leave a record fsck calls whole;
#  - a journal of another game with the same id: set aside, the game of game.pgn resumes,
#    and `annabella fsck --use` makes the other the current game (the arbiter's choice);
#  - the state directory on a file system of its own (tmpfs) unmounted in the middle of a
#    real-time game and an empty one mounted in its place, and unmounted and put back as it
#    was when it went (a card pulled and put back): the daemon notices at the next record
#    (device and inode) and writes the whole record into what is mounted now; the logs go
#    on there with their start line, what they got while the card was out included; the
#    player hears it.
# Needs root (or sudo) for the mounts and the owners.
set -u
build=$(cd "${1:-build}" && pwd)
. "$(dirname "$0")/lib.sh"
begin storage
chmod 755 "$work"
need_root "mounts, owners"
# The service's user runs the daemon from a copy it can reach: the checkout may be in a home
# only its owner can enter.
daemon=$(copy_for_users "$build/annabellad")
virtual() { # STATE SCRIPT [USER]: a daemon run in virtual time; its output in STATE.out
	local state=$1 script=$2 user=${3:-}
	if [ -n "$user" ]; then
		run_as "$user" "$daemon" --control none --board "sim:$script" \
			--time virtual --audio none --state "$state" >"$state.out" 2>&1
	else
		"$build/annabellad" --control none --board "sim:$script" --time virtual \
			--audio none --state "$state" >"$state.out" 2>&1
	fi
}
sans() { # PGN: its moves, one line (read as root: the service's files are its own)
	$sudo cat "$1" | sed '/^\[/d' | tr -s ' \n' ' ' | sed 's/{[^}]*}//g; s/[0-9]*\.\.*//g' | tr -s ' '
}

# ---------------------------------------------------------------- read-only at start
cat >"$work/two.script" <<'EOF'
player white
time-control 300+0
+500 press opponent-clock
+1000 lift e2
+300 place e4
+500 press player-clock
+1000 lift e7
+300 place e5
+500 press opponent-clock
+500 crash
EOF
( virtual "$work/ro" "$work/two.script" ) 2>/dev/null
cat >"$work/rest.script" <<'EOF'
player white
time-control 300+0
+300 control arbiter resume
+300 lift g1
+300 place f3
+300 press player-clock
+2500 lift b8
+300 place c6
+300 press opponent-clock
EOF
wav_before=$(stat -c %s "$work/ro/games/game-0001.opus" 2>/dev/null || echo 0)
# The mount needs root; the daemon runs as the tester, who owns the state directory.
$sudo unshare -m bash -c '
	mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" || exit 3
	runuser -u "$5" -- "$2/annabellad" --control none --board "sim:$3" --time real \
		--audio none --state "$1" >"$4" 2>&1 &
	pid=$!
	sleep 2
	touch "$1/x" 2>/dev/null && exit 4
	mount -o remount,bind,rw "$1"
	wait $pid' _ "$work/ro" "$build" "$work/rest.script" "$work/ro-run.out" "$(id -un)"
rc=$?
if [ $rc -eq 0 ] && [ "$(grep -c 'nicht mehr gespeichert' "$work/ro/speech.log")" -eq 1 ] &&
	grep -q 'wieder gespeichert' "$work/ro/speech.log" &&
	[ "$(sans "$work/ro/game.pgn")" = " e4 e5 Nf3 Nc6 * " ]; then
	ok
else
	bad "read-only at start: exit $rc; game.pgn: $(sans "$work/ro/game.pgn" 2>&1)"
	sed 's/^/    /' "$work/ro-run.out" | head -8
	sed 's/^/    /' "$work/ro/speech.log" | tail -8
fi
# The audit too: the resume given while storage was read-only is in control.log, and both
# logs have this run's start line after the first run's.
starts() { $sudo grep -c '^[0-9]* start [^ ]* [a-z]*synced game-' "$1"; }
if $sudo grep -q '^[0-9]* script arbiter resume => ok' "$work/ro/control.log" &&
	[ "$(starts "$work/ro/control.log")" = 2 ] && [ "$(starts "$work/ro/speech.log")" = 2 ]; then
	ok
else
	bad "read-only at start: control.log or speech.log lacks what was done and said meanwhile:"
	$sudo cat "$work/ro/control.log" | indent
	$sudo grep ' start ' "$work/ro/speech.log" | indent
fi
# The game's audio record, which could not be opened while storage was read-only, takes up
# again with what is said after (c6's announcement).
wav_after=$($sudo stat -c %s "$work/ro/games/game-0001.opus" 2>/dev/null || echo 0)
if ((wav_before > 0 && wav_after > wav_before)); then ok; else
	bad "read-only at start: the audio record did not go on once storage came back ($wav_before bytes before, $wav_after after)"
fi
# A fresh state directory read-only at the start: games/ cannot be made, and the audio
# record is made once storage can be written, with what is said from then on; game.record,
# the copy of the game record, is written then too.
cat >"$work/fresh.script" <<'EOF'
player white
time-control 300+0
+500 press opponent-clock
+1000 lift e2
+300 place e4
+500 press player-clock
+1500 lift e7
+300 place e5
+500 press opponent-clock
EOF
mkdir "$work/fresh"
$sudo unshare -m bash -c '
	mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" || exit 3
	runuser -u "$5" -- "$2/annabellad" --control none --board "sim:$3" --time real \
		--audio none --state "$1" >"$4" 2>&1 &
	pid=$!
	sleep 2.5
	mount -o remount,bind,rw "$1"
	wait $pid' _ "$work/fresh" "$build" "$work/fresh.script" "$work/fresh-run.out" "$(id -un)"
rc=$?
rec=$($sudo stat -c %s "$work/fresh"/games/*.opus 2>/dev/null || echo 0)
if [ $rc -eq 0 ] && ((rec > 1000)) && [ "$(sans "$work/fresh/game.pgn")" = " e4 e5 * " ] &&
	"$build/annabella" journal --json "$work/fresh" | python3 -c 'import json, sys
r = json.load(sys.stdin)
sys.exit(not (r["game_record"] and r["game_record"]["id"] == r["records"][0]["id"]))'; then
	ok
else
	bad "a fresh read-only start: exit $rc, the audio record $rec bytes, game.pgn $(sans "$work/fresh/game.pgn" 2>&1), game.record: $(cat "$work/fresh/game.record" 2>&1 | head -c 80)"
	show "$work/fresh-run.out" 8
fi
# What it wrote once storage came back is the whole game: fsck reads it whole.
"$build/annabella" fsck "$work/ro" >"$work/ro-fsck.out"
if [ $? -eq 0 ] && grep -q "4 moves recovered" "$work/ro-fsck.out"; then ok; else
	bad "read-only at start: the journal written afterwards: $(cat "$work/ro-fsck.out")"
fi

# ---------------------------------------------------------------- fsck --repair as root
user=nobody
group=$(id -gn "$user")
( virtual "$work/own" "$work/two.script" ) 2>/dev/null
python3 -c 'import sys
p = sys.argv[1]
b = bytearray(open(p, "rb").read())
b[len(b) // 2] ^= 4
open(p, "wb").write(bytes(b))' "$work/own/journal"
$sudo chown -R "$user:$group" "$work/own"
$sudo find "$work/own" -type d -exec chmod 750 {} +
$sudo find "$work/own" -type f -exec chmod 640 {} +
$sudo "$build/annabella" fsck "$work/own" --repair >"$work/own-fsck.out"
rc=$?
others=$($sudo find "$work/own" \( ! -user "$user" -o ! -group "$group" \) -printf '%p ')
modes=$($sudo find "$work/own" \( -type f ! -perm 640 -o -type d ! -perm 750 \) -printf '%p ')
if [ $rc -eq 1 ] && grep -q mended "$work/own-fsck.out" && [ -z "$others" ] && [ -z "$modes" ]; then
	ok
else
	bad "fsck --repair as root: exit $rc; not the service's: $others; other modes: $modes"
	indent <"$work/own-fsck.out"
fi
printf 'player white\ntime-control 300+0\n+300 control arbiter resume\n+300 lift g1\n+300 place f3\n+300 press player-clock\n' \
	>"$work/on.script"
virtual "$work/own" "$work/on.script" "$user"
rc=$?
if [ $rc -eq 0 ] && ! grep -qi 'permission denied' "$work/own.out" &&
	[ "$(sans "$work/own/game.pgn")" = " e4 e5 Nf3 * " ]; then
	ok
else
	bad "the service after fsck --repair as root: exit $rc; game.pgn: $(sans "$work/own/game.pgn")"
	sed 's/^/    /' "$work/own.out" | head -5
fi

# ---------------------------------------------------------------- six plain restarts
( virtual "$work/six" "$work/two.script" ) 2>/dev/null
printf 'player white\ntime-control 300+0\n' >"$work/none.script"
for i in 1 2 3 4 5 6; do virtual "$work/six" "$work/none.script"; done
"$build/annabella" fsck "$work/six" >"$work/six-fsck.out"
rc=$?
if [ $rc -eq 0 ] && grep -q whole "$work/six-fsck.out" &&
	[ "$(records "$build" "$work/six" restart | wc -l)" -eq 6 ]; then
	ok
else
	bad "six restarts: fsck exit $rc: $(cat "$work/six-fsck.out")"
fi

# ---------------------------------------------------------------- a foreign journal
( virtual "$work/ours" "$work/two.script" ) 2>/dev/null
sed 's/e2$/d2/; s/e4$/d4/; s/e7$/d7/; s/e5$/d5/' "$work/two.script" >"$work/theirs.script"
( virtual "$work/theirs" "$work/theirs.script" ) 2>/dev/null
cp "$work/theirs/journal" "$work/ours/journal"
virtual "$work/ours" "$work/none.script"
foreign="$work/ours/games/game-0001-foreign-1.journal"
if [ "$(sans "$work/ours/game.pgn")" = " e4 e5 * " ] && cmp -s "$foreign" "$work/theirs/journal" &&
	[ "$(sans "$work/ours/games/game-0001.pgn")" = " e4 e5 * " ]; then
	ok
else
	bad "a foreign journal: game.pgn $(sans "$work/ours/game.pgn"), the archive" \
		"$(sans "$work/ours/games/game-0001.pgn"), kept: $(ls "$work/ours/games")"
	sed 's/^/    /' "$work/ours.out" | head -5
fi
"$build/annabella" fsck "$work/ours" --use "$foreign" >"$work/use.out"
rc=$?
virtual "$work/ours" "$work/none.script"
if [ $rc -eq 1 ] && [ "$(sans "$work/ours/game.pgn")" = " d4 d5 * " ] &&
	[ "$(sans "$work/ours/games/game-0001-set-aside-1.pgn")" = " e4 e5 * " ]; then
	ok
else
	bad "fsck --use: exit $rc, game.pgn $(sans "$work/ours/game.pgn"): $(cat "$work/use.out")"
fi

# ---------------------------------------------------------------- storage mounted again
# Run in a mount namespace of its own: MODE empty (unmounted, an empty file system mounted in
# its place) or putback (unmounted, the moves made meanwhile, then a file system with what the
# first held when it went).  The state as it ends is copied to OUT.
cat >"$work/remount.sh" <<'EOF2'
set -u
build=$1 state=$2 out=$3 mode=$4
made() { [ "$("$build/annabella" journal "$state" 2>/dev/null | awk '$3 == "made"' | wc -l)" = "$1" ]; }
until_made() {
	for _ in $(seq 100); do made "$1" && return 0; sleep 0.1; done
	echo "the journal in $state never held $1 moves" >&2
	return 1
}
mkdir -p "$state" "$out" && mount -t tmpfs tmpfs "$state" || exit 3
mkfifo "$out.live"
"$build/annabellad" --board "sim:$out.live" --time real --audio none --control none \
	--state "$state" >"$out.log" 2>&1 &
pid=$!
trap 'kill -TERM $pid 2>/dev/null; wait $pid' EXIT
exec 3>"$out.live"
printf 'player white\ntime-control 300+0\n\n' >&3
for _ in $(seq 100); do [ -s "$state/journal" ] && break; sleep 0.1; done
printf '+100 press opponent-clock\n+300 lift e2\n+300 place e4\n+300 press player-clock\n' >&3
until_made 1 || exit 4
[ "$mode" = putback ] && cp -a "$state" "$out.card"
umount -l "$state" || exit 3
[ "$mode" = empty ] && { mount -t tmpfs tmpfs "$state" || exit 3; }
printf '+300 lift e7\n+300 place e5\n+400 control assistant draw-offer black\n' >&3
printf '+200 press opponent-clock\n' >&3
until_made 2 || exit 5
if [ "$mode" = putback ]; then
	rec=$(stat -c %s "$out.card"/games/*.opus)
	mount -t tmpfs tmpfs "$state" && cp -a "$out.card/." "$state" || exit 3
fi
printf '+300 lift g1\n+300 place f3\n+300 press player-clock\n' >&3
until_made 3 || exit 6
exec 3>&-
kill -TERM $pid
wait $pid
trap - EXIT
cp -a "$state/." "$out"
[ "$mode" = putback ] && [ "$(stat -c %s "$out"/games/*.opus)" -le "$rec" ] && exit 7
exit 0
EOF2
first() { head -n 1 "$1" 2>/dev/null | grep -qE '^[0-9]+ start [^ ]+ (un)?synced game-'; }
for mode in empty putback; do
	out="$work/mounted-$mode"
	$sudo unshare -m bash "$work/remount.sh" "$build" "$work/$mode-state" "$out" "$mode"
	rc=$?
	"$build/annabella" fsck "$out" >"$out.fsck" 2>&1
	frc=$?
	if [ $rc -eq 0 ] && [ $frc -eq 0 ] && grep -q '3 moves recovered' "$out.fsck" &&
		[ "$(sans "$out/game.pgn")" = " e4 e5 Nf3 * " ] && first "$out/control.log" &&
		first "$out/speech.log" && [ "$(grep -c ' start ' "$out/control.log")" = 1 ] &&
		grep -q 'assistant draw-offer black => ok' "$out/control.log" &&
		grep -q 'Bauer Eva sieben Eva fünf' "$out/speech.log" &&
		grep -q 'private Der Speicher war weg' "$out/speech.log" &&
		ls "$out"/games/*.pgn "$out"/games/*.opus >/dev/null 2>&1; then
		ok
	else
		bad "storage mounted again ($mode): exit $rc, fsck $frc, game.pgn $(sans "$out/game.pgn" 2>&1)"
		indent <"$out.fsck"
		show "$out.log" 8
		show "$out/control.log"
		show "$out/speech.log" 10
	fi
done
summary
