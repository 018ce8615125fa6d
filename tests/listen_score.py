#!/usr/bin/env python3
"""The listening bench's score (tests/bench-listen.sh): PocketSphinx's hypotheses against
what was said.  Moves heard right (every word), their pieces heard right (the first word:
the piece, or castling's kind), the word error rate over the moves, and prompts heard right.
Prints "bench NAME VALUE UNIT" lines for VOICE.
  listen_score.py VOICE refs.txt hyp"""
import re
import sys


def edits(a, b):
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        prev, row[0] = row[0], i
        for j, y in enumerate(b, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (x != y))
    return row[len(b)]


def main():
    voice, refs_path, hyp_path = sys.argv[1:4]
    refs = {}
    with open(refs_path, encoding="utf-8") as f:
        for line in f:
            key, _, words = line.rstrip("\n").partition("\t")
            refs[key] = words.split()
    hyps = {}
    with open(hyp_path, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"^(.*)\((\S+)(?: -?\d+)?\)\s*$", line)
            if m:
                hyps[m.group(2)] = m.group(1).split()
    moves = [k for k in refs if not k.startswith("prompt-")]
    prompts = [k for k in refs if k.startswith("prompt-")]
    if not moves or not prompts:
        print(f"listen_score: {voice}: nothing to score", file=sys.stderr)
        return 1
    right = sum(hyps.get(k) == refs[k] for k in moves)
    pieces = sum(hyps.get(k, [""])[:1] == refs[k][:1] for k in moves)
    errors = sum(edits(refs[k], hyps.get(k, [])) for k in moves)
    words = sum(len(refs[k]) for k in moves)
    prompts_right = sum(hyps.get(k) == refs[k] for k in prompts)
    name = voice.replace("-", "_")
    print(f"bench listen_{name}_moves_right {right} of_{len(moves)}")
    print(f"bench listen_{name}_pieces_right {100.0 * pieces / len(moves):.1f} %")
    print(f"bench listen_{name}_word_error_rate {errors / words:.3f} ratio")
    print(f"bench listen_{name}_prompts_right {prompts_right} of_{len(prompts)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
