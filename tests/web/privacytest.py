#!/usr/bin/python3
"""Who hears what, at every sink, with real clients (tests/check-privacy.sh BUILD).

The daemon plays a sim game in real time that produces the events whose audience matters:
moves on the speaker, private times, a repeat, a promotion chosen in the earphone, a
mismatch and its guidance, a board kept from the player during their own move (11.3.1),
claims (whether one is correct is the arbiter's alone, 11.3.1), a ruling, refused PINs, the
arbiter's clock setting, pause, draw offer, result and approval.  The sinks:

  arbiter     `watch` of a Unix user named in [control] arbiters        everything
  assistant   `watch` of a Unix user in the socket's group              public + player
  public      `watch public`, given by the arbiter's user                public
  web         the web page's event stream (/api/events) in Chromium;     public
              the web process runs as the arbiter's user
  mqtt        the broadcast's events through a real mosquitto; the       public
              broadcast runs as the arbiter's user
  speech.log  the speaker's and the earphone's utterances                public / player

Every event the arbiter's watch received is classified here by its type (independently of
the daemon's own "audience" field, which must agree), and must be at each other sink exactly
when its audience reaches that sink.  The status the page and the broadcast show, and the
status of an assistant, never say whether a claim is correct; the arbiter's does.
"""
import json
import os
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import checklib  # noqa: E402
from browser import chromium  # noqa: E402
from checklib import as_user, check, free_port, http, in_group, procs, wait_port  # noqa: E402

BUILD = sys.argv[1]
WORK = checklib.begin("privacy")
SOCK = os.path.join(WORK, "run", "control")
# Names of this run's own, so that two runs at once (two checkouts on one machine) never take
# each other's users and group away.
_RUN = os.getpid() % 100000
GROUP = f"anb-pt{_RUN}"
ASSISTANT, ARBITER = f"anb-pa{_RUN}", f"anb-pr{_RUN}"
TOOL = None  # the copy the test users run (main())
driver = None
checklib.at_exit(lambda: driver and driver.quit())




CONF = f"""[control]
socket = {SOCK}
group = {GROUP}
arbiters = {ARBITER}
arbiter-pin = 471147
assistant-pin = 123456
[voice]
record = no
[display]
# no bus: the display is tried again every 5 s; the arbiter's menu on the buttons works
type = hd44780
bus = /dev/null-i2c
"""
PIN = "471147"

# The tactile player has White: b7 promotes (the queen chosen with select), Black's replies
# are relayed by the assistant and replicated on the tactile board (once wrongly: the
# mismatch flow and its guidance), White's knight is first put on a square no legal move
# explains during White's own move (kept from the player: held), then claims, a ruling,
# the clocks set, paused and resumed, a draw offer, the result and its approval.  Then the
# arbiter's menu on the buttons: the chord, a wrong PIN (nothing entered), the right one
# (4 7 1 1 4 7: select as often as the digit, repeat), and the menu closed again.  A live
# script (the daemon reads a named pipe): the header first; the actions once every sink is
# open; the second part once the test has read the statuses while the claim stands.
HEADER = """player white
time-control 600+5
setup 4k1n1/1P6/8/8/8/8/8/4K1N1 w - - 0 1

"""
PART1 = """+1000 press opponent-clock
+800 press info
+700 lift b7
+300 place b8
+600 press select
+700 press player-clock
+700 press repeat
+600 control assistant move Ke7
+800 lift e8
+300 place d7
+3800 press select
+600 lift d7
+300 place e7
+700 press opponent-clock
+800 lift g1
+300 place g4
+4500 lift g4
+300 place g1
+900 lift g1
+300 place f3
+600 press player-clock
+600 control assistant claim threefold
+600 control assistant move Nf6
+700 lift g8
+300 place f6
+600 press opponent-clock
+700 control assistant claim fifty
"""
PART2 = """+300 control arbiter claim reject
+900 press info
+900 control arbiter clock set 0:09:00 0:09:30
+900 control arbiter pause
+900 control arbiter resume
+900 control assistant draw-offer black
+900 control arbiter claim threefold white
+1500 control arbiter claim reject
+900 control arbiter result 1/2-1/2 agreed draw
+900 control assistant approve
+3000 press info
+1000 hold info 2500
+100 hold repeat 2400
+2600 press repeat
+150 press repeat
+150 press repeat
+150 press repeat
+150 press repeat
+150 press repeat
+150 press info
+150 press select
+150 press select
+150 press select
+150 press select
+150 press repeat
+150 press select
+150 press select
+150 press select
+150 press select
+150 press select
+150 press select
+150 press select
+150 press repeat
+150 press select
+150 press repeat
+150 press select
+150 press repeat
+150 press select
+150 press select
+150 press select
+150 press select
+150 press repeat
+150 press select
+150 press select
+150 press select
+150 press select
+150 press select
+150 press select
+150 press select
+150 press repeat
+150 press info
+1000 press pause
"""

# The audience of each event type, as docs/control.md "Control interface" gives it (not read from the
# daemon).  A type not listed here fails the test: a new event must be classified on purpose.
PUBLIC_TYPES = {
    "game", "lift", "place", "promotion", "made", "press", "complete", "pause", "resume",
    "mismatch", "restored", "flag", "result", "restart", "draw-offer", "resign", "approve",
    "tag", "relayed", "withdrawn", "rollback", "illegal", "clock-set", "ruling", "claimed",
    "checkpoint", "takeback",
}
# What the referee asks of the training process (docs/training.md "Training and study"): for its connection alone, never
# an event of any watch, the page or the broadcast.
ENGINE_ONLY_TYPES = {"hint-request", "train-request"}
PLAYER_TYPES = {"select"}
ARBITER_TYPES = {"claim", "held", "pin-refused", "fairplay"}
# What the game above must produce at least, so the test proves each of them.
MUST_SEE = {
    ("say", "public"), ("say", "player"), ("made", "public"), ("relayed", "public"),
    ("press", "public"), ("complete", "public"), ("promotion", "public"), ("select", "player"),
    ("mismatch", "public"), ("restored", "public"), ("held", "arbiter"), ("claim", "arbiter"),
    ("claimed", "public"), ("ruling", "public"), ("pin-refused", "arbiter"),
    ("clock-set", "public"), ("pause", "public"), ("resume", "public"),
    ("draw-offer", "public"), ("result", "public"), ("approve", "public"),
}
LEVEL = {"public": 0, "player": 1, "arbiter": 2}


def audience_of(ev):
    kind = ev.get("event")
    if kind == "say":
        return "public" if ev.get("channel") == "public" else "player"
    if kind in PUBLIC_TYPES:
        return "public"
    if kind in PLAYER_TYPES:
        return "player"
    if kind in ARBITER_TYPES:
        return "arbiter"
    return None


class Lines(threading.Thread):
    """A process's stdout, line by line, kept with the time it came."""

    def __init__(self, proc, skip_first=False):
        super().__init__(daemon=True)
        self.proc, self.lines, self.skip = proc, [], skip_first
        self.lock = threading.Lock()

    def run(self):
        for line in self.proc.stdout:
            line = line.rstrip("\n")
            with self.lock:
                self.lines.append(line)

    def get(self):
        with self.lock:
            return list(self.lines)


def watch(user, *args):
    """`annabella control watch [public]` as user: its reply first, then the events."""
    p = subprocess.Popen(as_user(user, [TOOL, "control", "--socket", SOCK,
                                        "watch", *args]),
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    procs["watch " + user + " ".join(args)] = p
    t = Lines(p)
    t.start()
    return t


def cli(user, *args, stdin=None):
    return subprocess.run(as_user(user, [TOOL, "control", "--socket", SOCK,
                                         *args]),
                          input=stdin, capture_output=True, text=True, timeout=20)


def events(lines):
    """The JSON events of a sink (its lines that parse as objects with an event)."""
    out = []
    for line in lines:
        try:
            ev = json.loads(line)
        except ValueError:
            continue
        if isinstance(ev, dict) and "event" in ev:
            out.append((line, ev))
    return out


def main():
    global driver, TOOL
    checklib.make_group(GROUP)
    checklib.make_user(ASSISTANT, GROUP)
    checklib.make_user(ARBITER, GROUP)
    TOOL = checklib.copy_for_users(f"{BUILD}/annabella")
    with open(os.path.join(WORK, "annabella.conf"), "w") as f:
        f.write(CONF)
    board = os.path.join(WORK, "game.board")
    os.mkfifo(board)
    # Read-write: neither the test nor the daemon waits for the other to open it.
    board_fd = os.open(board, os.O_RDWR)
    os.write(board_fd, HEADER.encode())
    port = free_port()
    checklib.broker_conf(os.path.join(WORK, "broker.conf"), port)
    procs["broker"] = subprocess.Popen(["mosquitto", "-c", os.path.join(WORK, "broker.conf")],
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    check("the broker starts", wait_port(port))
    sub = subprocess.Popen(["mosquitto_sub", "-p", str(port), "-v", "-t", "annabella/priv/#"],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    procs["mqtt"] = sub
    mqtt = Lines(sub)
    mqtt.start()

    # The daemon in the socket's group (as check-control runs it).
    procs["daemon"] = subprocess.Popen(
        in_group(GROUP, [f"{BUILD}/annabellad", "--config", os.path.join(WORK, "annabella.conf"),
                         "--board", "sim:" + board, "--time", "real",
                         "--audio", "none", "--state", os.path.join(WORK, "state")]),
        stderr=open(os.path.join(WORK, "daemon.err"), "w"))
    check("the control socket is there", checklib.wait_path(SOCK, 4))

    arbiter = watch(ARBITER)
    assistant = watch(ASSISTANT)
    public = watch(ARBITER, "public")

    web_port = free_port()
    procs["web"] = subprocess.Popen(
        as_user(ARBITER, [TOOL, "web", "--listen", f"127.0.0.1:{web_port}",
                          "--socket", SOCK]),
        stdout=subprocess.DEVNULL, stderr=open(os.path.join(WORK, "web.err"), "w"))
    procs["broadcast"] = subprocess.Popen(
        as_user(ARBITER, [TOOL, "broadcast", "--mqtt", f"127.0.0.1:{port}",
                          "--board", "priv", "--socket", SOCK]),
        stdout=subprocess.DEVNULL, stderr=open(os.path.join(WORK, "broadcast.err"), "w"))
    check("the web page listens", wait_port(web_port))
    base = f"http://127.0.0.1:{web_port}"
    driver = chromium("--window-size=1000,2000")
    driver.set_script_timeout(30)
    driver.get(base + "/")
    # The page's open event stream as any visitor's browser gets it.
    driver.execute_script(
        "window.__events = []; window.__open = false;"
        "const es = new EventSource('/api/events');"
        "es.addEventListener('hello', () => { window.__open = true; });"
        "es.onmessage = (e) => window.__events.push(e.data);")
    end = time.monotonic() + 10
    while time.monotonic() < end and not driver.execute_script("return window.__open"):
        time.sleep(0.05)
    check("the page's event stream is open", driver.execute_script("return window.__open"))
    end = time.monotonic() + 10
    while time.monotonic() < end and not any(
            line.startswith("annabella/priv/status ") for line in mqtt.get()):
        time.sleep(0.05)
    check("the broadcast is connected", any(
        line.startswith("annabella/priv/status ") for line in mqtt.get()))

    # Every sink is open: the game's actions, the first of them the moment from which each
    # sink must have what its audience may have.
    os.write(board_fd, PART1.encode())
    first_ms = None
    end = time.monotonic() + 60
    while time.monotonic() < end and first_ms is None:
        first_ms = next((ev["ms"] for _, ev in events(arbiter.get())
                         if ev.get("event") == "press"), None)
        time.sleep(0.05)
    check("the game's first action is made", first_ms is not None)
    first_ms = first_ms or 0

    # Refused PINs: an assistant's wrong PIN on the socket, a wrong PIN on the page.
    r = cli(ASSISTANT, stdin="auth 000000\n")
    check("a wrong PIN is refused", "wrong PIN" in r.stdout, r.stdout + r.stderr)
    st, text = http(base + "/api/command", b"draw-offer", {"X-PIN": "999999"})
    check("a wrong PIN on the page is refused", st == 403, f"{st} {text}")

    # While the assistant's claim stands (Black is on move at first: that claim is refused):
    # the second part of the script, which rules on it, waits for the test.
    end = time.monotonic() + 90
    r = cli(ARBITER, "status")
    while time.monotonic() < end and '"claim":{"open":true' not in r.stdout:
        time.sleep(0.1)
        r = cli(ARBITER, "status")
    check("the arbiter's status says whether the claim is correct",
          '"open":true,"correct":false' in r.stdout, r.stdout[r.stdout.find('"claim"'):][:160])
    r = cli(ASSISTANT, "status")
    check("the assistant's status shows the claim but not whether it is correct",
          '"open":true' in r.stdout and '"correct"' not in r.stdout,
          r.stdout[r.stdout.find('"claim"'):][:160])
    st, text = http(base + "/api/status")
    check("the page's status shows the claim but not whether it is correct",
          '"open":true' in text and '"correct"' not in text, text[text.find('"claim"'):][:160])
    for body in (b"status", b" status  "):
        st, text = http(base + "/api/command", body)
        check(f"{body!r} without a PIN on the page: no verdict, though the page's user is an"
              " arbiter", st == 200 and '"open":true' in text and '"correct"' not in text,
              text[text.find('"claim"'):][:160])
    st, text = http(base + "/api/command", b"status", {"X-PIN": "471147"})
    check("the arbiter's PIN on the page shows the verdict", '"correct":false' in text,
          text[text.find('"claim"'):][:160])
    os.write(board_fd, PART2.encode())
    os.close(board_fd)  # the script ends with it

    # The page's command form is the daemon's table: every row but watch and auth, each
    # with its usage; once the result is approved, what needs the game on cannot be chosen.
    end = time.monotonic() + 90
    while time.monotonic() < end and not any(ev.get("event") == "approve"
                                             for _, ev in events(arbiter.get())):
        time.sleep(0.1)
    time.sleep(1)
    table = json.loads(cli(ASSISTANT, "help").stdout)["commands"]
    rows = [c for c in table if not c["session"]]
    options = driver.execute_script(
        "return [...document.querySelectorAll('#command option')]"
        ".map(o => [o.textContent, o.disabled]);")
    # An arbiter's row is marked in the page's language: "(arbiter)", "(Schiedsrichter)"...
    check("the page's form has a choice for every row of the table but watch and auth",
          len(options) == len(rows) and all(
              o[0] == c["usage"] or (c["role"] == "arbiter" and o[0].startswith(c["usage"] + " (")
                                     and o[0].endswith(")"))
              for o, c in zip(options, rows)),
          f"{options}")
    # Disabled too: the rows of another mode (training and study are casual play's).
    mode = json.loads(cli(ASSISTANT, "status").stdout).get("mode")
    want = [bool({"play", "not-over", "not-closed", "undecided"} & set(c["needs"]))
            or mode not in c["modes"] for c in rows]
    check("after the result is approved, the commands that need the game on are disabled",
          [o[1] for o in options] == want, f"{options}")
    driver.execute_script(
        "const s = document.getElementById('command');"
        "s.value = [...s.options].findIndex(o => o.textContent.startsWith('claim uphold'));"
        "s.dispatchEvent(new Event('change'));")
    words = driver.execute_script(
        "return [...document.querySelectorAll('#args-words option')].map(o => o.value);")
    check("the argument field offers the row's words", words == ["uphold", "reject"], f"{words}")

    procs["daemon"].wait(timeout=120)
    check("the daemon ends the script cleanly", procs["daemon"].returncode == 0,
          str(procs["daemon"].returncode))
    time.sleep(1)
    web_lines = driver.execute_script("return window.__events")
    sinks = {
        "arbiter": events(arbiter.get()),
        "assistant": events(assistant.get()),
        "public": events(public.get()),
        "web": events(web_lines),
        "mqtt": events(line.split(" ", 1)[1] for line in mqtt.get()
                       if line.startswith("annabella/priv/event ")),
    }
    level = {"arbiter": 2, "assistant": 1, "public": 0, "web": 0, "mqtt": 0}
    received = {name: {line for line, _ in evs} for name, evs in sinks.items()}

    # Every event the arbiter saw: classified, and at each sink exactly as its audience says.
    seen = set()
    for line, ev in sinks["arbiter"]:
        want = audience_of(ev)
        if want is None:
            check(f"event type '{ev.get('event')}' is classified by this test", False, line)
            continue
        check(f"{ev['event']} carries its audience", ev.get("audience") == want,
              f"{ev.get('audience')} (want {want}): {line}")
        seen.add((ev["event"], want))
        if ev.get("ms", 0) < first_ms:
            continue  # before every sink was open
        for name in ("assistant", "public", "web", "mqtt"):
            should = LEVEL[want] <= level[name]
            check(f"{ev['event']} ({want}) {'reaches' if should else 'never reaches'} {name}",
                  (line in received[name]) == should, line)
    for kind, aud in sorted(MUST_SEE - seen):
        check(f"the game produced a {aud} '{kind}' event", False)
    # Nothing reached a sink that the arbiter's watch did not see.
    for name in ("assistant", "public", "web", "mqtt"):
        extra = [line for line, ev in sinks[name]
                 if line not in received["arbiter"] and ev.get("event") != "daemon"]
        check(f"{name} received only the daemon's events", not extra, "; ".join(extra[:3]))
    for name, evs in sinks.items():
        leaks = [line for line, ev in evs if ev.get("event") in ENGINE_ONLY_TYPES]
        check(f"no request to the training process at {name}", not leaks, "; ".join(leaks[:3]))
    # Whatever the classification: no verdict and no earphone words at the open sinks.
    for name in ("assistant", "public", "web", "mqtt"):
        leaks = [line for line, ev in sinks[name]
                 if '"correct"' in line or ev.get("event") in ("claim", "held", "pin-refused")]
        check(f"no claim verdict, kept board or refused PIN at {name}", not leaks,
              "; ".join(leaks[:3]))
    for name in ("public", "web", "mqtt"):
        leaks = [line for line, ev in sinks[name]
                 if ev.get("event") == "say" and ev.get("channel") != "public"]
        check(f"no earphone words at {name}", not leaks, "; ".join(leaks[:3]))
    private_says = [ev["text"] for _, ev in sinks["assistant"]
                    if ev.get("event") == "say" and ev.get("channel") == "private"]
    check("the assistant hears the player's times and guidance",
          any("Minuten" in t for t in private_says) and
          any("sollte" in t for t in private_says), "; ".join(private_says[:6]))
    statuses = [line for line in mqtt.get() if line.startswith("annabella/priv/status ")]
    check("the broadcast's status never says whether a claim is correct",
          statuses and not any('"correct"' in s for s in statuses),
          f"{len(statuses)} status messages")
    check("the broadcast's status showed the claim", any('"open":true' in s for s in statuses))

    # The arbiter's PIN entered on the board's buttons: its wrong try is an arbiter's
    # pin-refused event, both tries are in control.log as "auth ****", and its digits are
    # nowhere: no sink, no file of the state directory.
    check("the board's wrong PIN is a pin-refused event for the arbiter",
          any(ev.get("event") == "pin-refused" and '"board"' in line
              for line, ev in sinks["arbiter"]))
    with open(os.path.join(WORK, "state", "control.log")) as f:
        audit = f.read()
    check("control.log has the board's PINs as auth ****",
          "board player auth **** => error wrong PIN" in audit and
          "board player auth **** => ok arbiter" in audit)
    for name, evs in sinks.items():
        check(f"the board's PIN never reaches {name}", not any(PIN in line for line, _ in evs))
    for root, _, files in os.walk(os.path.join(WORK, "state")):
        for name in files:
            with open(os.path.join(root, name), "rb") as f:
                check(f"the board's PIN is not in {name}", PIN.encode() not in f.read())

    # speech.log: the speaker's words are the public says, the earphone's the player's; the
    # arbiter's are never spoken.
    with open(os.path.join(WORK, "state", "speech.log")) as f:
        spoken = [line.rstrip("\n").split(" ", 2) for line in f if line.strip()]
    spoken = {(int(ms), ch, text) for ms, ch, text in spoken if ms.isdigit()}
    for _, ev in sinks["arbiter"]:
        if ev["event"] == "say" and ev["ms"] >= first_ms:
            ch = "public" if ev["channel"] == "public" else "private"
            check(f"'{ev['text'][:30]}' spoken on the {ch} channel",
                  (ev["ms"], ch, ev["text"]) in spoken)
    check("speech.log has the private times", any(ch == "private" and "Minuten" in text
                                                  for _, ch, text in spoken))
    counts = {name: len(evs) for name, evs in sinks.items()}
    print(f"privacy: events at each sink {counts}; {len(seen)} kinds of event checked",
          flush=True)


checklib.run(main)
