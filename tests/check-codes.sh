#!/usr/bin/env bash
# The replies' codes (docs/control.md "Reply codes"): the documentation's table is the one
# `annabella codes` makes (tools/gen-codes-doc.py), the page's words for every code in de, en,
# sv and nl against the table and the documentation (tests/codes/words.js, with node), and a
# real daemon's replies on its socket against the table, each text the wording of its code and
# arguments (tests/codes/replies.py).
set -u
build=$(cd "${1:-build}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
begin codes
rc=0
"$build/annabella" codes >"$work/codes.jsonl" || give_up "annabella codes failed"
if python3 "$here/../tools/gen-codes-doc.py" --check "$here/../docs/control.md" <"$work/codes.jsonl"; then
	echo "codes: docs/control.md's table is annabella codes' table"
else
	rc=1
fi
node "$here/codes/words.js" "$work/codes.jsonl" "$here/../web/codes.js" "$here/../docs/control.md" || rc=1
/usr/bin/python3 "$here/codes/replies.py" "$build" || rc=1
exit $rc
