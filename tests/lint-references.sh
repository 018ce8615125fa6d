#!/usr/bin/env bash
# make lint's reference check: every reference a reader meets in the repository can be
# followed with the repository alone.  A section cited as README "NAME" (also README's "NAME",
# a comment's line break inside the quotes allowed) must be a heading of README.md (NAME, or
# NAME followed by a parenthesis as in `The clock display (`[display]`)`), and no file cites
# DESIGN, a document the repository does not carry.  Run from the top of a tree; with FILE
# arguments only those files are checked (against that tree's README.md).
set -u
[ -f README.md ] || { echo "lint-references: no README.md here" >&2; exit 2; }
if [ $# -gt 0 ]; then
	files=("$@")
else
	# This check and its test name the word themselves.
	mapfile -t files < <(git ls-files -co --exclude-standard -- ':!README.md' ':!*.png' \
		':!*.wav' ':!*.ogg' ':!*.gz' ':!tests/lint-references.sh' \
		':!tests/check-lint-references.sh' 2>/dev/null)
fi
python3 - "${files[@]}" <<'PY'
import re, sys
heads = []
for line in open('README.md', encoding='utf-8'):
    m = re.match(r'#{1,6} (.*\S)', line)
    if m:
        heads.append(m.group(1))
def known(name):
    return any(h == name or h.startswith(name + ' (') for h in heads)
bad = 0
lead = re.compile(r'^\s*(?:/\*+|\*+/?|#+|//+|;+|--)?\s?')
cite = re.compile(r'README(?:\'s)?(?:,)?\s+(?:section\s+)?"([^"]{1,120})"')
for f in sys.argv[1:]:
    try:
        text = open(f, encoding='utf-8').read()
    except (UnicodeDecodeError, IsADirectoryError, FileNotFoundError):
        continue
    lines = text.split('\n')
    for n, line in enumerate(lines, 1):
        if re.search(r'\bDESIGN\b', line):
            print(f'{f}:{n}: cites DESIGN, which the repository does not carry: cite a README section')
            bad += 1
    # Joined, each line without its comment leader and with its white space folded, so a
    # citation broken over a comment's lines is read whole; a match is told by its first line.
    flat, starts = '', []
    for n, line in enumerate(lines, 1):
        starts.append((len(flat), n))
        flat += re.sub(r'\s+', ' ', lead.sub('', line) + ' ')
    for m in cite.finditer(flat):
        name = re.sub(r'\s+', ' ', m.group(1)).strip()
        if not known(name):
            at = max(n for p, n in starts if p <= m.start())
            print(f'{f}:{at}: README section "{name}" is no heading of README.md')
            bad += 1
sys.exit(1 if bad else 0)
PY
