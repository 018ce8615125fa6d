"""The state directory's record as the tests read it: through the product's own reader,
`annabella journal --json` (cli/cli_journal.c: the journal's reader and the game's decoder,
game.pgn as recovery salvages it), never a parse of our own, so a change of the journal's
format changes what every test sees, or breaks it loudly.

    import record
    rec = record.read(BUILD, STATE_DIR_OR_JOURNAL)
    record.moves(rec)       # {ply (0-based): san} of the journal's made and relayed records
    record.readings(rec)    # {ply: clk_ms (-1: completed without one)} of its complete records
    record.sheet(rec)       # [(san or "", clk_ms or -1)] of game.pgn as far as it can be read

Only the Python standard library is used.
"""
import json
import os
import subprocess


def read(build, path):
    """The tool's JSON for a state directory or a journal file; it exits 2 (an error here)
    when there is nothing to read, as for a state directory that does not exist."""
    p = subprocess.run([os.path.join(build, "annabella"), "journal", "--json", path],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode != 0:
        raise RuntimeError("annabella journal %s: exit %d: %s" % (
            path, p.returncode, p.stderr.decode("utf-8", "replace").strip()))
    return json.loads(p.stdout.decode("utf-8", "surrogateescape"))


def records(rec, *types):
    return [r for r in rec["records"] if not types or r["type"] in types]


def moves(rec):
    out = {}
    for r in records(rec, "made", "relayed"):
        if r.get("decoded"):
            out[r["ply"] - 1] = r["san"]
    return out


def readings(rec):
    out = {}
    for r in records(rec, "complete"):
        if r.get("decoded"):
            out[r["ply"] - 1] = r["clk_ms"]
    return out


def sheet(rec):
    s = rec.get("scoresheet")
    if not s:
        return []
    return [(p["san"], p["clk_ms"]) for p in s["plies"]]
