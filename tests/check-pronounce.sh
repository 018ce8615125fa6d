#!/usr/bin/env bash
# [speech] pronounce is tried at start: an override whose phonemes eSpeak NG does not read
# whole is refused (exit 2, the file and line named, nothing started); one far shorter than
# the word it replaces is a warning with its file and line, as are an override given twice
# for one word and voice and one for a voice that never says the word; a good one says
# nothing.
set -u
build=${1:-build}
. "$(dirname "$0")/lib.sh"
begin pronounce
printf 'player white\n+100 press opponent-clock\n' >"$work/game.script"

run() { # NAME CONFIG-TEXT: runs the daemon, leaves $rc and $work/NAME.err
	printf '%b' "$2" >"$work/$1.conf"
	"$build/annabellad" --config "$work/$1.conf" --board "sim:$work/game.script" \
		--time virtual --audio none --control none --state "$work/$1.state" \
		>/dev/null 2>"$work/$1.err"
	rc=$?
}
failed_with() { # MESSAGE FILE
	bad "$1"
	show "$2"
}

# The issue's typo: "Y" is no phoneme of the German voice, which reads only "f".
run typo '[speech]\n# a typo\nslow-repeat = 70\npronounce fünf = f'"'"'Ynf\n'
if [ "$rc" -eq 2 ] && grep -q "typo.conf:4: pronounce fünf = f'Ynf: .*reads only 'f'" "$work/typo.err" &&
	[ ! -e "$work/typo.state/journal" ]; then ok; else failed_with "a typo was not refused with its line (rc $rc)" "$work/typo.err"; fi

# The same in another voice's override, after good ones.
run en '[speech]\npronounce-en hundred and = h'"'"'Vndr@d@nd\npronounce-en Anna = '"'"'an@\npronounce-en Bella = b'"'"'El@Y\n'
if [ "$rc" -eq 2 ] && grep -q "en.conf:4: pronounce Bella = .*English voice" "$work/en.err"; then ok; else
	failed_with "an English override was not refused with its line (rc $rc)" "$work/en.err"
fi

# Accepted but far shorter than the word: a warning naming the line; the game runs.
run short '[speech]\npronounce Springer = S\n'
if [ "$rc" -eq 0 ] && grep -q "short.conf:2: pronounce Springer = S sounds .* far shorter" "$work/short.err" &&
	grep -q "Sprache Deutsch" "$work/short.state/speech.log"; then ok; else
	failed_with "a short override was not warned about, or the game did not run (rc $rc)" "$work/short.err"
fi

# Two overrides of one word for one voice: the last is said, both lines named.
run twice '[speech]\npronounce fünf = f'"'"'ynf\n# again\npronounce fünf = f'"'"'Ynf\n'
if grep -q "twice.conf:4: pronounce fünf given again for the German voice: it replaces the one of .*twice.conf:2" "$work/twice.err"; then ok; else
	failed_with "an override given twice was taken silently (rc $rc)" "$work/twice.err"
fi
# A word only another voice says: Gustav is only ever said by the German voice.
run other '[speech]\npronounce-en Gustav = g'"'"'Ustaf\n'
if [ "$rc" -eq 0 ] && grep -q "other.conf:2: pronounce-en Gustav: the English voice never says 'Gustav' (the German voice does: pronounce-de)" "$work/other.err"; then ok; else
	failed_with "an override for a voice that never says the word was taken silently (rc $rc)" "$work/other.err"
fi

# Good overrides: no warning, the game runs.
run good '[speech]\npronounce fünf = f'"'"'ynf\npronounce-nl remise = r@m'"'"'i:z@\n'
if [ "$rc" -eq 0 ] && ! grep -q "warn\|pronounce" "$work/good.err"; then ok; else
	failed_with "good overrides were not taken quietly (rc $rc)" "$work/good.err"
fi

summary
