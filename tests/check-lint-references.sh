#!/usr/bin/env bash
# make lint's reference check (tests/lint-references.sh): a README section cited by a name that
# is no heading is refused, also when a comment breaks the name over two lines; a cited DESIGN
# is refused; citations of real headings pass; and the tree itself passes.
set -u
. "$(dirname "$0")/lib.sh"
begin lint-references
dir=$tests
top=$(cd "$dir/.." && pwd)
mkdir -p "$work/tree"
cat >"$work/tree/README.md" <<'MD'
# annabella
## The device
### Control interface
### The clock display (`[display]`)
MD
probe() { # NAME WANT(0 passes / 1 refused) TEXT
	printf '%s\n' "$3" >"$work/tree/probe.c"
	(cd "$work/tree" && bash "$dir/lint-references.sh" probe.c >"$work/out" 2>&1)
	[ $? -eq "$2" ]
	check $? "$1: want $2, said: $(cat "$work/out")"
}
probe "a heading" 0 '/* The socket (README "Control interface"): one line a request. */'
probe "a heading with its parenthesis left out" 0 '# Wiring: README, "The clock display".'
probe "a heading over two comment lines" 0 "$(printf '/*\n * The buttons (README "The\n * device"), in order.\n */')"
probe "the README's heading" 0 "see the README's \"The device\""
probe "no such heading" 1 '/* The socket (README "Control socket"). */'
probe "no such heading over two lines" 1 "$(printf '/*\n * The buttons (README "The\n * board"), in order.\n */')"
probe "the README's unknown heading" 1 "see the README's \"Board scripts\""
probe "DESIGN cited" 1 '/* As DESIGN 8 says. */'
probe "DESIGN in a shell comment" 1 '# (DESIGN 4.3)'
probe "design as a word" 0 '/* The design of the board. */'
(cd "$top" && bash "$dir/lint-references.sh" >"$work/out" 2>&1)
check $? "the tree: $(cat "$work/out")"
summary
