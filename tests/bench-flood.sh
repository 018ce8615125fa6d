#!/usr/bin/env bash
# A flood against a small card (docs/state.md "State directory", control.log): a master
# game's first FLOOD_PLIES plies (default 40) played in real time through the whole daemon
# (sim backend, no sound card, the audio record kept), its state directory on an 8 MiB file
# system (tmpfs), [state] reserve = 2 MiB, while FLOOD_CLIENTS connections (default 4) send
# reads (status public, moves, export pgn, help: what an anonymous visitor of the page may
# give) as fast as the daemon answers, for FLOOD_SECONDS (default 60).  Afterwards the
# scoresheet must be whole (every ply, read with the product's reader by fsck) and fsck must
# call the record whole.  Figures: the reads answered, control.log's and speech.log's growth
# in bytes a minute, the plies saved of those played, the storage left.  Needs root (or
# sudo) for the mount.
set -u
build=${1:-build}
plies=${FLOOD_PLIES:-40}
seconds=${FLOOD_SECONDS:-60}
clients=${FLOOD_CLIENTS:-4}
. "$(dirname "$0")/lib.sh"
begin_bench bench-flood
need_root "the small file system's mount"
chmod 755 "$work"
mkdir -p "$work/fs"
# The game spread over the flood: a move every 1.4 s or so (presses included).
"$build/annabella" script "$tests/games/1999-kasparov-topalov.pgn" --variants 3 \
	--time-control 5400+30 |
	awk -v plies="$plies" '
		/^# [0-9]+\./ { n++; if (n > plies) exit; think = 1; print; next }
		match($0, /^\+[0-9]+ /) { w = substr($0, 2, RLENGTH - 2) + 0; if (w > 300) w = 300;
			if (think) w = 600; think = 0; print "+" w substr($0, RLENGTH); next }
		{ print }' >"$work/game.script"
echo "+$((seconds * 1000)) lift a2" >>"$work/game.script"
cat >"$work/annabella.conf" <<CONF
[control]
socket = $work/fs/control
arbiters = root
[state]
reserve = 2
CONF
$sudo unshare -m bash -c '
	mount -t tmpfs -o size=8m,mode=0777 tmpfs "$1" || exit 3
	runuser -u "$5" -- "$2/annabellad" --config "$3" --board "sim:$4" --time real \
		--audio none --state "$1/state" >"$6/daemon.out" 2>&1 &
	pid=$!
	for _ in $(seq 50); do [ -S "$1/control" ] && break; sleep 0.1; done
	runuser -u "$5" -- python3 "$7/flood.py" "$1/control" "$8" "$9" >"$6/reads"
	df --output=avail -B1024 "$1" | tail -1 | tr -d " " >"$6/free"
	kill -TERM $pid
	wait $pid
	cp -a "$1/state" "$6/state"' _ "$work/fs" "$build" "$work/annabella.conf" \
	"$work/game.script" "$(id -un)" "$work" "$tests" "$seconds" "$clients" ||
	give_up "the flood's run failed: $(tail -3 "$work/daemon.out")"
played=$(grep -c '^# [0-9]*\.' "$work/game.script")
saved=$($sudo "$build/annabella" fsck "$work/state" | sed -n 's/^game: .*, \([0-9]*\) moves recovered$/\1/p')
$sudo "$build/annabella" fsck "$work/state" >"$work/fsck.out"
fsck_rc=$?
control=$($sudo stat -c %s "$work/state/control.log")
speech=$($sudo stat -c %s "$work/state/speech.log")
echo "bench flood_reads_answered $(cat "$work/reads") reads"
echo "bench flood_reads_a_second $(($(cat "$work/reads") / seconds)) reads/s"
echo "bench flood_control_log_growth $((control * 60 / seconds)) bytes/min"
echo "bench flood_speech_log_growth $((speech * 60 / seconds)) bytes/min"
echo "bench flood_plies_saved ${saved:-0} of $played"
echo "bench flood_storage_left $(cat "$work/free") KiB"
if [ "${saved:-0}" != "$played" ] || [ $fsck_rc -ne 0 ] || grep -q 'cannot save' "$work/daemon.out"; then
	echo "bench-flood: the scoresheet is not whole after the flood:" >&2
	indent <"$work/fsck.out" >&2
	grep -E 'error|warn' "$work/daemon.out" | head -5 >&2
	exit 1
fi
