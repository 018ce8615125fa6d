#!/usr/bin/env bash
# The VM test: the gpiod backend against a real kernel's GPIO character device.
#
#   tests/vm/run.sh [BUILD_DIR]        (default: build)
#
# Boots a small kernel with the GPIO simulator (tools/vm/build-kernel.sh, cached) under QEMU
# with an initramfs of busybox, BUILD_DIR/annabellad and its shared libraries; /init
# (tests/vm/init.sh) plays tests/vm/game.script on a gpio-sim chip through the gpiod backend
# in real time.  This script then checks the console output: the moves, the speech, the line
# log's edges and their timing, and that the line log replays to the same game.
# Last line: "vm: N passed, N failed" (exit 1 on any failure), or "vm: skipped (REASON)"
# (exit 0) when QEMU or the kernel cannot be had on this machine.
#
# Environment: VM_ACCEL=tcg|kvm|auto (default tcg; auto: KVM when /dev/kvm is usable),
# VM_TIMEOUT=seconds (default 300), VM_KEEP=1 keeps the work directory,
# ANNABELLA_VM_CACHE (see build-kernel.sh).
# shellcheck disable=SC2015 # ok and bad always succeed: "A && ok || bad" is if-then-else here.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
build=${1:-build}
build=$(cd "$build" 2>/dev/null && pwd) || {
	echo "vm: no build directory '${1:-build}'" >&2
	echo "vm: 0 passed, 1 failed"
	exit 1
}
daemon=$build/annabellad
script=$here/game.script
accel=${VM_ACCEL:-tcg}
vm_timeout=${VM_TIMEOUT:-300}

pass=0
failed=0
tag=
ok() {
	pass=$((pass + 1))
	echo "ok   $tag$*"
}
bad() {
	failed=$((failed + 1))
	echo "FAIL $tag$*"
}
summary() {
	echo "vm: $pass passed, $failed failed"
	((failed == 0))
	exit
}
skip() {
	echo "vm: skipped ($*)"
	exit 0
}

[[ -x $daemon ]] || {
	bad "no $daemon (run make first)"
	summary
}

# ---------------------------------------------------------------- tools
need_pkgs=()
command -v qemu-system-x86_64 >/dev/null || need_pkgs+=(qemu-system-x86)
static_busybox() { [[ -x /bin/busybox ]] && ! ldd /bin/busybox >/dev/null 2>&1; }
static_busybox || need_pkgs+=(busybox-static)
command -v cpio >/dev/null || need_pkgs+=(cpio)
if ((${#need_pkgs[@]})); then
	sudo=
	if ((EUID != 0)); then
		command -v sudo >/dev/null && sudo -n true 2>/dev/null && sudo=sudo ||
			skip "missing ${need_pkgs[*]}, not root"
	fi
	command -v apt-get >/dev/null || skip "missing ${need_pkgs[*]}, no apt-get"
	echo "vm: installing ${need_pkgs[*]}"
	export DEBIAN_FRONTEND=noninteractive
	$sudo apt-get install -y --no-install-recommends "${need_pkgs[@]}" >/dev/null 2>&1 ||
		{ $sudo apt-get update >/dev/null 2>&1 &&
			$sudo apt-get install -y --no-install-recommends "${need_pkgs[@]}" >/dev/null 2>&1; } ||
		skip "cannot install ${need_pkgs[*]}"
fi
static_busybox || skip "no static /bin/busybox"

# ---------------------------------------------------------------- kernel
t0=$(date +%s)
kernel=$("$here/../../tools/vm/build-kernel.sh")
rc=$?
kernel=$(tail -n1 <<<"$kernel")
t1=$(date +%s)
case $rc in
0) ;;
3) skip "cannot build the kernel here" ;;
*)
	bad "kernel build (see the messages above)"
	summary
	;;
esac
echo "vm: kernel $kernel ($((t1 - t0)) s)"

# ---------------------------------------------------------------- initramfs
top=$(mktemp -d "${TMPDIR:-/tmp}/annabella-vm.XXXXXX")
work=$top
if [[ -z ${VM_KEEP:-} ]]; then
	trap 'rm -rf "$top"' EXIT
else
	echo "vm: work directory $top"
fi
root=$work/root
mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,lib64,test,proc,sys,dev,tmp,run}
cp /bin/busybox "$root/bin/busybox"
ln -s busybox "$root/bin/sh"
cp "$daemon" "$root/usr/bin/annabellad"
# The daemon's shared libraries and the dynamic loader, at the paths ldd names.
while read -r lib; do
	mkdir -p "$root$(dirname "$lib")"
	cp -L "$lib" "$root$lib"
done < <(ldd "$daemon" | sed -n -e 's/.*=> \(\/[^ ]*\) .*/\1/p' -e 's/^[[:space:]]*\(\/[^ ]*\) .*/\1/p')
cp "$here/init.sh" "$root/init"
# The display's I2C adapter (tools/vm/build-kernel.sh keeps the modules next to the image).
mkdir -p "$root/lib/modules"
cp "$kernel.modules/i2c-stub.ko" "$root/lib/modules/" || {
	bad "no i2c-stub.ko next to $kernel"
	summary
}
# The scanned wirings' harness, for the VM (it needs only the C library, copied above), and
# the display's decoder, for this machine.
cc=${CC:-cc}
$cc -std=c17 -O2 -Wall -Wextra -D_GNU_SOURCE -o "$root/usr/bin/wiring" "$here/wiring.c" &&
	$cc -std=c17 -O2 -Wall -Wextra -D_GNU_SOURCE -o "$root/usr/bin/runas" "$here/runas.c" &&
	$cc -std=c17 -O2 -Wall -Wextra -D_GNU_SOURCE -I"$here/../.." -o "$work/face-decode" \
		"$here/face-decode.c" "$here/../unit/support_face.c" "$build/libannabella.a" || {
	bad "cannot build tests/vm/wiring.c, runas.c or face-decode.c"
	summary
}
chmod 755 "$root/init"
cp "$script" "$root/test/game.script"
cp "$here/haptic.script" "$root/test/haptic.script"
# The package's users and groups and its udev rule: /init runs the daemon as they say.
cp "$here/../../configs/systemd/annabella.sysusers" "$here/../../configs/udev/60-annabella-gpio.rules" \
	"$root/test/"
(cd "$root" && find . -print0 | cpio --null -o -H newc --owner 0:0 2>/dev/null) |
	gzip -1 >"$work/initramfs.cpio.gz"
echo "vm: initramfs $(du -k "$work/initramfs.cpio.gz" | cut -f1) KiB"

# ---------------------------------------------------------------- the clock display
# The SMBus writes the kernel traced (smbus_write in tracefs), decoded by the controller
# models of the unit tests into what the screen showed after each burst of writes.
check_display() {
	local type=hd44780 addr=0x27 height=64 summary n
	case $wiring in
	matrix) type=ssd1306 addr=0x3c ;;
	shift) type=ssd1306 addr=0x3d height=32 ;;
	esac
	section display.trace >"$work/display.trace"
	"$top/face-decode" "$type" "$addr" "$height" <"$work/display.trace" >"$work/display.out"
	summary=$(tail -n1 "$work/display.out")
	head -n -1 "$work/display.out" >"$work/display.screens"
	n=$(wc -l <"$work/display.screens")
	if [[ $summary =~ ^messages\ ([0-9]+)\ bytes\ ([0-9]+)\ errors\ 0$ ]] &&
		((BASH_REMATCH[1] > 0)); then
		ok "display: $type at $addr, ${BASH_REMATCH[1]} SMBus writes of ${BASH_REMATCH[2]} bytes, $n screens, no fault in the controller model"
	else
		bad "display: $type at $addr: $summary"
		return
	fi
	echo "vm: the display showed first and last (> clock runs, = stands, F flag):"
	sed -n '1p;$p' "$work/display.screens" | sed 's/^/    /'
	# Before the starting press: both times, no mark.
	head -n1 "$work/display.screens" | grep -q '^[0-9.]*| [A-Z]* *5:00| [A-Z]* *5:00$' &&
		ok "display: the first screen shows both clocks at 5:00, none running" ||
		bad "display: first screen '$(head -n1 "$work/display.screens")'"
	# Every [%clk] of the scoresheet on the mover's row while the opponent's clock runs.
	grep -o '%clk [0-9:]*' "$work/vm.pgn" | awk '{ print $2 }' >"$work/clk"
	if awk -F'|' 'NR == FNR { split($1, t, ":"); want[++n] = (t[1] > 0 ? t[1] ":" t[2] : t[2] + 0) ":" t[3]; next }
		{ for (r = 2; r <= 3; r++) { tm[r] = substr($r, 9); gsub(/ /, "", tm[r]); mark[r] = substr($r, 1, 1) }
		  for (k = 1; k <= n; k++) { mover = (k % 2) ? 2 : 3; opp = 5 - mover
			if (tm[mover] == want[k] && mark[opp] == ">") seen[k] = 1 } }
		END { for (k = 1; k <= n; k++) if (!seen[k]) { print "ply " k " [%clk] " want[k] " never shown"; bad = 1 }
		      if (n == 0) { print "no [%clk] in game.pgn"; bad = 1 }
		      exit bad }' "$work/clk" "$work/display.screens"; then
		ok "display: every move's [%clk] ($(tr '\n' ' ' <"$work/clk")) shown with the other clock running"
	else
		bad "display: the scoresheet's clock readings are not what it showed"
	fi
	# Refreshed at least once a second while a clock runs; nothing sent that changed nothing.
	read -r gap same < <(awk -F'|' '{ if (prev != "" && prun) { d = $1 - prev; if (d > g) g = d }
		if ($2 "|" $3 == last) s++; last = $2 "|" $3; prev = $1; prun = ($2 ~ /^>/ || $3 ~ /^>/) }
		END { printf "%.2f %d\n", g, s }' "$work/display.screens")
	# A scan holds the loop for its settles (0.4 s with the shift registers here, longer when
	# the host is busy: the harness measures it), and a clock press makes a scan of its own
	# (gpio/board.c): a second's refresh, two scans and the display's writes at most. A busy
	# host stalls the whole VM as well: the longest the shell's waits overran in this run
	# (slack, measured from the kernel's edge time stamps) is added.
	local most scan_ms
	scan_ms=$(info harness-longest-scan-ms)
	[[ $wiring == shift ]] || scan_ms=0
	most=$(awk -v s="${scan_ms:-400}" -v k="${slack:-0}" 'BEGIN { printf "%.2f", 1.3 + 2 * s / 1000 + k / 1000 }')
	awk -v g="$gap" -v m="$most" 'BEGIN { exit !(g <= m) }' &&
		ok "display: refreshed every $gap s at most while a clock ran (at most $most)" ||
		bad "display: $gap s without a refresh while a clock ran (at most $most)"
	((same == 0)) && ok "display: every burst of writes changed the screen" ||
		bad "display: $same bursts of writes left the screen as it was"
}

# ---------------------------------------------------------------- the vibration motor
# The haptic run (annabella.wiring=haptic): every value the daemon set on the motor's line,
# with the kernel's time stamps (gpio_value in a trace instance of its own): two warnings of
# three 150 ms pulses 150 ms apart (12 s and 8 s left), then the flag's one pulse of 1500 ms;
# no step cut shorter than its pattern says (a timer never fires early; a loaded host may make
# a step longer, which is speed, not the pattern, and is only reported).
check_haptic() {
	# The changes of the line, from its still level (the request sets it 0 first).
	section haptic.trace | sed -n 's/.* \([0-9.]*\): gpio_value: [0-9]* set \([01]\).*/\1 \2/p' |
		awk 'BEGIN { last = 0 } $2 != last { print; last = $2 }' >"$work/haptic.sets"
	local got want="1 0 1 0 1 0 1 0 1 0 1 0 1 0" result
	got=$(cut -d' ' -f2 "$work/haptic.sets" | tr '\n' ' ' | sed 's/ $//')
	if [[ $got != "$want" ]]; then
		bad "motor line: levels '$got', want '$want' (two warnings, the flag)"
		return
	fi
	# Each step's length (from one change to the next) against the pattern's: the warnings'
	# five, the flag's one (the steps between patterns are the clock's).  The trace's time
	# stamps are the kernel's, to the microsecond: a millisecond short is a step cut short.
	result=$(awk '{ t[NR] = $1 * 1000 }
		END { split("150 150 150 150 150 0 150 150 150 150 150 0 1500", want, " ")
		      for (k = 1; k <= 13; k++) { if (!want[k]) continue
			d = t[k + 1] - t[k]; e = d - want[k]
			if (e < -1) { printf "step %d took %.1f ms, its pattern %d", k, d, want[k]; exit 1 }
			if (e > m) m = e }
		      printf "%.1f", m }' "$work/haptic.sets")
	if (($? == 0)); then
		ok "motor line: two warnings (3 x 150 ms) and the flag (1500 ms) on gpio-sim, no step short of its pattern (the longest $result ms over)"
	else
		bad "motor line: $result"
	fi
}

# ---------------------------------------------------------------- one run per wiring
# Boots the VM with annabella.wiring=WIRING (tests/vm/init.sh) and checks what it printed;
# its files go to $top/WIRING.
run_wiring() {
	local wiring=$1 work=$top/$1
	slack=0
	mkdir -p "$work"
	tag="$wiring: "
	# ---------------------------------------------------------------- boot
	accel_args=(-accel tcg)
	case $accel in
	kvm) accel_args=(-accel kvm) ;;
	auto) [[ -r /dev/kvm && -w /dev/kvm ]] && accel_args=(-accel kvm -accel tcg) ;;
	esac
	console=$work/console.log
	echo "vm: $wiring wiring"
	t0=$(date +%s.%N)
	timeout --foreground -k 5 "$vm_timeout" qemu-system-x86_64 "${accel_args[@]}" -m 256M -smp 1 \
		-nographic -no-reboot -kernel "$kernel" -initrd "$top/initramfs.cpio.gz" \
		-append "console=ttyS0 panic=-1 loglevel=4 rdinit=/init annabella.wiring=$wiring" </dev/null >"$console" 2>&1
	qrc=$?
	t1=$(date +%s.%N)
	tr -d '\r' <"$console" >"$console.txt"
	console=$console.txt
	echo "vm: QEMU (${accel_args[*]}) ran $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s, status $qrc"

	section() { awk -v n="$1" '$0 == "@@END " n "@@" { p = 0 } p { print } $0 == "@@BEGIN " n "@@" { p = 1 }' "$console"; }
	info() { sed -n "s/^@@INFO $1 //p" "$console" | head -n1; }
	moves() {
		grep -v '^\[' "$1" | tr '\n' ' ' | sed -e 's/ *{[^}]*}//g' -e 's/ [0-9]*\.\.\.//g' \
			-e 's/[*] *$//' -e 's/ *$//' -e 's/^ *//'
	}

	show_console() {
		echo "---- console (last 40 lines)"
		tail -n 40 "$console"
		echo "----"
	}

	if grep -q '^@@DONE@@' "$console" && [[ -z $(info fatal) ]]; then
		ok "VM booted, gpio-sim chip $(info chip) on $(info device), kernel $(info kernel)"
	else
		bad "VM run did not finish: $(info fatal)"
		show_console
		return
	fi
	section game.pgn >"$work/vm.pgn"
	# The utterances; the daemon's start lines (their wall clock) are left out.
	section speech.log | grep -v -E '^[0-9]+ start ' >"$work/vm.speech"
	section lines.log >"$work/vm.lines"
	section daemon.err >"$work/vm.err"
	echo "vm: daemon saw occupancy $(info start-occupancy) at start, bias pull after request:" \
		"a1 $(info pull-a1-after-request), player-clock $(info pull-player-clock-after-request);" \
		"pegs pulled up again: $(info pegs-pulled-again)"
	if [[ -s $work/vm.err ]]; then
		echo "---- daemon stderr"
		cat "$work/vm.err"
		echo "----"
	fi

	# ---------------------------------------------------------------- expectations
	# The same script through the sim backend, in virtual time.
	exp=$work/expected
	"$daemon" --board "sim:$script" --time virtual --audio none --state "$exp" >"$work/sim.out" 2>&1 ||
		bad "sim run of $script: $(cat "$work/sim.out")"
	want_moves="1. e4 e5 2. Nf3 Nc6"

	[[ $(info daemon-exit) == 0 ]] && ok "daemon exited 0 on SIGTERM" ||
		bad "daemon exit status after SIGTERM: $(info daemon-exit)"
	# It ran as the package's user with exactly the package's groups, the devices as the
	# package's udev rule gives them: the display and the chip were reached through them.
	local uid groups want_groups
	uid=$(info daemon-uid)
	groups=$(info daemon-groups)
	want_groups=$(info package-groups)
	[[ -n $uid && $uid != 0 && -n $want_groups && $groups == "$want_groups" ]] &&
		ok "the daemon ran as the package's user (uid $uid) with only its groups ($(info package-group-names)): $(info i2c-dev), $(info gpio-dev)" ||
		bad "the daemon's user: uid '$uid', groups '$groups' (want the package's: '$want_groups')"

	if [[ $wiring == haptic ]]; then
		check_haptic
		tag=
		return
	fi
	got=$(moves "$work/vm.pgn")
	[[ $got == "$want_moves" ]] && ok "game.pgn: $got" || bad "game.pgn moves '$got', want '$want_moves'"
	[[ $(moves "$exp/game.pgn") == "$want_moves" ]] || bad "sim run gives '$(moves "$exp/game.pgn")'"

	# `info` says the times, which run in real time in the VM: the rest of it is compared.
	untimed() { cut -d' ' -f2- "$1" | sed 's/Weiß: .*Gespielte/Weiß: ... Gespielte/'; }
	cut -d' ' -f2- "$work/vm.speech" >"$work/vm.speech.text"
	untimed "$work/vm.speech" >"$work/vm.speech.untimed"
	grep -v -E '^[0-9]+ start ' "$exp/speech.log" >"$work/sim.speech"
	untimed "$work/sim.speech" >"$work/sim.speech.text"
	if diff -u "$work/sim.speech.text" "$work/vm.speech.untimed" >"$work/speech.diff"; then
		ok "speech.log: $(wc -l <"$work/vm.speech.text") utterances as in the sim run"
	else
		bad "speech.log differs from the sim run:"
		cat "$work/speech.diff"
	fi

	# Line log: header, then the script's edges in order after the start pegs.
	grep -q '^# board: gpiod$' "$work/vm.lines" && grep -q "^# wiring: $wiring\$" "$work/vm.lines" &&
		ok "line log header (board gpiod, wiring $wiring)" || bad "line log header: $(grep '^#' "$work/vm.lines" | tr '\n' ' ')"

	# Expected edges from the script: LINE KIND WAIT_MS (the wait before the edge). Scanned wirings
	# log the holes as virtual lines 1000 + square (docs/scripts.md "Board scripts, line logs, time
	# controls").
	awk -v hole="$([[ $wiring == direct ]] && echo 0 || echo 1000)" '
		function sq(s) { return hole + (substr(s, 2, 1) - 1) * 8 + index("abcdefgh", substr(s, 1, 1)) - 1 }
		BEGIN { split("player-clock opponent-clock info repeat select pause", b, " ")
			for (i in b) btn[b[i]] = 63 + i }
		/^[ \t]*(#|$)/ { next }
		{ w = 0; a = $1; x = $2
		  if (a ~ /^\+/) { w = substr(a, 2) + 0; a = $2; x = $3 } }
		a == "lift" { print sq(x), "falling", w }
		a == "place" { print sq(x), "rising", w }
		a == "press" { print btn[x], "falling", w; print btn[x], "rising", 100 }
	' "$script" >"$work/want.edges"
	grep -v '^#' "$work/vm.lines" >"$work/got.edges"
	nwant=$(wc -l <"$work/want.edges")
	# Before the script's edges: only pegs of the start position being set (rising on ranks 1,
	# 2, 7, 8), none or as many as /init pulled up again after the daemon's bias had cleared them.
	repull=$(info pegs-pulled-again)
	lead=$(awk -v most="${repull:-0}" '{ h = $2 >= 1000 ? $2 - 1000 : $2 }
		NR > most || $3 != "rising" || h > 63 || (h > 15 && h < 48) { exit } { n = NR }
		END { print n + 0 }' "$work/got.edges")
	((lead == 0 || lead == repull)) && ok "line log: $lead start edges" ||
		bad "line log: $lead edges of start pegs before the script's, /init pulled $repull up again"
	# Then the script's edges in order.  A stale read of the harness (counted below) shows a
	# hole with its neighbour's level for one scan: that hole's edge and the next scan's edge
	# back (or only the first, in the last scan before the stop) are not the script's, and
	# are skipped, two for each stale read at most, holes only.
	stale=0
	[[ $wiring != direct ]] && stale=$(info harness-stale-reads)
	tail -n +$((lead + 1)) "$work/got.edges" | awk -v budget="$((2 * ${stale:-0}))" \
		-v want="$work/want.edges" -v out="$work/script.edges" -v skipped="$work/skipped.edges" '
		BEGIN { while ((getline l < want) > 0) { split(l, f, " "); wl[++nw] = f[1]; wk[nw] = f[2] } }
		{ if (j < nw && $2 == wl[j + 1] && $3 == wk[j + 1]) { j++; print > out }
		  else if ($2 >= 1000 && budget > 0) { budget--; print > skipped }
		  else { printf "edge %d after the start edges (%s %s): want %s\n", NR, $2, $3,
			  j < nw ? wl[j + 1] " " wk[j + 1] : "no more"; bad = 1; exit } }
		END { if (!bad && j < nw) { printf "the line log ends after %d of the script'"'"'s %d edges\n", j, nw; bad = 1 }
		      exit bad }' >"$work/order.txt"
	order_rc=$?
	touch "$work/script.edges" "$work/skipped.edges"
	nskipped=$(wc -l <"$work/skipped.edges")
	if ((order_rc == 0)); then
		ok "line log: the script's $nwant edges, lines and directions in order$( ((nskipped)) && echo " ($nskipped edges of the harness's $stale stale reads skipped)")"
	else
		bad "line log edges differ from the script: $(cat "$work/order.txt"); the line log's edges:"
		sed 's/^/    /' "$work/got.edges"
	fi
	if ((order_rc == 0)); then
		# A scanned hole's edge is the time of the scan that saw it: up to a scan period and the
	# scan's settles later than the change.
	case $wiring in
	matrix) tolerance=$((40 + 100 + 8 * 10)) ;;
	shift) tolerance=$((40 + 500 + 64 * 6)) ;;
	*) tolerance=40 ;;
	esac
	# Timing: the gap between two edges by the kernel's time stamps (line log, ns) against the
		# gap /init measured around its writes (/proc/uptime, 10 ms steps).
		sed -n 's/^@@INFO edge //p' "$console" >"$work/init.edges"
		# /init names a scanned hole by its square, the line log by its virtual line.
		timing=$(paste -d' ' "$work/init.edges" "$work/script.edges" | awk -v hole="$([[ $wiring == direct ]] && echo 0 || echo 1000)" '
			$2 < 64 { $2 += hole }
			$2 != $5 || $3 != $6 { order = 1 }
			NR > 1 { d = ($4 - prev_k) / 1e6 - ($1 - prev_u) * 1000; if (d < 0) d = -d
				if (d > max) max = d; n++ }
			{ prev_k = $4; prev_u = $1 }
			END { printf "%d %.1f %d", n, max, order }')
		read -r ngaps maxdev order <<<"$timing"
		if ((order)) || (($(wc -l <"$work/init.edges") != nwant)); then
			bad "edges made by /init and edges in the line log do not match"
		elif awk -v m="$maxdev" -v t="$tolerance" 'BEGIN { exit !(m <= t) }'; then
			ok "edge time stamps: $ngaps gaps within $maxdev ms of /init's clock (at most $tolerance)"
		else
			bad "edge time stamps: a gap is $maxdev ms off /init's clock"
		fi
		slack=$(paste -d' ' "$work/want.edges" "$work/script.edges" | awk '
			NR > 1 { d = ($4 - prev) / 1e6 - $3; if (d > max) max = d } { prev = $4 }
			END { printf "%.0f", max }')
		echo "vm: the shell took up to $slack ms more than the script's waits"
	fi

	# Replay of the recorded line log, in virtual time.
	rep=$work/replay
	# The game's settings as in /init's configuration (the clock's times are in the speech).
	printf '[game]\nplayer = white\ntime-control = 300+2\n' >"$work/replay.conf"
	if "$daemon" --config "$work/replay.conf" --board "replay:$work/vm.lines" --time virtual \
		--audio none --state "$rep" \
		>"$work/replay.out" 2>&1; then
		got=$(moves "$rep/game.pgn")
		[[ $got == "$want_moves" ]] && ok "replay of the line log: $got" ||
			bad "replay of the line log gives '$got', want '$want_moves'"
		grep -v -E '^[0-9]+ start ' "$rep/speech.log" >"$work/replay.speech"
		if cut -d' ' -f2- "$work/replay.speech" | diff -u "$work/vm.speech.text" - >"$work/replay.diff"; then
			maxd=$(paste -d' ' <(cut -d' ' -f1 "$work/vm.speech") <(cut -d' ' -f1 "$work/replay.speech") |
				awk '{ d = $1 - $2; if (d < 0) d = -d; if (d > m) m = d } END { print m + 0 }')
			ok "replay speech as in the VM (times differ by up to $maxd ms)"
		else
			bad "replay speech differs from the VM:"
			cat "$work/replay.diff"
		fi
	else
		bad "replay of the line log failed: $(cat "$work/replay.out")"
	fi

	# No busy loop (tests/README.md "Tests and measures"): direct wiring has edge events, so an idle daemon
	# sleeps; a scanned wiring costs its scans (each a sleep per settle) and nothing else.
	case $wiring in
	# (each settle a sleep, and the harness's answer may preempt it)
	matrix) most=$((4 + (2 * 10 + 1) * (2 * 8 + 2))) ;;
	shift) most=$((4 + (2 * 2 + 1) * (2 * 64 + 2))) ;;
	# Direct wiring sleeps on edge events; what still wakes it idle is the power's reading
	# every 2 s and, in this VM whose kernel has no inotify, the look for a new program
	# every 2 s: each window of 2 s may hold two of each, with the loop's own switch.  A busy
	# loop makes hundreds.
	*) most=6 ;;
	esac
	sw=$(info idle-switches-2s)
	[[ -n $sw ]] && ((sw <= most)) && ok "idle: $sw context switches in 2 s (at most $most)" ||
		bad "idle: ${sw:-?} context switches in 2 s, more than $most (busy loop?)"

	if [[ $wiring != direct ]]; then
		reads=$(info harness-reads)
		stale=$(info harness-stale-reads)
		# The harness is a process under QEMU's TCG: now and then it is not scheduled within
		# a settle time, and the daemon reads a column before it answered (1 of 14,400 in
		# one CI run).  A scan that read too early by itself would be stale on most reads;
		# the game, its clocks and the display are checked exactly either way.
		[[ -n $reads && $reads -gt 0 && -n $stale ]] && ((stale * 1000 <= reads)) &&
			ok "harness: the daemon read $reads input values, $stale stale (at most 1 in 1000; $(info harness-events) trace events, $(info harness-writes) pulls, $(info harness-loads) loads, $(info harness-clocks) clocks)" ||
			bad "harness: ${stale:-?} of ${reads:-?} reads stale (the scan outran the harness)"
	fi

	check_display

	tag=
}

for w in ${VM_WIRINGS:-direct matrix shift haptic}; do
	run_wiring "$w"
done

summary
