#!/usr/bin/python3
"""The room page in headless Chromium (tests/check-room.sh starts the broker and the relay).

Usage: roomtest.py BUILD AXE_JS BROKER_PORT PUBLIC_URL ARBITER_URL BROKER_CONF RELAY_PID

Checked: the page in de, en, sv and nl at 320 px and on a desktop (its words, nothing that
scrolls sideways, axe-core clean with every rule tag); each board's SVG diagram with its
position in words and its move list; a new move said once in the live region with its
board, colour and move number in the page's language, and nothing rebuilt on the boards
that did not change; a board's broadcast gone, then back; the broker lost (the clocks stop,
the page says why) and back; the relay gone.
"""
import json
import os
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import checklib  # noqa: E402
from browser import chromium  # noqa: E402
from checklib import check, wait_for  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402

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
                check(f"room {lang} {width}px: an untagged board by its name", got[7].startswith("b2 ("), got[7])
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
            said = wait_for(lambda: "cannot be reached" in state(d), 15, 0.2)
        finally:
            os.kill(int(RELAY_PID), signal.SIGCONT)
        check("the relay unreachable: the page says so", said, state(d))
    finally:
        d.quit()
        for p in procs:
            p.terminate()
            p.wait()


checklib.run(main)
