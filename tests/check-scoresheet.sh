#!/usr/bin/env bash
# Golden scoresheets of complete games played through the daemon: the paper notation of
# Appendix C and the braille scoresheet (BRF and Unicode) from `annabella scoresheet`, their
# headers with the event, site and round, and the PGN export read back by pgn-extract.  REGRESS_UPDATE=1 rewrites the expectations.
set -u
build=${1:-build}
. "$(dirname "$0")/lib.sh"
dir=$tests
begin scoresheet
# The third game is a tournament game with the machine's fair-play state watched on trees
# made here (docs/fairplay.md): a radio unblocked from the start, so its scoresheets' headers
# and game.pgn's FairPlay tag say it was not sealed at the start.
mkdir -p "$work/sys/class/net/lo" "$work/sys/class/rfkill/rfkill0" "$work/proc" "$work/engines"
echo 0x9 >"$work/sys/class/net/lo/flags"
echo wlan >"$work/sys/class/rfkill/rfkill0/type"
echo 0 >"$work/sys/class/rfkill/rfkill0/soft"
echo 0 >"$work/sys/class/rfkill/rfkill0/hard"
for game in 1858-morphy-duke-karl-isouard 2013-anand-carlsen 1946-levin-santasiere; do
	"$build/annabella" script "$dir/games/$game.pgn" --player white --variants 3 \
		--time-control - >"$work/$game.script"
	printf '[game]\nevent = %s\nsite = %s\nround = %s\nwhite = %s\nblack = %s\n' \
		"$(sed -n 's/^\[Event "\(.*\)"\]/\1/p' "$dir/games/$game.pgn")" \
		"$(sed -n 's/^\[Site "\(.*\)"\]/\1/p' "$dir/games/$game.pgn")" \
		"$(sed -n 's/^\[Round "\(.*\)"\]/\1/p' "$dir/games/$game.pgn")" \
		"$(sed -n 's/^\[White "\(.*\)"\]/\1/p' "$dir/games/$game.pgn")" \
		"$(sed -n 's/^\[Black "\(.*\)"\]/\1/p' "$dir/games/$game.pgn")" >"$work/$game.conf"
	[ "$game" = 1946-levin-santasiere ] &&
		printf 'mode = tournament\n[fairplay]\nwatch = yes\nfiles = skip\nengine = idle\nsysfs = %s\nproc = %s\nutmp =\nengine-dirs = %s\n' \
			"$work/sys" "$work/proc" "$work/engines" >>"$work/$game.conf"
	"$build/annabellad" --control none --config "$work/$game.conf" --board "sim:$work/$game.script" \
		--time virtual --audio none --state "$work/$game" >/dev/null 2>&1
	for format in text brf unicode; do
		out="$work/$game.$format"
		want="$dir/scoresheet/$game.$format"
		"$build/annabella" scoresheet --format "$format" "$work/$game" >"$out"
		if [ "${REGRESS_UPDATE:-}" = 1 ]; then
			cp "$out" "$want"
			continue
		fi
		if cmp -s "$out" "$want"; then
			ok
		else
			bad "$game as $format differs:"
			diff "$want" "$out" | head -10
		fi
	done
	if [ "$game" = 1946-levin-santasiere ]; then
		tag=$(grep '^\[FairPlay ' "$work/$game/game.pgn")
		[ "$tag" = '[FairPlay "not sealed at the start: wlan unblocked"]' ]
		check $? "$game's FairPlay tag: '$tag'"
	fi
	# The BRF is for an embosser: 40 cells a line at most.
	awk '{ sub(/\r$/, "") } length > 40 { bad = 1 } END { exit bad }' "$work/$game.brf"
	check $? "$game.brf has lines over 40 cells"
	# Its pages: 25 lines each, a form feed between them, each numbered in order at the
	# right margin of its last line ("#A", "#B", ...), no move pair's number on a page
	# twice or missing.
	msg=$(python3 "$dir/scoresheet/pages.py" "$work/$game.brf" 25 40 bottom)
	check $? "$game.brf pages: $msg"
done

# The configuration's [braille] page-lines, line-cells and page-number, and the options
# after it, as `export brf` takes them: a narrow page with the number on its first line.
game=2013-anand-carlsen
printf '[braille]\npage-lines = 12\nline-cells = 24\npage-number = top\n' >"$work/narrow.conf"
out="$work/narrow.brf"
"$build/annabella" scoresheet --format brf --config "$work/narrow.conf" "$work/$game" >"$out"
if [ "${REGRESS_UPDATE:-}" = 1 ]; then
	cp "$out" "$dir/scoresheet/$game.narrow.brf"
elif cmp -s "$out" "$dir/scoresheet/$game.narrow.brf" &&
	msg=$(python3 "$dir/scoresheet/pages.py" "$out" 12 24 top); then
	ok
else
	bad "$game.narrow.brf differs: ${msg:-}"
	diff "$dir/scoresheet/$game.narrow.brf" "$out" | head -10
fi
"$build/annabella" scoresheet --format brf --config "$work/narrow.conf" --page-lines 0 \
	--line-cells 40 "$work/$game" >"$out"
! grep -q $'\f' "$out" && [ "$(grep -c . "$out")" -gt 25 ]
check $? "--page-lines 0 still gives pages"
for wrong in "--page-lines 3" "--line-cells 400" "--signs inside"; do
	# shellcheck disable=SC2086
	if "$build/annabella" scoresheet --format brf $wrong "$work/$game" >/dev/null 2>"$work/err" ||
		! grep -q -- "${wrong%% *}" "$work/err"; then
		bad "$wrong was not refused"
	else
		ok
	fi
done
# The printable guides in braille (make guides): as the tool makes them from their text now,
# every line at most 40 cells, every page at most 25 lines.
for text in "$dir"/../docs/guide/clock.*.txt; do
	brf=${text%.txt}.brf
	"$build/annabella" brf "$text" >"$work/guide.brf"
	if cmp -s "$work/guide.brf" "$brf" &&
		python3 -c '
import sys
pages = open(sys.argv[1], newline="").read().split("\f")
lines = [l for p in pages for l in p.split("\r\n")]
sys.exit(0 if all(len(l) <= 40 for l in lines) and all(p.count("\r\n") <= 25 for p in pages) else 1)
' "$brf"; then
		ok
	else
		bad "$(basename "$brf") is not the braille of its text, or not on 25 lines of 40 cells (make guides)"
	fi
done
summary
