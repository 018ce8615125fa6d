#!/usr/bin/env bash
# The record nobody can quietly edit (README "Security model"): a real-time game is killed with
# kill -9 in the middle (a power cut) and resumed; each start wrote its start line to
# control.log and speech.log (wall clock, whether the clock is synced as the kernel says,
# the game and its plies), and the times after it start again at 0.  `annabella verify`
# then finds the journal, the scoresheet and the audit whole and unedited, and prints the
# chain's final value, which the finished scoresheet carries.  Each edit on a copy is found:
# a record changed (its CRC made right), a line taken out, the whole chain forged again from
# an edited line (the scoresheet's JournalChain no longer in it), the scoresheet's result,
# a clock reading, a byte of control.log, a line of speech.log, a flipped byte (damage).
# The chain is keyed with the device key (beside the state directory, only the daemon's user
# reads it): forged again with it (by root), the scoresheet's anchor shows it; without it,
# the keyed lines break; off the device (no key) verify says it could not check them (exit
# 3).  In a game in progress, a line of control.log edited in place while the daemon runs is
# found (its digests are of what it wrote); a line forged after the last digest is reported
# as not covered; the last move cut out of the journal and game.pgn is found cut by the
# anchors saved as the broker and the page had them (status, PGN).
# A journal of the earlier format (no chain values) is resumed in the middle of a game and
# continued with chained lines, and verify reads it.  The device is named by annabella's
# application-specific id of /etc/machine-id (as systemd-id128 makes it), never the machine
# id itself.
set -u
build=$(cd "${1:-build}" && pwd)
. "$(dirname "$0")/lib.sh"
begin verify
need systemd-id128
sock="$work/control"
cat >"$work/annabella.conf" <<CONF
[control]
socket = $sock
arbiters = $(id -un)
[voice]
record = no
CONF
ctl() { "$build/annabella" control --socket "$sock" "$@"; }

# The first run: three moves, then the power goes (kill -9 from outside).
cat >"$work/run1.script" <<'SCRIPT'
player white
time-control 600+5
+300 press opponent-clock
+300 lift e2
+200 place e4
+300 press player-clock
+300 lift e7
+200 place e5
+300 press opponent-clock
+300 lift g1
+200 place f3
+300 press player-clock
+60000 lift a2
SCRIPT
spawn "$build/annabellad" --config "$work/annabella.conf" --board "sim:$work/run1.script" \
	--time real --audio none --state "$work/state" 2>"$work/run1.err"
daemon_pid=$!
wait_line "$work/state/speech.log" 'Springer Gustav eins Felix drei' ||
	bad "the first run did not announce Nf3"
sleep 0.5
{
	kill -9 $daemon_pid
	wait $daemon_pid
} 2>/dev/null
sleep 1.1 # the second start's wall clock is later by a whole second

# The second run resumes; the arbiter gives the result and the players approve.
printf 'player white\ntime-control 600+5\n+60000 lift a2\n' >"$work/run2.script"
spawn "$build/annabellad" --config "$work/annabella.conf" --board "sim:$work/run2.script" \
	--time real --audio none --state "$work/state" 2>"$work/run2.err"
daemon_pid=$!
wait_socket "$sock"
sleep 0.3
ctl result 1-0 black left the hall >/dev/null || bad "the result was refused"
ctl approve >/dev/null || bad "approve was refused"
stop $daemon_pid

# The start lines: one per start in each log, in order, with the kernel's clock state.
synced=$(python3 -c '
import ctypes, ctypes.util
class Timex(ctypes.Structure):   # struct timex (adjtimex(2)), modes 0: read only
    _fields_ = [("modes", ctypes.c_uint), ("offset", ctypes.c_long), ("freq", ctypes.c_long),
                ("maxerror", ctypes.c_long), ("esterror", ctypes.c_long),
                ("status", ctypes.c_int), ("rest", ctypes.c_byte * 256)]
libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
tx = Timex()
state = libc.adjtimex(ctypes.byref(tx))
print("synced" if state >= 0 and state != 5 and not (tx.status & 0x40) and tx.maxerror < 16000000 else "unsynced")')
for log in control.log speech.log; do
	starts=$(grep -E '^[0-9]+ start ' "$work/state/$log")
	n=$(printf '%s\n' "$starts" | grep -c .)
	first=$(printf '%s\n' "$starts" | sed -n 1p)
	second=$(printf '%s\n' "$starts" | sed -n 2p)
	pat="^[0-9]+ start [0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z $synced game-0001-[^ ]+"
	if [ "$n" -eq 2 ] && [[ $first =~ $pat\ 0$ ]] && [[ $second =~ $pat\ 3$ ]] &&
		[[ $(echo "$first" | cut -d' ' -f5) == $(echo "$second" | cut -d' ' -f5) ]] &&
		[[ $(echo "$first" | cut -d' ' -f3) < $(echo "$second" | cut -d' ' -f3) ]]; then
		ok
	else
		bad "$log: the start lines (want two, $synced, plies 0 then 3): $starts"
	fi
done
# speech.log: the first run's last time is larger than the second run's first: the start
# line is what orders them.
awk '/ start /{ s++ } s == 1 && !/ start / { last = $1 } s == 2 && !/ start / && !f { f = $1 }
	END { exit !(last > f) }' "$work/state/speech.log" && ok ||
	bad "speech.log's times do not start again after the kill: $(cat "$work/state/speech.log")"
head -1 "$work/state/speech.log" | grep -q ' start ' && ok ||
	bad "speech.log does not begin with the start line"

# verify: whole and unedited, and the final value is the finished scoresheet's.
"$build/annabella" verify "$work/state" >"$work/verify.out" 2>&1
rc=$?
chain=$(sed -n 's/^chain  *//p' "$work/verify.out")
pgn=$(ls "$work"/state/games/game-0001*.pgn)
if [ $rc -eq 0 ] && grep -q '^whole and unedited$' "$work/verify.out" &&
	grep -q "^\[JournalChain \"$chain\"\]" "$pgn" &&
	grep -q "^\[DeviceSerial \"[^\"]*\"\]" "$pgn"; then
	ok
else
	bad "verify of the whole game: exit $rc: $(cat "$work/verify.out"); the PGN: $(grep -E 'Journal|Device' "$pgn")"
fi
journal=$(ls "$work"/state/games/game-0001*.journal)
name=$(basename "$journal" .journal)
# The device off a Raspberry Pi: annabella's application-specific id of /etc/machine-id, as
# systemd makes it, in the journal and the scoresheet; the machine id itself nowhere
# (machine-id(5)).
serial=$(sed -n 's/.* journal device serial=\([^ ]*\) .*/\1/p' "$journal" | sort -u)
if [ -e /sys/firmware/devicetree/base/serial-number ]; then
	want=$serial # a Pi: its SoC's serial
else
	want="machine-app:$(systemd-id128 machine-id --app-specific="$(sed -n \
		's/^#define DEVICE_APP_ID "\(.*\)"/\1/p' "$tests/../store/device.h")")"
fi
if [ -n "$serial" ] && [ "$serial" = "$want" ] && grep -q "^\[DeviceSerial \"$want\"\]" "$pgn" &&
	! grep -rqF "$(cat /etc/machine-id)" "$work/state"; then
	ok
else
	bad "the device: noted '$serial', want '$want'; the machine id in:" \
		"$(grep -rlF "$(cat /etc/machine-id)" "$work/state")"
fi
"$build/annabella" verify "$journal" >"$work/verify2.out" 2>&1 && ok ||
	bad "verify of games/$name.journal: $(cat "$work/verify2.out")"

# Edits, each on a copy.  journal.py: the journal's lines, rewritten.
cat >"$work/journal.py" <<'PY'
import hashlib, hmac, sys, zlib
path, what = sys.argv[1], sys.argv[2]
lines = open(path, "rb").read().split(b"\n")[:-1]
def parts(l):
    crc, chain, record = l.split(b" ", 2)
    return chain, record
def line(chain, record):
    body = chain + b" " + record
    return b"%08x " % zlib.crc32(body) + body
def find(word):
    return next(i for i, l in enumerate(lines) if word in l)
if what == "edit":          # a move changed, its CRC made right, its chain value kept
    i = find(b" made 3 ")
    chain, record = parts(lines[i])
    lines[i] = line(chain, record.replace(b"g1f3 Nf3", b"b1c3 Nc3"))
elif what == "remove":      # a touch taken out
    del lines[find(b" lift ")]
elif what in ("forge", "forge-keyed"):  # the same edit, every chain value after it made
    # again: plain SHA-256 (by someone without the device key), or keyed with it (root, who
    # reads it: HMAC-SHA256, as store/journal.h keys the lines after the key note)
    key = bytes.fromhex(open(sys.argv[3]).read().strip()) if what == "forge-keyed" else None
    i = find(b" made 3 ")
    state = bytes.fromhex(parts(lines[i - 1])[0].decode())
    for k in range(i, len(lines)):
        chain, record = parts(lines[k])
        if k == i:
            record = record.replace(b"g1f3 Nf3", b"b1c3 Nc3")
        if key:
            state = hmac.new(key, state + record, hashlib.sha256).digest()[:16]
        else:
            state = hashlib.sha256(state + record).digest()[:16]
        lines[k] = line(state.hex().encode(), record)
elif what == "flip":        # damage: one byte of a line in the middle
    i = len(lines) // 2
    lines[i] = lines[i][:30] + bytes([lines[i][30] ^ 1]) + lines[i][31:]
elif what == "old":         # the earlier format: no chain values
    out = []
    for l in lines:
        chain, record = parts(l)
        out.append(b"%08x " % zlib.crc32(record) + record)
    lines = out
open(path, "wb").write(b"\n".join(lines) + b"\n")
PY
edited() { # WHAT EXPECTED-TEXT COMMAND...: on a copy of the state, verify says it, exits 1
	local what=$1 want=$2
	shift 2
	rm -rf "$work/copy" "$work/copy-key"
	cp -a "$work/state" "$work/copy"
	cp -a "$work/state-key" "$work/copy-key" # on the device: its key beside it
	(cd "$work/copy" && "$@") || bad "$what: the edit failed"
	"$build/annabella" verify "$work/copy/games/$name.journal" >"$work/v.out" 2>&1
	local rc=$?
	if [ $rc -eq 1 ] && grep -qF -- "$want" "$work/v.out" &&
		grep -q '^NOT whole and unedited$' "$work/v.out"; then
		ok
	else
		bad "verify after '$what' (want exit 1 and '$want'): exit $rc: $(cat "$work/v.out")"
	fi
}
j="games/$name.journal"
p="games/$name.pgn"
edited "a move changed" "EDITED: the chain breaks at 1 lines" python3 "$work/journal.py" "$j" edit
edited "a touch taken out" "EDITED: the chain breaks" python3 "$work/journal.py" "$j" remove
edited "the chain forged again without the key" "EDITED: the chain breaks" \
	python3 "$work/journal.py" "$j" forge
edited "the chain forged again with the key" "one that the scoresheet published" \
	python3 "$work/journal.py" "$j" forge-keyed "$work/copy-key/device-key"
edited "a flipped byte" "DAMAGED: 1 lines unreadable" python3 "$work/journal.py" "$j" flip
edited "the result" "DIFFERS from the journal: result 0-1" \
	sed -i 's/\[Result "1-0"\]/[Result "0-1"]/;s/ 1-0$/ 0-1/' "$p"
edited "a clock reading" "DIFFERS from the journal: ply 1: clock reading" \
	sed -i '0,/\[%clk 0:1/s//[%clk 0:2/' "$p"
# The first digit changed (a 9 to an 8, anything else to a 9: never left as it was).
edited "control.log" "control.log EDITED" sed -i '1{s/^9/8/;t;s/^./9/}' control.log
edited "speech.log" "speech.log  EDITED" sed -i '3d' speech.log
edited "speech.log cut" "speech.log  cut short" truncate -s 10 speech.log

# Off the device: a copy without the device key.  Nothing is found wrong, but the keyed lines
# are not checked, and it says so (exit 3); given the key (--key), all is checked again.
rm -rf "$work/copy" "$work/copy-key"
cp -a "$work/state" "$work/copy"
"$build/annabella" verify "$work/copy" >"$work/off.out" 2>&1
rc=$?
if [ $rc -eq 3 ] && grep -q 'lines NOT checked here' "$work/off.out" &&
	grep -q '^whole and unedited as far as it could check; NOT checked:$' "$work/off.out" &&
	"$build/annabella" verify --key "$work/state-key/device-key" "$work/copy" >/dev/null; then
	ok
else
	bad "verify off the device: exit $rc: $(cat "$work/off.out")"
fi

# `annabella journal` reads the keyed chain as verify does: on the device, with the key beside
# the state directory, every line checked and none breaking (from games/ too); a move edited:
# off the device nothing can break (the keyed lines counted as not checked), with the key the
# chain breaks at it.
"$build/annabella" journal "$work/state/$j" >"$work/list.out" 2>&1
(cd "$work/state/games" && "$build/annabella" journal "$name.journal") >"$work/list2.out" 2>&1
if ! grep -q 'chain breaks' "$work/list.out" "$work/list2.out" &&
	! grep -q 'not checked' "$work/list.out" "$work/list2.out" &&
	grep -q ' records, 0 bad' "$work/list2.out"; then
	ok
else
	bad "annabella journal on the device: $(cat "$work/list.out" "$work/list2.out")"
fi
(cd "$work/copy" && python3 "$work/journal.py" "$j" edit)
"$build/annabella" journal "$work/copy/$j" >"$work/list.out" 2>&1
if ! grep -q 'chain breaks' "$work/list.out" &&
	grep -q 'keyed lines not checked: no device key here' "$work/list.out"; then
	ok
else
	bad "annabella journal off the device, a move edited: $(cat "$work/list.out")"
fi
cp -a "$work/state-key" "$work/copy-key"
"$build/annabella" journal "$work/copy/$j" >"$work/list.out" 2>&1
if [ "$(grep -c '(chain breaks here)$' "$work/list.out")" = 1 ] &&
	! grep -q 'not checked' "$work/list.out"; then
	ok
else
	bad "annabella journal with the key, a move edited: $(cat "$work/list.out")"
fi
rm -rf "$work/copy-key"

# A game in progress (real time, e4 e5, then the player thinks), each of two ways:
#  - live: a line of control.log written after the last digest is edited in place while the
#    daemon runs; its next digest (at the stop) is of what it wrote: verify finds the edit;
#  - cut: the broker's status and the page's PGN are saved as anchors (what the broadcast
#    publishes with every move), the daemon stops, a request line is forged into control.log
#    after its last digest (not covered: not whole and unedited), and the journal's last move
#    is cut out with game.pgn's (consistent again): the saved anchors show the journal cut.
printf 'player white\n+300 lift e2\n+200 place e4\n+600 lift e7\n+200 place e5\n+60000 lift a2\n' \
	>"$work/live.script"
for run in live cut; do
	spawn "$build/annabellad" --config "$work/annabella.conf" --board "sim:$work/live.script" \
		--time real --audio none --state "$work/$run" 2>"$work/$run.err"
	pid=$!
	wait_line "$work/$run/speech.log" 'Bauer Eva sieben Eva fünf' || bad "$run: no e5"
	sleep 0.3
	ctl tags Event "Club Open" >/dev/null || bad "$run: tags refused"
	if [ $run = live ]; then
		python3 - "$work/live/control.log" <<'PY'
import sys
path = sys.argv[1]
text = open(path, "rb").read()
at = text.index(b"Club Open")
with open(path, "r+b") as f:  # the same file, the same length: edited in place
    f.seek(at)
    f.write(b"Club Shut")
PY
		ctl tags Round 3 >/dev/null
	else
		ctl status public >"$work/cut.status.json"
		ctl export pgn | python3 -c 'import json, sys; print(json.load(sys.stdin)["text"])' \
			>"$work/cut.anchors.pgn"
	fi
	stop $pid
done
"$build/annabella" verify "$work/live" >"$work/live.out" 2>&1
rc=$?
if [ $rc -eq 1 ] && grep -q '^control.log EDITED' "$work/live.out"; then ok; else
	bad "control.log edited during the game: exit $rc: $(cat "$work/live.out")"
fi
"$build/annabella" verify "$work/cut" >"$work/cut0.out" 2>&1
[ $? -eq 0 ] && ok || bad "the game in progress before the edits: $(cat "$work/cut0.out")"
echo "900 root arbiter result 0-1 the player left => ok 0-1, the player left" >>"$work/cut/control.log"
"$build/annabella" verify "$work/cut" >"$work/cut1.out" 2>&1
rc=$?
if [ $rc -eq 3 ] && grep -q 'NOT COVERED: its last 71 bytes' "$work/cut1.out" &&
	! grep -q '^whole and unedited$' "$work/cut1.out"; then
	ok
else
	bad "a line forged after the last digest: exit $rc: $(cat "$work/cut1.out")"
fi
python3 - "$work/cut/journal" "$work/cut/game.pgn" <<'PY'
import sys
journal, pgn = sys.argv[1], sys.argv[2]
lines = open(journal, "rb").read().split(b"\n")[:-1]
cut = next(i for i, l in enumerate(lines) if b" lift e7" in l)
open(journal, "wb").write(b"\n".join(lines[:cut]) + b"\n")
text = open(pgn).read().replace(" 1... e5", "").replace(" e5 *", " *")
open(pgn, "w").write(text)
PY
for anchors in cut.status.json cut.anchors.pgn; do
	"$build/annabella" verify --anchors "$work/$anchors" "$work/cut" >"$work/cut2.out" 2>&1
	rc=$?
	if [ $rc -eq 1 ] && grep -q "CUT: the journal ends at line [0-9]*, before line [0-9]* that $anchors" \
		"$work/cut2.out"; then
		ok
	else
		bad "the last move cut out, anchors $anchors: exit $rc: $(cat "$work/cut2.out")"
	fi
done

# The earlier format in the middle of a game (an upgrade between two starts): resumed,
# continued with chained lines, read by verify.
cat >"$work/old.script" <<'SCRIPT'
player white
+300 lift e2
+200 place e4
+600 lift e7
+200 place e5
+500 crash
SCRIPT
("$build/annabellad" --control none --board "sim:$work/old.script" --time virtual --audio none \
	--state "$work/old" >"$work/old1.out" 2>&1; true) 2>/dev/null
python3 "$work/journal.py" "$work/old/journal" old
printf 'player white\n+300 lift g1\n+200 place f3\n+600 lift b8\n+200 place c6\n' >"$work/old2.script"
"$build/annabellad" --control none --board "sim:$work/old2.script" --time virtual --audio none \
	--state "$work/old" >"$work/old2.out" 2>&1
grep -q '^1\. e4 e5 2\. Nf3 Nc6 \*' "$work/old/game.pgn" && ok ||
	bad "the game of the earlier format did not go on: $(cat "$work/old/game.pgn") $(cat "$work/old2.out")"
"$build/annabella" verify "$work/old" >"$work/old.verify" 2>&1
rc=$?
if [ $rc -eq 0 ] && grep -q 'lines of the earlier format' "$work/old.verify" &&
	grep -q 'every line read and chained' "$work/old.verify"; then
	ok
else
	bad "verify of a journal begun in the earlier format: exit $rc: $(cat "$work/old.verify")"
fi
"$build/annabella" verify "$work/nothing-here" >/dev/null 2>&1
[ $? -eq 2 ] && ok || bad "verify of a missing directory does not exit 2"
summary
