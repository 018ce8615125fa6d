#!/usr/bin/env python3
"""Checks a paged BRF scoresheet: pages of LINES lines (CR LF each) with a form feed between
them, no line over CELLS cells, each page's braille number ("#A" for 1, UEB numeric
indicator and letters a-j) alone at the right margin of its last (bottom) or first (top)
line, every move number of the sheet once and in order, and a move pair's wrapped line on
the same page as its number.  Prints what is wrong and exits 1."""
import re
import sys

path, lines_per_page, cells, where = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
data = open(path, "rb").read().decode("ascii")
pages = data.split("\f")
digits = "JABCDEFGHI"  # 0 1 2 ... 9 as letters after the numeric indicator
lower = {"0": "0", "1": "1", "2": "2", "3": "3", "4": "4", "5": "5", "6": "6", "7": "7",
         "8": "8", "9": "9"}
# BRF lower-cell digits: 1 '1', 2 '2', 3 '3', 4 '4', 5 '5', 6 '6', 7 '7', 8 '8', 9 '9', 0 '0'
numbers = []
for k, page in enumerate(pages, 1):
    if not page.endswith("\r\n"):
        sys.exit(f"page {k} does not end with CR LF")
    rows = page[:-2].split("\r\n")
    if where == "bottom" and len(rows) != lines_per_page:
        sys.exit(f"page {k} has {len(rows)} lines, not {lines_per_page}")
    if len(rows) > lines_per_page:
        sys.exit(f"page {k} has {len(rows)} lines, more than {lines_per_page}")
    for r in rows:
        if len(r) > cells:
            sys.exit(f"page {k}: a line of {len(r)} cells")
    want = "#" + "".join(digits[int(d)] for d in str(k))
    number_row = rows[-1] if where == "bottom" else rows[0]
    if number_row != " " * (cells - len(want)) + want:
        sys.exit(f"page {k}: number line {number_row!r}, want {want!r} at the right margin")
    body = rows[:-1] if where == "bottom" else rows[1:]
    if body and body[0] == "":
        sys.exit(f"page {k} opens with a blank line")
    for i, r in enumerate(body):
        m = re.match(r"^([0-9]+) ", r)
        if m:
            numbers.append(int(m.group(1)))
        elif r and numbers and not r.startswith((",", "#", ";", "0-", "1-", "1/")) and i == 0:
            sys.exit(f"page {k} opens with the rest of move pair {numbers[-1]}: {r!r}")
if numbers != list(range(numbers[0], numbers[0] + len(numbers))) if numbers else False:
    sys.exit(f"move numbers out of order or missing: {numbers}")
print(f"{len(pages)} pages, moves {numbers[0]}-{numbers[-1]}")
