#!/usr/bin/python3
"""Online play (docs/online.md "Playing online") without the internet (tests/check-online.sh BUILD).

A lichess of the test's own (tests/online/lichess_server.py: the Board API's endpoints as
lichess's OpenAPI description says, every message checked against its schemas) on 127.0.0.1;
a real annabellad in real time on a live board script (tests/train/traintest.py's harness);
`annabella online` between them.  The test plays both sides: the tactile player with Stockfish
at full strength, making each move on the simulated board and pressing the clock, and the
online opponent with a weak Stockfish through the server; each of the opponent's moves is made
on the board by following the device's guidance alone.

Checked: a whole game begun from the button menu (a seek) to its result, archived with the
lichess id and URL in its tags; the connection lost mid-game and its move resynchronised; a
move whose answer was lost never sent twice; a refused move guided back; HTTP 429 and a full
minute without a request; draw offers both ways, a takeback, the opponent gone and back;
challenging a friend and accepting a friend's challenge from the options; the opponent
aborting; an invalid token (its file named), a token file others may read, the server down at
the start, the Board API's time controls; TLS with the test's own CA; tournament mode refusing
it all; the token in no log, status, page event or scoresheet.
"""
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, os.path.join(HERE, "..", "train"))
import checklib  # noqa: E402
import lichess_server  # noqa: E402
import traintest as tt  # noqa: E402
from checklib import check  # noqa: E402

ANNABELLA = tt.ANNABELLA
DEVICE, FRIEND = "annaboard", "bella"
TOKEN = "lip_" + lichess_server._id(20)
FRIEND_TOKEN = "lip_" + lichess_server._id(20)


def token_file(name="token", token=TOKEN, mode=0o600):
    path = os.path.join(checklib.work, name)
    with open(path, "w") as f:
        f.write(token + "\n")
    os.chmod(path, mode)
    return path


def new_server(tls=None, trace=None):
    return lichess_server.Server(checklib.work, {TOKEN: DEVICE, FRIEND_TOKEN: FRIEND}, DEVICE,
                                 stockfish=tt.STOCKFISH, tls=tls, trace=trace).start()


def online_conf(server_url, token, **keys):
    lines = [f"server = {server_url}", f"token-file = {token}"]
    lines += [f"{k.replace('_', '-')} = {v}" for k, v in keys.items()]
    return "[online]\n" + "\n".join(lines) + "\n"


def device(name, server, token, mode="casual", env=None, audio="none", **keys):
    return tt.Device(name, mode=mode, extra=online_conf(server.url, token, **keys), env=env,
                     audio=audio)


def run_online(dev, *args, env=None):
    out = open(os.path.join(dev.dir, f"online-{len(checklib.procs)}.out"), "w")
    p = tt.spawn("online", [ANNABELLA, "online", "--socket", dev.sock, "--config",
                            os.path.join(dev.dir, "annabella.conf"), *args],
                 stdout=out, stderr=subprocess.STDOUT, env=dict(os.environ, **(env or {})))
    return p, out.name


def wait_until(what, timeout):
    return checklib.wait_for(what, timeout, 0.05)


def said(dev, since, text, timeout=10):
    return dev.said(since, text, timeout)


def menu_choose(dev, item, confirm=False):
    """The button menu opened, select pressed until it says `item`, repeat (twice to
    confirm).  Whether the item came."""
    mark = dev.mark()
    dev.act("+300 hold select 1200")
    for _ in range(12):
        if dev.said(mark, item, 1.5):
            break
        mark = dev.mark()
        dev.act("+100 press select")
    else:
        return False
    dev.act("+300 press repeat", *(["+300 press repeat"] if confirm else []))
    return True


def the_game(server, timeout=20):
    return wait_until(lambda: next(iter(server.games.values()), None), timeout)


class Play:
    """Both sides of an online game: the player on the board, the opponent on the server."""

    def __init__(self, dev, server, game):
        self.dev, self.server, self.game = dev, server, game
        self.me = tt.Engine(movetime=50)
        self.them = tt.Engine(movetime=10)
        self.them.send("setoption name Skill Level value 0")
        self.color = game.color_of(DEVICE)

    def player_turn(self):
        return self.game.side_to_move() == self.color and self.game.status == "started"

    def player_moves(self):
        """The player's move on the board and their press; the move's UCI."""
        st = self.dev.status()
        move = self.me.best(None, tt.uci_moves(self.dev))
        self.dev.act(*tt.board_actions(tt.squares_of(st["fen"]), move), "+250 press player-clock")
        return move

    def wait_server_plies(self, n, timeout=20):
        return wait_until(lambda: len(self.game.moves) >= n or self.game.status != "started",
                          timeout)

    def opponent_moves(self, guided=True):
        """The opponent's move on the server, announced by the device and made on the board
        by following its guidance.  The move, or None."""
        mark = self.dev.mark()
        ply = len(self.game.moves) + 1
        move = self.them.best(None, list(self.game.moves))
        if self.server.opponent_move(self.game, move):
            return None
        ev = self.dev.wait(lambda e: e.get("event") in ("relayed", "result") and
                           (e.get("event") == "result" or e.get("ply") == ply), mark, 15)
        if ev is None:
            return None
        if guided and ev["event"] == "relayed":
            self.dev.follow_guidance(self.dev.events.index(ev))
        return move

    def close(self):
        self.me.close()
        self.them.close()


def spec_checked(server, what, at_least=10):
    """Every message of the scenario checked against lichess's description, and none wrong."""
    check(f"every message checked against lichess's description ({what})",
          server.validated >= at_least and not server.faults,
          f"{server.validated} checked; " + "; ".join(server.faults[:5]))


def token_nowhere(dev, outputs, what):
    """The token in no file of the state directory, no log, no event, no status."""
    found = []
    for root, _, files in os.walk(dev.dir):
        for f in files:
            path = os.path.join(root, f)
            if path.endswith("/board") or os.path.basename(path).startswith("token"):
                continue
            try:
                if TOKEN.encode() in open(path, "rb").read():
                    found.append(path)
            except OSError:
                pass
    for name in outputs:
        if TOKEN in open(name).read():
            found.append(name)
    with dev.cond:
        if TOKEN in json.dumps(dev.events) or TOKEN in json.dumps(dev.public_events):
            found.append("watch events")
    if TOKEN in json.dumps(dev.status()) or TOKEN in json.dumps(dev.control("export", "pgn")):
        found.append("status or export")
    check(f"the token in no log, file, event, status or scoresheet ({what})", not found,
          str(found))


# ------------------------------------------------------------------ the whole game


def whole_game():
    server = new_server()
    token = token_file()
    dev = device("game", server, token, menu="yes", time_control="600+5")
    p, out = run_online(dev, "--wait")
    check("online waits for the menu",
          wait_until(lambda: (dev.status().get("online") or {}).get("state") == "waiting", 10),
          open(out).read())
    # The button menu's first item is the online game.
    mark = dev.mark()
    dev.act("+300 hold select 1200")
    check("the menu offers the online game first", said(dev, mark, "Online game") is not None,
          str([e.get("text") for e in dev.events[mark:] if e.get("event") == "say"]))
    dev.act("+300 press repeat")
    check("starting from the menu is said", said(dev, mark, "Starting an online game"))
    check("the seek is said", said(dev, mark, "Looking for an opponent on lichess"))
    check("a seek reached the server",
          wait_until(lambda: server.seeks, 10), str(server.requests[-5:]))
    server.take_seek(FRIEND)
    game = the_game(server)
    ev = dev.wait(lambda e: e.get("event") == "say" and "Online game: you play" in e["text"],
                  mark, 15)
    check("the game's beginning said privately with the player's colour",
          ev is not None and ev["channel"] == "private", open(out).read())
    play = Play(dev, server, game)
    st = dev.status()
    check("the device's game is the server's: mode online, its tags",
          st.get("mode") == "online" and st["tags"].get("LichessId") == game.id and
          st["tags"].get("Site") == f"{server.url}/{game.id}", str(st.get("tags")))
    faults = {"dropped": False, "lost answer": False, "refused": False, "429": False,
              "draw offered": False, "draw to the player": False, "takeback": False,
              "gone": False}
    sent_moves = 0
    rate_at = None
    for _ in range(400):
        if game.status != "started":
            break
        plies = len(game.moves)
        if play.player_turn():
            if plies >= 10 and not faults["refused"]:
                # The server refuses the move: its position wins, the player is guided back
                # and makes the move again.
                faults["refused"] = True
                server.refuse_moves = 1
                mark = dev.mark()
                move = play.player_moves()
                ev = said(dev, mark, "Lichess did not accept the move", 15)
                check("a refused move is said privately", ev is not None and
                      ev["channel"] == "private", str([e.get("text") for e in dev.events[mark:]
                                                       if e.get("event") == "say"]))
                n = dev.follow_guidance(dev.events.index(ev) if ev else mark,
                                        done_text="The position is set up")
                # (a capture taken back leaves its square occupied: one square to guide)
                check("the player is guided back to the server's position",
                      n >= 1 and dev.status()["plies"] == plies, f"{n} squares")
                sent_moves += 1
            if plies >= 14 and not faults["429"]:
                faults["429"] = True
                server.fail_next(f"/api/board/game/{game.id}/move", 429)
                rate_at = time.monotonic()
            lost = plies >= 6 and not faults["lost answer"]
            if lost:
                # The move taken, its answer lost with the connection: never sent twice.
                faults["lost answer"] = True
                server.lose_move_answers = 1
            mark = dev.mark()
            play.player_moves()
            sent_moves += 1
            if rate_at:
                ev = said(dev, mark, "Lichess asks us to wait a minute", 15)
                check("HTTP 429 said privately", ev is not None and ev["channel"] == "private")
                sent_moves += 1
                ok = play.wait_server_plies(plies + 1, 90)
                answered = [r[0] for r in server.requests if r[3] == 429]
                after = [r[0] for r in server.requests if answered and r[0] > answered[-1]]
                gap = (min(after) - answered[-1]) / 1e9 if after else 0
                check("after HTTP 429 a full minute without a request, then the move",
                      ok and gap >= 59.9, f"the next request {gap:.1f} s after")
                rate_at = None
            if not play.wait_server_plies(plies + 1, 30):
                check("the player's move reached the server", False,
                      f"ply {plies + 1}: " + open(out).read()[-800:])
                break
            if lost:
                time.sleep(2)
                posts = server.requests_to(f"/api/board/game/{game.id}/move/", "POST")
                check("a move whose answer was lost is not sent again",
                      len(posts) == sent_moves and len(game.moves) == plies + 1,
                      f"{len(posts)} requests for {sent_moves} moves")
            continue
        # The opponent's turn.
        if plies >= 4 and not faults["dropped"]:
            # The connection lost mid-game: the opponent moves meanwhile; the stream's
            # whole state brings the move when it is back.
            faults["dropped"] = True
            mark = dev.mark()
            server.fail_next(f"/api/board/game/stream/{game.id}", "drop", 2)
            server.drop_streams(game)
            check("the connection lost is said privately",
                  said(dev, mark, "The connection to lichess is lost", 15) is not None)
            if play.opponent_moves() is None:
                check("the move made while the connection was lost comes", False,
                      open(out).read()[-800:])
                break
            check("the connection back is said",
                  said(dev, mark, "Connected to lichess again", 30) is not None)
            continue
        if plies >= 8 and not faults["draw to the player"]:
            # The opponent offers a draw: said privately; the player declines it in the menu.
            faults["draw to the player"] = True
            mark = dev.mark()
            server.set_offer(game, game.black if play.color == 0 else game.white, "draw", True)
            check("the opponent's draw offer said privately",
                  said(dev, mark, "offers a draw") is not None)
            check("declined from the menu: the server has no offer",
                  menu_choose(dev, "Decline the draw") and
                  wait_until(lambda: not any(game.draw), 10))
        if plies >= 12 and not faults["takeback"]:
            # The opponent asks to take back; the player accepts in the menu: the device
            # follows the server's game back and guides the board.
            faults["takeback"] = True
            them = game.black if play.color == 0 else game.white
            mark = dev.mark()
            server.set_offer(game, them, "takeback", True)
            check("the takeback asked said privately",
                  said(dev, mark, "The opponent asks to take back a move") is not None)
            mark = dev.mark()
            menu_choose(dev, "Accept the takeback")
            ev = said(dev, mark, "Taken back", 15)
            n = dev.follow_guidance(dev.events.index(ev) if ev else mark,
                                    done_text="The position is set up")
            check("the takeback followed and guided", ev is not None and n >= 2 and
                  dev.status()["plies"] == len(game.moves), f"{n} squares")
            continue
        if plies >= 16 and not faults["gone"]:
            faults["gone"] = True
            mark = dev.mark()
            server.opponent_gone(game, True, 2)
            check("the opponent gone said", said(dev, mark, "The opponent has left") is not None)
            check("the claim possible said in time",
                  said(dev, mark, "claim the win or a draw in the menu", 10) is not None)
            server.opponent_gone(game, False)
            check("the opponent back said", said(dev, mark, "The opponent is back") is not None)
        if plies >= 18 and not faults["draw offered"]:
            # The player offers a draw in the menu: the server's stream shows it (said
            # publicly), and the opponent's move declines it.
            faults["draw offered"] = True
            mark = dev.mark()
            check("the player's draw offer reached the server",
                  menu_choose(dev, "Offer a draw") and
                  wait_until(lambda: game.draw[play.color], 10))
            ev = said(dev, mark, "offers a draw")
            check("the player's offer said publicly", ev is not None and ev["channel"] == "public")
        if play.opponent_moves() is None and game.status == "started":
            check("the opponent's move announced", False, open(out).read()[-800:])
            break
    # The end: the result said, the game archived with the server's id and URL.
    check("a whole game to its end on the server", game.status != "started", game.status)
    ev = dev.wait(lambda e: e.get("event") == "result", 0, 20)
    check("the device's result is the server's", ev is not None and
          dev.status()["result"]["state"] == "approved", str(dev.status().get("result")))
    check("the result said privately", dev.wait(
        lambda e: e.get("event") == "say" and e["channel"] == "private" and
        ("wins" in e["text"] or "Draw" in e["text"] or "draw" in e["text"]), 0, 5) is not None)
    pgn = dev.control("export", "pgn").get("text", "")
    check("the scoresheet's tags: the lichess id and URL",
          f'[LichessId "{game.id}"]' in pgn and f'[Site "{server.url}/{game.id}"]' in pgn, pgn[:600])
    server_moves = len(game.moves)
    check("every move of the server's game on the device's scoresheet",
          dev.status()["plies"] == server_moves, f"{dev.status()['plies']} of {server_moves}")
    check("every fault was brought", all(faults.values()), str(faults))
    # With --wait it waits for the menu again.
    check("online waits again after the game",
          wait_until(lambda: (dev.status().get("online") or {}).get("state") == "waiting", 15),
          open(out).read()[-500:])
    token_nowhere(dev, [out, os.path.join(dev.dir, "daemon.out")], "a whole game")
    # At least a message for each of the game's moves (its stream's gameState), however
    # short Stockfish made the game: a fixed count failed a game of 94 messages.
    spec_checked(server, "a whole game", max(20, server_moves))
    play.close()
    checklib.stop(p)
    dev.stop()
    server.stop()


# ------------------------------------------------------------------ friends


def challenge_and_abort():
    server = new_server()
    token = token_file()
    dev = device("challenge", server, token)
    mark = dev.mark()
    p, out = run_online(dev, "--challenge", FRIEND, "--time-control", "300+3")
    check("the challenge sent is said", said(dev, mark, "Challenge sent") is not None,
          open(out).read())
    cid = wait_until(lambda: next(iter(server.challenges), None), 10)
    check("the challenge reached the friend (blitz, as the Board API allows challenges)",
          cid is not None and server.challenges[cid]["limit"] == 300)
    game = server.accept_challenge(cid)
    check("the game begins", said(dev, mark, "Online game: you play") is not None)
    # The opponent aborts.
    server.end(game, "aborted")
    check("the opponent's abort said", said(dev, mark, "The game was aborted") is not None)
    try:
        rc = p.wait(15)
    except subprocess.TimeoutExpired:
        rc = None
    st = dev.status()
    check("an aborted game: *, approved; online ends 0",
          rc == 0 and st["result"]["result"] == "*" and st["result"]["state"] == "approved",
          f"{rc} {st.get('result')}")
    # Declined: said, out with 1.
    mark = dev.mark()
    p, out = run_online(dev, "--challenge", FRIEND, "--time-control", "600+0")
    cid = wait_until(lambda: next(iter(server.challenges), None), 10)
    server.decline_challenge(cid)
    check("a declined challenge said", said(dev, mark, "The challenge was declined") is not None)
    check("online ends 1 when declined", p.wait(15) == 1)
    # A bullet challenge is not the Board API's: refused before any request.
    mark = dev.mark()
    p, out = run_online(dev, "--challenge", FRIEND, "--time-control", "60+0")
    check("a bullet challenge refused with the Board API's limits",
          p.wait(15) == 2 and "blitz, rapid and classical" in open(out).read() and
          said(dev, mark, "Lichess does not allow this time control") is not None,
          open(out).read())
    p, out = run_online(dev, "--seek", "--time-control", "300+0")
    check("a blitz seek refused with the Board API's limits",
          p.wait(15) == 2 and "rapid and classical games only" in open(out).read(),
          open(out).read())
    spec_checked(server, "challenges")
    dev.stop()
    server.stop()


def accept_and_resign():
    server = new_server()
    token = token_file()
    dev = device("accept", server, token)
    mark = dev.mark()
    p, out = run_online(dev, "--accept", FRIEND)
    check("waiting for the friend's challenge said",
          said(dev, mark, "Waiting for the challenge") is not None, open(out).read())
    # A challenge of a variant is declined; the friend's standard one accepted.
    server.challenge_device(FRIEND, 600, 0, variant="chess960")
    check("a variant's challenge declined, said",
          said(dev, mark, "Challenge declined: the board cannot play that game") is not None)
    server.challenge_device(FRIEND, 900, 10)
    game = the_game(server)
    check("the friend's challenge accepted: the game begins",
          game is not None and said(dev, mark, "Online game: you play") is not None)
    play = Play(dev, server, game)
    if not play.player_turn():
        play.opponent_moves()
    play.player_moves()
    play.wait_server_plies(2 if play.color == 1 else 1)
    # Resigning from the menu asks the server; its result comes back.
    mark = dev.mark()
    menu_choose(dev, "Resign", confirm=True)
    check("the resignation reached the server", wait_until(lambda: game.status == "resign", 10),
          game.status)
    check("the resignation said as at the board",
          said(dev, mark, "resigns") is not None and said(dev, mark, "wins") is not None)
    check("online ends 0 after the game", p.wait(15) == 0)
    token_nowhere(dev, [out, os.path.join(dev.dir, "daemon.out")], "a friend's challenge")
    spec_checked(server, "accepting")
    play.close()
    dev.stop()
    server.stop()


def menu_waits_for_the_friend():
    """--wait with [online] start = accept: the friend's challenge said when it comes, taken
    from the menu; the opponent gone and the win claimed in the menu; the next game, aborted
    from the menu before anyone moved."""
    server = new_server()
    token = token_file()
    dev = device("menu-accept", server, token, menu="yes", start="accept", friend=FRIEND)
    p, out = run_online(dev, "--wait")
    check("online waits for the menu",
          wait_until(lambda: (dev.status().get("online") or {}).get("state") == "waiting", 10),
          open(out).read())
    mark = dev.mark()
    server.challenge_device(FRIEND, 900, 10)
    check("the friend's challenge said privately as it comes",
          said(dev, mark, "A challenge has come, accept it in the menu") is not None)
    check("the menu's online entry takes it", menu_choose(dev, "Online game"))
    game = the_game(server)
    check("the game begins", game is not None and
          said(dev, mark, "Online game: you play") is not None, open(out).read())
    play = Play(dev, server, game)
    if not play.player_turn():
        play.opponent_moves()
    play.player_moves()
    play.wait_server_plies(2 if play.color == 1 else 1)
    mark = dev.mark()
    server.opponent_gone(game, True, 1)
    check("the claim possible said",
          said(dev, mark, "claim the win or a draw in the menu", 10) is not None)
    check("the win claimed in the menu", menu_choose(dev, "Claim the win") and
          wait_until(lambda: game.status == "timeout", 10), game.status)
    check("the claimed win is the game's result, said",
          said(dev, mark, "wins") is not None and
          dev.status()["result"]["result"] == ("1-0" if play.color == 0 else "0-1") and
          dev.status()["result"]["termination"] == "abandoned", str(dev.status()["result"]))
    check("online waits again",
          wait_until(lambda: (dev.status().get("online") or {}).get("state") == "waiting", 15))
    # The next game, from the menu again, aborted from it before anyone moved.
    mark = dev.mark()
    server.challenge_device(FRIEND, 900, 10)
    said(dev, mark, "A challenge has come")
    menu_choose(dev, "Online game")
    game = wait_until(lambda: next((g for g in server.games.values() if g.status == "started"),
                                   None), 15)
    check("the next game begins", game is not None and
          said(dev, mark, "Online game: you play") is not None, open(out).read())
    check("a setup of the board for the next game guided", said(dev, mark, "Set up the position "
                                                                "as lichess has it") is not None)
    dev.follow_guidance(mark)
    mark = dev.mark()
    check("aborted from the menu", menu_choose(dev, "Abort the game") and
          wait_until(lambda: game.status == "aborted", 10), game and game.status)
    check("the abort said", said(dev, mark, "The game was aborted") is not None)
    spec_checked(server, "the menu")
    play.close()
    checklib.stop(p)
    dev.stop()
    server.stop()


# ------------------------------------------------------------------ failures at the start


def failures_at_start():
    server = new_server()
    good = token_file()
    bad = token_file("token-bad", "lip_" + lichess_server._id(20))
    open_file = token_file("token-open", TOKEN, 0o644)
    dev = device("start", server, bad)
    # An invalid or expired token: said, the log names its file, out with 1.
    mark = dev.mark()
    p, out = run_online(dev)
    rc = p.wait(20)
    text = open(out).read()
    check("an invalid token: said privately, its file named, out 1",
          rc == 1 and bad in text and "invalid or expired" in text and
          said(dev, mark, "Lichess refuses the access token") is not None, text)
    # A token file others may read: refused before anything is sent.
    before = len(server.requests)
    conf = os.path.join(dev.dir, "open.conf")
    with open(conf, "w") as f:
        f.write(f"[control]\nsocket = {dev.sock}\n" + online_conf(server.url, open_file))
    r = subprocess.run([ANNABELLA, "online", "--config", conf], capture_output=True, text=True,
                       timeout=20)
    check("a token file others may read is refused, named, nothing sent",
          r.returncode == 1 and open_file in r.stderr and "chmod 600" in r.stderr and
          len(server.requests) == before, r.stderr)
    # The server down at the start.
    port = checklib.free_port()
    conf = os.path.join(dev.dir, "down.conf")
    with open(conf, "w") as f:
        f.write(f"[control]\nsocket = {dev.sock}\n" +
                online_conf(f"http://127.0.0.1:{port}", good))
    mark = dev.mark()
    r = subprocess.run([ANNABELLA, "online", "--config", conf], capture_output=True, text=True,
                       timeout=30)
    check("the server down at the start: said, out 1",
          r.returncode == 1 and "cannot be reached" in r.stderr and
          said(dev, mark, "Lichess cannot be reached") is not None, r.stderr)
    # A plain http server elsewhere would carry the token in clear: refused.
    conf = os.path.join(dev.dir, "clear.conf")
    with open(conf, "w") as f:
        f.write(f"[control]\nsocket = {dev.sock}\n" + online_conf("http://example.org", good))
    r = subprocess.run([ANNABELLA, "online", "--config", conf], capture_output=True, text=True,
                       timeout=20)
    check("http to another machine refused", r.returncode == 1 and "https" in r.stderr, r.stderr)
    dev.stop()
    # Tournament mode refuses it all.
    tdev = device("tournament", server, good, mode="tournament")
    p, out = run_online(tdev)
    rc = p.wait(15)
    check("tournament mode refuses online play", rc == 1 and
          "tournament mode" in open(out).read(), open(out).read())
    spec_checked(server, "failures at the start", 1)
    tdev.stop()
    server.stop()


def tls():
    key = os.path.join(checklib.work, "server.key")
    crt = os.path.join(checklib.work, "server.crt")
    r = subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout",
                        key, "-out", crt, "-days", "2", "-subj", "/CN=127.0.0.1",
                        "-addext", "subjectAltName=IP:127.0.0.1"], capture_output=True,
                       text=True)
    if r.returncode:
        check("a certificate of the test's own", False, r.stderr)
        return
    server = new_server(tls=(crt, key))
    token = token_file()
    dev = device("tls", server, token, ca_file=crt)
    mark = dev.mark()
    p, out = run_online(dev, "--challenge", FRIEND, "--time-control", "600+0")
    check("https with the CA of [online] ca-file",
          said(dev, mark, "Challenge sent") is not None and
          wait_until(lambda: server.challenges, 10), open(out).read())
    checklib.stop(p)
    dev.stop()
    dev = device("tls-unknown", server, token)
    mark = dev.mark()
    p, out = run_online(dev, "--challenge", FRIEND)
    rc = p.wait(30)
    check("a certificate no CA vouches for: refused, said as unreachable",
          rc == 1 and said(dev, mark, "Lichess cannot be reached") is not None and
          "certificate" in open(out).read().lower(), open(out).read())
    spec_checked(server, "TLS", 3)
    dev.stop()
    server.stop()


def main():
    if not os.access(tt.STOCKFISH, os.X_OK):
        check("Stockfish is there", False, f"{tt.STOCKFISH} is not installed (make deps)")
        return
    only = os.environ.get("ONLINE_ONLY", "start tls friends game").split()
    try:
        if "start" in only:
            failures_at_start()
        if "tls" in only:
            tls()
        if "friends" in only:
            challenge_and_abort()
            accept_and_resign()
            menu_waits_for_the_friend()
        if "game" in only:
            whole_game()
    except Exception as e:  # a harness fault is a failure, with its place
        import traceback
        traceback.print_exc()
        check("the harness ran", False, repr(e))


if __name__ == "__main__":
    checklib.begin("online")
    checklib.run(main)
