"""A lichess of the tests' own (tests/check-online.sh, tests/bench-online.sh).

The Board API's endpoints `annabella online` uses, as lichess's published OpenAPI description
says (the lichess-org/api repository's doc/specs, read where the project's data is:
../shared/data/lichess-api/specs, never copied into the project), served on 127.0.0.1 over
plain http or over TLS with a certificate of the test's own.  Every message it sends (each
response body, each NDJSON line) and every request it gets (its path and query parameters and
its form body) is checked against that description's schemas with python3-jsonschema; the
test reads the count and the faults (Server.validated, Server.faults).

Where the description is silent or wrong, this server says so in one place, SPEC_NOTES:
  - 401 and 429 have no response in the description: their bodies are checked against its
    Error schema (lichess answers {"error": "..."}).
  - challengeCreate's body is allOf [oneOf [real-time, correspondence, unlimited], ...]; the
    unlimited branch (an object with no properties) matches every body, so a real-time
    challenge matches two branches and no body with a clock can pass `oneOf`: checked as
    anyOf, and a real-time body must match the real-time branch.
  - a kept-alive challenge (keepAliveStream) streams the challenge and then {"done": ...}, a
    line the description words but gives no schema: checked against DONE_SCHEMA here.
  - the game's stream and the seek send empty lines to keep the connection alive, as the
    event stream's description says it does every 7 seconds.

The test plays the opponent (Server.opponent_move and friends) and brings the faults: streams
dropped, the server down and back, HTTP 429 and 401, a move refused, a move taken and its
answer lost.  What is legal, and whether a move mates, Stockfish decides (`go perft 1`, `d`).
"""
import json
import os
import queue
import random
import re
import socket
import ssl
import string
import subprocess
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import jsonschema
import yaml

SPEC_NOTES = __doc__
def specs_dir():
    """Where lichess's description is: LICHESS_API_SPECS, or the project's data sets beside
    the checkout (shared/ next to it, or above a worktree's folder), read there."""
    if os.environ.get("LICHESS_API_SPECS"):
        return os.environ["LICHESS_API_SPECS"]
    up = os.path.dirname(os.path.abspath(__file__))
    for _ in range(5):
        up = os.path.dirname(up)
        path = os.path.join(up, "shared", "data", "lichess-api", "specs")
        if os.path.exists(os.path.join(path, "lichess-api.yaml")):
            return path
    return None
START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
DONE_SCHEMA = {"type": "object", "required": ["done"],
               "properties": {"done": {"type": "string",
                                       "enum": ["accepted", "declined", "canceled"]}}}
KEEPALIVE_S = 7


class _Loader(yaml.SafeLoader):
    """YAML 1.2's booleans (true, false), as the OpenAPI description is written: YAML 1.1's
    yes and no stay words (`const: yes` of the draw's and takeback's `accept`)."""


_Loader.yaml_implicit_resolvers = {
    k: [(tag, rx) for tag, rx in v if tag != "tag:yaml.org,2002:bool"]
    for k, v in yaml.SafeLoader.yaml_implicit_resolvers.items()}
_Loader.add_implicit_resolver("tag:yaml.org,2002:bool",
                              re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"),
                              list("tTfF"))


def _id(n=8):
    return "".join(random.choice(string.ascii_letters + string.digits) for _ in range(n))


class Spec:
    """lichess's OpenAPI description: each operation's parameters, body and responses, and
    a validator for every schema they name, its $refs followed through the YAML files."""

    def __init__(self, root=None):
        self.root = os.path.abspath(root or specs_dir())
        self.cache = {}
        top = self._load(os.path.join(self.root, "lichess-api.yaml"))
        self.paths = {}
        for template, item in top["paths"].items():
            ref = item.get("$ref", "")
            path = os.path.join(self.root, ref)
            if ref and os.path.exists(path):
                self.paths[template] = (path, self._load(path))

    def _load(self, path):
        if path not in self.cache:
            with open(path) as f:
                self.cache[path] = yaml.load(f, Loader=_Loader)
        return self.cache[path]

    def _resolver(self, base):
        return jsonschema.RefResolver(
            "file://" + base, self._load(base),
            handlers={"file": lambda uri: self._load(urllib.parse.urlparse(uri).path)})

    def validate(self, schema, base, value):
        """Raises jsonschema.ValidationError when value does not fit schema (whose $refs are
        relative to the file base)."""
        jsonschema.Draft202012Validator(schema, resolver=self._resolver(base),
                                        format_checker=jsonschema.FormatChecker()).validate(value)

    def operation(self, method, template):
        base, item = self.paths[template]
        return base, item, item[method.lower()]

    def schema_file(self, name):
        path = os.path.join(self.root, "schemas", name + ".yaml")
        return path, self._load(path)


def _coerce(value, schema):
    """A form or path value (text) as the type its schema names."""
    types = []
    for s in [schema] + schema.get("anyOf", []) + schema.get("oneOf", []):
        t = s.get("type")
        types += t if isinstance(t, list) else [t] if t else []
        if "const" in s:
            types.append("const")
    if value in ("true", "false") and "boolean" in types:
        return value == "true"
    if "integer" in types:
        try:
            return int(value)
        except ValueError:
            pass
    if "number" in types:
        try:
            return float(value)
        except ValueError:
            pass
    return value


class Game:
    def __init__(self, gid, white, black, limit_s, inc_s, rated, fen=None):
        self.id = gid
        self.white, self.black = white, black
        self.limit_ms, self.inc_ms = limit_s * 1000, inc_s * 1000
        self.rated = rated
        self.fen = fen or "startpos"
        self.moves = []
        self.times = [self.limit_ms, self.limit_ms]
        self.since = None  # the running clock's start (monotonic s), once clocks run
        self.status = "started"
        self.winner = None
        self.draw = [False, False]
        self.takeback = [False, False]
        self.gone = None  # the side gone, and when a claim is possible
        self.claim_at = 0
        self.streams = []  # queues of lines for the game's streams
        self.created = int(time.time() * 1000)
        self.lock = threading.RLock()

    def color_of(self, user):
        return 0 if user == self.white else 1 if user == self.black else None

    def side_to_move(self):
        first = 0 if self.fen == "startpos" or self.fen.split()[1] == "w" else 1
        return (first + len(self.moves)) % 2

    def now_times(self):
        t = list(self.times)
        if self.since is not None and self.status == "started":
            t[self.side_to_move()] -= int((time.monotonic() - self.since) * 1000)
        return [max(0, x) for x in t]

    def state(self):
        wt, bt = self.now_times() if self.status != "started" else self.times
        s = {"type": "gameState", "moves": " ".join(self.moves), "wtime": wt, "btime": bt,
             "winc": self.inc_ms, "binc": self.inc_ms, "status": self.status}
        if self.winner is not None:
            s["winner"] = "white" if self.winner == 0 else "black"
        for c, key in ((0, "w"), (1, "b")):
            if self.draw[c]:
                s[key + "draw"] = True
            if self.takeback[c]:
                s[key + "takeback"] = True
        return s

    def speed(self):
        est = self.limit_ms // 1000 + 40 * self.inc_ms // 1000
        return ("ultraBullet" if est < 30 else "bullet" if est < 180 else "blitz"
                if est < 480 else "rapid" if est < 1500 else "classical")


class Server:
    """The server: start(), its url, the opponent's moves and the faults the test brings."""

    def __init__(self, work, users, device, stockfish="/usr/games/stockfish", tls=None,
                 trace=None, keepalive_s=KEEPALIVE_S):
        self.spec = Spec()
        self.work = work
        self.users = users  # token -> user id
        self.device = device  # the device's user id
        self.tls = tls  # (certfile, keyfile) or None
        self.trace = trace  # a file for `NS what detail` lines (make bench)
        self.keepalive_s = keepalive_s
        self.lock = threading.RLock()
        self.validated = 0
        self.faults = []
        self.requests = []  # (monotonic ns, method, path, status, user)
        self.games = {}
        self.challenges = {}
        self.event_streams = {}  # user -> queue
        self.seeks = []  # (user, form, queue) open seeks
        self.fail = []  # faults to bring: (predicate(method, path), status or "drop", count)
        self.revoked = set()
        self.refuse_moves = 0
        self.lose_move_answers = 0
        self.rules = subprocess.Popen([stockfish], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      text=True, bufsize=1)
        self.rules_lock = threading.Lock()
        self._sf("uci", "uciok")
        self.httpd = None
        self.port = None
        self.down_socket = None

    # ------------------------------------------------------------ checks against the spec

    def check(self, what, fn):
        """One message checked; a fault kept with what it was."""
        with self.lock:
            self.validated += 1
        try:
            fn()
        except jsonschema.ValidationError as e:
            with self.lock:
                self.faults.append(f"{what}: {e.message} at {list(e.absolute_path)}")

    def check_response(self, method, template, status, ctype, body):
        base, _, op = self.spec.operation(method, template)
        resp = op["responses"].get(str(status))
        if resp is None:
            base, schema = self.spec.schema_file("Error")
        else:
            content = resp["content"]
            schema = content.get(ctype, content.get("application/json", {})).get("schema")
        if schema is not None:
            self.check(f"{method} {template} {status}",
                       lambda: self.spec.validate(schema, base, body))

    def check_request(self, method, template, params, query, form):
        base, item, op = self.spec.operation(method, template)
        for p in item.get("parameters", []) + op.get("parameters", []):
            where = params if p["in"] == "path" else query if p["in"] == "query" else None
            if where is None:
                continue
            if p["name"] not in where:
                if p.get("required"):
                    self.check(f"{method} {template}", lambda: (_ for _ in ()).throw(
                        jsonschema.ValidationError(f"parameter {p['name']} missing")))
                continue
            value = _coerce(where[p["name"]], p["schema"])
            self.check(f"{method} {template} {p['name']}",
                       lambda: self.spec.validate(p["schema"], base, value))
        for name in query:
            known = [p["name"] for p in item.get("parameters", []) + op.get("parameters", [])]
            if name not in known:
                self.check(f"{method} {template}", lambda: (_ for _ in ()).throw(
                    jsonschema.ValidationError(f"query parameter {name} not in the description")))
        body = op.get("requestBody", {}).get("content", {}).get(
            "application/x-www-form-urlencoded")
        if body is None:
            return
        schema = body["schema"]
        props = {}
        for part in [schema] + schema.get("allOf", []):
            for branch in [part] + part.get("oneOf", []):
                props.update(branch.get("properties", {}))
        value = {k: _coerce(v, props.get(k, {})) for k, v in form.items()}
        if template == "/api/challenge/{username}":
            # SPEC_NOTES: the oneOf whose unlimited branch matches every body.
            one = schema["allOf"][0]["oneOf"]
            rest = {"allOf": schema["allOf"][1:]}
            self.check(f"{method} {template} body", lambda: self.spec.validate(rest, base, value))
            if "clock.limit" in value:
                self.check(f"{method} {template} body",
                           lambda: self.spec.validate(one[0], base, value))
            else:
                self.check(f"{method} {template} body",
                           lambda: self.spec.validate({"anyOf": one}, base, value))
            return
        self.check(f"{method} {template} body", lambda: self.spec.validate(schema, base, value))

    def check_line(self, method, template, line):
        base, _, op = self.spec.operation(method, template)
        content = op["responses"]["200"]["content"]
        schema = content.get("application/x-ndjson", {}).get("schema")
        if template == "/api/challenge/{username}":
            schema = DONE_SCHEMA if "done" in line else content["application/json"]["schema"]
        if schema is not None and not (template == "/api/board/seek"):
            self.check(f"{method} {template} line", lambda: self.spec.validate(schema, base, line))

    # ------------------------------------------------------------ the rules (Stockfish)

    def _sf(self, cmd, until):
        self.rules.stdin.write(cmd + "\n")
        self.rules.stdin.flush()
        lines = []
        while True:
            line = self.rules.stdout.readline()
            if not line:
                raise RuntimeError("the rules' Stockfish stopped")
            lines.append(line.rstrip("\n"))
            if line.startswith(until):
                return lines

    def legal(self, game, extra=()):
        """The legal moves after the game's moves (and `extra`), and whether the side to move
        is in check."""
        pos = "startpos" if game.fen == "startpos" else "fen " + game.fen
        moves = list(game.moves) + list(extra)
        with self.rules_lock:
            self.rules.stdin.write(f"position {pos}" + (" moves " + " ".join(moves) if moves
                                                        else "") + "\n")
            out = self._sf("go perft 1", "Nodes searched")
            board = self._sf("d", "Checkers")
        legal = [line.split(":")[0] for line in out if ":" in line and line[:1] in "abcdefgh"]
        check = board[-1].split(":", 1)[1].strip() != ""
        return legal, check

    # ------------------------------------------------------------ events

    def event(self, user, obj, template="/api/stream/event"):
        self.check_line("GET", template, obj)
        q = self.event_streams.get(user)
        if q is not None:
            q.put(json.dumps(obj, separators=(",", ":")))

    def game_line(self, game, obj):
        self.check_line("GET", "/api/board/game/stream/{gameId}", obj)
        line = json.dumps(obj, separators=(",", ":"))
        if self.trace and obj.get("type") == "gameState":
            with open(self.trace, "a") as f:
                f.write(f"{time.monotonic_ns()} server-state {len(game.moves)}\n")
        for q in list(game.streams):
            q.put(line)

    def game_full(self, game, user):
        def player(u):
            return {"id": u, "name": u.capitalize(), "title": None, "rating": 1500,
                    "provisional": False}
        return {"type": "gameFull", "id": game.id,
                "variant": {"key": "standard", "name": "Standard", "short": "Std"},
                "clock": {"initial": game.limit_ms, "increment": game.inc_ms},
                "speed": game.speed(), "perf": {"name": game.speed().capitalize()},
                "rated": game.rated, "createdAt": game.created, "white": player(game.white),
                "black": player(game.black), "initialFen": game.fen, "state": game.state()}

    def game_info(self, game, user):
        c = game.color_of(user)
        other = game.black if c == 0 else game.white
        status = {"started": 20, "aborted": 25, "mate": 30, "resign": 31, "stalemate": 32,
                  "timeout": 33, "draw": 34, "outoftime": 35}.get(game.status, 20)
        return {"fullId": game.id + "abcd", "gameId": game.id,
                "fen": START_FEN if game.fen == "startpos" else game.fen,
                "color": "white" if c == 0 else "black", "lastMove": "",
                "source": "friend", "status": {"id": status, "name": game.status},
                "variant": {"key": "standard", "name": "Standard"}, "speed": game.speed(),
                "perf": game.speed(), "rated": game.rated, "hasMoved": False,
                "opponent": {"id": other, "username": other.capitalize(), "rating": 1500},
                "isMyTurn": game.side_to_move() == c, "secondsLeft": game.limit_ms // 1000,
                "compat": {"bot": False, "board": True}, "id": game.id}

    def new_game(self, white, black, limit_s, inc_s, rated, gid=None):
        game = Game(gid or _id(), white, black, limit_s, inc_s, rated)
        with self.lock:
            self.games[game.id] = game
        for u in (white, black):
            self.event(u, {"type": "gameStart", "game": self.game_info(game, u)})
        return game

    def end(self, game, status, winner=None):
        with game.lock:
            if game.status != "started":
                return
            game.times = game.now_times()
            game.status, game.winner = status, winner
            game.since = None
            self.game_line(game, game.state())
            for u in (game.white, game.black):
                self.event(u, {"type": "gameFinish", "game": self.game_info(game, u)})
            for q in list(game.streams):
                q.put(None)

    def play(self, game, user, uci):
        """A move by `user`: 0 or the error of the 400."""
        with game.lock:
            c = game.color_of(user)
            if game.status != "started" or c is None or c != game.side_to_move():
                return "Not your turn, or game already over"
            legal, _ = self.legal(game)
            if uci not in legal:
                return f"Piece on {uci[:2]} cannot move to {uci[2:4]}"
            now = time.monotonic()
            if game.since is not None:
                game.times[c] -= int((now - game.since) * 1000)
                if game.times[c] <= 0:
                    game.times[c] = 0
                    self.end(game, "outoftime", 1 - c)
                    return "Not your turn, or game already over"
                game.times[c] += game.inc_ms
            game.moves.append(uci)
            game.draw[1 - c] = False  # a move declines the draw offered to the mover
            game.takeback = [False, False]
            if len(game.moves) >= 2:
                game.since = now
            legal, check = self.legal(game)
            if not legal:
                game.status, game.winner = ("mate", c) if check else ("stalemate", None)
                game.since = None
            self.game_line(game, game.state())
            if game.status != "started":
                for u in (game.white, game.black):
                    self.event(u, {"type": "gameFinish", "game": self.game_info(game, u)})
                for q in list(game.streams):
                    q.put(None)
        return None

    # ------------------------------------------------------------ what the test drives

    def opponent_move(self, game, uci):
        user = game.white if game.color_of(game.white) == game.side_to_move() else game.black
        return self.play(game, user, uci)

    def set_offer(self, game, user, kind, on):
        with game.lock:
            c = game.color_of(user)
            other = 1 - c
            if kind == "draw":
                if on and game.draw[other]:
                    self.end(game, "draw")
                    return None
                if not on:
                    game.draw[other] = False
                else:
                    game.draw[c] = True
            else:
                if on and game.takeback[other]:
                    # The proposer's last move goes, and the reply to it if one came.
                    proposer = other
                    n = 2 if game.side_to_move() == proposer else 1
                    del game.moves[len(game.moves) - n:]
                    game.takeback = [False, False]
                    if len(game.moves) < 2:
                        game.since = None
                    else:
                        game.since = time.monotonic()
                elif not on:
                    game.takeback[other] = False
                else:
                    game.takeback[c] = True
            self.game_line(game, game.state())
        return None

    def opponent_gone(self, game, gone, claim_in_s=0):
        user = game.black if game.color_of(self.device) == 0 else game.white
        with game.lock:
            game.gone = (game.color_of(user) if gone else None)
            game.claim_at = time.monotonic() + claim_in_s
            msg = {"type": "opponentGone", "gone": gone}
            if gone:
                msg["claimWinInSeconds"] = claim_in_s
            self.game_line(game, msg)

    def challenge_device(self, challenger, limit_s, inc_s, rated=False, variant="standard"):
        cid = _id()
        ch = {"id": cid, "url": f"{self.url}/{cid}", "status": "created",
              "challenger": {"id": challenger, "name": challenger.capitalize(), "rating": 1500,
                             "online": True},
              "destUser": {"id": self.device, "name": self.device.capitalize(), "rating": 1500},
              "variant": {"key": variant, "name": variant.capitalize(), "short": "Std"},
              "rated": rated, "speed": Game("x", "a", "b", limit_s, inc_s, rated).speed(),
              "timeControl": {"type": "clock", "limit": limit_s, "increment": inc_s,
                              "show": f"{limit_s // 60}+{inc_s}"},
              "color": "random", "finalColor": "white",
              "perf": {"icon": "", "name": "Rapid"}, "direction": "in"}
        with self.lock:
            self.challenges[cid] = {"json": ch, "from": challenger, "to": self.device,
                                    "queue": None, "limit": limit_s, "inc": inc_s,
                                    "rated": rated, "color": "random"}
        self.event(self.device, {"type": "challenge", "challenge": ch,
                                 "compat": {"bot": False, "board": True}})
        return cid

    def accept_challenge(self, cid):
        """The test's opponent takes the device's challenge."""
        ch = self.challenges.pop(cid)
        color = ch["color"]
        white, black = ((ch["from"], ch["to"]) if color == "white" or
                        (color == "random" and random.random() < 0.5) else (ch["to"], ch["from"]))
        game = self.new_game(white, black, ch["limit"], ch["inc"], ch["rated"], gid=cid)
        if ch["queue"]:
            ch["queue"].put(json.dumps({"done": "accepted"}))
            ch["queue"].put(None)
        return game

    def decline_challenge(self, cid):
        ch = self.challenges.pop(cid)
        declined = dict(ch["json"], status="declined", declineReason="I'm not accepting "
                        "challenges at the moment.", declineReasonKey="later")
        self.event(ch["from"], {"type": "challengeDeclined", "challenge": declined})
        if ch["queue"]:
            ch["queue"].put(json.dumps({"done": "declined"}))
            ch["queue"].put(None)

    def take_seek(self, opponent):
        """The test's opponent takes the device's seek: the game begins."""
        with self.lock:
            user, form, q = self.seeks.pop(0)
        color = form.get("color", "random")
        minutes = float(form["time"])
        white, black = ((user, opponent) if color == "white" or
                        (color == "random" and random.random() < 0.5) else (opponent, user))
        game = self.new_game(white, black, int(minutes * 60), int(form["increment"]),
                             form.get("rated") == "true")
        q.put(None)
        return game

    def drop_streams(self, game=None):
        """The connections of a game's streams (or every stream) closed at once."""
        if game is not None:
            for q in list(game.streams):
                q.put("DROP")
            return
        for q in list(self.event_streams.values()):
            q.put("DROP")
        for g in self.games.values():
            for q in list(g.streams):
                q.put("DROP")

    def fail_next(self, prefix, status, count=1, method=None):
        """The next `count` requests whose path starts with prefix answered with status (or
        "drop": the connection closed without an answer)."""
        with self.lock:
            self.fail.append([prefix, method, status, count])

    def requests_to(self, fragment, method=None):
        with self.lock:
            return [r for r in self.requests if fragment in r[2] and
                    (method is None or r[1] == method)]

    # ------------------------------------------------------------ running

    def start(self, port=0):
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_GET(self):
                server.handle(self, "GET")

            def do_POST(self):
                server.handle(self, "POST")

        class Quiet(ThreadingHTTPServer):
            def handle_error(self, request, client_address):
                pass  # a client gone mid-request (the test's own faults, a refused TLS)

        self.httpd = Quiet(("127.0.0.1", port), Handler)
        self.httpd.daemon_threads = True
        if self.tls:
            ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            ctx.load_cert_chain(*self.tls)
            self.httpd.socket = ctx.wrap_socket(self.httpd.socket, server_side=True)
        self.port = self.httpd.server_address[1]
        self.url = f"{'https' if self.tls else 'http'}://127.0.0.1:{self.port}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        return self

    def down(self):
        """The server down: nothing listens on its port (the streams dropped)."""
        self.drop_streams()
        self.httpd.shutdown()
        self.httpd.server_close()

    def up(self):
        self.start(self.port)

    def stop(self):
        try:
            self.down()
        except Exception:
            pass
        self.rules.stdin.write("quit\n")
        self.rules.stdin.flush()
        self.rules.wait()

    # ------------------------------------------------------------ requests

    ROUTES = [
        ("GET", "/api/account", "account"),
        ("GET", "/api/stream/event", "event_stream"),
        ("POST", "/api/board/seek", "seek"),
        ("GET", "/api/board/game/stream/{gameId}", "game_stream"),
        ("POST", "/api/board/game/{gameId}/move/{move}", "move"),
        ("POST", "/api/board/game/{gameId}/draw/{accept}", "draw"),
        ("POST", "/api/board/game/{gameId}/takeback/{accept}", "takeback"),
        ("POST", "/api/board/game/{gameId}/abort", "abort"),
        ("POST", "/api/board/game/{gameId}/resign", "resign"),
        ("POST", "/api/board/game/{gameId}/claim-victory", "claim_victory"),
        ("POST", "/api/board/game/{gameId}/claim-draw", "claim_draw"),
        ("POST", "/api/challenge/{challengeId}/accept", "challenge_accept"),
        ("POST", "/api/challenge/{challengeId}/decline", "challenge_decline"),
        ("POST", "/api/challenge/{challengeId}/cancel", "challenge_cancel"),
        ("POST", "/api/challenge/{username}", "challenge_create"),
    ]

    @staticmethod
    def match(template, path):
        t, p = template.strip("/").split("/"), path.strip("/").split("/")
        if len(t) != len(p):
            return None
        params = {}
        for a, b in zip(t, p):
            if a.startswith("{"):
                params[a[1:-1]] = urllib.parse.unquote(b)
            elif a != b:
                return None
        return params

    def reply(self, h, method, template, status, obj):
        body = json.dumps(obj, separators=(",", ":")).encode()
        if template:
            self.check_response(method, template, status, "application/json", obj)
        h.send_response(status)
        h.send_header("Content-Type", "application/json")
        h.send_header("Content-Length", str(len(body)))
        h.end_headers()
        h.wfile.write(body)

    def stream(self, h, method, template, q, first=()):
        """An NDJSON stream (chunked): the lines put in q, an empty line every keepalive_s;
        None ends it, "DROP" closes the connection at once."""
        h.send_response(200)
        h.send_header("Content-Type", "application/x-ndjson")
        h.send_header("Transfer-Encoding", "chunked")
        h.end_headers()

        def chunk(data):
            data = data.encode()
            h.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
            h.wfile.flush()

        try:
            for line in first:
                chunk(line + "\n")
            while True:
                try:
                    line = q.get(timeout=self.keepalive_s)
                except queue.Empty:
                    chunk("\n")
                    continue
                if line == "DROP":
                    h.close_connection = True
                    h.connection.shutdown(socket.SHUT_RDWR)
                    return
                if line is None:
                    break
                chunk(line + "\n")
                if self.trace and '"type":"gameState"' in line:
                    with open(self.trace, "a") as f:
                        f.write(f"{time.monotonic_ns()} server-sent {line.count(' ') + 1}\n")
            h.wfile.write(b"0\r\n\r\n")
            h.wfile.flush()
        except OSError:
            pass

    def handle(self, h, method):
        t0 = time.monotonic_ns()
        url = urllib.parse.urlsplit(h.path)
        query = dict(urllib.parse.parse_qsl(url.query))
        length = int(h.headers.get("Content-Length") or 0)
        raw = h.rfile.read(length).decode() if length else ""
        form = dict(urllib.parse.parse_qsl(raw))
        auth = h.headers.get("Authorization", "")
        token = auth[7:] if auth.startswith("Bearer ") else None
        user = self.users.get(token) if token not in self.revoked else None
        route = None
        for m, template, name in self.ROUTES:
            params = self.match(template, url.path)
            if m == method and params is not None:
                route = (template, name, params)
                break
        status = [0]

        def log(code):
            status[0] = code
            with self.lock:
                self.requests.append((t0, method, url.path, code, user))

        if route is None:
            log(404)
            return self.reply(h, method, None, 404, {"error": "Not found."})
        template, name, params = route
        self.check_request(method, template, params, query, form)
        with self.lock:
            for f in self.fail:
                if url.path.startswith(f[0]) and (f[1] is None or f[1] == method) and f[3] > 0:
                    f[3] -= 1
                    if f[2] == "drop":
                        log(0)
                        h.close_connection = True
                        h.connection.shutdown(socket.SHUT_RDWR)
                        return
                    log(f[2])
                    return self.reply(h, method, template, f[2],
                                      {"error": "Too many requests. Try again later."
                                       if f[2] == 429 else "Server error"})
        if user is None:
            log(401)
            return self.reply(h, method, template, 401, {"error": "No such token"})
        log(200)
        getattr(self, "r_" + name)(h, method, template, params, query, form, user, log)

    # the endpoints

    def r_account(self, h, method, template, params, query, form, user, log):
        self.reply(h, method, template, 200, {
            "id": user, "username": user.capitalize(), "createdAt": 1290415680000,
            "seenAt": int(time.time() * 1000), "playTime": {"total": 3600, "tv": 0},
            "url": f"{self.url}/@/{user}"})

    def r_event_stream(self, h, method, template, params, query, form, user, log):
        q = queue.Queue()
        old = self.event_streams.get(user)
        if old is not None:
            old.put("DROP")  # one event stream a token: the previous one closes
        self.event_streams[user] = q
        first = []
        for g in list(self.games.values()):
            if g.status == "started" and g.color_of(user) is not None:
                obj = {"type": "gameStart", "game": self.game_info(g, user)}
                self.check_line(method, template, obj)
                first.append(json.dumps(obj, separators=(",", ":")))
        for c in list(self.challenges.values()):
            if c["to"] == user:
                obj = {"type": "challenge", "challenge": c["json"],
                       "compat": {"bot": False, "board": True}}
                self.check_line(method, template, obj)
                first.append(json.dumps(obj, separators=(",", ":")))
        self.stream(h, method, template, q, first)
        if self.event_streams.get(user) is q:
            del self.event_streams[user]

    def r_seek(self, h, method, template, params, query, form, user, log):
        q = queue.Queue()
        with self.lock:
            self.seeks.append((user, form, q))
        self.stream(h, method, template, q)
        with self.lock:
            self.seeks = [s for s in self.seeks if s[2] is not q]

    def game_of(self, h, method, template, params, user, log):
        game = self.games.get(params["gameId"])
        if game is None or game.color_of(user) is None:
            log(404)
            self.reply(h, method, template, 404, {"error": "No such game"})
            return None
        return game

    def r_game_stream(self, h, method, template, params, query, form, user, log):
        game = self.game_of(h, method, template, params, user, log)
        if game is None:
            return
        q = queue.Queue()
        with game.lock:
            full = self.game_full(game, user)
            self.check_line(method, template, full)
            first = [json.dumps(full, separators=(",", ":"))]
            if game.status != "started":
                q.put(None)
            else:
                game.streams.append(q)
        self.stream(h, method, template, q, first)
        with game.lock:
            if q in game.streams:
                game.streams.remove(q)

    def bad(self, h, method, template, log, why):
        log(400)
        self.reply(h, method, template, 400, {"error": why})

    def r_move(self, h, method, template, params, query, form, user, log):
        game = self.game_of(h, method, template, params, user, log)
        if game is None:
            return
        if self.trace:
            with open(self.trace, "a") as f:
                f.write(f"{time.monotonic_ns()} server-move {params['move']}\n")
        if self.refuse_moves:
            self.refuse_moves -= 1
            return self.bad(h, method, template, log, "Not your turn, or game already over")
        why = self.play(game, user, params["move"])
        if why:
            return self.bad(h, method, template, log, why)
        if query.get("offeringDraw") == "true":
            self.set_offer(game, user, "draw", True)
        if self.lose_move_answers:
            # Taken, and the answer lost with the connection.
            self.lose_move_answers -= 1
            h.close_connection = True
            h.connection.shutdown(socket.SHUT_RDWR)
            return
        self.reply(h, method, template, 200, {"ok": True})

    def r_draw(self, h, method, template, params, query, form, user, log):
        self._offer(h, method, template, params, user, log, "draw")

    def r_takeback(self, h, method, template, params, query, form, user, log):
        self._offer(h, method, template, params, user, log, "takeback")

    def _offer(self, h, method, template, params, user, log, kind):
        game = self.game_of(h, method, template, params, user, log)
        if game is None:
            return
        if game.status != "started":
            return self.bad(h, method, template, log, "The game is over")
        on = params["accept"] in ("yes", "true")
        self.set_offer(game, user, kind, on)
        self.reply(h, method, template, 200, {"ok": True})

    def r_abort(self, h, method, template, params, query, form, user, log):
        game = self.game_of(h, method, template, params, user, log)
        if game is None:
            return
        if game.status != "started" or len(game.moves) >= 2:
            return self.bad(h, method, template, log, "This game can no longer be aborted")
        self.end(game, "aborted")
        self.reply(h, method, template, 200, {"ok": True})

    def r_resign(self, h, method, template, params, query, form, user, log):
        game = self.game_of(h, method, template, params, user, log)
        if game is None:
            return
        if game.status != "started":
            return self.bad(h, method, template, log, "The game is over")
        self.end(game, "resign", 1 - game.color_of(user))
        self.reply(h, method, template, 200, {"ok": True})

    def _claim(self, h, method, template, params, user, log, draw):
        game = self.game_of(h, method, template, params, user, log)
        if game is None:
            return
        c = game.color_of(user)
        if game.gone != 1 - c or time.monotonic() < game.claim_at:
            return self.bad(h, method, template, log, "You cannot claim now")
        self.end(game, "draw" if draw else "timeout", None if draw else c)
        self.reply(h, method, template, 200, {"ok": True})

    def r_claim_victory(self, h, method, template, params, query, form, user, log):
        self._claim(h, method, template, params, user, log, False)

    def r_claim_draw(self, h, method, template, params, query, form, user, log):
        self._claim(h, method, template, params, user, log, True)

    def r_challenge_create(self, h, method, template, params, query, form, user, log):
        dest = params["username"].lower()
        cid = _id()
        limit, inc = int(form.get("clock.limit", 0)), int(form.get("clock.increment", 0))
        color = form.get("color", "random")
        ch = {"id": cid, "url": f"{self.url}/{cid}", "status": "created",
              "challenger": {"id": user, "name": user.capitalize(), "rating": 1500},
              "destUser": {"id": dest, "name": dest.capitalize(), "rating": 1500},
              "variant": {"key": "standard", "name": "Standard", "short": "Std"},
              "rated": form.get("rated") == "true",
              "speed": Game("x", "a", "b", limit, inc, False).speed(),
              "timeControl": {"type": "clock", "limit": limit, "increment": inc,
                              "show": f"{limit // 60}+{inc}"},
              "color": color, "perf": {"icon": "", "name": "Rapid"}, "direction": "out"}
        q = queue.Queue() if form.get("keepAliveStream") == "true" else None
        with self.lock:
            self.challenges[cid] = {"json": ch, "from": user, "to": dest, "queue": q,
                                    "limit": limit, "inc": inc, "rated": ch["rated"],
                                    "color": color}
        self.event(dest, {"type": "challenge", "challenge": dict(ch, direction="in"),
                          "compat": {"bot": False, "board": True}})
        if q is None:
            return self.reply(h, method, template, 200, ch)
        self.check_line(method, template, ch)
        self.stream(h, method, template, q, [json.dumps(ch, separators=(",", ":"))])

    def r_challenge_accept(self, h, method, template, params, query, form, user, log):
        cid = params["challengeId"]
        ch = self.challenges.get(cid)
        if ch is None or ch["to"] != user:
            log(404)
            return self.reply(h, method, template, 404, {"error": "Not found."})
        self.reply(h, method, template, 200, {"ok": True})
        self.accept_challenge(cid)

    def r_challenge_decline(self, h, method, template, params, query, form, user, log):
        cid = params["challengeId"]
        ch = self.challenges.get(cid)
        if ch is None or ch["to"] != user:
            log(404)
            return self.reply(h, method, template, 404, {"error": "Not found."})
        self.challenges.pop(cid)
        self.reply(h, method, template, 200, {"ok": True})

    def r_challenge_cancel(self, h, method, template, params, query, form, user, log):
        cid = params["challengeId"]
        if self.challenges.pop(cid, None) is None:
            log(404)
            return self.reply(h, method, template, 404, {"error": "Not found."})
        self.reply(h, method, template, 200, {"ok": True})
