#!/usr/bin/python3
"""tests/bench-broadcast.sh: polls round.pgn as a broadcast's software does (If-None-Match,
gzip) every INTERVAL ms until killed, and writes "NS BOARD CLOCKS" (CLOCK_MONOTONIC, as the
daemons' traces) each time a board's game shows more clock readings than before, and at the
end "polls N changed M bytes B" (B: every answer as sent, headers included).
Usage: pollround.py URL INTERVAL_MS OUT.  Boards are the bench's untagged ones, named in
their White tag ("b7 (White)")."""
import gzip
import http.client
import re
import signal
import sys
import time
import urllib.parse

url, interval, out = sys.argv[1], int(sys.argv[2]) / 1000, sys.argv[3]
u = urllib.parse.urlparse(url)
stop = False


def on_term(*_):
    global stop
    stop = True


signal.signal(signal.SIGTERM, on_term)
seen, etag, polls, changed, sent = {}, None, 0, 0, 0
conn = http.client.HTTPConnection(u.hostname, u.port, timeout=5)
with open(out, "w") as f:
    while not stop:
        t0 = time.monotonic()
        headers = {"Accept-Encoding": "gzip"}
        if etag:
            headers["If-None-Match"] = etag
        try:
            conn.request("GET", u.path, headers=headers)
            r = conn.getresponse()
            body = r.read()
        except (OSError, http.client.HTTPException):
            conn.close()
            conn = http.client.HTTPConnection(u.hostname, u.port, timeout=5)
            time.sleep(interval)
            continue
        now = time.monotonic_ns()
        polls += 1
        # What was sent: the status line, the headers and the body.
        sent += len(body) + sum(len(k) + len(v) + 4 for k, v in r.getheaders()) + 17
        if r.status == 200:
            changed += 1
            etag = r.getheader("ETag")
            text = gzip.decompress(body).decode() if r.getheader("Content-Encoding") == "gzip" else body.decode()
            for game in text.split("\n\n[Event ")[0:]:
                m = re.search(r'\[White "([^" ]+) \(White\)"\]', game)
                if not m:
                    continue
                board, clocks = m.group(1), game.count("[%clk ")
                if clocks > seen.get(board, 0):
                    seen[board] = clocks
                    f.write(f"{now} {board} {clocks}\n")
            f.flush()
        time.sleep(max(0.0, interval - (time.monotonic() - t0)))
    f.write(f"polls {polls} changed {changed} bytes {sent}\n")
