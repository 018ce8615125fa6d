#!/usr/bin/python3
"""The web page in a real browser (tests/check-web.sh BUILD AXE_JS).

A real annabellad plays a sim game in real time; `annabella web` serves the page; headless
Chromium, driven by chromedriver, follows it.  Checked: every move appears on the page within
a second of the daemon making it; a wrong PIN is refused and changes nothing; a move relayed
by keyboard on the page is announced by the daemon (and not again when the tactile board
shows it); the page follows the daemon's interface language; the web process restarted
mid-game, the open page catches up without a reload; the JSON API and the PGN; axe-core
finds no accessibility violation.  Prints the page's size and first paint.
"""
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import checklib  # noqa: E402
from browser import chromium, first_paint  # noqa: E402
from checklib import check, http, procs, wait_for  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402

BUILD, AXE = sys.argv[1], sys.argv[2]
WORK = checklib.begin("web")
SOCK = os.path.join(WORK, "control")
driver = None
checklib.at_exit(lambda: driver and driver.quit())


CONF = f"""[control]
socket = {SOCK}
arbiter-pin = 4711
assistant-pin = 1234
[voice]
language = en
record = no
[fairplay]
watch = yes
files = skip
engine = idle
"""

# 1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. d3 b5; the tactile player has White.  Before
# Black's second move a long wait: the assistant relays it on the page first.
SCRIPT = """player white
time-control 600+5
+4000 press opponent-clock
+800 lift e2
+200 place e4
+300 press player-clock
+1500 lift e7
+200 place e5
+300 press opponent-clock
+1500 lift g1
+200 place f3
+300 press player-clock
+9000 lift b8
+200 place c6
+300 press opponent-clock
+1500 lift f1
+200 place b5
+300 press player-clock
+2000 lift a7
+200 place a6
+300 press opponent-clock
+3000 lift b5
+200 place a4
+300 press player-clock
+2500 lift g8
+200 place f6
+300 press opponent-clock
+1500 lift d2
+200 place d3
+300 press player-clock
+1500 lift b7
+200 place b5
+300 press opponent-clock
+180000 crash
"""


class Watcher(threading.Thread):
    """The test's own `watch` on the control socket: when each move was made.  An arbiter's
    watch (the PIN first: a tester who is not root is an assistant by default), so that
    it sees the claim record too."""

    def __init__(self):
        super().__init__(daemon=True)
        self.made = {}  # ply -> (monotonic time, san)
        self.says = []  # (monotonic time, channel, text)
        self.events = []  # every event
        self.lock = threading.Lock()

    def run(self):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect(SOCK)
        s.sendall(b"auth 4711\nwatch\n")
        buf = b""
        while True:
            data = s.recv(65536)
            if not data:
                return
            buf += data
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                now = time.monotonic()
                try:
                    ev = json.loads(line)
                except ValueError:
                    continue
                with self.lock:
                    self.events.append(ev)
                    if ev.get("event") in ("made", "relayed"):
                        self.made[ev["ply"]] = (now, ev["san"])
                    elif ev.get("event") == "say":
                        self.says.append((now, ev["channel"], ev["text"]))

    def wait_ply(self, ply, timeout):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            with self.lock:
                if ply in self.made:
                    return self.made[ply]
            time.sleep(0.01)
        return None


def start_web(port=0):
    p = subprocess.Popen(
        [f"{BUILD}/annabella", "web", "--listen", f"127.0.0.1:{port}", "--socket", SOCK],
        stdout=subprocess.PIPE, stderr=open(os.path.join(WORK, "web.err"), "a"), text=True)
    procs["web"] = p
    line = p.stdout.readline()
    if "listening on http://" not in line:
        raise SystemExit(f"web: the web process did not start: {line!r}")
    return line.split("http://", 1)[1].strip().rstrip("/")


def page_plies():
    return driver.execute_script(
        "let n=0; for (const td of document.querySelectorAll('#moves tbody td'))"
        " if (td.textContent.trim()) n++; return n;")


def wait_page_plies(n, timeout):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if page_plies() >= n:
            return time.monotonic()
        time.sleep(0.01)
    return None


# Every tag axe-core's rules carry (WCAG 2.0, 2.1 and 2.2 at A, AA and AAA, best practices,
# ACT, experimental...): the page is checked against all of them.
AXE_ALL = ("const done = arguments[arguments.length - 1];"
           "const tags = [...new Set(axe.getRules().flatMap(r => r.tags))];"
           "axe.run(document, {runOnly: {type: 'tag', values: tags}})"
           ".then(r => done(r.violations.map(v => v.id + ': ' + v.nodes.length + ' ' + v.help + ' ' +"
           " v.nodes.slice(0, 2).map(n => n.target.join(' ')).join(', '))), e => done(['axe failed: ' + e]));")

# The connection line of each language (the page's own words, never German in another).
CONNECTED = {"de": "Mit dem Gerät verbunden", "en": "Connected to the device",
             "sv": "Ansluten till enheten", "nl": "Verbonden met het apparaat"}
HEADINGS = {"de": "Uhren", "en": "Clocks", "sv": "Klockor", "nl": "Klokken"}
STALE = {"de": "Daten sind alt", "en": "Data is old", "sv": "Uppgifterna är gamla",
         "nl": "Gegevens zijn oud"}


def axe(d):
    with open(AXE) as f:
        d.execute_script(f.read())
    return d.execute_async_script(AXE_ALL)


def languages_and_widths(base):
    """Each language at 320 px (a phone, WCAG 1.4.10) and on a desktop: the page's words
    in that language, nothing that scrolls sideways, axe-core clean with every rule tag."""
    d = chromium("--window-size=1000,2400")
    d.set_script_timeout(60)
    try:
        for width in (320, 1280):
            d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                              {"width": width, "height": 1800, "deviceScaleFactor": 1,
                               "mobile": width < 600})
            for lang in ("de", "en", "sv", "nl"):
                d.get(f"{base}/?lang={lang}")
                conn = wait_for(lambda: d.find_element(By.ID, "conn").text == CONNECTED[lang], 10)
                legal = wait_for(lambda: d.execute_script(
                    "return document.querySelectorAll('#legal option').length"), 5)
                got = d.execute_script(
                    "return [document.documentElement.lang, document.getElementById('conn').textContent,"
                    " document.getElementById('h-clocks').textContent,"
                    " document.documentElement.scrollWidth, document.documentElement.clientWidth,"
                    " [...document.querySelectorAll('main *')].filter(e => e.getBoundingClientRect().right"
                    "  > document.documentElement.clientWidth + 0.5).map(e => e.tagName + '#' + e.id).slice(0, 5)]")
                check(f"{lang} at {width} px: the page in {lang}, its connection line too",
                      conn and got[0] == lang and got[1] == CONNECTED[lang] and got[2] == HEADINGS[lang], got[:3])
                check(f"{lang} at {width} px: the legal moves offered", legal, legal)
                check(f"{lang} at {width} px: nothing scrolls sideways",
                      got[3] <= got[4] and not got[5], f"scrollWidth {got[3]} > {got[4]}: {got[5]}")
                german = [w for w in ("Verbunden", "Gerät", "Senden", "Befehl", "Uhren", "Zug des")
                          if lang != "de" and w in d.find_element(By.TAG_NAME, "body").text]
                check(f"{lang} at {width} px: no German words of the page", not german, german)
                result = axe(d)
                check(f"{lang} at {width} px: axe-core finds no violation of any rule tag",
                      result == [], "; ".join(result))
                if os.environ.get("WEBTEST_SCREENSHOT"):
                    d.save_screenshot(f"{os.environ['WEBTEST_SCREENSHOT']}-{lang}-{width}.png")
    finally:
        d.quit()


def tab_to(element_id, limit=80):
    for _ in range(limit):
        if driver.execute_script("return document.activeElement.id") == element_id:
            return True
        ActionChains(driver).send_keys(Keys.TAB).perform()
    return driver.execute_script("return document.activeElement.id") == element_id


def keyboard_actions(watcher):
    """The common commands by keyboard alone: one press and a confirmation."""
    pin = driver.find_element(By.ID, "pin")
    pin.clear()
    pin.send_keys("1234")
    # The legal moves are offered as the assistant types.
    offered = driver.execute_script("return [...document.querySelectorAll('#legal option')].map(o => o.value)")
    check("the legal moves are offered in the relay field", len(offered) > 5 and all(
        len(m) >= 2 for m in offered), offered[:5])
    check("the relay field offers them (datalist)",
          driver.find_element(By.ID, "relay-move").get_attribute("list") == "legal")
    # A draw offer: Tab to the button, Enter, the dialog says who offers, Enter sends it.
    events_before = len(watcher.events)
    check("Offer a draw is reached by Tab", tab_to("act-draw"))
    ActionChains(driver).send_keys(Keys.ENTER).perform()
    opened = wait_for(lambda: driver.execute_script("return document.getElementById('confirm').open"), 3)
    check("a slip would matter: the draw offer asks first", opened)
    check("the confirmation has the focus",
          driver.execute_script("return document.getElementById('confirm').contains(document.activeElement)"))
    # Escape: nothing sent.
    ActionChains(driver).send_keys(Keys.ESCAPE).perform()
    closed = wait_for(lambda: not driver.execute_script("return document.getElementById('confirm').open"), 3)
    time.sleep(0.5)
    check("Escape cancels and sends nothing", closed and not any(
        e.get("event") == "draw-offer" for e in watcher.events[events_before:]))
    check("the focus returns to the button", driver.execute_script("return document.activeElement.id") == "act-draw")
    ActionChains(driver).send_keys(Keys.ENTER).perform()
    wait_for(lambda: driver.execute_script("return document.getElementById('confirm').open"), 3)
    check("the confirmation's Send is reached by Tab", tab_to("confirm-ok", 10))
    ActionChains(driver).send_keys(Keys.ENTER).perform()
    sent = wait_for(lambda: any(e.get("event") == "draw-offer" for e in watcher.events[events_before:]), 5)
    check("one press and its confirmation offer the draw", sent,
          driver.find_element(By.ID, "reply").text)
    # The arbiter: stop the clocks in one press (no confirmation), start them with one.
    pin.clear()
    pin.send_keys("4711")
    check("Stop the clocks is reached by Tab", tab_to("act-pause"))
    ActionChains(driver).send_keys(Keys.ENTER).perform()
    paused = wait_for(lambda: any(e.get("event") == "pause" for e in watcher.events[events_before:]), 5)
    check("the arbiter stops the clocks in one press", paused, driver.find_element(By.ID, "reply").text)
    shown = wait_for(lambda: driver.find_element(By.ID, "act-resume").is_displayed(), 5)
    check("Start the clocks is offered once they stand", shown)
    check("Start the clocks is reached by Tab", tab_to("act-resume"))
    ActionChains(driver).send_keys(Keys.ENTER).perform()
    wait_for(lambda: driver.execute_script("return document.getElementById('confirm').open"), 3)
    text = driver.find_element(By.ID, "confirm-text").text
    tab_to("confirm-ok", 10)
    ActionChains(driver).send_keys(Keys.ENTER).perform()
    resumed = wait_for(lambda: any(e.get("event") == "resume" for e in watcher.events[events_before:]), 5)
    check("the arbiter starts the clocks after a confirmation naming the clock that runs",
          resumed and ("White" in text or "Black" in text), text)
    # The fair-play verdict, as the seal and the menu at the board give it: the verdict over
    # the game, then each of the eight items (what this machine has is this machine's).
    check("Check fair play is reached by Tab", tab_to("act-seal"))
    ActionChains(driver).send_keys(Keys.ENTER).perform()
    verdict = wait_for(lambda: driver.find_element(By.ID, "reply-text").is_displayed() and
                       driver.find_element(By.ID, "reply-text").text, 5) or ""
    lines = verdict.split("\n")
    check("the page gives the fair-play verdict and every item",
          lines[0].startswith(("Sealed", "Policy broken at move", "Not sealed at the start")) and
          sum(l[:2] in ("✓ ", "✗ ") for l in lines) == 8 and
          any(l.startswith(("✓ Network: ", "✗ Network: ")) for l in lines), verdict)
    # A refusal in the page's words: a wrong PIN.
    pin.clear()
    pin.send_keys("9999")
    driver.find_element(By.ID, "act-pause").click()
    wait_for(lambda: "Wrong PIN" in driver.find_element(By.ID, "reply").text, 5)
    check("a wrong PIN is said in the page's words", "Wrong PIN." in driver.find_element(By.ID, "reply").text,
          driver.find_element(By.ID, "reply").text)
    # The fifth wrong PIN starts a wait, and the page says it in seconds (2 s), as it says the
    # wait of a PIN tried during it (not "a minute").
    replies = []
    for _ in range(5):
        driver.execute_script("document.getElementById('reply').textContent = ''")
        driver.find_element(By.ID, "act-pause").click()
        wait_for(lambda: driver.find_element(By.ID, "reply").text, 5)
        replies.append(driver.find_element(By.ID, "reply").text)
    check("the wrong PIN that starts a wait says its seconds",
          any("the next is checked in 2 s" in r for r in replies), str(replies))
    check("a PIN tried during the wait says the seconds left",
          "wait 1 s" in replies[-1] or "wait 2 s" in replies[-1], str(replies))
    time.sleep(2.2)
    pin.clear()


def confirm_with(fill):
    """In the open confirmation: fill(dialog) chooses, then Enter on Send."""
    wait_for(lambda: driver.execute_script("return document.getElementById('confirm').open"), 3)
    fill()
    tab_to("confirm-ok", 12)
    ActionChains(driver).send_keys(Keys.ENTER).perform()


def claim_and_result(watcher):
    """A claim, its ruling, the result and its approval, each one press and a confirmation."""
    pin = driver.find_element(By.ID, "pin")
    before = len(watcher.events)

    def got(kind):
        return wait_for(lambda: [e for e in watcher.events[before:] if e.get("event") == kind], 5)
    pin.clear()
    pin.send_keys("1234")
    check("Claim a draw is reached by Tab", tab_to("act-claim"))
    ActionChains(driver).send_keys(Keys.ENTER).perform()
    confirm_with(lambda: driver.find_element(By.ID, "c-kind-fifty").click())
    claim = got("claim")
    check("the assistant claims by one press and a confirmation (fifty moves)",
          claim and "fifty" in json.dumps(claim[0]), claim or driver.find_element(By.ID, "reply").text)
    pin.clear()
    pin.send_keys("4711")
    shown = wait_for(lambda: driver.find_element(By.ID, "act-reject").is_displayed(), 5)
    check("the arbiter's ruling is offered while the claim stands", shown)
    tab_to("act-reject")
    ActionChains(driver).send_keys(Keys.ENTER).perform()
    confirm_with(lambda: None)
    ruling = got("ruling")
    check("the arbiter rejects the claim by one press and a confirmation",
          ruling and "rejected" in json.dumps(ruling[0]), ruling or driver.find_element(By.ID, "reply").text)
    wait_for(lambda: driver.find_element(By.ID, "act-result").is_displayed(), 5)
    check("Enter the result is reached by Tab", tab_to("act-result"))
    ActionChains(driver).send_keys(Keys.ENTER).perform()

    def fill_result():
        driver.find_element(By.ID, "c-result-1212").click()
        driver.find_element(By.ID, "c-reason").send_keys("agreed draw")
    confirm_with(fill_result)
    result = got("result")
    check("the arbiter enters the result by one press and a confirmation with its reason",
          result and "1/2-1/2" in json.dumps(result[0]), result or driver.find_element(By.ID, "reply").text)
    shown = wait_for(lambda: driver.find_element(By.ID, "act-approve").is_displayed(), 5)
    check("Approve the result is offered once there is one", shown)
    tab_to("act-approve")
    ActionChains(driver).send_keys(Keys.ENTER).perform()
    text = driver.find_element(By.ID, "confirm-text").text
    confirm_with(lambda: None)
    approved = wait_for(lambda: not driver.find_element(By.ID, "act-approve").is_displayed(), 5)
    check("the result is approved after a confirmation naming it", approved and "1/2-1/2" in text, text)
    pin.clear()


def frozen(base, daemon_pid):
    """A frozen daemon (SIGSTOP) and a frozen web process: the page says its data is old,
    its clocks stop counting, and its live region says so; back when they are."""
    def clock():
        return driver.execute_script(
            "const r = document.querySelector('.clock.running .time, .clock.stale .time');"
            "return [document.getElementById('conn').textContent,"
            " document.getElementById('clock-white').querySelector('.time').textContent,"
            " document.getElementById('clock-black').querySelector('.time').textContent,"
            " document.getElementById('clock-white').className + ' ' + document.getElementById('clock-black').className]")
    for who, pid, words in (("the daemon", daemon_pid, "no connection to the device"),
                            ("the web process", procs["web"].pid, "no connection to the page")):
        wait_for(lambda: "Connected" in clock()[0], 10)
        running_before = "running" in clock()[3]
        os.kill(pid, signal.SIGSTOP)
        t0 = time.monotonic()
        try:
            said = wait_for(lambda: STALE["en"] in clock()[0], 15, 0.1)
            took = time.monotonic() - t0
            a = clock()
            time.sleep(2)
            b = clock()
            check(f"{who} frozen: the page says its data is old within 10 s",
                  said and took < 10 and words in a[0], f"{took:.1f}s {a[0]}")
            check(f"{who} frozen: the clocks stop counting",
                  running_before and a[1:3] == b[1:3] and "stale" in b[3], f"{a} {b}")
            check(f"{who} frozen: said in the live region",
                  driver.execute_script("return document.getElementById('conn').getAttribute('role')") == "status")
        finally:
            os.kill(pid, signal.SIGCONT)
        back = wait_for(lambda: clock()[0] == CONNECTED["en"], 15, 0.1)
        c1 = clock()
        time.sleep(1.5)
        c2 = clock()
        check(f"{who} again: the page is live and its clock counts", back and c1[1:3] != c2[1:3], f"{c1} {c2}")


def main():
    global driver
    with open(os.path.join(WORK, "annabella.conf"), "w") as f:
        f.write(CONF)
    with open(os.path.join(WORK, "game.script"), "w") as f:
        f.write(SCRIPT)
    procs["daemon"] = subprocess.Popen(
        [f"{BUILD}/annabellad", "--config", os.path.join(WORK, "annabella.conf"),
         "--board", "sim:" + os.path.join(WORK, "game.script"), "--time", "real",
         "--audio", "none", "--state", os.path.join(WORK, "state")],
        stderr=open(os.path.join(WORK, "daemon.err"), "w"))
    for _ in range(200):
        if os.path.exists(SOCK):
            break
        time.sleep(0.02)
    watcher = Watcher()
    watcher.start()
    addr = start_web()
    base = f"http://{addr}"

    driver = chromium("--window-size=1000,2400", "--lang=en")
    driver.set_script_timeout(30)
    driver.get(base + "/")
    driver.execute_script("window.__sameLoad = true;")
    loaded = time.monotonic()

    # The page follows the daemon's interface language.
    end = time.monotonic() + 10
    while time.monotonic() < end and driver.execute_script(
            "return document.documentElement.lang") != "en":
        time.sleep(0.05)
    check("page language follows the daemon (en)",
          driver.execute_script("return document.documentElement.lang") == "en"
          and driver.find_element(By.ID, "h-clocks").text == "Clocks",
          driver.execute_script("return document.documentElement.lang"))

    # Each move on the page within a second of the daemon making it (plies 1-3).
    delays = []

    def follow(first, last):
        for ply in range(first, last + 1):
            made = watcher.wait_ply(ply, 20)
            if not made:
                check(f"ply {ply} made by the daemon", False)
                return
            shown = wait_page_plies(ply, 5)
            if made[0] < loaded:
                continue
            delay = (shown - made[0]) if shown else None
            delays.append(delay if delay is not None else 99)
            print(f"web: ply {ply} {delay}", flush=True) if os.environ.get("WEBTEST_VERBOSE") else None
            check(f"ply {ply} ({made[1]}) on the page within a second",
                  delay is not None and delay <= 1.0, f"after {delay}s")

    follow(1, 3)

    # A wrong PIN is refused; nothing is announced.  Then the assistant's PIN and the
    # move typed by keyboard alone (Tab to the fields, Enter to send).
    says_before = len(watcher.says)
    body = driver.find_element(By.TAG_NAME, "body")
    body.click()
    actions = ActionChains(driver)
    for _ in range(40):
        if driver.execute_script("return document.activeElement.id") == "pin":
            break
        actions.send_keys(Keys.TAB).perform()
    check("the PIN field is reached by Tab",
          driver.execute_script("return document.activeElement.id") == "pin")
    ActionChains(driver).send_keys("9999").send_keys(Keys.TAB).send_keys(
        "Nc6").send_keys(Keys.ENTER).perform()
    time.sleep(0.5)
    reply = driver.find_element(By.ID, "reply")
    check("a wrong PIN is refused on the page",
          "Wrong PIN" in reply.text and "error" in reply.get_attribute("class"), reply.text)
    with watcher.lock:
        check("a wrong PIN changes nothing",
              not any(ch == "public" for _, ch, _ in watcher.says[says_before:]))
    pin = driver.find_element(By.ID, "pin")
    pin.clear()
    pin.send_keys("1234")
    move = driver.find_element(By.ID, "relay-move")
    move.clear()
    move.send_keys("Nc6" + Keys.ENTER)
    words = "Springer Bella acht Cesar sechs"
    end = time.monotonic() + 5
    announced = False
    while time.monotonic() < end and not announced:
        with watcher.lock:
            announced = any(ch == "public" and words in tx for _, ch, tx in watcher.says)
        time.sleep(0.05)
    check("the move relayed on the page is announced by the daemon", announced,
          driver.find_element(By.ID, "reply").text)
    end = time.monotonic() + 3
    while time.monotonic() < end and words not in driver.find_element(By.ID, "log").text:
        time.sleep(0.05)
    check("the announcement reaches the page's live region",
          words in driver.find_element(By.ID, "log").text)
    marked = driver.execute_script(
        "return [...document.querySelectorAll('#log span[lang=de]')].map(s => s.textContent)")
    check("the Appendix D words carry lang=de on an English page", words in " ".join(marked), marked)

    follow(4, 6)
    with watcher.lock:
        n = sum(1 for _, ch, tx in watcher.says if ch == "public" and words in tx)
    check("the board showing the relayed move is not announced again", n == 1, f"{n} times")

    # The web process restarts while a move is made: the open page catches up alone.
    procs["web"].send_signal(signal.SIGTERM)
    try:
        procs["web"].wait(timeout=5)
        check("the web process stops on SIGTERM", True)
    except subprocess.TimeoutExpired:
        check("the web process stops on SIGTERM", False)
        procs["web"].kill()
    made = watcher.wait_ply(7, 20)
    start_web(int(addr.rsplit(":", 1)[1]))
    shown = wait_page_plies(7, 8)
    check("after the web process restarts, the page catches up without a reload",
          made is not None and shown is not None
          and driver.execute_script("return window.__sameLoad === true"))
    # Browsers that stop reading: twenty event streams nobody reads.  The game and the
    # page go on; they are the web process's problem, never the daemon's.
    dead = []
    host, port = addr.rsplit(":", 1)
    for _ in range(20):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
        s.connect((host, int(port)))
        s.sendall(b"GET /api/events HTTP/1.1\r\nHost: x\r\n\r\n")
        dead.append(s)
    follow(8, 10)
    for s in dead:
        s.close()

    # The API and the PGN.
    st, text = http(base + "/api/status")
    status = json.loads(text) if st == 200 else {}
    check("GET /api/status", st == 200 and status.get("plies") == 10, text[:200])
    st, text = http(base + "/game.pgn")
    check("GET /game.pgn holds the game",
          st == 200 and "4... Nf6" in text and "5. d3" in text and "[%clk" in text, text[-200:])
    st, text = http(base + "/api/command", b"draw-offer")
    check("a command without a PIN is refused", st == 401 and '"ok":false' in text, text)
    st, text = http(base + "/api/command", b"status")
    check("status without a PIN is allowed", st == 200 and '"plies":10' in text, text[:100])
    st, text = http(base + "/api/status", b"x")
    check("the read-only views refuse POST", st == 405, str(st))
    # A claim: whether it is correct is for the arbiter alone (11.3.1), never on the page
    # every visitor sees; the arbiter's PIN shows it.  The assistant's claim is the tactile
    # player's (White's), on move once Black's press completes 5... b5.
    time.sleep(1.0)
    st, text = http(base + "/api/command", b"claim threefold", {"X-PIN": "1234"})
    check("the assistant's PIN gives a claim", '"ok":true' in text, text)
    time.sleep(0.3)
    st, text = http(base + "/api/status")
    check("the page's status shows the claim but not whether it is correct",
          '"claim":{' in text and '"correct"' not in text, text[text.find('"claim"'):][:120])
    st, text = http(base + "/api/command", b"status", {"X-PIN": "4711"})
    check("the arbiter's PIN shows whether the claim is correct", '"correct":false' in text,
          text[text.find('"claim"'):][:120])
    st, text = http(base + "/api/command", b"claim reject", {"X-PIN": "4711"})
    check("the arbiter rejects the claim", '"ok":true' in text, text)
    st, text = http(base + "/api/command", b"x" * 9000, {"X-PIN": "1234"})
    check("a request body over 8 KiB is refused", st == 413, str(st))
    st, text = http(base + "/api/command", b"pause", {"X-PIN": "1234"})
    check("the assistant's PIN does not give the arbiter's commands",
          '"ok":false' in text and "not allowed" in text, text)
    st, text = http(base + "/api/command", b"pause", {"X-PIN": "4711"})
    check("the arbiter's PIN gives the arbiter's commands", '"ok":true' in text, text)
    end = time.monotonic() + 3
    while time.monotonic() < end and "stopped by the arbiter" not in driver.find_element(By.ID, "clock-white").text:
        time.sleep(0.05)
    check("the clocks on the page show the pause and who made it",
          "stopped by the arbiter" in driver.find_element(By.ID, "clock-white").text,
          driver.find_element(By.ID, "clock-white").text)
    st, text = http(base + "/api/command", b"resume", {"X-PIN": "4711"})
    check("the arbiter resumes", '"ok":true' in text, text)

    bad = subprocess.run([f"{BUILD}/annabella", "web", "--listen", "localhost", "--socket", SOCK],
                         capture_output=True, text=True, timeout=10)
    check("a bad --listen exits 2 naming it", bad.returncode == 2 and "localhost" in bad.stderr,
          f"{bad.returncode} {bad.stderr}")

    keyboard_actions(watcher)
    frozen(base, procs["daemon"].pid)
    languages_and_widths(base)
    claim_and_result(watcher)

    # Accessibility: axe-core on the live page.
    with open(AXE) as f:
        driver.execute_script(f.read())
    result = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a',"
        " 'wcag21aa', 'best-practice']}}).then(r => done(r.violations.map(v => v.id + ': ' +"
        " v.nodes.length + ' ' + v.help)), e => done(['axe failed: ' + e]));")
    check("axe-core finds no accessibility violation", result == [], "; ".join(result))

    if os.environ.get("WEBTEST_SCREENSHOT"):
        driver.save_screenshot(os.environ["WEBTEST_SCREENSHOT"])

    # Figures: the page's size and its first paint (a fresh load).
    size = 0
    for path in ("/", "/app.js", "/style.css"):
        st, text = http(base + path)
        size += len(text.encode())
    check("the page is under 100 KB, everything included", size < 100 * 1024, f"{size} bytes")
    driver.get(base + "/")
    fcp = first_paint(driver)
    fcp = -1 if fcp is None else fcp
    print(f"web: page {size} bytes; first contentful paint {fcp:.0f} ms;"
          f" move on the page after the daemon made it: max {max(delays) * 1000:.0f} ms"
          f" over {len(delays)} moves", flush=True)


checklib.run(main)
