#!/usr/bin/python3
"""The room page in headless Chromium (tests/check-room.sh starts the broker and the relay).

Usage: roomtest.py BUILD AXE_JS BROKER_PORT PUBLIC_URL ARBITER_URL BROKER_CONF RELAY_PID

Checked: the page in de, en, sv and nl at 320 px and on a desktop (its words, nothing that
scrolls sideways, axe-core clean with every rule tag); each board's SVG diagram with its
position in words and its move list; a new move said once in the live region with its
board, colour and move number in the page's language, and nothing rebuilt on the boards
that did not change; a board's broadcast gone, then back; the broker lost (the clocks stop,
the page says why) and back; the relay gone.  Then, at 320 px and at 1280 px: untagged boards
in the order of their numbers (b2 before b10), a long untagged name said once, right-to-left
names isolated (<bdi>); the news paused (its live region silent) and following one board
(kept across a reload); an outage dated by its clock time in the live region, which stays
quiet while the age beside it counts on with the boards'; the smaller words (a board
offline "for", the delay in seconds and in the language's decimals, Swedish).
"""
import json
import os
import re
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import checklib  # noqa: E402
from browser import chromium  # noqa: E402
from checklib import check, wait_for  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402

BUILD, AXE, PORT, PUB, ARB, BROKER_CONF, RELAY_PID = sys.argv[1:8]
checklib.begin("room", with_work=False)


def pub(topic, payload):
    subprocess.run(["mosquitto_pub", "-p", PORT, "-r", "-q", "1", "-t", topic, "-m", payload],
                   check=True)


AXE_ALL = ("const done = arguments[arguments.length - 1];"
           "const tags = [...new Set(axe.getRules().flatMap(r => r.tags))];"
           "axe.run(document, {runOnly: {type: 'tag', values: tags}})"
           ".then(r => done(r.violations.map(v => v.id + ': ' + v.nodes.length + ' ' + v.help + ' ' +"
           " v.nodes.slice(0, 2).map(n => n.target.join(' ')).join(', '))), e => done(['axe failed: ' + e]));")

TITLE = {"de": "Der Turniersaal", "en": "The room", "sv": "Spellokalen", "nl": "De speelzaal"}
KING = {"de": "König", "en": "King", "sv": "Kung", "nl": "Koning"}
RUY = ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6"]
# Board 1's sixth ply in German, its seventh in English: words and letters of the language.
NEXT = {"de": (6, "Brett 1: Zug 3, Schwarz: a6"), "en": (7, "Board 1: move 4, White: Ba4")}


def news(d):
    return d.execute_script("return [...document.querySelectorAll('#news p')].map(p => p.textContent)")


def state(d):
    return d.execute_script("return document.getElementById('state').textContent")


RTL = "أحمد الخطيب"
LONG = "pi-chess-club-north-hall-board-12"


def publish(name, plies, **tags):
    """A board as its broadcast publishes it (its PGN and status), as check-room.sh's board()."""
    head = {"Event": "?", "Site": "?", "Date": "????.??.??", "Round": "?", "White": "?", "Black": "?",
            "Result": "*"}
    head.update(tags)
    text = "".join(f'[{k} "{v}"]\n' for k, v in head.items()) + "\n"
    for i, m in enumerate(RUY[:plies]):
        text += (f"{i // 2 + 1}. " if i % 2 == 0 else "") + m + " {[%clk 0:15:0" + str(i % 10) + "]} "
    pub(f"annabella/{name}/pgn", text + "*\n")
    pub(f"annabella/{name}/status", json.dumps({
        "ok": True, "game": name, "plies": plies, "to_move": "white" if plies % 2 == 0 else "black",
        "fen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "clock": {"white_ms": 900000, "black_ms": 900000, "running": "white", "state": "running"}}))
    pub(f"annabella/{name}/link", '{"broadcast":true,"daemon":true}')


def lines(d):
    return d.execute_script("return [...document.querySelectorAll('#news p')].map(p => [p.textContent, p.dataset.live])")


def more_boards(d, procs):
    """Untagged boards in number order, names, the news paused and followed, an outage's age,
    at both widths."""
    publish("b10", 2)
    publish("b11", 2)
    publish(LONG, 2)
    publish("b4", 2, Board="4", White=RTL, Black="Kühn, Jonas")
    phone = chromium("--window-size=1000,2400")
    try:
        phone.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                              {"width": 320, "height": 1600, "deviceScaleFactor": 1, "mobile": True})
        d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                          {"width": 1280, "height": 1600, "deviceScaleFactor": 1, "mobile": False})
        both = ((phone, 320, "de"), (d, 1280, "en"))
        for b, width, lang in both:
            b.get(f"{ARB}/?lang={lang}")
            wait_for(lambda: b.execute_script("return document.querySelectorAll('#boards > li').length") == 7, 10)
            order = b.execute_script("return [...document.querySelectorAll('#boards > li')].map(l => l.id.slice(6))")
            check(f"room {lang} {width}px: the boards in order, untagged ones by their numbers",
                  order == ["b1", "b3", "b4", "b2", "b10", "b11", LONG], order)
            long_heading = b.execute_script("return document.getElementById('board-' + arguments[0]).querySelector('h3').textContent", LONG)
            check(f"room {lang} {width}px: a long untagged name said once", long_heading == LONG, long_heading)
            names = b.execute_script("return [...document.querySelectorAll('#board-b4 h3 bdi')].map(e => e.textContent)")
            check(f"room {lang} {width}px: the players' names isolated (<bdi>)", names == [RTL, "Kühn, Jonas"], names)
            width_ok = b.execute_script("return document.documentElement.scrollWidth <= document.documentElement.clientWidth")
            check(f"room {lang} {width}px: nothing scrolls sideways with the news controls", width_ok)
            with open(AXE) as f:
                b.execute_script(f.read())
            violations = b.execute_async_script(AXE_ALL)
            check(f"room {lang} {width}px: axe-core finds no violation with the news controls",
                  violations == [], "; ".join(violations))
            # Every line added to the news is marked with whether its region was live then.
            b.execute_script(
                "new MutationObserver(ms => ms.forEach(m => m.addedNodes.forEach(n => {"
                " n.dataset.live = document.getElementById('news').getAttribute('aria-live'); })))"
                ".observe(document.getElementById('news'), {childList: true});")
        step("the news", news_choice, both, phone)
        step("the smaller words", smaller_words, d, phone)
        step("an outage", outage, both, d, procs)
    finally:
        phone.quit()


def step(what, fn, *args):
    """One part: a part that cannot go on is a failure, and the next goes on."""
    try:
        fn(*args)
    except Exception as e:  # noqa: BLE001
        check(f"{what} ran to its end", False, repr(e).splitlines()[0][:300])


def news_choice(both, phone):
    """16: following one board (by keyboard on the phone, a click on the desktop), paused
    and resumed, kept across a reload."""
    for b, width, lang in both:
        box = b.find_element(By.ID, "follow-b10")
        if width == 320:
            box.send_keys(Keys.SPACE)
        else:
            box.click()
        which = b.execute_script("return document.getElementById('news-which').textContent")
        check(f"room {lang} {width}px: the news says which board it follows", "b10" in which, which)
    before = [len(lines(b)) for b, _, _ in both]
    publish("b10", 3)
    publish("b11", 3)
    for (b, width, lang), n in zip(both, before):
        said = wait_for(lambda: len(lines(b)) > n, 5)
        time.sleep(1.5)
        new = lines(b)[n:]
        check(f"room {lang} {width}px: following one board, only its news is said",
              said and len(new) == 1 and "b10" in new[0][0] and new[0][1] == "polite", new)
    # Paused: the news no longer speaks (its region is not live), then again.
    for b, width, lang in both:
        b.find_element(By.ID, "news-pause").click()
        got = b.execute_script("return [document.getElementById('news-pause').getAttribute('aria-pressed'),"
                               " document.getElementById('news').getAttribute('aria-live')]")
        check(f"room {lang} {width}px: paused, the news is silent", got == ["true", "off"], got)
    before = [len(lines(b)) for b, _, _ in both]
    publish("b10", 4)
    for (b, width, lang), n in zip(both, before):
        wait_for(lambda: len(lines(b)) > n, 5)
        new = lines(b)[n:]
        check(f"room {lang} {width}px: a move while paused is not said", new and all(x[1] == "off" for x in new), new)
        b.find_element(By.ID, "news-pause").click()
    before = [len(lines(b)) for b, _, _ in both]
    publish("b10", 5)
    for (b, width, lang), n in zip(both, before):
        wait_for(lambda: len(lines(b)) > n, 5)
        new = lines(b)[n:]
        check(f"room {lang} {width}px: resumed, the news speaks again", new and new[0][1] == "polite", new)
    # The choice is kept across a reload; unticked, every board again.
    phone.refresh()
    kept = wait_for(lambda: phone.execute_script(
        "const e = document.getElementById('follow-b10'); return e && e.checked"), 10)
    check("room de 320px: the boards followed are kept across a reload", kept)
    phone.find_element(By.ID, "follow-b10").send_keys(Keys.SPACE)
    which = phone.execute_script("return document.getElementById('news-which').textContent")
    check("room de 320px: unticked, the news follows every board", "jedem Brett" in which, which)


def smaller_words(d, phone):
    """20: a board offline "for" a time (en), the delay (de: seconds, and a decimal comma),
    Swedish."""
    pub("annabella/b11/link", '{"broadcast":false,"daemon":null}')
    line = wait_for(lambda: d.find_element(By.CSS_SELECTOR, "#board-b11 .link").text.startswith("Board offline for "), 5)
    text = d.find_element(By.CSS_SELECTOR, "#board-b11 .link").text
    check("room en: a board offline for some time", line and "ago" not in text and "since" not in text, text)
    pub("annabella/b11/link", '{"broadcast":true,"daemon":true}')
    phone.get(f"{PUB}/?lang=de")
    said = wait_for(lambda: "Gezeigt mit 4 s Verzögerung" in state(phone), 10)
    check("room de: a delay under a minute in seconds", said, state(phone))
    phone.get(f"{PUB}/?lang=sv")
    intro = wait_for(lambda: phone.execute_script("return document.querySelector('[data-t=intro]').textContent"), 5)
    check("room sv: the introduction", intro == "Varje bords parti, direkt.", intro)
    phone.get(f"{PUB}/?lang=de")
    got = phone.execute_script("return [delayWords(90000), delayWords(20000)]")
    check("room de: a delay of minutes with the language's decimal comma", got == ["1,5 min", "20 s"], got)


AGE = ("const a = document.getElementById('state-age');"
       " return a ? a.textContent : document.getElementById('state').textContent")


def outage(both, d, procs):
    """15: an outage: the live region says when it began, once; the age beside it counts on,
    as each board's does."""
    for b, width, lang in both:
        b.get(f"{ARB}/?lang={lang}")
        wait_for(lambda: b.execute_script("return document.querySelectorAll('#boards > li').length") == 7, 10)
        b.execute_script(
            "window.__writes = 0; new MutationObserver(() => window.__writes++)"
            ".observe(document.getElementById('state'), {childList: true, characterData: true, subtree: true});")
    broker = procs.pop()
    broker.terminate()
    broker.wait()
    for b, width, lang in both:
        said = wait_for(lambda: "MQTT" in state(b), 10)
        first = [state(b), b.execute_script("return window.__writes"), b.execute_script(AGE)]
        aged = wait_for(lambda: b.execute_script(AGE) != first[2], 5)
        time.sleep(2)
        last = [state(b), b.execute_script("return window.__writes"), b.execute_script(AGE),
                b.execute_script("return document.querySelector('#board-b1 .link').textContent")]
        check(f"room {lang} {width}px: the outage dated by its clock time",
              said and re.search(r"\d\d:\d\d:\d\d", first[0]), first[0])
        check(f"room {lang} {width}px: the live region said it once and stays quiet",
              first[0] == last[0] and first[1] == last[1] == 1, f"{first} {last}")
        age = re.search(r"(\d+) s", last[2])
        board_age = re.search(r"\((?:vor )?(\d+) s", last[3])
        check(f"room {lang} {width}px: the outage's age counts on, as the boards' does",
              aged and age and board_age and int(age.group(1)) >= 2 and abs(int(age.group(1)) - int(board_age.group(1))) <= 1,
              f"{last[2]!r} {last[3]!r}")
    procs.append(subprocess.Popen(["mosquitto", "-c", BROKER_CONF],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
    back = wait_for(lambda: "MQTT" not in state(d) and "MQTT" not in d.execute_script(AGE)
                    and "(" not in d.execute_script(AGE), 20, 0.2)
    check("the broker back: the outage and its age are gone", back, state(d))


def main():
    d = chromium("--window-size=1000,2400")
    d.set_script_timeout(60)
    procs = []
    try:
        # Each language at two widths.
        for width in (320, 1280):
            d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                              {"width": width, "height": 1600, "deviceScaleFactor": 1,
                               "mobile": width < 600})
            for lang in ("de", "en", "sv", "nl"):
                d.get(f"{ARB}/?lang={lang}")
                n = wait_for(lambda: d.execute_script(
                    "return document.querySelectorAll('#boards > li svg[role=img]').length") == 3, 10)
                got = d.execute_script(
                    "return [document.documentElement.lang, document.getElementById('title').textContent,"
                    " document.documentElement.scrollWidth, document.documentElement.clientWidth,"
                    " document.querySelector('#board-b1 svg').getAttribute('aria-label'),"
                    " document.querySelector('#board-b1 svg title').textContent,"
                    " [...document.querySelectorAll('#board-b1 .moves li')].map(l => l.textContent),"
                    " document.querySelector('#board-b2 h3').textContent,"
                    " document.querySelector('#board-b1 .link').textContent]")
                check(f"room {lang} {width}px: three boards, each a diagram", n, got)
                check(f"room {lang} {width}px: the page in {lang}", got[0] == lang and got[1] == TITLE[lang], got[:2])
                check(f"room {lang} {width}px: nothing scrolls sideways", got[2] <= got[3], got[2:4])
                check(f"room {lang} {width}px: the diagram's text alternative names the pieces",
                      KING[lang] in got[4] and "e1" in got[4] and got[4] == got[5], got[4])
                check(f"room {lang} {width}px: the move list", len(got[6]) == 3 and got[6][0].endswith("e5"), got[6])
                check(f"room {lang} {width}px: an untagged board by its name, once", got[7] == "b2", got[7])
                with open(AXE) as f:
                    d.execute_script(f.read())
                violations = d.execute_async_script(AXE_ALL)
                check(f"room {lang} {width}px: axe-core finds no violation of any rule tag",
                      violations == [], "; ".join(violations))
                if os.environ.get("ROOMTEST_SCREENSHOT"):
                    d.save_screenshot(f"{os.environ['ROOMTEST_SCREENSHOT']}-{lang}-{width}.png")

        # The public view says how far behind it is; the arbiter's that it is not.
        d.get(f"{PUB}/?lang=en")
        said = wait_for(lambda: "behind the boards" in state(d), 5)
        check("the public room page says it is behind the boards", said, state(d))
        d.get(f"{ARB}/?lang=en")
        said = wait_for(lambda: "arbiter's view" in state(d), 5)
        check("the arbiter's room page says it is undelayed", said, state(d))

        # A move on board 1: said once, with colour and number; board 2 not rebuilt.
        for lang in ("de", "en"):
            d.get(f"{ARB}/?lang={lang}")
            wait_for(lambda: d.execute_script("return document.querySelectorAll('#boards > li').length") == 3, 10)
            time.sleep(1.5)
            d.execute_script("window.__b2 = document.querySelector('#board-b2 svg');"
                             "window.__b2moves = document.querySelector('#board-b2 .moves ol');"
                             "window.__b1li = document.querySelector('#board-b1');")
            before = news(d)
            ply, want = NEXT[lang]
            pgn = open(os.path.join(os.path.dirname(BROKER_CONF), "b1.pgn")).read()
            moves = " ".join((f"{i // 2 + 1}. " if i % 2 == 0 else "") + m + " {[%clk 0:15:0" + str(i) + "]}"
                             for i, m in enumerate(RUY[:ply]))
            pub("annabella/b1/pgn", pgn.split("\n\n")[0] + "\n\n" + moves + " *\n")
            said = wait_for(lambda: len(news(d)) > len(before), 5)
            time.sleep(2.5)
            after = news(d)[len(before):]
            check(f"room {lang}: the new move said once, with board, move number and colour",
                  said and after == [want], after)
            same = d.execute_script(
                "return window.__b2 === document.querySelector('#board-b2 svg') &&"
                " window.__b2moves === document.querySelector('#board-b2 .moves ol') &&"
                " window.__b1li === document.querySelector('#board-b1')")
            check(f"room {lang}: nothing rebuilt that did not change", same)

        # A board's broadcast gone (its last will), then back.
        d.get(f"{ARB}/?lang=en")
        wait_for(lambda: d.execute_script("return document.querySelectorAll('#boards > li').length") == 3, 10)
        time.sleep(1.2)
        before = news(d)
        pub("annabella/b3/link", '{"broadcast":false,"daemon":null}')
        line = wait_for(lambda: "offline" in d.find_element(By.CSS_SELECTOR, "#board-b3 .link").text, 5)
        check("a board's broadcast gone: its connection line says so", line,
              d.find_element(By.CSS_SELECTOR, "#board-b3 .link").text)
        check("a board's broadcast gone: its clocks stand",
              "stale" in d.find_element(By.CSS_SELECTOR, "#board-b3 .clock").get_attribute("class"))
        time.sleep(1.2)
        check("a board's broadcast gone: said once", news(d)[len(before):] == ["Board 3: board offline"],
              news(d)[len(before):])
        pub("annabella/b3/link", '{"broadcast":true,"daemon":false}')
        wait_for(lambda: "not answering" in d.find_element(By.CSS_SELECTOR, "#board-b3 .link").text, 5)
        check("a board whose device does not answer says so",
              "not answering" in d.find_element(By.CSS_SELECTOR, "#board-b3 .link").text)
        pub("annabella/b3/link", '{"broadcast":true,"daemon":true}')
        wait_for(lambda: "Live" in d.find_element(By.CSS_SELECTOR, "#board-b3 .link").text, 5)
        check("the board live again", "Live, updated" in d.find_element(By.CSS_SELECTOR, "#board-b3 .link").text,
              d.find_element(By.CSS_SELECTOR, "#board-b3 .link").text)

        # The broker lost: the page says so and the clocks stop; then back.
        broker_pid = int(subprocess.run(["pgrep", "-f", "mosquitto -c " + BROKER_CONF],
                                        capture_output=True, text=True).stdout.split()[0])
        running = lambda: d.execute_script(
            "return [...document.querySelectorAll('#board-b1 .clock .time')].map(e => e.textContent).join(' ')")
        os.kill(broker_pid, signal.SIGTERM)
        said = wait_for(lambda: "lost the MQTT broker" in state(d), 8)
        a = running()
        time.sleep(2.2)
        b = running()
        check("the broker lost: the room page says so", said, state(d))
        check("the broker lost: the clocks stop", a == b and "stale" in d.find_element(
            By.CSS_SELECTOR, "#board-b1 .clock").get_attribute("class"), f"{a} / {b}")
        check("the broker lost: in the live region",
              d.find_element(By.ID, "state").get_attribute("role") == "status")
        procs.append(subprocess.Popen(["mosquitto", "-c", BROKER_CONF],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        back = wait_for(lambda: "lost" not in state(d) and "3 boards" in state(d), 20, 0.2)
        c1 = running()
        time.sleep(1.5)
        check("the broker back: the page is live again and its clocks count", back and running() != c1,
              state(d))

        # The relay gone: said, the clocks stop.
        os.kill(int(RELAY_PID), signal.SIGSTOP)
        try:
            said = wait_for(lambda: "has not answered since" in state(d), 15, 0.2)
        finally:
            os.kill(int(RELAY_PID), signal.SIGCONT)
        check("the relay unreachable: the page says so", said, state(d))
        wait_for(lambda: "3 boards" in state(d), 15, 0.2)
        more_boards(d, procs)
    finally:
        d.quit()
        for p in procs:
            p.terminate()
            p.wait()


checklib.run(main)
