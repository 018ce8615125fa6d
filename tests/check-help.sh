#!/usr/bin/env bash
# --help, as GNU and Debian tools answer it: `annabella --help`, `annabella COMMAND --help`
# for every command it lists, and `annabellad --help` print their usage on standard output,
# nothing on standard error, exit 0, and do nothing else (no file made, no socket tried);
# --help after other arguments is the same.  A command's usage for --help is the one it
# prints on standard error, exit 2, for bad usage.
set -u
build=${1:-build}
. "$(dirname "$0")/lib.sh"
begin help
tool=$(cd "$build" && pwd)/annabella
daemon=$(cd "$build" && pwd)/annabellad
mkdir "$work/cwd"
cd "$work/cwd" || give_up "cannot enter $work/cwd"

help_ok() { # NAME COMMAND...: --help's answer is a usage on stdout alone, exit 0
	local name=$1 rc before=$failed
	shift
	"$@" >"$work/out" 2>"$work/err" </dev/null
	rc=$?
	[ $rc -eq 0 ] || bad "$name: exit $rc, not 0"
	grep -q '^usage: ' "$work/out" || bad "$name: no usage on standard output:" "$(head -2 "$work/out")"
	[ ! -s "$work/err" ] || bad "$name: wrote on standard error:" "$(head -2 "$work/err")"
	[ -z "$(ls -A "$work/cwd")" ] || bad "$name: made files: $(ls -A "$work/cwd")"
	rm -rf "$work/cwd" && mkdir "$work/cwd"
	[ "$failed" -eq "$before" ] && ok
}

help_ok "annabella --help" "$tool" --help
help_ok "annabellad --help" "$daemon" --help
"$tool" --help >"$work/all"
commands=$(sed -n 's/^usage: annabella \([a-z][a-z-]*\) .*/\1/p; s/^usage: annabella \([a-z][a-z-]*\)$/\1/p' \
	"$work/all" | sort -u)
[ "$(echo "$commands" | wc -w)" -ge 16 ] || bad "annabella --help lists only: $commands"
for c in $commands; do
	help_ok "annabella $c --help" "$tool" "$c" --help
	cp "$work/out" "$work/help-$c"
	# --help after an argument, as getopt reads it (control: only before its command).
	[ "$c" = control ] || help_ok "annabella $c DIR --help" "$tool" "$c" "$work/nowhere" --help
	# The same usage for bad usage, on standard error with exit 2 (control sends what it
	# is given to the daemon, and has no bad usage of its own).
	[ "$c" = control ] && continue
	"$tool" "$c" --no-such-option a b c >/dev/null 2>"$work/err" </dev/null
	rc=$?
	grep -v "^annabella $c: \|^$c: " "$work/err" >"$work/usage-$c"
	if [ $rc -ne 2 ]; then
		bad "annabella $c --no-such-option: exit $rc, not 2"
	elif ! cmp -s "$work/usage-$c" "$work/help-$c"; then
		bad "annabella $c: the usage for bad usage is not --help's:"
		diff "$work/help-$c" "$work/usage-$c" | indent
	else
		ok
	fi
	# An option it does not know, alone, is bad usage too: never a file's or folder's name.
	"$tool" "$c" --no-such-option >/dev/null 2>"$work/err" </dev/null
	rc=$?
	[ $rc -eq 2 ] && [ -z "$(ls -A "$work/cwd")" ]
	check $? "annabella $c --no-such-option: exit $rc, not 2, or made: $(ls -A "$work/cwd")"
	rm -rf "$work/cwd" && mkdir "$work/cwd"
	# The tool's own list shows each command's usage as --help does.
	if grep -qxF -f "$work/help-$c" "$work/all" &&
		[ "$(grep -cxF -f "$work/help-$c" "$work/all")" -ge "$(wc -l <"$work/help-$c")" ]; then
		ok
	else
		bad "annabella --help does not show annabella $c --help's usage"
	fi
done
# control's --help lists the control commands from the command table.
grep -q '^commands:' "$work/help-control" && grep -q '^  approve' "$work/help-control"
check $? "annabella control --help does not list the control commands"
summary
