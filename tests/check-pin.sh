#!/usr/bin/env bash
# PINs nobody can guess or read (docs/control.md "Control interface", README "Security model"): `annabella pin`
# prints six random digits (or as many as asked, 6 to 16), each digit as likely as the
# others; a configured PIN of four or five digits starts the daemon with a warning that names
# the key, one of six does not; a PIN in a file its group may read is said with its file and
# line.  `annabella pin --set` writes a PIN's salted hash, never the PIN, into the PIN file
# (0600), and the daemon takes its PINs from there.
# control.log never holds what follows an auth-like first word: `auth 471108` with an arrow
# key's escape bytes, a byte that is not UTF-8 or a NUL, `Auth`, `AUTH`, `atuh` and the PIN
# alone are refused before they are parsed, and logged by their length and reply code only.
# Reads (status, moves, export, help) are counted per author in one line, written before the
# author's next request that is no read (docs/state.md "State directory", control.log).
set -u
build=$(cd "${1:-build}" && pwd)
. "$(dirname "$0")/lib.sh"
begin pin
for _ in $(seq 1000); do "$build/annabella" pin; done >"$work/pins"
[ "$(grep -cxE '[0-9]{6}' "$work/pins")" -eq 1000 ] && ok ||
	bad "not every PIN is six digits: $(grep -vxE '[0-9]{6}' "$work/pins" | head -3)"
# 6000 digits: each of the ten within 4.5 standard deviations of 600 (sd 23.2).
fold -w1 "$work/pins" | sort | uniq -c | awk '$1 < 495 || $1 > 705 { bad = 1 } END { exit bad }' &&
	ok || bad "the digits are not uniform: $(fold -w1 "$work/pins" | sort | uniq -c | tr '\n' ' ')"
[ "$(sort -u "$work/pins" | wc -l)" -ge 990 ] && ok || bad "PINs repeat: $(sort "$work/pins" | uniq -d | head)"
"$build/annabella" pin 12 | grep -qxE '[0-9]{12}' && ok || bad "pin 12 is not twelve digits"
"$build/annabella" pin 5 >/dev/null 2>&1
[ $? -eq 2 ] && ok || bad "pin 5 is not refused"

printf 'player white\n+100 lift e2\n' >"$work/game.script"
for pin in 4711 47110 471108; do
	printf '[control]\narbiter-pin = %s\nassistant-pin = 99999999\n' "$pin" >"$work/$pin.conf"
	chmod 600 "$work/$pin.conf" # its owner's alone: no warning for that
	"$build/annabellad" --config "$work/$pin.conf" --board "sim:$work/game.script" --time virtual \
		--audio none --control none --state "$work/$pin" >"$work/$pin.err" 2>&1 ||
		bad "the daemon did not run with a PIN of ${#pin} digits: $(cat "$work/$pin.err")"
	if [ ${#pin} -lt 6 ]; then
		grep -q "warn: $work/$pin.conf: \[control\] arbiter-pin has ${#pin} digits: give it at least 6" \
			"$work/$pin.err" && ok || bad "no warning for a PIN of ${#pin} digits: $(cat "$work/$pin.err")"
	else
		grep -q 'pin' "$work/$pin.err" && bad "a warning for a PIN of six digits: $(cat "$work/$pin.err")" || ok
	fi
done

# A PIN in a file its group (the control socket's: the assistants) may read: taken, and said
# with its file and line.
chmod 640 "$work/471108.conf"
"$build/annabellad" --config "$work/471108.conf" --board "sim:$work/game.script" --time virtual \
	--audio none --control none --state "$work/exposed" >"$work/exposed.err" 2>&1
grep -q "warn: $work/471108.conf:2: \[control\] arbiter-pin is in a file its group or others may read" \
	"$work/exposed.err" && ok || bad "no warning for a PIN the group may read: $(cat "$work/exposed.err")"

# ---------------------------------------------------------------- the PIN file
# `annabella pin --set` writes the PIN's salted hash into a file of its owner alone (0600),
# never the PIN; the other role's line stays; the two must differ.
"$build/annabella" pin --set assistant --file "$work/pins.file" >"$work/assistant.pin" 2>/dev/null
echo 471108 | "$build/annabella" pin --set arbiter --stdin --file "$work/pins.file" >"$work/set.out" 2>&1
if [ "$(stat -c %a "$work/pins.file")" = 600 ] && ! grep -q '471108' "$work/pins.file" &&
	! grep -q "$(cat "$work/assistant.pin")" "$work/pins.file" &&
	[ "$(grep -cE '^(arbiter|assistant)-pin = pbkdf2-sha256\$10000\$[0-9]+\$[0-9a-f]{32}\$[0-9a-f]{64}$' \
		"$work/pins.file")" = 2 ] && ! grep -q 471108 "$work/set.out"; then
	ok
else
	bad "the PIN file: $(stat -c %a "$work/pins.file"): $(cat "$work/pins.file") $(cat "$work/set.out")"
fi
cat "$work/assistant.pin" | "$build/annabella" pin --set arbiter --stdin --file "$work/pins.file" \
	>/dev/null 2>&1
[ $? -eq 2 ] && ok || bad "the assistant's PIN was taken as the arbiter's"

# ---------------------------------------------------------------- control.log keeps no PIN
# (the daemon's PINs from the PIN file: the right one gives its role, a wrong one not)
sock="$work/control"
printf '[control]\nsocket = %s\npin-file = %s\n' "$sock" "$work/pins.file" >"$work/log.conf"
printf 'player white\n+60000 lift a2\n' >"$work/wait.script"
spawn "$build/annabellad" --config "$work/log.conf" --board "sim:$work/wait.script" --time real \
	--audio none --state "$work/log" 2>"$work/log.err"
daemon=$!
wait_socket "$sock" || bad "no control socket: $(cat "$work/log.err")"
python3 - "$sock" "$work/assistant.pin" >"$work/sent" 2>"$work/auth.err" <<'PY'
import socket, sys
sent = [b"auth 471108\x1b[A", b"auth 471108\xff", b"auth 471108\x00", b"Auth 471108",
        b"AUTH 471108", b"atuh 471108", b"471108", b"auth 471108 \xe2\x80\xae"]
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
f = s.makefile("rb")
for line in sent:
    s.sendall(line + b"\n")
    f.readline()
for line in sent:
    print(len(line))
for pin, role in ((b"471108", b'"role":"arbiter"'), (open(sys.argv[2], "rb").read().strip(),
                  b'"role":"assistant"'), (b"471109", b'"code":"wrong-pin"')):
    s.sendall(b"auth " + pin + b"\n")
    if role not in f.readline():
        print("auth", pin.decode(), "did not give", role.decode(), file=sys.stderr)
for line in [b"status public"] * 300 + [b"moves"] * 200 + [b"export pgn game-9999", b"tags Event X"]:
    s.sendall(line + b"\n")
    f.readline()
PY
stop $daemon
[ -s "$work/auth.err" ] && bad "the PIN file's PINs: $(cat "$work/auth.err")" || ok
clog="$work/log/control.log"
if grep -q '4711' "$clog"; then
	bad "control.log holds the PIN:"
	grep '4711' "$clog" | indent
else
	ok
fi
want=(request-control-character request-not-utf8 request-nul unknown-command unknown-command
	unknown-command unknown-command request-control-character)
mapfile -t lengths <"$work/sent"
for i in "${!want[@]}"; do
	pat="^[0-9]+ [^ ]+ [a-z]+ \(${lengths[i]} bytes\) => error ${want[i]}\$"
	[ "$(grep -cE "$pat" "$clog")" -ge 1 ] && ok ||
		bad "control.log has no line '(${lengths[i]} bytes) => error ${want[i]}'"
done
[ "$(grep -c ' bytes) => error ' "$clog")" -eq ${#want[@]} ] && ok ||
	bad "control.log: not one line a request: $(grep -c ' bytes) => ' "$clog")"
if grep -A1 -E '^[0-9]+ [^ ]+ [a-z]+ \(501 reads since [0-9]+\) => ok status 300, moves 200, export 1; 1 refused$' \
	"$clog" | grep -q ' tags Event X => ok' && [ "$(grep -c ' status\| moves' "$clog")" = 1 ]; then
	ok
else
	bad "control.log: the reads are not one counted line before the next request:"
	tail -3 "$clog" | indent
fi
summary
