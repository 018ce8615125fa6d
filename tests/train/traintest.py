#!/usr/bin/python3
"""Training and study with the real Debian Stockfish (tests/check-train.sh BUILD).

A real annabellad runs in real time on a live board script (a named pipe: the test writes
each lift, place and press when it decides to).  `annabella train` plays Black with Stockfish
at level 0; the test plays White with a second Stockfish at full strength, making its moves
on the simulated board, and makes each of the engine's moves by following the device's
guidance alone: the square it names is emptied or filled, until it names no more.

Checked: a whole game to its result; a hint from the button menu, said privately in
Appendix D words; a takeback with its guided set-up; an engine killed in the middle of a
game, and one that answers nonsense, each said privately, the game as it was, `train` out
with status 1; a missing and a hanging engine; tournament mode refusing all of it (`--wait`
too, in words); a review of the game from games/ and of a PGN file with variations and
comments, followed on the board; a PGN that does not parse refused with its file and line.
A rating below the engine's range said and recorded as set; `train` stopped by a signal
mid-game (the game goes on, its clocks stand); `train --wait` waiting again by itself after
its engine failed, the clocks stopped meanwhile and running again when it is back; a game
begun from a FEN, guided onto the board, the engine's promotion with a capture guided with
its queen, the evaluation in words, a draw offer declined and one accepted.
"""
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import checklib  # noqa: E402
from checklib import check  # noqa: E402

BUILD = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "build")
ANNABELLA = os.path.join(BUILD, "annabella")
DAEMON = os.path.join(BUILD, "annabellad")
STOCKFISH = os.environ.get("STOCKFISH", "/usr/games/stockfish")

FILES = ["Anna", "Bella", "Cesar", "David", "Eva", "Felix", "Gustav", "Hector"]
RANKS = ["eins", "zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht"]
SQUARE = re.compile(r"(%s) (%s)" % ("|".join(FILES), "|".join(RANKS)))


NUMBER = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]


def square_of(words):
    m = SQUARE.search(words)
    return "abcdefgh"[FILES.index(m.group(1))] + str(RANKS.index(m.group(2)) + 1)


def spawn(what, args, **kw):
    """A process stopped at the end (checklib.spawn under a key of its own)."""
    return checklib.spawn(f"{what}-{len(checklib.procs)}", args, **kw)


class Engine:
    """The test's own player: Stockfish at full strength."""

    def __init__(self, movetime=50):
        self.p = spawn("stockfish", [STOCKFISH], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                       text=True, bufsize=1)
        self.movetime = movetime
        self.send("uci")
        self.wait_for("uciok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait_for(self, word):
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("the test's Stockfish stopped")
            if line.startswith(word):
                return line

    def best(self, fen, moves):
        pos = "startpos" if fen is None else "fen " + fen
        self.send(f"position {pos}" + (" moves " + " ".join(moves) if moves else ""))
        self.send(f"go movetime {self.movetime}")
        return self.wait_for("bestmove").split()[1]

    def close(self):
        self.send("quit")
        self.p.wait()


class Device:
    """An annabellad on a live board script, its socket, and a watch of every event."""

    def __init__(self, name, mode="casual", player="white", tc="600+0", extra="", env=None,
                 audio="none"):
        self.dir = os.path.join(checklib.work, name)
        os.makedirs(self.dir)
        self.sock = os.path.join(self.dir, "control")
        self.fifo = os.path.join(self.dir, "board")
        os.mkfifo(self.fifo)
        conf = os.path.join(self.dir, "annabella.conf")
        with open(conf, "w") as f:
            f.write(f"[control]\nsocket = {self.sock}\n[game]\nmode = {mode}\n"
                    f"[voice]\nlanguage = en\nrecord = no\n{extra}")
        self.log = open(os.path.join(self.dir, "daemon.out"), "w")
        self.p = spawn("annabellad", [DAEMON, "--config", conf, "--board", "sim:" + self.fifo,
                                      "--time", "real", "--audio", audio, "--state",
                                      os.path.join(self.dir, "state")],
                       stdout=self.log, stderr=subprocess.STDOUT,
                       env=dict(os.environ, **(env or {})))
        self.board = open(self.fifo, "w", buffering=1)
        # A blank line ends the live script's header: the daemon starts.
        self.board.write(f"player {player}\ntime-control {tc}\n\n")
        self.events = []
        self.cond = threading.Condition()
        # The pegs in their holes, as the test put them (the start position first).
        self.pegs = {f + r for f in "abcdefgh" for r in "1278"}
        checklib.wait_path(self.sock, 5)
        self.watch = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.watch.connect(self.sock)
        self.watch.sendall(b"watch\n")
        threading.Thread(target=self._read, args=(self.watch, self.events), daemon=True).start()
        # What the page and the broadcast may see: `watch public`.
        self.public_events = []
        self.public = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.public.connect(self.sock)
        self.public.sendall(b"watch public\n")
        threading.Thread(target=self._read, args=(self.public, self.public_events),
                         daemon=True).start()

    def _read(self, sock, into):
        buf = b""
        while True:
            try:
                data = sock.recv(65536)
            except OSError:
                return
            if not data:
                return
            buf += data
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                try:
                    ev = json.loads(line)
                except ValueError:
                    continue
                with self.cond:
                    into.append(ev)
                    self.cond.notify_all()

    def mark(self):
        with self.cond:
            return len(self.events)

    def wait(self, pred, since, timeout=10.0):
        """The first event from index `since` on that pred accepts, or None."""
        end = time.monotonic() + timeout
        with self.cond:
            while True:
                for i in range(since, len(self.events)):
                    if pred(self.events[i]):
                        return self.events[i]
                left = end - time.monotonic()
                if left <= 0:
                    return None
                self.cond.wait(left)

    def said(self, since, text, timeout=10.0):
        return self.wait(lambda e: e.get("event") == "say" and text in e.get("text", ""),
                         since, timeout)

    def act(self, *lines):
        for line in lines:
            words = line.split()
            if len(words) == 3 and words[1] == "lift":
                self.pegs.discard(words[2])
            elif len(words) == 3 and words[1] == "place":
                self.pegs.add(words[2])
            self.board.write(line + "\n")

    def control(self, *words):
        r = subprocess.run([ANNABELLA, "control", "--socket", self.sock, *words],
                           capture_output=True, text=True, timeout=30)
        try:
            return json.loads(r.stdout.strip().splitlines()[-1])
        except (ValueError, IndexError):
            return {"ok": False, "error": r.stdout + r.stderr}

    def status(self):
        return self.control("status")

    def follow_guidance(self, since, done_text=None, timeout=15.0):
        """Make the board what the device asks: each square it names is emptied or filled,
        until it names no more (or says done_text).  The number of squares done."""
        at, n = since, 0
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            ev = self.wait(lambda e: e.get("event") == "say" and e.get("channel") == "private"
                           and ("should be" in e["text"] or (done_text and done_text in e["text"])),
                           at, 0.4)
            if ev is None:
                return n
            at = self.events.index(ev) + 1
            if done_text and done_text in ev["text"]:
                return n
            sq = square_of(ev["text"])
            if "should be empty" in ev["text"]:
                self.act("+100 lift " + sq)
            elif sq in self.pegs:
                # Another piece under the peg (a capture's new piece): changed.
                self.act("+100 lift " + sq, "+100 place " + sq)
            else:
                self.act("+100 place " + sq)
            n += 1
            # Its confirmation (with the next square, if any, at the same moment).
            if not self.said(at, ev["text"].split(" should")[0] + " is right", 5):
                if os.environ.get("TRAIN_DEBUG"):
                    print("no confirmation of", ev["text"], "in",
                          [e.get("text") for e in self.events[at:] if e.get("event") == "say"])
                return -1
        return -1

    def stop(self):
        try:
            self.board.close()
        except OSError:
            pass
        checklib.stop(self.p, timeout=10)
        self.log.close()


def train(dev, *args, engine=STOCKFISH, env=None):
    out = open(os.path.join(dev.dir, "train.out"), "w")
    p = spawn("train", [ANNABELLA, "train", "--socket", dev.sock, "--engine", engine, *args],
              stdout=out, stderr=subprocess.STDOUT, env=dict(os.environ, **(env or {})))
    return p, out.name


def board_actions(fen_pos, move):
    """The lifts and placings of a UCI move of the tactile player, given who stands where."""
    frm, to = move[:2], move[2:4]
    acts = []
    piece = fen_pos.get(frm, "")
    if to in fen_pos:
        acts.append(f"+150 lift {to}")  # the captured piece off first
    elif piece.lower() == "p" and frm[0] != to[0]:
        acts.append(f"+150 lift {to[0]}{frm[1]}")  # en passant
    acts += [f"+150 lift {frm}", f"+150 place {to}"]
    if piece.lower() == "k" and abs(ord(frm[0]) - ord(to[0])) == 2:
        rank = frm[1]
        rook_from, rook_to = ("h", "f") if to[0] == "g" else ("a", "d")
        acts += [f"+150 lift {rook_from}{rank}", f"+150 place {rook_to}{rank}"]
    if len(move) == 5:
        acts.append("+300 press select")  # Dame: the first press
    return acts


def squares_of(fen):
    """Square -> piece letter of a FEN's placement."""
    out = {}
    rows = fen.split()[0].split("/")
    for r, row in enumerate(rows):
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            else:
                out["abcdefgh"[f] + str(8 - r)] = ch
                f += 1
    return out


def uci_moves(dev):
    return [m["uci"] for m in dev.control("moves").get("moves", [])]


def start_clock(dev):
    dev.act("+200 press opponent-clock")  # Black's press starts White's clock (as Black's would)


def player_move(dev, me, st):
    fen = st["start_fen"]
    move = me.best(None if fen.startswith("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w") else fen,
                   uci_moves(dev))
    dev.act(*board_actions(squares_of(st["fen"]), move), "+250 press player-clock")
    return move


def engine_reply(dev, since, ply):
    """The engine's move (relayed, ply `ply`), made on the board by following the guidance."""
    ev = dev.wait(lambda e: e.get("event") in ("relayed", "result") and
                  (e.get("event") == "result" or e.get("ply") == ply), since, 15)
    if ev is None or ev["event"] == "result":
        return ev
    return ev if dev.follow_guidance(dev.events.index(ev)) >= 1 else None


def game_against_level_0():
    dev = Device("game")
    me = Engine(movetime=50)
    p, out = train(dev, "--level", "0", "--movetime", "100")
    check("train says it plays", dev.said(0, "the computer plays Black") is not None,
          open(out).read())
    start_clock(dev)
    hinted = taken_back = False
    result = None
    for _ in range(300):
        st = dev.status()
        if st.get("result", {}).get("state") != "on":
            result = st["result"]
            break
        plies = st["plies"]
        mark = dev.mark()
        if plies == 4 and not hinted:
            # The hint from the button menu: its first item on the player's move.
            dev.act("+300 hold select 1200", "+1600 press repeat")
            ev = dev.said(mark, "Hint: ", 10)
            check("a hint from the menu, said privately in Appendix D words",
                  ev is not None and ev["channel"] == "private" and
                  SQUARE.search(ev["text"]) is not None,
                  str([e for e in dev.events[mark:] if e.get("event") == "say"]))
            hinted = True
            mark = dev.mark()
        player_move(dev, me, st)
        ev = engine_reply(dev, mark, plies + 2)
        if ev is None:
            check("the engine's reply made by following the guidance", False,
                  f"ply {plies + 2}: " + open(out).read()[-500:])
            break
        if ev["event"] == "result":
            continue
        if plies == 8 and not taken_back:
            mark = dev.mark()
            r = dev.control("takeback")
            check("takeback", r.get("ok") and "2 plies taken back" in r.get("text", ""), str(r))
            n = dev.follow_guidance(mark, done_text="The position is set up")
            after = dev.status()
            check("takeback guided square by square, clocks restored",
                  n >= 2 and after["plies"] == 10 - 2 and after["clock"]["running"] == "white",
                  f"{n} squares, {after.get('plies')} plies")
            taken_back = True
    time.sleep(1)  # the last press, written before the move that ended the game was seen
    check("a whole game against level 0 to its result",
          result is not None and result.get("result") in ("1-0", "0-1", "1/2-1/2"), str(result))
    check("the hint was asked and the takeback done", hinted and taken_back)
    # The requests to the training process reach its connection alone: not the watch of
    # another connection, not `watch public` (the page, the broadcast); the hint is said in
    # the earphone, never in public.
    asks = ("hint-request", "train-request")
    with dev.cond:
        watched, public = list(dev.events), list(dev.public_events)
    check("no request to the training process at another connection's watch",
          not [e for e in watched if e.get("event") in asks],
          str([e for e in watched if e.get("event") in asks][:3]))
    check("watch public saw the game but no request, hint or earphone words",
          any(e.get("event") == "made" for e in public) and
          not [e for e in public if e.get("event") in asks or
               (e.get("event") == "say" and e.get("channel") != "public")],
          str([e for e in public if e.get("event") in asks or
               (e.get("event") == "say" and e.get("channel") != "public")][:3]))
    # train stays while the result waits (a takeback could bring the game back); approved,
    # the game is over for good and train ends.
    dev.control("approve")
    try:
        rc = p.wait(15)
    except subprocess.TimeoutExpired:
        rc = None
    check("train ends 0 with the game", rc == 0, f"status {rc}: " + open(out).read()[-300:])
    pgn = open(os.path.join(dev.dir, "state", "game.pgn")).read()
    check("the scoresheet names the engine", "Stockfish" in pgn and "taken back" in pgn, pgn[:400])
    me.close()
    return dev


def review_from_games(dev):
    st = dev.status()
    game = st["game"]
    plies = st["plies"]
    mark = dev.mark()
    r = subprocess.run([ANNABELLA, "review", "--socket", dev.sock, game], capture_output=True,
                       text=True, timeout=30)
    check("review GAME-ID", r.returncode == 0 and f"review of {plies} plies" in r.stdout,
          r.stdout + r.stderr)
    n = dev.follow_guidance(mark, done_text="The board is right")
    check("the review's start position set up by its guidance", n > 0 and
          dev.said(mark, "The board is right") is not None, f"{n} squares")
    for i in range(3):
        mark = dev.mark()
        dev.act("+200 press player-clock")
        ev = dev.said(mark, "Move %s, %s:" % (NUMBER[i // 2 + 1], "White" if i % 2 == 0 else "Black"))
        check(f"review step {i + 1} announced", ev is not None,
              str([e.get("text") for e in dev.events[mark:] if e.get("event") == "say"]))
        dev.follow_guidance(mark)
    mark = dev.mark()
    dev.act("+200 press opponent-clock")
    ev = dev.said(mark, "Back: Move two, White:")
    check("review back", ev is not None, str(dev.events[mark:]))
    dev.follow_guidance(mark)
    mark = dev.mark()
    dev.act("+200 press select")
    ev = dev.said(mark, "White to move. Moves in all:")
    check("review where are we", ev is not None and ev["text"].startswith("Move one, Black:"),
          str(ev))
    r = dev.control("review", "end")
    check("review end", r.get("ok"), str(r))


def review_of_a_file(dev):
    pgn = os.path.join(checklib.work, "study.pgn")
    with open(pgn, "w") as f:
        f.write('[Event "Study"]\n[White "A"]\n[Black "B"]\n[Result "*"]\n\n'
                "1. e4 {the king's pawn} e5 (1... c5 2. Nf3 {Sicilian} d6) 2. Nf3 $1 Nc6\n"
                "(2... d6 {Philidor}) 3. Bb5 {Ruy Lopez} a6 *\n")
    mark = dev.mark()
    r = subprocess.run([ANNABELLA, "review", "--socket", dev.sock, pgn], capture_output=True,
                       text=True, timeout=30)
    check("review of a PGN file with variations and comments: its main line",
          r.returncode == 0 and "review of 6 plies" in r.stdout, r.stdout + r.stderr)
    dev.follow_guidance(mark, done_text="The board is right")
    mark = dev.mark()
    dev.control("review", "next")
    ev = dev.said(mark, "Move one, White: Bauer Eva zwei Eva vier. Variations here: one")
    check("a step where a variation branches says so", ev is not None,
          str([e.get("text") for e in dev.events[mark:] if e.get("event") == "say"]))
    check("a move's comment said after it", dev.said(mark, "Comment: the king's pawn") is not None)
    mark = dev.mark()
    r = dev.control("review", "enter")
    ev = dev.said(mark, "Variation: Move one, Black: Bauer Cesar sieben Cesar fünf")
    check("into the variation: its first move", r.get("ok") and ev is not None, str(r))
    mark = dev.mark()
    dev.control("review", "next")
    dev.control("review", "next")
    check("on along the variation, with its comment", dev.said(mark, "Comment: Sicilian") is not None)
    mark = dev.mark()
    r = dev.control("review", "leave")
    check("out of it: where it branched", r.get("ok") and dev.said(mark, "Variation left.") is not None,
          str(r))
    mark = dev.mark()
    dev.control("review", "next")
    ev = dev.said(mark, "Move one, Black: Bauer Eva sieben Eva fünf")
    check("the main line's move after the variation", ev is not None)
    r = dev.control("review", "goto", "3.")
    check("straight to move 3", r.get("ok") and dev.said(mark, "Comment: Ruy Lopez") is not None,
          str(r))
    dev.control("review", "end")
    # The finished games by number: annabella games lists them, annabella review takes one.
    r = subprocess.run([ANNABELLA, "games", "--socket", dev.sock], capture_output=True, text=True,
                       timeout=30)
    check("annabella games lists the finished game with its number",
          r.returncode == 0 and re.search(r"^ +1  .* - .*  [0-9]+ plies  game-0001", r.stdout, re.M),
          r.stdout + r.stderr)
    r = subprocess.run([ANNABELLA, "review", "--socket", dev.sock, "77"], capture_output=True,
                       text=True, timeout=30)
    check("an unknown game: the daemon refuses it, exit 1",
          r.returncode == 1 and "no game" in r.stderr.lower(), f"{r.returncode}: {r.stderr}")
    r = subprocess.run([ANNABELLA, "review", "--socket", dev.sock, checklib.work],
                       capture_output=True, text=True, timeout=30)
    check("a directory: said so, exit 2",
          r.returncode == 2 and "a directory, not a PGN file" in r.stderr,
          f"{r.returncode}: {r.stderr}")
    bad = os.path.join(checklib.work, "bad.pgn")
    with open(bad, "w") as f:
        f.write('[Event "Broken"]\n\n1. e4 e5\n2. Nf3 Nc6\n3. Bb5 Ke3 *\n')
    r = subprocess.run([ANNABELLA, "review", "--socket", dev.sock, bad], capture_output=True,
                       text=True, timeout=30)
    check("a PGN that does not parse is refused with its file and line",
          r.returncode == 2 and re.search(re.escape(bad) + r":5:\d+: ", r.stderr) is not None,
          r.stderr)


def engine_killed():
    dev = Device("killed")
    me = Engine(movetime=30)
    p, out = train(dev, "--level", "0", "--movetime", "100")
    dev.said(0, "the computer plays Black")
    start_clock(dev)
    for ply in (0, 2):
        mark = dev.mark()
        player_move(dev, me, dev.status())
        engine_reply(dev, mark, ply + 2)
    kids = subprocess.run(["pgrep", "-P", str(p.pid)], capture_output=True, text=True).stdout.split()
    check("the engine is train's child", len(kids) == 1, str(kids))
    for k in kids:
        os.kill(int(k), signal.SIGKILL)
    mark = dev.mark()
    player_move(dev, me, dev.status())
    ev = dev.said(mark, "The chess engine stopped: training ended")
    check("an engine killed mid-game is said privately", ev is not None and
          ev["channel"] == "private")
    rc = p.wait(15)
    check("train exits 1 with a clear message", rc == 1 and "annabella train:" in open(out).read(),
          f"{rc}: " + open(out).read())
    st = dev.status()
    check("the game stays as it was", st["plies"] == 5 and st["to_move"] == "black" and
          st["engine"] is None, str(st.get("plies")))
    me.close()
    dev.stop()


def fake_engine(name, on_go):
    path = os.path.join(checklib.work, "engine-" + name)
    with open(path, "w") as f:
        f.write("#!/bin/sh\nwhile read l; do case \"$l\" in\n"
                "uci) echo 'id name Fake'; echo 'option name Skill Level type spin default 20 min 0 max 20'; echo uciok;;\n"
                "isready) echo readyok;;\n"
                f"go*) {on_go};;\n"
                "quit) exit 0;;\nesac; done\n")
    os.chmod(path, 0o755)
    return path


def engine_faults():
    for name, on_go, said in (("nonsense", "echo 'bestmove e2e5'", "gave no valid move"),
                              ("malformed", "echo 'bestmove z9z9'", "gave no valid move"),
                              ("hangs", "sleep 5", "does not answer")):
        dev = Device(name)
        p, out = train(dev, "--movetime", "100", engine=fake_engine(name, on_go))
        dev.said(0, "the computer plays Black")
        start_clock(dev)
        mark = dev.mark()
        dev.act("+200 lift e2", "+150 place e4", "+250 press player-clock")
        ev = dev.said(mark, said, 10)
        check(f"an engine that {name}: said privately", ev is not None and ev["channel"] == "private",
              str(dev.events[mark:])[-400:])
        rc = p.wait(15)
        check(f"an engine that {name}: train exits 1", rc == 1, f"{rc}: " + open(out).read())
        st = dev.status()
        check(f"an engine that {name}: the game stays", st["plies"] == 1 and st["engine"] is None)
        dev.stop()
    dev = Device("missing")
    p, out = train(dev, engine="/nonexistent/stockfish")
    ev = dev.said(0, "No chess engine found")
    rc = p.wait(15)
    check("a missing engine: said, train exits 1", ev is not None and rc == 1, open(out).read())
    dev.stop()


def tournament_refuses():
    dev = Device("tournament", mode="tournament")
    p, out = train(dev, "--level", "0")
    rc = p.wait(30)
    text = open(out).read()
    check("tournament mode: train refused, exit 1", rc == 1 and "tournament mode" in text, text)
    p, out = train(dev, "--level", "0", "--wait")
    rc = p.wait(30)
    text = open(out).read()
    check("tournament mode: train --wait refused in words, no JSON",
          rc == 1 and "not allowed in tournament mode" in text and "{" not in text, text)
    for words in (["engine", "on"], ["hint"], ["takeback"], ["review", "load"]):
        r = dev.control(*words)
        check(f"tournament mode refuses {' '.join(words)}",
              not r.get("ok") and "not allowed in tournament mode" in r.get("error", ""), str(r))
    s = subprocess.run([ANNABELLA, "status", "--socket", dev.sock], capture_output=True, text=True)
    check("annabella status: no engine connected", "Engine: none connected" in s.stdout, s.stdout)
    pgn = os.path.join(dev.dir, "short.pgn")
    with open(pgn, "w") as f:
        f.write('[Event "?"]\n\n1. e4 e5 *\n')
    r = subprocess.run([ANNABELLA, "review", "--socket", dev.sock, pgn], capture_output=True,
                       text=True)
    check("annabella review refused in tournament mode",
          r.returncode == 1 and "tournament mode" in r.stderr, r.stderr)
    dev.stop()


def private_say(dev, since, text, timeout=10.0):
    ev = dev.said(since, text, timeout)
    return ev if ev is not None and ev.get("channel") == "private" else None


def strength_and_signal():
    """--elo below the engine's range: the rating set said and recorded, the one asked said
    held; train stopped by a signal in the middle of a game: the game goes on, its clocks
    stand, and train says so."""
    dev = Device("strength", tc="600+0")
    me = Engine(movetime=30)
    p, out = train(dev, "--elo", "500", "--movetime", "100")
    ev = private_say(dev, 0, "Training: the computer plays Black at Elo", 15)
    check("the strength as set, said privately at the start", ev is not None,
          str([e.get("text") for e in dev.events if e.get("event") == "say"]))
    check("the rating asked held to the engine's range, said",
          private_say(dev, 0, "This engine plays no weaker than Elo") is not None)
    m = None
    for _ in range(100):  # train's output, flushed by then; polled all the same
        m = re.search(r"Elo 500 asked: the engine plays at (\d+)", open(out).read())
        if m:
            break
        time.sleep(0.1)
    check("train says the rating it set", m is not None and int(m.group(1)) > 500,
          open(out).read())
    start_clock(dev)
    mark = dev.mark()
    player_move(dev, me, dev.status())
    check("the engine's reply", engine_reply(dev, mark, 2) is not None)
    pgn = open(os.path.join(dev.dir, "state", "game.pgn")).read()
    check("the scoresheet records the rating set, not the one asked",
          m is not None and f"(Elo {m.group(1)})" in pgn and "Elo 500" not in pgn,
          pgn[:300])
    mark = dev.mark()
    p.send_signal(signal.SIGTERM)
    rc = p.wait(15)
    text = open(out).read()
    check("train stopped by a signal: exit 0, says the game goes on",
          rc == 0 and "stopped by a signal: the game goes on" in text and
          "the game is over" not in text, text)
    check("the player hears the clocks stand and how to go on",
          private_say(dev, mark, "The clocks stand. Press pause") is not None,
          str([e.get("text") for e in dev.events[mark:] if e.get("event") == "say"]))
    st = dev.status()
    check("the game goes on, its clocks stopped",
          st["plies"] == 2 and st["result"]["state"] == "on" and st["clock"]["state"] == "paused",
          str(st.get("clock")))
    me.close()
    dev.stop()


def flaky_engine():
    """An engine that dies at its first search; started again, it is Stockfish."""
    path = os.path.join(checklib.work, "engine-flaky")
    ran = path + ".ran"
    with open(path, "w") as f:
        f.write(f"#!/bin/sh\nif [ -e {ran} ]; then exec {STOCKFISH}; fi\ntouch {ran}\n"
                "while read l; do case \"$l\" in\n"
                "uci) echo 'id name Flaky'; echo 'option name Skill Level type spin default 20 min 0 max 20'; echo uciok;;\n"
                "isready) echo readyok;;\ngo*) exit 1;;\nquit) exit 0;;\nesac; done\n")
    os.chmod(path, 0o755)
    return path


def menu_train(dev):
    """The menu's training entry, select stepping to it: said "Starting the training"."""
    mark = dev.mark()
    dev.act("+300 hold select 1200")
    for _ in range(10):
        ev = dev.wait(lambda e: e.get("event") == "say" and e.get("channel") == "private", mark, 5)
        if ev is None or "Play the computer" in ev["text"]:
            break
        mark = dev.events.index(ev) + 1
        dev.act("+300 press select")
    check("the menu offers the training game", ev is not None and "Play the computer" in ev["text"],
          str([e.get("text") for e in dev.events[mark:] if e.get("event") == "say"]))
    dev.act("+300 press repeat")
    return private_say(dev, mark, "Starting the training")


def wait_again():
    """train --wait (the club's service): its engine fails in a game; the clocks stop, the
    player hears how to go on, and train waits for the menu again by itself; the menu's
    entry brings the engine back and the clocks run on."""
    dev = Device("again", tc="600+0", extra="[training]\nmenu = yes\n")
    me = Engine(movetime=30)
    p, out = train(dev, "--level", "0", "--movetime", "100", "--wait", engine=flaky_engine())
    check("train --wait waits", dev.wait(lambda e: False, 0, 1.5) is None and
          dev.status().get("engine", {}).get("state") == "waiting", open(out).read())
    check("the menu starts the training", menu_train(dev) is not None)
    check("the engine plays", private_say(dev, 0, "the computer plays Black", 15) is not None)
    start_clock(dev)
    mark = dev.mark()
    player_move(dev, me, dev.status())
    ev = private_say(dev, mark, "The chess engine stopped", 15)
    check("the engine's failure said privately", ev is not None)
    check("the clocks stand and the way on is said",
          private_say(dev, mark, "The clocks stand. Go on with the menu's training") is not None,
          str([e.get("text") for e in dev.events[mark:] if e.get("event") == "say"]))
    waiting = None
    for _ in range(50):
        st = dev.status()
        if (st.get("engine") or {}).get("state") == "waiting":
            waiting = st
            break
        time.sleep(0.2)
    check("train waits for the menu again by itself", waiting is not None and
          p.poll() is None and "waiting again" in open(out).read(), open(out).read())
    check("the clocks stopped while the engine was gone",
          waiting is not None and waiting["clock"]["state"] == "paused", str(waiting))
    mark = dev.mark()
    check("the menu starts it again", menu_train(dev) is not None)
    check("the clocks run again", private_say(dev, mark, "Clocks running again", 15) is not None)
    ev = engine_reply(dev, mark, 2)
    st = dev.status()
    check("the engine's reply made, the game goes on",
          ev is not None and st["plies"] == 2 and st["clock"]["state"] == "running",
          open(out).read()[-400:])
    p.send_signal(signal.SIGTERM)
    check("train --wait ends on a signal", p.wait(15) == 0)
    me.close()
    dev.stop()


def set_up(dev, since, least):
    n = dev.follow_guidance(since, done_text="The position is set up", timeout=60)
    check("the new game's position set up by following its guidance", n >= least,
          f"{n} squares")


def coach():
    """--fen: the position guided onto the board square by square, then played; the engine's
    promotion with a capture guided with its new piece; the evaluation in words; a draw offer
    declined and one accepted, by the engine's evaluation."""
    dev = Device("coach", tc="-")
    me = Engine(movetime=30)
    p, out = train(dev, "--movetime", "300", "--fen", "4k3/8/8/8/8/8/1p6/R3K3 b - - 0 1")
    check("--fen: the new game's set-up said",
          private_say(dev, 0, "New game: set up the position", 15) is not None, open(out).read())
    set_up(dev, 0, 28)  # from the start position: all pegs off but a1, b2, e1 and e8
    ev = dev.wait(lambda e: e.get("event") == "relayed" and e.get("ply") == 1, 0, 15)
    check("the engine moves once the board shows the position", ev is not None and
          uci_moves(dev) == ["b2a1q"], f"{uci_moves(dev)}: " + open(out).read()[-300:])
    at = dev.events.index(ev) if ev else 0
    check("and made by following the guidance", dev.follow_guidance(at) == 2)
    ev = dev.said(at, "should be occupied")
    check("its promotion with a capture: the new piece's square named, with the queen",
          ev is not None and square_of(ev["text"]) == "a1" and "Dame" in ev["text"],
          str([e.get("text") for e in dev.events[at:] if e.get("event") == "say"]))
    mark = dev.mark()
    r = dev.control("eval")
    ev = private_say(dev, mark, "Black ")
    check("the evaluation on request, privately, in words",
          r.get("ok") and ev is not None and
          re.match(r"Black (is winning|mates)", ev["text"]) is not None, f"{r} {ev}")
    st = dev.status()
    mark = dev.mark()
    move = me.best(st["start_fen"], uci_moves(dev))
    dev.act(*board_actions(squares_of(st["fen"]), move))
    check("the engine's reply", engine_reply(dev, mark, 3) is not None,
          f"{move} " + str([e.get("text") for e in dev.events[mark:] if e.get("event") == "say"]))
    mark = dev.mark()
    r = dev.control("draw-offer", "white")
    check("a draw offer to the winning engine: declined, said privately",
          r.get("ok") and private_say(dev, mark, "The computer declines the draw") is not None,
          str([e.get("text") for e in dev.events[mark:] if e.get("event") == "say"]))
    check("the game goes on", dev.status()["result"]["state"] == "on")
    dev.control("resign", "white")
    dev.control("approve")
    check("train ends with the game", p.wait(15) == 0, open(out).read()[-300:])
    # Two rooks up: the engine accepts.
    mark = dev.mark()
    p, out = train(dev, "--movetime", "300", "--fen", "4k3/8/8/8/8/8/8/R3K2R w - - 0 1")
    check("the next position's set-up said",
          private_say(dev, mark, "New game: set up", 15) is not None, open(out).read())
    set_up(dev, mark, 1)
    st = dev.status()
    mark = dev.mark()
    move = me.best(st["start_fen"], uci_moves(dev))
    dev.act(*board_actions(squares_of(st["fen"]), move))
    check("the engine's reply", engine_reply(dev, mark, 2) is not None)
    mark = dev.mark()
    r = dev.control("draw-offer", "white")
    check("a draw offer to the losing engine: accepted, said privately",
          r.get("ok") and private_say(dev, mark, "The computer accepts the draw") is not None,
          str([e.get("text") for e in dev.events[mark:] if e.get("event") == "say"]))
    st = dev.status()
    check("the game drawn by agreement", st["result"].get("result") == "1/2-1/2", str(st["result"]))
    dev.control("approve")
    p.wait(15)
    me.close()
    dev.stop()


def main():
    if not os.access(STOCKFISH, os.X_OK):
        check("Stockfish is there", False, f"{STOCKFISH} is not installed (make deps installs it)")
        return
    only = os.environ.get("TRAIN_ONLY",
                          "game killed faults tournament strength again coach").split()
    try:
        if "game" in only:
            dev = game_against_level_0()
            review_from_games(dev)
            review_of_a_file(dev)
            dev.stop()
        if "killed" in only:
            engine_killed()
        if "faults" in only:
            engine_faults()
        if "tournament" in only:
            tournament_refuses()
        if "strength" in only:
            strength_and_signal()
        if "again" in only:
            wait_again()
        if "coach" in only:
            coach()
    except Exception as e:  # a harness fault is a failure, with its place
        import traceback
        traceback.print_exc()
        check("the harness ran", False, repr(e))


if __name__ == "__main__":
    checklib.begin("train")
    checklib.run(main)
