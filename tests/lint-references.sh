#!/usr/bin/env bash
# make lint's reference check: every reference a reader meets in the repository can be
# followed with the repository alone.
# - A section cited as FILE.md "NAME" (docs/control.md "Control interface", tests/README.md
#   "NAME"), or as README "NAME" (also README's "NAME" and README, "NAME") for README.md, must
#   be a heading of that file (NAME, or NAME followed by a parenthesis as in `The clock display
#   (`[display]`)`); a comment's line break inside the quotes is allowed. A cited file that the
#   repository does not carry is refused.
# - A Markdown link in README.md, docs/ or tests/README.md to a file of the repository must
#   reach a file that is there, and its #anchor a heading of it.
# - No file cites a document the repository does not carry: DESIGN, the Laws' translations
#   under seeds/, or an issue by its number.
# Run from the top of a tree; with FILE arguments only those files are checked (against that
# tree's documents).
set -u
[ -f README.md ] || { echo "lint-references: no README.md here" >&2; exit 2; }
if [ $# -gt 0 ]; then
	files=("$@")
else
	# This check and its test name the words themselves.
	mapfile -t files < <(git ls-files -co --exclude-standard -- ':!*.png' \
		':!*.wav' ':!*.ogg' ':!*.gz' ':!tests/lint-references.sh' \
		':!tests/check-lint-references.sh' 2>/dev/null)
fi
python3 - "${files[@]}" <<'PY'
import os, re, sys

def headings(path):
    out, fence = [], False
    try:
        lines = open(path, encoding='utf-8').read().split('\n')
    except (OSError, UnicodeDecodeError):
        return None
    for line in lines:
        if line.startswith('```'):
            fence = not fence
        elif not fence:
            m = re.match(r'#{1,6} (.*\S)', line)
            if m:
                out.append(m.group(1))
    return out

cache = {}
def heads(path):
    if path not in cache:
        cache[path] = headings(path) if os.path.isfile(path) else None
    return cache[path]

def known(path, name):
    return any(h == name or h.startswith(name + ' (') for h in heads(path))

def anchor(h):
    return re.sub(r'[^\w\- ]', '', h.strip().lower()).replace(' ', '-')

bad = 0
def refuse(f, n, msg):
    global bad
    print(f'{f}:{n}: {msg}')
    bad += 1

lead = re.compile(r'^\s*(?:/\*+|\*+/?|#+|//+|;+|--)?\s?')
cite = re.compile(r'(?:README(?:\'s)?(?:,)?|((?:[\w.-]+/)*[\w.-]+\.md))\s+(?:section\s+)?"([^"]{1,120})"')
foreign = [
    (re.compile(r'\bDESIGN\b'), 'cites DESIGN, which the repository does not carry: cite a section of README.md or docs/'),
    (re.compile(r'(?<![\w/])seeds/'), 'cites seeds/, which the repository does not carry: name the edition and article'),
    (re.compile(r'\b[Ii]ssue \d+\b'), 'cites an issue by its number, which the repository does not carry: say what it is'),
]
common = {'the', 'this', 'that', 'an', 'a', 'in', 'see', 'of', 'by', 'for', 'from', 'and', 'or',
          'to', 'as', 'our', 'its', 'same', 'one'}
link = re.compile(r'\]\(([^)\s]+)\)')
docs = re.compile(r'^(README\.md|docs/[^/]+\.md|tests/README\.md)$')
for f in sys.argv[1:]:
    try:
        text = open(f, encoding='utf-8').read()
    except (UnicodeDecodeError, IsADirectoryError, FileNotFoundError):
        continue
    lines = text.split('\n')
    for n, line in enumerate(lines, 1):
        for pat, msg in foreign:
            for m in pat.finditer(line):
                # Another project's issue, named with it ("systemd issue 31219"), can be followed.
                before = re.findall(r'([\w.-]+)\s+$', line[:m.start()])
                if 'issue' in msg and before and before[-1].lower() not in common:
                    continue
                refuse(f, n, msg)
    # Joined, each line without its comment leader and with its white space folded, so a
    # citation broken over a comment's lines is read whole; a match is told by its first line.
    flat, starts = '', []
    for n, line in enumerate(lines, 1):
        starts.append((len(flat), n))
        flat += re.sub(r'\s+', ' ', lead.sub('', line) + ' ')
    for m in cite.finditer(flat):
        at = max(n for p, n in starts if p <= m.start())
        path = m.group(1) or 'README.md'
        name = re.sub(r'\s+', ' ', m.group(2)).strip()
        if heads(path) is None:
            refuse(f, at, f'{path} "{name}": the repository has no {path}')
        elif not known(path, name):
            refuse(f, at, f'{path} section "{name}" is no heading of {path}')
    if docs.match(f):
        for n, line in enumerate(lines, 1):
            for m in link.finditer(line):
                target = m.group(1)
                if re.match(r'[a-z]+:', target):
                    continue
                path, _, frag = target.partition('#')
                path = os.path.normpath(os.path.join(os.path.dirname(f), path)) if path else f
                if not os.path.exists(path):
                    refuse(f, n, f'link to {target}: no such file')
                elif frag and path.endswith('.md') and frag not in {anchor(h) for h in heads(path)}:
                    refuse(f, n, f'link to {target}: no such heading in {path}')
sys.exit(1 if bad else 0)
PY
