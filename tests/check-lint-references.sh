#!/usr/bin/env bash
# make lint's reference check (tests/lint-references.sh): a section of README.md or of a file
# under docs/ cited by a name that is no heading of that file is refused, also when a comment
# breaks the name over two lines; a cited file the repository does not carry, DESIGN, seeds/
# and an issue's number are refused; a Markdown link of the documents to a missing file or
# heading is refused; citations of real headings pass; and the tree itself passes.
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
mkdir -p "$work/tree/docs"
cat >"$work/tree/docs/state.md" <<'MD'
# The state directory
## Logs
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
probe "a heading of docs/" 0 '/* Kept (docs/state.md "Logs"). */'
probe "a file's title" 0 '# (docs/state.md "The state directory")'
probe "a heading of docs/ over two lines" 0 "$(printf '/* Kept (docs/state.md\n * "Logs"). */')"
probe "a README heading cited in docs/" 1 '/* Kept (docs/state.md "The device"). */'
probe "a file the repository does not carry" 1 '/* Kept (docs/logs.md "Logs"). */'
probe "seeds/ cited" 1 '/* 2018 (seeds/000, Swedish). */'
probe "an issue's number" 1 '# The arbiter at the board (issue 17).'
probe "an issue's number at a line's start" 1 '# Issue 19, both copies damaged.'
probe "another project's issue" 0 '# (the user namespace fails: systemd issue 31219)'
linkprobe() { # NAME WANT TEXT: TEXT as a line of docs/guide.md
	printf '# Guide\n\n%s\n' "$3" >"$work/tree/docs/guide.md"
	(cd "$work/tree" && bash "$dir/lint-references.sh" docs/guide.md >"$work/out" 2>&1)
	[ $? -eq "$2" ]
	check $? "$1: want $2, said: $(cat "$work/out")"
}
linkprobe "a link to a heading of docs/" 0 'See [Logs](state.md#logs).'
linkprobe "a link to the README" 0 'See [the device](../README.md#the-device).'
linkprobe "a link to a missing heading" 1 'See [Saving](state.md#saving).'
linkprobe "a link to a missing file" 1 'See [Logs](logs.md).'
linkprobe "a link to the web" 0 'See [FIDE](https://handbook.fide.com/).'
(cd "$top" && bash "$dir/lint-references.sh" >"$work/out" 2>&1)
check $? "the tree: $(cat "$work/out")"
summary
