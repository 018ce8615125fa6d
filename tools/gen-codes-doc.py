#!/usr/bin/env python3
"""The table of reply codes in docs/control.md "Reply codes", made from the code's own table
(`annabella codes`, game/replies.c), so the two cannot drift.

Usage: annabella codes | tools/gen-codes-doc.py DOC          (rewrites DOC's table)
       annabella codes | tools/gen-codes-doc.py --check DOC  (exit 1 when DOC's table differs)
The table stands between the marker lines BEGIN and END below; the rest of DOC is left alone.
"""
import json
import sys

BEGIN = '<!-- reply codes: made by tools/gen-codes-doc.py from `annabella codes`; do not edit -->'
END = '<!-- end of the reply codes -->'


def cell(text):
    return text.replace('|', '\\|')


def table(rows):
    out = [BEGIN, '', '| Code | Reply | Arguments | English wording |', '| --- | --- | --- | --- |']
    for r in rows:
        args = ' '.join(f'[{a}]' if a in r['optional'] else a for a in r['args']) or '-'
        out.append(f"| `{r['code']}` | {'ok' if r['ok'] else 'error'} | {cell(args)} | {cell(r['wording']) if r['wording'] is not None else '(data reply: no text)'} |")
    return out + ['', END]


def main(argv):
    check = argv[1:2] == ['--check']
    if len(argv) != (3 if check else 2):
        sys.stderr.write(__doc__)
        return 2
    path = argv[-1]
    rows = [json.loads(line) for line in sys.stdin if line.strip()]
    if not rows:
        sys.stderr.write('gen-codes-doc: no codes on standard input\n')
        return 2
    lines = open(path, encoding='utf-8').read().split('\n')
    try:
        a, b = lines.index(BEGIN), lines.index(END)
    except ValueError:
        sys.stderr.write(f'gen-codes-doc: {path} has no line {BEGIN!r} and {END!r}\n')
        return 2
    new = lines[:a] + table(rows) + lines[b + 1:]
    if check:
        if new != lines:
            sys.stderr.write(f'gen-codes-doc: {path}: the reply codes differ from `annabella codes`: '
                             'run make codes-doc\n')
            return 1
        return 0
    open(path, 'w', encoding='utf-8').write('\n'.join(new))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
