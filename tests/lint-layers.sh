#!/usr/bin/env bash
# The layers of DESIGN 2, as includes: a file in a folder may include only the folders its
# layer stands on.  Prints every include that breaks a layer as FILE:LINE and exits 1.
#   base <- all; chess -> base; game -> chess, base; gpio -> base; clockface -> base;
#   voice, braille -> chess, base; control -> game, chess, base;
#   config -> gpio, clockface, voice, braille, game, chess, base;
#   store -> voice, braille, game, chess, base;
#   daemon -> store, config, control, gpio, clockface, voice, braille, game, chess, base;
#   net -> config, control, game, chess, base;  cli -> every folder but daemon.
# Usage: lint-layers.sh [FILE...]   (paths from the top of a tree; default: every .c and .h
# of the layer folders of this tree)
set -u
declare -A allowed=(
	[base]="base"
	[chess]="chess base"
	[game]="game chess base"
	[gpio]="gpio base"
	[clockface]="clockface base"
	[voice]="voice chess base"
	[braille]="braille chess base"
	[control]="control game chess base"
	[config]="config gpio clockface voice braille game chess base"
	[store]="store voice braille game chess base"
	[daemon]="daemon store config control gpio clockface voice braille game chess base"
	[net]="net config control game chess base"
	[cli]="cli net store config control gpio clockface voice braille game chess base"
)
if [ $# -eq 0 ]; then
	cd "$(dirname "$0")/.."
	set -- $(find base chess game gpio clockface voice braille control config store daemon net cli -name '*.[ch]' | sort)
fi
bad=0
for f in "$@"; do
	layer=${f%%/*}
	[ -n "${allowed[$layer]+x}" ] || continue
	while IFS=: read -r line dep; do
		ok=0
		for a in ${allowed[$layer]}; do
			[ "$dep" = "$a" ] && ok=1
		done
		if [ $ok -eq 0 ]; then
			echo "$f:$line: $layer/ may not include $dep/ (DESIGN 2)"
			bad=1
		fi
	done < <(grep -n -E '^[[:space:]]*#[[:space:]]*include[[:space:]]+"[a-z]+/' "$f" |
		sed -E 's/^([0-9]+):[^"]*"([a-z]+)\/.*/\1:\2/')
done
exit $bad
