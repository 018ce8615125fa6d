#!/usr/bin/python3
"""The assistant's and the arbiter's page at 320 px and at 1280 px, each step seen by both
(tests/check-webpages.sh BUILD AXE_JS).

A real annabellad on a live board script (a named pipe: the test makes each move on the
board when it is ready to look, never within a window of time), `annabella web`, and two
headless Chromiums: a phone at 320 px with the page in Dutch and a desktop at 1280 px in
German.  Checked: the time control in the page's words; the legal moves offered in the
page's piece letters and a Dutch "Pc6" relayed and taken by the daemon, its reply in the
page's letters and words; the claim dialog naming the claimant as the daemon will take it
(the tactile player's side, who may not claim while the opponent's move waits for its
press) and agreeing with the daemon's answer; the draw offer's dialog focused on the side
it names; a daemon restart said with the time the clocks may not have charged; the
arbiter's claim in one press for the side chosen in the dialog; a claim's line without
double brackets; the players' names isolated (<bdi>); after the result is approved no side
to move and no empty command boxes; the PIN waits in seconds, with the replies' words and
without them; codes.js as sent as big as docs/web.md says; axe-core clean with every rule
tag along the way.
"""
import gzip
import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import checklib  # noqa: E402
from browser import chromium  # noqa: E402
from checklib import check, http, procs, spawn, wait_for  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402

BUILD, AXE = sys.argv[1], sys.argv[2]
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
WORK = checklib.begin("webpages")
SOCK = os.path.join(WORK, "control")
STATE = os.path.join(WORK, "state")
CONF = os.path.join(WORK, "annabella.conf")
drivers = checklib.browsers()

AXE_ALL = ("const done = arguments[arguments.length - 1];"
           "const tags = [...new Set(axe.getRules().flatMap(r => r.tags))];"
           "axe.run(document, {runOnly: {type: 'tag', values: tags}})"
           ".then(r => done(r.violations.map(v => v.id + ': ' + v.nodes.length + ' ' + v.help + ' ' +"
           " v.nodes.slice(0, 2).map(n => n.target.join(' ')).join(', '))), e => done(['axe failed: ' + e]));")


class Daemon:
    """annabellad on a live board script, and the test's own arbiter's watch."""

    def __init__(self, n):
        self.fifo = os.path.join(WORK, f"board{n}")
        os.mkfifo(self.fifo)
        self.p = spawn(f"daemon{n}", [f"{BUILD}/annabellad", "--config", CONF, "--board",
                                       "sim:" + self.fifo, "--time", "real", "--audio", "none",
                                       "--state", STATE],
                       stderr=open(os.path.join(WORK, f"daemon{n}.err"), "w"))
        self.board = open(self.fifo, "w", buffering=1)
        self.board.write("player white\ntime-control 5400+30\n\n")
        self.events = []
        self.cond = threading.Condition()
        checklib.wait_path(SOCK, 10)
        wait_for(lambda: self.request("status").get("ok"), 10)
        self.watch = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.watch.connect(SOCK)
        self.watch.sendall(b"auth 4711\nwatch\n")
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        buf = b""
        while True:
            try:
                data = self.watch.recv(65536)
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
                    self.events.append(ev)
                    self.cond.notify_all()

    def play(self, *actions):
        """Board actions, 250 ms apart (the debounce and the scan see each)."""
        for a in actions:
            self.board.write(f"+250 {a}\n")

    def mark(self):
        with self.cond:
            return len(self.events)

    def wait(self, pred, since, timeout=15):
        end = time.monotonic() + timeout
        with self.cond:
            while True:
                for ev in self.events[since:]:
                    if pred(ev):
                        return ev
                left = end - time.monotonic()
                if left <= 0:
                    return None
                self.cond.wait(left)

    @staticmethod
    def request(line, pin=None):
        try:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.settimeout(5)
            s.connect(SOCK)
            f = s.makefile("rb")
            if pin:
                s.sendall(f"auth {pin}\n".encode())
                f.readline()
            s.sendall(line.encode() + b"\n")
            reply = json.loads(f.readline())
            s.close()
            return reply
        except (OSError, ValueError):
            return {}

    def status_is(self, pred, timeout=15):
        return wait_for(lambda: pred(self.request("status")), timeout, 0.1)


def start_web():
    p = subprocess.Popen(
        [f"{BUILD}/annabella", "web", "--listen", "127.0.0.1:0", "--socket", SOCK],
        stdout=subprocess.PIPE, stderr=open(os.path.join(WORK, "web.err"), "a"), text=True)
    procs["web"] = p
    line = p.stdout.readline()
    if "listening on http://" not in line:
        raise SystemExit(f"webpages: the web process did not start: {line!r}")
    return "http://" + line.split("http://", 1)[1].strip().rstrip("/")


class Page:
    """One browser: its width, its language, the page."""

    def __init__(self, base, width, lang, blocked=()):
        self.width, self.lang = width, lang
        self.d = chromium("--window-size=1000,2400", f"--lang={lang}")
        drivers.append(self.d)
        self.d.set_script_timeout(60)
        self.d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": width, "height": 1800, "deviceScaleFactor": 1,
                                "mobile": width < 600})
        if blocked:
            self.d.execute_cdp_cmd("Network.enable", {})
            self.d.execute_cdp_cmd("Network.setBlockedURLs", {"urls": list(blocked)})
        self.d.get(f"{base}/?lang={lang}")
        wait_for(lambda: self.js("return document.querySelectorAll('#legal option').length"), 15)

    def __str__(self):
        return f"{self.lang} at {self.width} px"

    def js(self, script, *args):
        return self.d.execute_script(script, *args)

    def text(self, element_id):
        return self.js("return document.getElementById(arguments[0]).textContent", element_id)

    def shown(self, element_id):
        return self.js("const e = document.getElementById(arguments[0]);"
                       "return !!e && !e.closest('[hidden]') && e.getClientRects().length > 0", element_id)

    def pin(self, value):
        f = self.d.find_element(By.ID, "pin")
        f.clear()
        if value:
            f.send_keys(value)

    def press(self, element_id):
        self.d.find_element(By.ID, element_id).click()

    def keys(self, *keys):
        ActionChains(self.d).send_keys(*keys).perform()

    def dialog_open(self):
        return wait_for(lambda: self.js("return document.getElementById('confirm').open"), 5)

    def escape(self):
        self.keys(Keys.ESCAPE)
        wait_for(lambda: not self.js("return document.getElementById('confirm').open"), 5)

    def reply_after(self, action):
        before = self.text("reply")
        self.js("document.getElementById('reply').textContent = ''")
        action()
        return wait_for(lambda: self.text("reply"), 10) or before

    def axe(self, when):
        with open(AXE) as f:
            self.js(f.read())
        got = self.d.execute_async_script(AXE_ALL)
        check(f"{self} {when}: axe-core finds no violation of any rule tag", got == [], "; ".join(got))

    def no_sideways(self, when):
        got = self.js("return [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        check(f"{self} {when}: nothing scrolls sideways", got[0] <= got[1], got)


# The page's words the checks look for, in Dutch (the phone) and German (the desktop).
WORDS = {
    "nl": {"tc": "Bedenktijd 90 min + 30 s per zet", "white": "Wit", "black": "Zwart",
           "notnowmade": "Wit kan nu niet claimen: Zwart heeft een zet op het bord gedaan en de klok nog niet ingedrukt",
           "refused": "Geweigerd: Wit kan nu niet claimen: Zwart is aan zet",
           "claimtext": "Claim van Wit, aan zet.", "notnow": "Zwart kan nu niet claimen: Wit is aan zet",
           "made": "Claim van Wit: de zet 2. Pf3 is op het bord uitgevoerd",
           "arbiter-white": "Wit kan nu niet claimen: Zwart is aan zet", "arbiter-black": "Claim van Zwart, aan zet.",
           "restart": "Het apparaat is opnieuw gestart: de klokken staan stil.",
           "uncharged": "bedenktijd van Wit vóór de herstart is mogelijk niet afgetrokken",
           "stopped": "stilgezet door een herstart", "knight": "Pc6",
           "relayed": "Verstuurd: zet van de tegenstander Pc6 (halve zet 2): 1... Pc6 doorgegeven."},
    "de": {"tc": "Bedenkzeit 90 min + 30 s pro Zug", "white": "Weiß", "black": "Schwarz",
           "notnowmade": "Weiß kann jetzt nicht reklamieren: Schwarz hat einen Zug auf dem Brett ausgeführt und die Uhr noch nicht gedrückt",
           "refused": "Abgelehnt: Weiß kann jetzt nicht reklamieren: Schwarz ist am Zug",
           "claimtext": "Reklamation von Weiß, am Zug.", "notnow": "Schwarz kann jetzt nicht reklamieren: Weiß ist am Zug",
           "made": "Reklamation von Weiß: der Zug 2. Sf3 ist auf dem Brett ausgeführt",
           "arbiter-white": "Weiß kann jetzt nicht reklamieren: Schwarz ist am Zug", "arbiter-black": "Reklamation von Schwarz, am Zug.",
           "restart": "Das Gerät wurde neu gestartet: die Uhren stehen.",
           "uncharged": "Bedenkzeit von Weiß vor dem Neustart wurden womöglich nicht abgezogen",
           "stopped": "durch einen Neustart angehalten", "knight": "Sc6"},
}


def time_control(pages):
    """20: the time control in the page's words, never its seconds."""
    for p in pages:
        got = wait_for(lambda: p.text("clock-line") == WORDS[p.lang]["tc"], 10)
        check(f"{p}: the time control in the page's words", got, p.text("clock-line"))
    want = {
        ("en", "5400+30"): "90 min + 30 s per move",
        ("de", "40/5400+30:1800+30"): "40 Züge in 90 min + 30 s pro Zug, dann 30 min + 30 s pro Zug",
        ("sv", "300d5"): "5 min, fördröjning 5 s per drag",
        ("nl", "40/7200"): "40 zetten in 120 min (herhaald)",
        ("en", "900+10"): "15 min + 10 s per move",
        ("en", "150b2"): "2 min 30 s, Bronstein delay 2 s per move",
    }
    p = pages[0]
    for (lang, tc), words in want.items():
        got = p.js("const was = lang; lang = arguments[0]; const w = tcWords(arguments[1]); lang = was; return w;", lang, tc)
        check(f"{lang}: {tc} in words", got == words, got)


def legal_letters(pages, base):
    """14: the moves offered in the page's piece letters; /api/legal?lang= gives them."""
    for p in pages:
        offered = wait_for(lambda: p.js("return [...document.querySelectorAll('#legal option')].map(o => o.value)"), 5)
        check(f"{p}: the relay field offers the moves in the page's letters ({WORDS[p.lang]['knight']})",
              offered and WORDS[p.lang]["knight"] in offered and "Nc6" not in offered, offered)
        hint = p.text("relay-hint")
        check(f"{p}: the hint names the page's letters", WORDS[p.lang]["knight"][0] + "f3" in hint, hint)
    for lang, knight in (("nl", "Pc6"), ("de", "Sc6"), ("sv", "Sc6"), ("en", "Nc6")):
        st, text = http(f"{base}/api/legal?lang={lang}")
        local = [m["local"] for m in json.loads(text).get("moves", [])] if st == 200 else []
        check(f"/api/legal?lang={lang}: local in {lang}'s letters", knight in local, local)


def relay_dutch(p, daemon):
    """14, 20: a Dutch "Pc6" relayed and taken; the reply in the page's letters and words."""
    since = daemon.mark()
    p.pin("1234")
    field = p.d.find_element(By.ID, "relay-move")
    field.clear()
    got = p.reply_after(lambda: field.send_keys("Pc6" + Keys.ENTER))
    relayed = daemon.wait(lambda e: e.get("event") == "relayed", since, 10)
    check(f"{p}: a Dutch Pc6 is taken by the daemon as Nc6", relayed and relayed.get("san") == "Nc6",
          f"{relayed} {got}")
    check(f"{p}: the relay's reply in the page's words and letters, not the protocol's line",
          got == WORDS["nl"]["relayed"], got)


def claim_dialog(p):
    """The assistant's claim dialog as it opens: (its text, the side checked, the focus)."""
    p.pin("1234")
    p.press("act-claim")
    p.dialog_open()
    return (p.text("confirm-text"),
            p.js("const c = document.querySelector('#confirm-fields input[name=side]:checked'); return c && c.value"),
            p.js("return document.activeElement.id"))


def claims_before_press(pages, daemon):
    """13: Black's move made on the board and not yet pressed: the tactile player (White)
    cannot claim, and the dialog says so before the daemon does."""
    for p in pages:
        text, side, focus = claim_dialog(p)
        check(f"{p}: the claim dialog names the tactile player, who cannot claim while Black's move waits",
              WORDS[p.lang]["notnowmade"] in text and side == "white", f"{text!r} {side}")
        check(f"{p}: the dialog's focus is on the side it names", focus == "c-side-white", focus)
        visible = p.shown("c-move")
        check(f"{p}: the intended move can be named (it is not White's move that is made)", visible)
        p.axe("with the claim dialog open")
        p.no_sideways("with the claim dialog open")
        p.escape()
    # Sent anyway: the daemon refuses it for the reason the dialog gave.
    p = pages[0]
    p.press("act-claim")
    p.dialog_open()
    got = p.reply_after(lambda: p.d.find_element(By.ID, "confirm-ok").click())
    check(f"{p}: the daemon refuses that claim, for the reason the dialog said", WORDS[p.lang]["refused"] in got, got)
    check("the refused claim changed nothing", not (daemon.request("status").get("claim") or {}).get("open"))


def claims_on_move(pages):
    """13, 17: White on move: the claim dialog says so, and what Black's claim would be;
    the draw offer's dialog focuses the side it names (Black, who moved last)."""
    for p in pages:
        text, side, focus = claim_dialog(p)
        check(f"{p}: the claim dialog: White on move may claim", WORDS[p.lang]["claimtext"] in text and side == "white",
              f"{text!r} {side}")
        p.keys(Keys.ARROW_DOWN)
        changed = wait_for(lambda: WORDS[p.lang]["notnow"] in p.text("confirm-text"), 3)
        check(f"{p}: Black chosen in the dialog: it says Black cannot claim now", changed, p.text("confirm-text"))
        p.escape()
        p.press("act-draw")
        p.dialog_open()
        got = p.js("const a = document.activeElement; return [a.id, a.checked]")
        check(f"{p}: the draw offer's dialog focuses the side it names, checked (Black)",
              got == ["c-side-black", True], got)
        p.escape()


def claims_after_move_made(pages, daemon):
    """13: White's move made and not yet pressed: the claim is White's, about the position
    after it; sent, the daemon takes it so (after_move)."""
    for p in pages:
        text, side, focus = claim_dialog(p)
        check(f"{p}: the claim dialog: White's move made, the claim about the position after it",
              WORDS[p.lang]["made"] in text and side == "white", text)
        check(f"{p}: no intended move while White's own move is made", not p.shown("c-move"))
        p.escape()
    p = pages[1]
    since = daemon.mark()
    p.press("act-claim")
    p.dialog_open()
    p.d.find_element(By.ID, "c-kind-fifty").click()
    p.reply_after(lambda: p.d.find_element(By.ID, "confirm-ok").click())
    claim = daemon.wait(lambda e: e.get("event") == "claimed", since, 10)
    check(f"{p}: the claim sent is White's, after White's move, as the dialog said",
          claim and claim.get("by") == "white", json.dumps(claim))
    st = daemon.request("status")
    check("the daemon has it as White's claim after the move",
          (st.get("claim") or {}).get("by") == "white" and (st.get("claim") or {}).get("after_move") is True,
          json.dumps(st.get("claim")))
    for p in pages:
        line = wait_for(lambda: [li for li in p.js("return [...document.querySelectorAll('#state li')].map(l => l.textContent)")
                                 if "9.3" in li], 10)
        check(f"{p}: the claim's line without double brackets", line and "((" not in line[0] and "))" not in line[0],
              line)


def restart(daemon):
    """The daemon killed and started again while White's clock runs."""
    daemon.play("crash")
    daemon.p.wait(timeout=15)
    try:
        daemon.board.close()
    except OSError:
        pass
    if os.path.exists(SOCK):
        os.unlink(SOCK)
    return Daemon(2)


def restart_said(pages, daemon):
    """18: after a restart the page says the clocks stopped and how much of the running
    side's time may not have been charged (the daemon's status has both)."""
    c = daemon.request("status").get("clock") or {}
    check("after the restart the daemon's status has the clocks stopped and what they left uncharged",
          c.get("stopped_by") == "restart" and c.get("uncharged_up_to_ms", 0) > 0, json.dumps(c))
    up_to = -(-c.get("uncharged_up_to_ms", 0) // 1000)
    for p in pages:
        said = wait_for(lambda: [li for li in p.js("return [...document.querySelectorAll('#state li')].map(l => l.textContent)")
                                 if WORDS[p.lang]["restart"] in li], 20)
        check(f"{p}: the page says the restart stopped the clocks", said,
              p.js("return document.getElementById('state').textContent"))
        check(f"{p}: ... and up to {up_to} s of White's time may not have been charged",
              said and f"{up_to} s" in said[0] and WORDS[p.lang]["uncharged"] in said[0], said)
        clock = p.js("return document.querySelector('#clock-white .state').textContent")
        check(f"{p}: the clock says who stopped it", WORDS[p.lang]["stopped"] in clock, clock)
        p.no_sideways("after a restart")
    pages[0].axe("after a restart")


def arbiter_claim(pages, daemon):
    """12: the arbiter's claim in one press, for the side chosen in the dialog."""
    p = pages[0]
    p.pin("4711")
    p.press("act-claim")
    p.dialog_open()
    first = p.text("confirm-text")
    check(f"{p}: the arbiter's claim dialog: White (the tactile player) cannot claim on Black's move",
          WORDS[p.lang]["arbiter-white"] in first, first)
    p.keys(Keys.ARROW_DOWN)
    chosen = wait_for(lambda: WORDS[p.lang]["arbiter-black"] in p.text("confirm-text"), 3)
    check(f"{p}: Black chosen: the dialog names Black's claim", chosen, p.text("confirm-text"))
    since = daemon.mark()
    got = p.reply_after(lambda: p.d.find_element(By.ID, "confirm-ok").click())
    claim = daemon.wait(lambda e: e.get("event") == "claimed", since, 10)
    check(f"{p}: the arbiter's one-press claim is made, for Black", claim and claim.get("by") == "black",
          f"{claim} {got}")
    check(f"{p}: its reply in the page's words (no protocol words)",
          "white" not in got and "black" not in got and "Zwart" in got, got)


def names_isolated(pages, daemon):
    """20: the players' names isolated (<bdi>), a right-to-left one kept whole."""
    daemon.request("tags White עמית כהן", "1234")
    daemon.request("tags Black Berg, Anna", "1234")
    for p in pages:
        got = wait_for(lambda: p.js("return [...document.querySelectorAll('#title bdi')].map(b => b.textContent)"), 10)
        check(f"{p}: the players' names each in a <bdi>", got == ["עמית כהן", "Berg, Anna"], got)


def approved(pages, daemon):
    """20: after the result is approved, no side to move and no empty command boxes."""
    for p in pages:
        p.pin("1234")
    for p in pages:
        done = wait_for(lambda: p.shown("act-approve"), 10)
        check(f"{p}: Approve is offered with a result", done)
        check(f"{p}: no side to move once there is a result", p.text("to-move") == "", p.text("to-move"))
    p = pages[1]
    p.press("act-approve")
    p.dialog_open()
    p.reply_after(lambda: p.d.find_element(By.ID, "confirm-ok").click())
    check("the result is approved", daemon.status_is(lambda s: (s.get("result") or {}).get("approved")))
    for p in pages:
        gone = wait_for(lambda: not p.shown("actions"), 10)
        empty = p.js("return [...document.querySelectorAll('fieldset')].filter(f => f.getClientRects().length &&"
                     " ![...f.querySelectorAll('button, input, select')].some(e => e.getClientRects().length))"
                     ".map(f => f.id || f.querySelector('legend').textContent)")
        check(f"{p}: after approval no empty command box", gone and not empty, empty)
        check(f"{p}: after approval nothing to relay", not p.shown("relay-move"))
        check(f"{p}: after approval no side to move", p.text("to-move") == "", p.text("to-move"))
        p.axe("after approval")
        p.no_sideways("after approval")


def any_command(p):
    """The form for any command, its first row (status), sent with the PIN typed."""
    p.d.find_element(By.ID, "args").send_keys(Keys.ENTER)


def pin_waits(base):
    """19: every PIN wait says its seconds: with the replies' words (codes.js) and, when they
    did not come, in the page's own."""
    bare = Page(base, 320, "nl", blocked=["*/codes.js"])
    bare.pin("9999")
    replies = [bare.reply_after(lambda: any_command(bare)) for _ in range(6)]
    check(f"{bare} without codes.js: the wrong PIN that starts a wait says its seconds",
          any("Verkeerde pincode; de volgende wordt over 2 s gecontroleerd." in r for r in replies), replies)
    check(f"{bare} without codes.js: a PIN during the wait says the seconds left",
          re.search(r"wacht [12] s\.", replies[-1]), replies[-1])
    check(f"{bare}: codes.js was not loaded", bare.js("return typeof replyText") == "undefined")
    time.sleep(2.2)
    full = Page(base, 1280, "de")
    full.pin("9999")
    replies = [full.reply_after(lambda: any_command(full)) for _ in range(2)]
    check(f"{full}: the wrong PIN that starts the next wait says its seconds",
          "Falsche PIN; die nächste wird in 4 s geprüft." in replies[0], replies)
    check(f"{full}: a PIN during the wait says the seconds left",
          re.search(r"bitte [1-4] s warten", replies[1]), replies[1])


def codes_size(base):
    """20: codes.js as sent (gzipped) is as big as docs/web.md says."""
    req = urllib.request.Request(base + "/codes.js", headers={"Accept-Encoding": "gzip"})
    with urllib.request.urlopen(req, timeout=5) as r:
        body = r.read()
        sent = len(body) if r.headers.get("Content-Encoding") == "gzip" else len(gzip.compress(body))
    with open(os.path.join(ROOT, "docs", "web.md")) as f:
        said = re.search(r"`codes\.js`[^)]*?([0-9.]+) KB as sent", f.read())
    kb = sent / 1024
    check("docs/web.md says how big codes.js is as sent", said, "no figure")
    check(f"codes.js as sent is {kb:.1f} KB, as docs/web.md says (within 0.5 KB)",
          said and abs(float(said.group(1)) - kb) <= 0.5, said and said.group(1))
    print(f"webpages: codes.js {sent} bytes as sent", flush=True)


def step(what, fn, *args):
    """One part of the test: a part that cannot go on is a failure, and the next goes on
    (on an older page every part says what fails, not only the first)."""
    try:
        return fn(*args)
    except Exception as e:  # noqa: BLE001
        check(f"{what} ran to its end", False, repr(e).splitlines()[0][:300])
        for d in drivers:
            try:
                d.execute_script("const c = document.getElementById('confirm'); if (c && c.open) c.close();")
            except Exception:
                pass
        return None


def main():
    with open(CONF, "w") as f:
        f.write(f"[control]\nsocket = {SOCK}\narbiter-pin = 4711\nassistant-pin = 1234\n"
                "[voice]\nlanguage = en\nrecord = no\n")
    daemon = Daemon(1)
    base = start_web()
    pages = [Page(base, 320, "nl"), Page(base, 1280, "de")]
    # 1. e4, White's press: Black to move.
    since = daemon.mark()
    daemon.play("press opponent-clock", "lift e2", "place e4", "press player-clock")
    check("1. e4 completed", daemon.wait(lambda e: e.get("event") == "complete", since))
    step("the time control", time_control, pages)
    step("the names", names_isolated, pages, daemon)
    step("the moves offered", legal_letters, pages, base)
    for p in pages:
        p.axe("with the game under way")
        p.no_sideways("with the game under way")
    step("the Dutch relay", relay_dutch, pages[0], daemon)
    # Black's move shown on the board, its press not yet given.
    daemon.play("lift b8", "place c6")
    check("Black's move made, waiting for its press",
          daemon.status_is(lambda s: s.get("on_move") == {"color": "black", "made": True}))
    step("the claim before Black's press", claims_before_press, pages, daemon)
    since = daemon.mark()
    daemon.play("press opponent-clock")
    check("1... Nc6 completed", daemon.wait(lambda e: e.get("event") == "complete", since))
    check("White on move", daemon.status_is(lambda s: s.get("on_move") == {"color": "white", "made": False}))
    for p in pages:
        wait_for(lambda: "Nc6" in p.js("return document.getElementById('moves').textContent"), 10)
    step("the claim and the draw offer on White's move", claims_on_move, pages)
    daemon = restart(daemon)
    step("the restart on the page", restart_said, pages, daemon)
    st, text = http(base + "/api/command", b"resume", {"X-PIN": "4711"})
    check("the arbiter resumes after the restart", '"ok":true' in text, text)
    # 2. Nf3 made, not pressed: White's claim is about the position after it.
    daemon.play("lift g1", "place f3")
    check("White's move made, waiting for its press",
          daemon.status_is(lambda s: s.get("on_move") == {"color": "white", "made": True}))
    step("the claim after White's move", claims_after_move_made, pages, daemon)
    st, text = http(base + "/api/command", b"claim reject", {"X-PIN": "4711"})
    check("the arbiter rejects the claim", '"ok":true' in text, text)
    since = daemon.mark()
    daemon.play("press player-clock")
    check("2. Nf3 completed", daemon.wait(lambda e: e.get("event") == "complete", since))
    check("Black on move", daemon.status_is(lambda s: s.get("on_move") == {"color": "black", "made": False}))
    step("the arbiter's claim", arbiter_claim, pages, daemon)
    if not (daemon.request("status").get("claim") or {}).get("open"):
        daemon.request("claim threefold black", "4711")
    st, text = http(base + "/api/command", b"claim uphold", {"X-PIN": "4711"})
    check("the arbiter upholds Black's claim", '"ok":true' in text, text)
    step("the page after approval", approved, pages, daemon)
    codes_size(base)
    for p in pages:
        p.d.quit()
        drivers.remove(p.d)
    step("the PIN waits", pin_waits, base)


checklib.run(main)
