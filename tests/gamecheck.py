#!/usr/bin/env python3
"""Independent checks of a daemon run against the game it was given.

    gamecheck.py check SCRIPT ORIGINAL_UCI STATE_DIR OUR_UCI
        The moves of game.pgn (OUR_UCI, from pgn-extract) equal the original's; every move
        has a public announcement with its Appendix D words; with a clock, every [%clk]
        equals the time computed here, independently, from the script's presses.
    gamecheck.py squeeze SCRIPT FACTOR MIN_MS OUT
        The same script with every wait divided by FACTOR (at least MIN_MS): a player who
        moves fast, with no still moment between one move and the next.
    gamecheck.py split SCRIPT K WAIT OUT1 OUT2 [BYTES|unsynced]
        Cut a board script at action K: OUT1 is the first K actions and a crash WAIT ms
        later, OUT2 the header, the pegs as they stand at the crash (`setup`) and the rest.
        With BYTES the power goes once BYTES are written after action K-1 (in the middle
        of a journal record or a scoresheet's write), or at the crash if that comes first;
        with `unsynced` the journal also loses what was not yet synced (a real power cut).

Only the Python standard library is used.
"""
import re
import sys

FILES = ["Anna", "Bella", "Cesar", "David", "Eva", "Felix", "Gustav", "Hector"]
RANKS = ["eins", "zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht"]
PIECES = {"N": "Springer", "B": "Läufer", "R": "Turm", "Q": "Dame", "K": "König"}
PROMO = {"q": "Dame", "r": "Turm", "b": "Läufer", "n": "Springer"}
START_OCC = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"


def read_script(path):
    header, actions = [], []
    t = 0
    for raw in open(path, encoding="utf-8"):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        m = re.match(r"^\+(\d+)\s+(.*)$", line)
        wait = 0
        if m:
            wait = int(m.group(1))
            line = m.group(2)
        words = line.split()
        if words[0] in ("player", "time-control", "setup") and not actions:
            header.append(line)
            continue
        t += wait
        actions.append((t, wait, words))
    return header, actions


def header_value(header, key, default=None):
    for h in header:
        if h.split()[0] == key:
            return h.split(None, 1)[1]
    return default


def parse_tc(text):
    if text is None or text == "-":
        return []
    periods = []
    for part in text.split(":"):
        m = re.match(r"^(?:(\d+)/)?(\d+)(?:([+db])(\d+))?$", part)
        if not m:
            raise ValueError("bad time control " + text)
        moves = int(m.group(1) or 0)
        mode = {None: "plain", "+": "fischer", "d": "delay", "b": "bronstein"}[m.group(3)]
        periods.append((moves, int(m.group(2)) * 1000, mode, int(m.group(4) or 0) * 1000))
    return periods


def expected_clocks(header, actions, player_default):
    """The mover's remaining ms right after each completing press, in order."""
    periods = parse_tc(header_value(header, "time-control"))
    if not periods:
        return None
    player = 0 if header_value(header, "player", player_default) == "white" else 1
    rem = [periods[0][1], periods[0][1]]
    per = [0, 0]
    inper = [0, 0]
    running = None
    since = 0
    used_before = 0
    paused = False
    out = []
    for t, _, words in actions:
        if words[0] != "press":
            continue
        button = words[1]
        if button == "pause":
            if running is None:
                continue
            if not paused:
                used_before += t - since
                paused = True
            else:
                since = t
                paused = False
            continue
        if button not in ("player-clock", "opponent-clock") or paused:
            continue
        color = player if button == "player-clock" else 1 - player
        if running is None:
            if color == 1:
                running, since, used_before = 0, t, 0
            continue
        if color != running:
            continue
        used = used_before + t - since
        moves, base, mode, extra = periods[per[color]]
        if mode == "delay":
            rem[color] -= max(0, used - extra)
        else:
            rem[color] -= used
            if mode == "fischer":
                rem[color] += extra
            elif mode == "bronstein":
                rem[color] += min(used, extra)
        inper[color] += 1
        if moves and inper[color] == moves:
            inper[color] = 0
            if per[color] + 1 < len(periods):
                per[color] += 1
            # Art. 6.3.2: time saved is not carried over after a delay period.
            if mode in ("delay", "bronstein"):
                rem[color] = periods[per[color]][1]
            else:
                rem[color] += periods[per[color]][1]
        out.append(rem[color])
        running, since, used_before = 1 - color, t, 0
    return out


def hms(ms):
    s = max(0, ms) // 1000
    return "%d:%02d:%02d" % (s // 3600, s // 60 % 60, s % 60)


def pgn_clocks(path):
    return re.findall(r"\[%clk\s+(\d+:\d\d:\d\d)\]", movetext(path))


def uci_moves(path):
    moves = []
    for line in open(path, encoding="utf-8"):
        for tok in line.split():
            if re.match(r"^[a-h][1-8][a-h][1-8][qrbnQRBN]?$", tok):
                moves.append(tok.lower())
    return moves


def words_ok(uci, san, text):
    """The Appendix D words a move's announcement must contain."""
    if san.startswith("O-O-O"):
        return "Lange Rochade" in text
    if san.startswith("O-O"):
        return "Kurze Rochade" in text
    to = FILES[ord(uci[2]) - 97] + " " + RANKS[int(uci[3]) - 1]
    piece = PIECES.get(san[0], "Bauer")
    if to not in text or not text.startswith(piece):
        return False
    if len(uci) == 5 and PROMO[uci[4]] not in text.split(",")[-1]:
        return False
    if "x" in san and "schlägt" not in text:
        return False
    return True


def movetext(path):
    """The movetext of the first game: what follows the tag section."""
    text = open(path, encoding="utf-8").read()
    return text.split("\n\n", 1)[1] if "\n\n" in text else text


def san_moves(path):
    body = movetext(path)
    body = re.sub(r"\{[^}]*\}", " ", body)
    out = []
    for tok in body.split():
        if re.match(r"^\d+\.+$", tok) or tok in ("1-0", "0-1", "1/2-1/2", "*"):
            continue
        tok = re.sub(r"^\d+\.+", "", tok)
        if tok:
            out.append(tok)
    return out


def check(script, original_uci, state, our_uci):
    errors = []
    want = uci_moves(original_uci)
    got = uci_moves(our_uci)
    if want != got:
        n = next((i for i in range(min(len(want), len(got))) if want[i] != got[i]),
                 min(len(want), len(got)))
        errors.append("moves differ at ply %d: expected %s, got %s (%d vs %d plies)" %
                      (n + 1, want[n:n + 3], got[n:n + 3], len(want), len(got)))
    sans = san_moves(state + "/game.pgn")
    public = []
    for line in open(state + "/speech.log", encoding="utf-8"):
        parts = line.rstrip("\n").split(" ", 2)
        if len(parts) == 3 and parts[1] == "public":
            public.append(parts[2])
    announced = [p for p in public if re.match(r"^(König|Dame|Turm|Läufer|Springer|Bauer|Kurze|Lange) ", p)]
    if len(announced) != len(got):
        errors.append("%d move announcements for %d moves" % (len(announced), len(got)))
    for i, (uci, san, text) in enumerate(zip(got, sans, announced)):
        if not words_ok(uci, san, text):
            errors.append("ply %d %s announced as '%s'" % (i + 1, san, text))
            break
    header, actions = read_script(script)
    clocks = expected_clocks(header, actions, "white")
    if clocks is not None:
        have = pgn_clocks(state + "/game.pgn")
        expect = [hms(c) for c in clocks[:len(got)]]
        if have != expect:
            n = next((i for i in range(min(len(have), len(expect))) if have[i] != expect[i]),
                     min(len(have), len(expect)))
            errors.append("[%%clk] differs at ply %d: expected %s, got %s (%d vs %d)" %
                          (n + 1, expect[n:n + 2], have[n:n + 2], len(expect), len(have)))
    for e in errors:
        print("gamecheck: " + e)
    return 1 if errors else 0


def occupancy_placement(occ):
    rows = []
    for rank in range(7, -1, -1):
        row, empty = "", 0
        for f in range(8):
            if occ[rank * 8 + f]:
                if empty:
                    row += str(empty)
                    empty = 0
                row += "P"
            else:
                empty += 1
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows)


def split(script, k, wait, out1, out2, crash_bytes=None):
    unsynced = crash_bytes == "unsynced"
    if unsynced:
        crash_bytes = None
    """The script cut at action k by a power cut `wait` ms after it; with crash_bytes, the
    power goes instead once that many bytes are written after action k-1 (in the writes
    that action k-1 causes, or at the cut)."""
    header, actions = read_script(script)
    k = int(k)
    setup = header_value(header, "setup")
    placement = (setup.split()[0] if setup else START_OCC)
    occ = []
    for row in reversed(placement.split("/")):
        for c in row:
            occ.extend([False] * int(c) if c.isdigit() else [True])
    for _, _, words in actions[:k]:
        if words[0] in ("lift", "place"):
            sq = (ord(words[1][0]) - 97) + 8 * (int(words[1][1]) - 1)
            occ[sq] = words[0] == "place"
    # The power goes before the next action, so the board's timeline up to the cut is the
    # script's own (a piece resting longer on a hole would be a move made there); the rest
    # keeps its timing after the restart.
    rest = [list(a) for a in actions[k:]]
    wait = int(wait)
    if rest:
        wait = wait % max(rest[0][1], 1)
        rest[0][1] -= wait
    with open(out1, "w", encoding="utf-8") as f:
        f.write("\n".join(header) + "\n")
        for i, (_, w, words) in enumerate(actions[:k]):
            if crash_bytes is not None and i == k - 1:
                f.write("+%d crash after %d\n" % (w, int(crash_bytes)))
                w = 0
            f.write("+%d %s\n" % (w, " ".join(words)))
        f.write("+%d crash%s\n" % (wait, " unsynced" if unsynced else ""))
    with open(out2, "w", encoding="utf-8") as f:
        for h in header:
            if h.split()[0] != "setup":
                f.write(h + "\n")
        f.write("setup %s w - - 0 1\n" % occupancy_placement(occ))
        for _, w, words in rest:
            f.write("+%d %s\n" % (w, " ".join(words)))
    return 0


def squeeze(script, factor, min_ms, out):
    header, actions = read_script(script)
    with open(out, "w", encoding="utf-8") as f:
        f.write("\n".join(header) + "\n")
        for _, w, words in actions:
            f.write("+%d %s\n" % (max(int(min_ms), int(w / float(factor))), " ".join(words)))
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 6 and sys.argv[1] == "check":
        sys.exit(check(*sys.argv[2:]))
    if len(sys.argv) == 6 and sys.argv[1] == "squeeze":
        sys.exit(squeeze(*sys.argv[2:]))
    if len(sys.argv) in (7, 8) and sys.argv[1] == "split":
        sys.exit(split(*sys.argv[2:]))
    print(__doc__)
    sys.exit(2)
