#!/usr/bin/env bash
# The device's fair-play state through the whole daemon (docs/fairplay.md "Fair play"):
#  - a tournament game in a network namespace of its own: the state at the start is journaled
#    (sealed: loopback only); an interface (a veth pair's end) brought up mid-game is
#    journaled as a breach the moment the kernel tells (netlink: the interval is ten minutes
#    there), and the arbiter's watch gets it; brought down, a change again; a process named
#    as a chess engine started mid-game (in the daemon's own process namespace, so nothing
#    else the machine runs counts) is journaled too; the scoresheet's FairPlay tag and
#    `annabella verify` report the breach at its move;
#  - a radio unblocked mid-game and an engine's process, on an rfkill tree and a /proc made
#    here ([fairplay] sysfs, proc), read at the interval;
#  - `annabella seal` on made trees: each policy's verdict, every failing item named with its
#    fix, exit 0 only when the state meets the policy;
#  - a casual game: nothing journaled.
# The namespace needs root (or sudo); without it that part is skipped and said.
set -u
build=$(cd "${1:-build}" && pwd)
. "$(dirname "$0")/lib.sh"
begin fairplay
need python3

game_script() { # FILE: a tournament game's first move, then a long wait for the test
	printf 'player white\ntime-control 600+0\n+200 press opponent-clock\n+300 lift e2\n+100 place e4\n+300 press player-clock\n+600000 press info\n' >"$1"
}
journal_has() { grep -q "$2" "$1/journal" 2>/dev/null; } # STATE PATTERN
records() { grep -c ' fairplay ' "$1/journal" 2>/dev/null; } # STATE

# ------------------------------------------------------------------ the network namespace
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo -n"
ns=anbfp$$
if ! $sudo ip netns add "$ns" 2>/dev/null; then
	echo "$check_name: the network namespace part skipped: ip netns needs root or sudo"
else
	at_exit "$sudo ip netns del $ns 2>/dev/null"
	$sudo ip -n "$ns" link set lo up
	cat >"$work/ns.conf" <<CONF
[game]
mode = tournament
[voice]
record = no
[fairplay]
watch = yes
files = skip
engine = idle
interval = 600
CONF
	game_script "$work/ns.script"
	st=$work/ns.state
	mkdir -p "$st"
	# A process namespace of its own too: the daemon sees the processes started in it alone,
	# whatever else runs on the machine.
	spawn $sudo ip netns exec "$ns" unshare --pid --fork --kill-child=TERM --mount-proc "$build/annabellad" \
		--config "$work/ns.conf" --board "sim:$work/ns.script" --time real --audio none \
		--state "$st" --control "$work/ns.sock" 2>"$work/ns.err"
	daemon=$!
	if wait_for 10 journal_has "$st" ' fairplay no ' && wait_socket "$work/ns.sock"; then
		ok
	else
		bad "no sealed state journaled at the game's start"
		show "$work/ns.err"
	fi
	grep ' fairplay ' "$st/journal" | grep -q '"none idle local skip" ";' && ok ||
		bad "the state at the start is not loopback only: $(grep ' fairplay ' "$st/journal")"
	spawn "$build/annabella" control --socket "$work/ns.sock" watch >"$work/watch" 2>&1
	wait_for 5 grep -q . "$work/watch" 2>/dev/null || true
	wait_for 5 journal_has "$st" ' made ' || bad "the first move was not made"

	$sudo ip -n "$ns" link add fp0 type veth peer name fp1
	$sudo ip -n "$ns" link set fp0 up
	if wait_for 10 journal_has "$st" ' fairplay yes .*"fp0 up"'; then ok; else
		bad "fp0 brought up mid-game was not journaled as a breach"
		grep ' fairplay ' "$st/journal" | indent
	fi
	if wait_for 5 grep -q '"event":"fairplay".*"breach":true' "$work/watch"; then ok; else
		bad "the arbiter's watch did not get the breach"
		show "$work/watch"
	fi
	n=$(records "$st")
	$sudo ip -n "$ns" link set fp0 down
	wait_for 10 test "$(records "$st")" -gt "$n" && ok ||
		bad "fp0 brought down was not journaled"

	# A chess engine's process in the daemon's namespace, then the interface up again: the
	# kernel's news (the interval is ten minutes here) has the machine read again, the
	# process with it.
	mkdir -p "$work/bin"
	cp "$(command -v sleep)" "$work/bin/stockfish"
	inside=$(pgrep -n -f "^$build/annabellad .*--state $st")
	spawn $sudo nsenter -t "$inside" -p -m "$work/bin/stockfish" 60
	engine=$!
	sleep 0.5
	$sudo ip -n "$ns" link set fp0 up
	if wait_for 10 journal_has "$st" " fairplay yes .*stockfish:"; then ok; else
		bad "an engine process started mid-game was not journaled"
		grep ' fairplay ' "$st/journal" | tail -2 | indent
	fi
	# The engine ends, then the daemon (its game's scoresheet complete).
	kill "$engine" 2>/dev/null
	wait "$engine" 2>/dev/null
	kill -TERM "$inside" 2>/dev/null
	wait_for 10 sh -c "! kill -0 $inside 2>/dev/null" || bad "the daemon did not stop"
	stop "$daemon"
	if grep -q '^\[FairPlay "breach at move 1: fp0 up"\]' "$st/game.pgn"; then ok; else
		bad "the scoresheet's FairPlay tag: $(grep FairPlay "$st/game.pgn")"
	fi
	"$build/annabella" verify "$st" >"$work/verify" 2>&1
	grep -q '^fair play   breach at move 1: fp0 up' "$work/verify" &&
		grep -q '^whole and unedited' "$work/verify" && ok ||
		{
			bad "verify does not report the breach from the journal"
			show "$work/verify" 30
		}
fi

# ------------------------------------------------------------------ a radio, on a made tree
sys=$work/sys
mkdir -p "$sys/class/net/lo" "$sys/class/rfkill/rfkill0" "$work/proc"
echo 0x9 >"$sys/class/net/lo/flags"
echo wlan >"$sys/class/rfkill/rfkill0/type"
echo 1 >"$sys/class/rfkill/rfkill0/soft"
echo 0 >"$sys/class/rfkill/rfkill0/hard"
cat >"$work/radio.conf" <<CONF
[game]
mode = tournament
[voice]
record = no
[fairplay]
watch = yes
files = skip
engine = idle
interval = 1
sysfs = $sys
proc = $work/proc
CONF
game_script "$work/radio.script"
st=$work/radio.state
spawn "$build/annabellad" --config "$work/radio.conf" --board "sim:$work/radio.script" \
	--time real --audio none --state "$st" --control none 2>"$work/radio.err"
daemon=$!
if wait_for 10 journal_has "$st" ' fairplay no .*wlan=blocked'; then ok; else
	bad "the blocked radio is not in the state at the start"
	show "$work/radio.err"
fi
wait_for 5 journal_has "$st" ' made ' || bad "the first move was not made"
echo 0 >"$sys/class/rfkill/rfkill0/soft"
if wait_for 10 journal_has "$st" ' fairplay yes .*"wlan unblocked"'; then ok; else
	bad "the radio unblocked mid-game was not journaled as a breach"
	grep ' fairplay ' "$st/journal" | indent
fi
# A process named as an engine appears in the /proc made here: read at the interval.
mkdir -p "$work/proc/4242"
echo stockfish >"$work/proc/4242/comm"
if wait_for 10 journal_has "$st" ' fairplay yes .*stockfish:4242'; then ok; else
	bad "an engine process mid-game was not read at the interval"
	grep ' fairplay ' "$st/journal" | tail -1 | indent
fi
rm -r "$work/proc/4242"
stop "$daemon"
grep -q '^\[FairPlay "breach at move 1: wlan unblocked"\]' "$st/game.pgn" && ok ||
	bad "the FairPlay tag after the radio: $(grep FairPlay "$st/game.pgn")"

# ------------------------------------------------------------------ annabella seal
mkdir -p "$sys/class/net/eth0" "$work/proc/77" "$work/games"
echo 0x1003 >"$sys/class/net/eth0/flags"
echo bash >"$work/proc/77/comm"
seal() { # WANT-EXIT PATTERN CONFIG-LINES...: the verdict with these [fairplay] lines
	local want=$1 pattern=$2
	shift 2
	{
		printf '[fairplay]\nsysfs = %s\nproc = %s\nutmp =\nfiles = skip\nengine-dirs = %s\n' \
			"$sys" "$work/proc" "$work/games"
		printf '%s\n' "$@"
	} >"$work/seal.conf"
	"$build/annabella" seal --config "$work/seal.conf" --socket "$work/nosocket" >"$work/seal.out" 2>&1
	local rc=$?
	if [ "$rc" -eq "$want" ] && grep -q -- "$pattern" "$work/seal.out"; then ok; else
		bad "seal with $*: exit $rc (want $want), no '$pattern'"
		show "$work/seal.out" 14
	fi
}
# The radio unblocked and eth0 up: both named, each with its fix.
seal 1 '^WRONG network          eth0 up' 'network = none'
grep -q 'fix: ip link set eth0 down' "$work/seal.out" && grep -q 'fix: rfkill block wlan' "$work/seal.out" &&
	grep -q '^NOT sealed' "$work/seal.out" && ok || bad "seal does not name each fix: $(cat "$work/seal.out")"
echo 1 >"$sys/class/rfkill/rfkill0/soft"
seal 1 '^WRONG network' 'network = none'
seal 0 "^ok    network          eth0 up on the club's network" 'network = club' 'club = eth0'
grep -q '^sealed: the device meets the fair-play policy' "$work/seal.out" && ok || bad "no sealed verdict"
seal 1 '^WRONG network          eth0 up' 'network = club' 'club = eth1'
# An engine installed: wrong with engine = absent (the default), fine while idle.
cp /bin/true "$work/games/stockfish"
seal 1 '^WRONG engine-installed chess engine installed: stockfish' 'network = club' 'club = eth0' \
	"[training]" "engine = $work/games/stockfish"
seal 0 '^ok    engine-installed' 'network = club' 'club = eth0' 'engine = idle' \
	"[training]" "engine = $work/games/stockfish"
# The engine running: always wrong.
echo stockfish >"$work/proc/77/comm"
seal 1 '^WRONG engine-running   chess engine running: stockfish:77' 'network = club' \
	'club = eth0' 'engine = idle'
echo bash >"$work/proc/77/comm"
# A bad value: exit 2, named with its file and line.
printf '[fairplay]\nnetwork = open\n' >"$work/bad.conf"
"$build/annabella" seal --config "$work/bad.conf" >"$work/bad.out" 2>&1
[ $? -eq 2 ] && grep -q 'bad.conf:2: network must be none or club' "$work/bad.out" && ok ||
	bad "a bad [fairplay] value: $(cat "$work/bad.out")"

# ------------------------------------------------------------------ a casual game
sed -e 's/^mode = tournament/mode = casual/' "$work/radio.conf" >"$work/casual.conf"
printf 'player white\n+200 lift e2\n+100 place e4\n' >"$work/casual.script"
"$build/annabellad" --config "$work/casual.conf" --board "sim:$work/casual.script" --time virtual \
	--audio none --state "$work/casual.state" --control none 2>"$work/casual.err"
[ "$(records "$work/casual.state")" = 0 ] && ok || bad "a casual game journaled its fair-play state"
summary
