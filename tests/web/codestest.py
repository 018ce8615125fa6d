#!/usr/bin/python3
"""The daemon's replies on the page in its language, and two assistants relaying at once
(tests/check-webcodes.sh BUILD AXE_JS).

A real annabellad plays a sim game in real time (1. e4 on the tactile board, then Black to
move for a long while); `annabella web` serves the page; headless Chromium follows it.
Checked: a command the assistant may not give and a relay of the tactile player's ply are
refused on the page in de, en, sv and nl, in the page's words (never the daemon's English
text); two browsers (two phones, one PIN) relay Black's move at once by keyboard: the first
is taken, the second refused with its reason in its page's language, and the daemon made
one move of it, not a correction; the second cannot correct the first's move, the first
can; control.log tells the two apart; axe-core finds no violation after a refusal.
"""
import json
import os
import socket
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import checklib  # noqa: E402
from browser import chromium  # noqa: E402
from checklib import check, procs, wait_for  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402

BUILD, AXE = sys.argv[1], sys.argv[2]
WORK = checklib.begin("webcodes")
SOCK = os.path.join(WORK, "control")
drivers = checklib.browsers()


CONF = f"""[control]
socket = {SOCK}
arbiter-pin = 4711
assistant-pin = 1234
[voice]
language = de
record = no
"""

SCRIPT = """player white
time-control 900+0
+2000 press opponent-clock
+300 lift e2
+200 place e4
+300 press player-clock
+600000 crash
"""

# The refusals in each language: the assistant gives `pause` (the arbiter's) and relays the
# tactile player's ply (`move 1 e4`).  The words are web/codes.js's; the daemon's English
# text must not be on the page.
REFUSED = {
    "de": ("Abgelehnt: Der Befehl pause ist für die Rolle Assistent nicht erlaubt.",
           "Abgelehnt: Halbzug 1 ist ein Zug von Weiß, am taktilen Brett: weitergegeben wird der Zug des Gegners."),
    "en": ("Refused: The command pause is not allowed for the assistant.",
           "Refused: Ply 1 is a move of White, at the tactile board: a relayed move is the opponent’s."),
    "sv": ("Avslaget: Kommandot pause är inte tillåtet för rollen assistent.",
           "Avslaget: Halvdrag 1 är ett drag av Vit, vid det taktila brädet: det som vidarebefordras är motståndarens drag."),
    "nl": ("Geweigerd: De opdracht pause is niet toegestaan voor de rol assistent.",
           "Geweigerd: Halve zet 1 is een zet van Wit, aan het tastbare bord: doorgegeven wordt de zet van de tegenstander."),
}
DAEMON_TEXT = ("not allowed for this role", "the tactile player's")


class Watcher(threading.Thread):
    """The test's own `watch`: every event."""

    def __init__(self):
        super().__init__(daemon=True)
        self.events = []
        self.lock = threading.Lock()

    def run(self):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect(SOCK)
        s.sendall(b"watch\n")
        buf = b""
        while True:
            data = s.recv(65536)
            if not data:
                return
            buf += data
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                try:
                    ev = json.loads(line)
                except ValueError:
                    continue
                with self.lock:
                    self.events.append(ev)

    def of(self, kind):
        with self.lock:
            return [e for e in self.events if e.get("event") == kind]


def start_web():
    p = subprocess.Popen(
        [f"{BUILD}/annabella", "web", "--listen", "127.0.0.1:0", "--socket", SOCK],
        stdout=subprocess.PIPE, stderr=open(os.path.join(WORK, "web.err"), "a"), text=True)
    procs["web"] = p
    line = p.stdout.readline()
    if "listening on http://" not in line:
        raise SystemExit(f"webcodes: the web process did not start: {line!r}")
    return "http://" + line.split("http://", 1)[1].strip().rstrip("/")


def page(base, lang):
    """A browser of its own (a phone) with the page in `lang` and the assistant's PIN."""
    d = chromium("--window-size=1000,2400", f"--lang={lang}")
    drivers.append(d)
    d.set_script_timeout(60)
    d.get(f"{base}/?lang={lang}")
    wait_for(lambda: d.execute_script("return document.querySelectorAll('#legal option').length"), 10)
    pin = d.find_element(By.ID, "pin")
    pin.clear()
    pin.send_keys("1234")
    return d


def reply_of(d):
    return d.execute_script("return document.getElementById('reply').textContent")


def wait_reply(d, before, timeout=5):
    return wait_for(lambda: reply_of(d) != before and reply_of(d), timeout)


def raw_command(d, name, args):
    """The form for any command: the row of `name`, its arguments, Enter."""
    d.execute_script(
        "const s = document.getElementById('command');"
        "for (const o of s.options) if (o.textContent.split(' ')[0] === arguments[0]) { s.value = o.value; break; }"
        "s.dispatchEvent(new Event('change'));", name)
    before = reply_of(d)
    field = d.find_element(By.ID, "args")
    field.clear()
    field.send_keys(args + Keys.ENTER)
    return wait_reply(d, before)


def languages(base):
    for lang, (pause, players_ply) in REFUSED.items():
        d = page(base, lang)
        got = raw_command(d, "pause", "")
        check(f"{lang}: the arbiter's command refused in the page's words", got and pause in got, got)
        got2 = raw_command(d, "move", "1 e4")
        check(f"{lang}: a relay of the tactile player's ply refused in the page's words",
              got2 and players_ply in got2, got2)
        marked = d.execute_script("return document.querySelectorAll('#reply [lang]').length")
        check(f"{lang}: no English daemon text on the page",
              not any(t in (got or "") + (got2 or "") for t in DAEMON_TEXT) and marked == 0,
              f"{got} {got2} {marked}")
        check(f"{lang}: the refusal is marked as one",
              "error" in d.find_element(By.ID, "reply").get_attribute("class"))
        d.quit()
        drivers.remove(d)


def relay_field(d, move):
    """Type a move into the relay field by keyboard (the ply is fixed as typing starts)."""
    field = d.find_element(By.ID, "relay-move")
    field.clear()
    field.send_keys(move)


def axe(d):
    with open(AXE) as f:
        d.execute_script(f.read())
    return d.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "const tags = [...new Set(axe.getRules().flatMap(r => r.tags))];"
        "axe.run(document, {runOnly: {type: 'tag', values: tags}})"
        ".then(r => done(r.violations.map(v => v.id + ': ' + v.nodes.length + ' ' + v.help)),"
        " e => done(['axe failed: ' + e]));")


def two_assistants(base, watcher):
    a = page(base, "en")
    b = page(base, "de")
    hint_a = a.find_element(By.ID, "relay-hint").text
    hint_b = b.find_element(By.ID, "relay-hint").text
    check("both pages show the ply they relay (Black's move 1, ply 2)",
          "ply 2" in hint_a and "Halbzug 2" in hint_b, f"{hint_a!r} {hint_b!r}")
    # Both start typing while Black is to move; Anna's page sends first.
    relay_field(a, "e5")
    relay_field(b, "c5")
    before = reply_of(a)
    ActionChains(a).send_keys(Keys.ENTER).perform()
    got_a = wait_reply(a, before)
    check("the first page's relay is taken", got_a and "1... e5 relayed." in got_a, got_a)
    wait_for(lambda: watcher.of("relayed"), 5)
    before = reply_of(b)
    ActionChains(b).send_keys(Keys.ENTER).perform()
    got_b = wait_reply(b, before)
    check("the second page's relay of the same ply is refused, in its language (de)",
          got_b and "Abgelehnt: Halbzug 2 ist schon 1... e5, von jemand anderem weitergegeben: "
          "c5 wurde nicht übernommen." in got_b, got_b)
    check("the second page's refusal is marked as one",
          "error" in b.find_element(By.ID, "reply").get_attribute("class"))
    time.sleep(0.5)
    relayed = watcher.of("relayed")
    check("the daemon made one move of the two relays, not a correction",
          [e["san"] for e in relayed] == ["e5"] and not watcher.of("withdrawn"),
          json.dumps(relayed))
    result = axe(b)
    check("axe-core finds no violation of any rule tag after a refusal", result == [], "; ".join(result))
    # The second page now offers a correction of 1... e5: not its own, so refused.
    wait_for(lambda: "Halbzug 2" in b.find_element(By.ID, "relay-hint").text and
             "korrigiert" in b.find_element(By.ID, "relay-hint").text, 5)
    check("the second page's hint offers the correction of 1... e5",
          "1... e5" in b.find_element(By.ID, "relay-hint").text, b.find_element(By.ID, "relay-hint").text)
    relay_field(b, "d5")
    before = reply_of(b)
    ActionChains(b).send_keys(Keys.ENTER).perform()
    got_b = wait_reply(b, before)
    check("a correction from the other page is refused", got_b and "Halbzug 2 ist schon 1... e5" in got_b, repr(got_b) + " " + reply_of(b))
    relay_field(a, "c5")
    before = reply_of(a)
    ActionChains(a).send_keys(Keys.ENTER).perform()
    got_a = wait_reply(a, before)
    check("the first page corrects its own relay",
          got_a and "1... c5 relayed as a correction (instead of 1... e5)." in got_a, got_a)
    wait_for(lambda: watcher.of("withdrawn"), 5)
    check("the correction is the daemon's (withdrawn, then relayed)",
          [e["san"] for e in watcher.of("relayed")] == ["e5", "c5"] and len(watcher.of("withdrawn")) == 1,
          json.dumps(watcher.of("relayed")))
    with open(os.path.join(WORK, "state", "control.log")) as f:
        log = [l for l in f if " move 2 " in l]
    authors = {l.split()[1] for l in log}
    check("control.log tells the two pages apart (USER+pin:WORD)",
          len(authors) == 2 and all("+pin:p" in x for x in authors), "".join(log))


def main():
    with open(os.path.join(WORK, "annabella.conf"), "w") as f:
        f.write(CONF)
    with open(os.path.join(WORK, "game.script"), "w") as f:
        f.write(SCRIPT)
    procs["daemon"] = subprocess.Popen(
        [f"{BUILD}/annabellad", "--config", os.path.join(WORK, "annabella.conf"),
         "--board", "sim:" + os.path.join(WORK, "game.script"), "--time", "real",
         "--audio", "none", "--state", os.path.join(WORK, "state")],
        stderr=open(os.path.join(WORK, "daemon.err"), "w"))
    for _ in range(300):
        if os.path.exists(SOCK):
            break
        time.sleep(0.02)
    watcher = Watcher()
    watcher.start()
    base = start_web()
    check("1. e4 is made", wait_for(lambda: watcher.of("made"), 15))
    wait_for(lambda: any(e.get("event") == "complete" for e in watcher.events), 5)
    languages(base)
    two_assistants(base, watcher)


checklib.run(main)
