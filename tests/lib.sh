# shellcheck shell=bash
# What every check shares (tests/check-*.sh, the benchmarks): sourced after the check's own
# `set -u`, as
#
#     . "$(dirname "$0")/lib.sh"
#     begin NAME          counters at 0, a work directory $work, the clean-up at exit
#     ...                 ok, bad MESSAGE, check STATUS MESSAGE, the waits, spawn, test users
#     summary             "NAME: N passed, M failed[, K skipped]"; exits 0 when nothing failed
#
# At exit (also on SIGINT, SIGTERM, SIGHUP), in this order: the commands given to at_exit
# (the last first), the processes started with spawn or given to track (SIGTERM, SIGKILL
# after 5 s), the users and groups made with make_user and make_group, the work directory
# (through sudo when what the test made there is not the tester's own). CHECK_KEEP=1 keeps
# the work directory and says where it is.  tests/checklib.py gives the Python checks the
# same.  The tests' own summary line ("NAME: N passed, M failed") is what CI counts.

# Debian installs mosquitto, useradd and the like in sbin, which is not on a plain user's PATH.
PATH=$PATH:/usr/sbin:/sbin
tests=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# Root, or sudo: it may ask a person at a terminal for the password, nobody elsewhere.
sudo=""
if [ "$(id -u)" -ne 0 ]; then
	[ -t 0 ] && sudo="sudo" || sudo="sudo -n"
fi
check_name=check
passed=0
failed=0
skipped=0
work=""
_lib_summary=1
_lib_hooks=()
_lib_pids=()
_lib_users=()
_lib_groups=()

begin() { # NAME: the check's name (the prefix of its lines), a fresh work directory
	check_name=$1
	passed=0
	failed=0
	skipped=0
	trap _lib_cleanup EXIT
	trap 'exit 129' HUP
	trap 'exit 130' INT
	trap 'exit 143' TERM
	work=$(mktemp -d) || give_up "cannot make a work directory in ${TMPDIR:-/tmp}"
}

named() { check_name=$1; } # NAME: the name alone, for a check that hands over to its test (exec)

begin_bench() { # NAME: as begin, for a benchmark: no counters, no summary line
	_lib_summary=0
	begin "$1"
}

ok() { passed=$((passed + 1)); }

bad() { # MESSAGE...: a failure, said as "NAME: MESSAGE"
	failed=$((failed + 1))
	echo "$check_name: $*"
}

check() { # STATUS MESSAGE...: ok when STATUS is 0 (as in `command; check $? MESSAGE`), else bad
	local status=$1
	shift
	if [ "$status" = 0 ]; then ok; else bad "$@"; fi
}

indent() { sed 's/^/    /'; } # what a failure shows of a file, under its line

# BUILD STATE_DIR|JOURNAL TYPE: the journal's records of TYPE as the product's own reader gives
# them (`annabella journal`: LINE MS TYPE ARGS), never a parse of our own.
records() { "$1/annabella" journal "$2" 2>/dev/null | awk -v t="$3" '$3 == t'; }

show() { head -n "${2:-5}" "$1" 2>/dev/null | indent; } # FILE [LINES]: its first LINES (5), indented

skip_part() { # REASON...: a part of the check cannot run here: said, counted in the summary
	skipped=$((skipped + 1))
	echo "$check_name: skipped, $*"
}

summary() { # the last line, and the exit status: 0 when nothing failed
	local more=""
	[ "$skipped" -gt 0 ] && more=", $skipped skipped"
	[ "$_lib_summary" = 1 ] && echo "$check_name: $passed passed, $failed failed$more"
	[ "$failed" -eq 0 ]
	exit
}

give_up() { # MESSAGE...: what the check needs is not there: said, counted as one failure, exit 1
	if [ "$_lib_summary" = 1 ]; then
		echo "$check_name: $*"
		echo "$check_name: $passed passed, $((failed + 1)) failed"
	else
		echo "$check_name: $*" >&2
	fi
	exit 1
}

skip() { # REASON...: the check cannot run here and says so; exit 0
	echo "$check_name: skipped, $*"
	[ "$_lib_summary" = 1 ] && echo "$check_name: 0 passed, 0 failed"
	exit 0
}

need() { # PROGRAM...: give up unless each is installed
	local p
	for p in "$@"; do
		command -v "$p" >/dev/null || give_up "$p is missing (make deps installs it)"
	done
}

need_root() { # WHY: give up unless root or sudo
	$sudo true 2>/dev/null || give_up "root or sudo needed ($*)"
}

at_exit() { _lib_hooks+=("$*"); } # COMMAND: run at exit, before the processes are stopped

# ------------------------------------------------------------------ processes
spawn() { # COMMAND...: in the background, stopped at exit; its PID in $! (redirect the call)
	"$@" &
	_lib_pids+=($!)
}

track() { _lib_pids+=("$@"); } # PID...: stopped at exit

_lib_alive() { # PID: running (a zombie is not)
	local stat
	stat=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null) && [ "${stat%% *}" != Z ]
}

stop() { # PID...: SIGTERM (and SIGCONT, for one that is stopped), SIGKILL after 5 s; the
	# status of the last.  Quiet: bash's reports of killed jobs go nowhere.
	_lib_stop "$@" 2>/dev/null
}

_lib_stop() {
	local p n=50 status=0 keep=()
	[ $# -gt 0 ] || return 0
	for p in "$@"; do kill -TERM "$p" && kill -CONT "$p"; done
	for p in "$@"; do
		while _lib_alive "$p" && [ $n -gt 0 ]; do
			sleep 0.1
			n=$((n - 1))
		done
		_lib_alive "$p" && kill -KILL "$p"
		wait "$p"
		status=$?
	done
	for p in "${_lib_pids[@]}"; do
		[[ " $* " == *" $p "* ]] || keep+=("$p")
	done
	_lib_pids=("${keep[@]}")
	return $status
}

spawn_in_group() { # GROUP COMMAND...: spawn; run by a user with sudo, as that user in GROUP
	# (sudo -g: the group a socket is given must be one of its owner's).  The program's own
	# PID in $spawned (to signal: sudo's may not be), what to wait for in $! (sudo passes
	# the program's status on).
	local group=$1 pidfile
	shift
	pidfile=$(mktemp "$work/.pid.XXXXXX")
	: >"$pidfile"
	if [ -n "$sudo" ]; then
		spawn $sudo -u "$(id -un)" -g "$group" -- sh -c 'echo $$ >"$0"; exec "$@"' "$pidfile" "$@"
	else
		spawn sh -c 'echo $$ >"$0"; exec "$@"' "$pidfile" "$@"
	fi
	wait_for 5 test -s "$pidfile"
	spawned=$(cat "$pidfile")
	rm -f "$pidfile"
	[ -n "$spawned" ] && track "$spawned"
}

# ------------------------------------------------------------------ waiting
wait_for() { # SECONDS COMMAND...: until COMMAND succeeds (tried every 0.1 s); 1 if it did not
	local n=$(($1 * 10))
	shift
	until "$@"; do
		[ $n -gt 0 ] || return 1
		n=$((n - 1))
		sleep 0.1
	done
}

wait_socket() { wait_for "${2:-5}" test -S "$1"; } # PATH [SECONDS]: until a socket is there
wait_file() { wait_for "${2:-10}" test -e "$1"; }  # PATH [SECONDS]: until the file is there

wait_line() { # FILE PATTERN [SECONDS]: until FILE has a line matching the extended PATTERN
	wait_for "${3:-10}" grep -qE -- "$2" "$1" 2>/dev/null
}

free_port() { # a TCP port nobody listens on, now
	python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

_lib_port_open() {
	python3 -c 'import socket,sys; socket.create_connection(("127.0.0.1",int(sys.argv[1])),0.2)' \
		"$1" 2>/dev/null
}

wait_port() { wait_for "${2:-5}" _lib_port_open "$1"; } # PORT [SECONDS]: until something listens

# ------------------------------------------------------------------ throwaway users
_lib_cannot_make() {
	give_up "cannot make the test users (root or sudo needed): $(cat "$work/.useradd.err")"
}

make_group() { # GROUP: a group of the test's own, removed at exit
	_lib_groups+=("$1")
	$sudo groupadd "$1" 2>"$work/.useradd.err" || _lib_cannot_make
}

make_user() { # USER [GROUP]: a user without home or shell (in GROUP), removed at exit; the
	# work directory is opened to it
	local groups=()
	[ -n "${2:-}" ] && groups=(-G "$2")
	_lib_users+=("$1")
	$sudo useradd -M -N -s /usr/sbin/nologin "${groups[@]}" "$1" 2>"$work/.useradd.err" ||
		_lib_cannot_make
	chmod 755 "$work"
}

run_as() { # USER COMMAND...
	local user=$1
	shift
	$sudo runuser -u "$user" -- "$@"
}

copy_for_users() { # PROGRAM: a copy in the work directory, which the test users can run (the
	# checkout may be in a home only its owner can enter: root's, or one made by adduser)
	mkdir -p "$work/bin"
	cp "$1" "$work/bin/"
	chmod 755 "$work/bin" "$work/bin/${1##*/}"
	echo "$work/bin/${1##*/}"
}

# ------------------------------------------------------------------ a private mosquitto
broker_conf() { # FILE PORT [LINE...]: an open broker on 127.0.0.1:PORT, run as the tester
	{
		echo "listener $2 127.0.0.1"
		echo "allow_anonymous true"
		echo "persistence false"
		[ $# -gt 2 ] && printf '%s\n' "${@:3}"
		echo "user $(id -un)"
	} >"$1"
}

broker_pid=""
start_broker() { # CONF: mosquitto with it, its log CONF.log, its PID in $broker_pid
	spawn mosquitto -c "$1" >>"$1.log" 2>&1
	broker_pid=$!
}

# ------------------------------------------------------------------ a sound card in real time
paced_card() { # BUILD NAME: an ALSA device NAME that plays in real time, as a card does
	# (tests/bench/pcm_paced.c), for the programs started after; its log (when sound started
	# and stopped) $work/NAME.card
	local plugin=$1/bench/libasound_module_pcm_paced.so
	[ -f "$plugin" ] || give_up "$plugin is not built (make tests)"
	[ -f "$work/alsa-paced.conf" ] ||
		printf 'pcm_type.paced { lib "%s" }\n' "$(cd "$(dirname "$plugin")" && pwd)/${plugin##*/}" \
			>"$work/alsa-paced.conf"
	printf 'pcm.%s { type paced log "%s" }\n' "$2" "$work/$2.card" >>"$work/alsa-paced.conf"
	: >"$work/$2.card"
	export ALSA_CONFIG_PATH=/usr/share/alsa/alsa.conf:$work/alsa-paced.conf
}

# ------------------------------------------------------------------ at exit
_lib_cleanup() {
	local i
	for ((i = ${#_lib_hooks[@]} - 1; i >= 0; i--)); do
		eval "${_lib_hooks[i]}"
	done
	stop "${_lib_pids[@]}"
	for ((i = ${#_lib_users[@]} - 1; i >= 0; i--)); do
		$sudo userdel "${_lib_users[i]}" >/dev/null 2>&1
	done
	for ((i = ${#_lib_groups[@]} - 1; i >= 0; i--)); do
		$sudo groupdel "${_lib_groups[i]}" >/dev/null 2>&1
	done
	[ -n "$work" ] && [ -d "$work" ] || return 0
	if [ -n "${CHECK_KEEP:-}" ]; then
		echo "$check_name: kept $work" >&2
	else
		rm -rf "$work" 2>/dev/null || $sudo rm -rf "$work"
	fi
}
