#!/usr/bin/python3
"""The daemon's replies on its control socket against the replies' table (tests/check-codes.sh
BUILD).  A real annabellad plays a sim game in real time; requests from two assistants (two
connections, `auth PIN NAME`) and the arbiter cover errors of every layer (the line, the
table's roles and needs, the parsers, the referee) and successes; every reply must carry a
code of the table with the arguments its row names (in its order), and its `text` or
`error` must be the code's English wording built from those arguments (the marks of
game/replies.h, worded here again).  Two relayers of one ply: the second is refused.
"""
import json
import os
import pwd
import re
import socket
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import checklib  # noqa: E402
from checklib import check  # noqa: E402

BUILD = sys.argv[1]
WORK = checklib.begin("codes")
SOCK = os.path.join(WORK, "control")
seen = set()
checklib.at_exit(lambda: print(f"codes: {len(seen)} codes seen from the daemon"))


TABLE = {}
for line in subprocess.run([f"{BUILD}/annabella", "codes"], capture_output=True, text=True,
                           check=True).stdout.splitlines():
    row = json.loads(line)
    TABLE[row["code"]] = row

MARKS = re.compile(r"\[([^\]{]*\{[^\]]*)\]|\{(\w+)(?:\|([^|}]*)\|([^}]*))?\}")
MARK = re.compile(r"\{(\w+)(?:\|([^|}]*)\|([^}]*))?\}")


def value(args, key, one, other):
    if key not in args:
        return None
    if one is not None:
        return one if args[key] == 1 else other
    return str(args[key])


def word(template, args):
    """The English text of a code's wording with these arguments (None: one is missing)."""
    missing = []

    def sub(m):
        inside, key, one, other = m.groups()
        if inside is None:
            v = value(args, key, one, other)
            if v is None:
                missing.append(key)
            return v or ""
        gone = []

        def part(m2):
            v = value(args, *m2.groups())
            if v is None:
                gone.append(m2.group(1))
            return v or ""
        text = MARK.sub(part, inside)
        return "" if gone else text
    text = MARKS.sub(sub, template)
    return None if missing else text


def verify(request, reply):
    """A reply's code, arguments and text against the table."""
    code = reply.get("code")
    row = TABLE.get(code)
    if not row:
        check(f"'{request}': a code of the table", False, json.dumps(reply))
        return
    seen.add(code)
    args = reply.get("args")
    order = [k for k in row["args"] if k in (args or {})]
    check(f"'{request}': {code}'s arguments are its row's, in order",
          isinstance(args, dict) and list(args) == order
          and all(k in args for k in row["args"] if k not in row["optional"]),
          f"{args} for {row['args']}")
    check(f"'{request}': ok as its code says", reply.get("ok") == row["ok"], json.dumps(reply))
    if row["wording"] is not None:
        text = reply.get("text" if row["ok"] else "error")
        check(f"'{request}': the text is {code}'s wording from its arguments",
              text == word(row["wording"], args or {}), f"{text!r} != {word(row['wording'], args or {})!r}")


class Client:
    def __init__(self):
        self.s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.s.connect(SOCK)
        self.s.settimeout(5)
        self.buf = b""

    def ask(self, request):
        self.s.sendall(request.encode() + b"\n")
        while b"\n" not in self.buf:
            data = self.s.recv(65536)
            if not data:
                raise SystemExit(f"codes: the daemon closed the connection after '{request}'")
            self.buf += data
        line, self.buf = self.buf.split(b"\n", 1)
        reply = json.loads(line)
        verify(request, reply)
        return reply


# 1. e4 played; then a long wait with Black (the opponent) to move.
SCRIPT = """player white
time-control 600+5
+300 press opponent-clock
+300 lift e2
+200 place e4
+300 press player-clock
+120000 crash
"""
CONF = f"""[control]
socket = {SOCK}
arbiters = {pwd.getpwuid(os.getuid()).pw_name}
arbiter-pin = 4711
assistant-pin = 1234
[voice]
record = no
"""


def main():
    with open(os.path.join(WORK, "game.script"), "w") as f:
        f.write(SCRIPT)
    with open(os.path.join(WORK, "annabella.conf"), "w") as f:
        f.write(CONF)
    checklib.spawn(
        "daemon",
        [f"{BUILD}/annabellad", "--config", os.path.join(WORK, "annabella.conf"), "--board",
         "sim:" + os.path.join(WORK, "game.script"), "--time", "real", "--audio", "none",
         "--state", os.path.join(WORK, "state")], stderr=open(os.path.join(WORK, "err"), "w"))
    checklib.wait_path(SOCK, 6)
    time.sleep(1.6)
    anna, ben, arbiter = Client(), Client(), Client()
    check("anna's PIN and name", anna.ask("auth 1234 anna")["ok"])
    check("ben's PIN and name", ben.ask("auth 1234 ben")["ok"])
    for request in ["frobnicate now", "", "status", "moves", "help", "export pgn", "export xyz",
                    "pause", "tags Event Club Open", "tags Result 1-0", "tags 9x y",
                    "move 5 e5", "move 1 e4", "move x e5", "move 2 Qq9", "draw-offer black",
                    "claim fifty", "watch now", "auth 1234 a:b", "resign", "status public",
                    "x" * 70]:
        anna.ask(request)
    r = anna.ask("move 2 e5")
    check("anna relays ply 2", r["ok"] and r["code"] == "relayed", json.dumps(r))
    r = ben.ask("move 2 c5")
    check("ben's relay of the same ply is refused, naming who relayed it",
          not r["ok"] and r["code"] == "relay-taken" and "+pin:anna" in r["args"]["by"], json.dumps(r))
    r = ben.ask("move 2 e5")
    check("ben's relay of the same move is no harm", r["ok"] and r["code"] == "relay-in-game", json.dumps(r))
    r = anna.ask("move 1... c5")
    check("anna corrects her own", r["ok"] and r["code"] == "relayed-correction", json.dumps(r))
    for request in ["pause", "resume", "resume", "clock set 1:00 x", "clock set 0:09:00 0:09:00",
                    "compare 1. e4 c5", "compare e4 e5 Ke9", "rollback 9", "illegal white",
                    "claim uphold", "result 1-0", "approve", "result 1-0 agreed by the players",
                    "approve", "approve", "rollback 0"]:
        arbiter.ask(request)
    check("a watcher is told so", anna.ask("watch")["code"] == "watching")
    with open(os.path.join(WORK, "state", "control.log")) as f:
        log = f.read()
    check("control.log names the two relayers", "+pin:anna assistant move 2 e5 => ok" in log
          and "+pin:ben assistant move 2 c5 => error" in log, log[-600:])


checklib.run(main)
