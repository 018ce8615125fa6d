#!/usr/bin/python3
"""tests/check-webflood.sh: the page (`annabella web`) and the room relay (`annabella relay`)
against what one visitor on the club's network can do (README "Security model"), each attack
from a loopback address of its own (127.0.0.x) while another address uses the page:

- 64 silent connections: at most 32 stay open (the rest are closed at once), and those go
  after the 10 s a whole request may take; another address is answered meanwhile, the
  arbiter's command through the page included.  The same against the relay, whose round.pgn
  stays served;
- a header sent one byte every two seconds, and a body the same way: closed unfinished;
- ten event streams opened and never read: the newest four stay, the older ones end, and
  another address's stream runs;
- reads without a PIN answered from the page's cache (control.log does not grow), the reads
  the cache cannot answer held to five at once and one each 3 s per address; a flood of them
  from sixteen connections at once never makes the arbiter's command a "wrong PIN";
- the page's own origin: a POST from another site's page (Origin, Sec-Fetch-Site) is refused,
  and so is a Host name that is neither an address, this machine's name nor the club's.

Usage: floodtest.py BUILD."""
import http.client
import os
import socket
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import checklib  # noqa: E402
from checklib import check  # noqa: E402

BUILD = sys.argv[1]
ARBITER_PIN = "471108"


def request(port, path, source, method="GET", body=None, headers=None, timeout=10):
    """(status, body, headers) of one request from the address source; status 0 when it
    got no answer."""
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout, source_address=(source, 0))
    try:
        c.request(method, path, body=body, headers=headers or {})
        r = c.getresponse()
        return r.status, r.read().decode(errors="replace"), dict(r.getheaders())
    except (OSError, http.client.HTTPException) as e:
        return 0, repr(e), {}
    finally:
        c.close()


def arbiter_status(port, source):
    return request(port, "/api/command", source, "POST", "status", {"X-PIN": ARBITER_PIN})


def connections(port, source, n):
    """n TCP connections from source that send nothing (those refused at once are closed)."""
    out = []
    for _ in range(n):
        s = socket.socket()
        s.bind((source, 0))
        try:
            s.connect(("127.0.0.1", port))
        except OSError:
            s.close()
            continue
        out.append(s)
    return out


def closed(s):
    """Whether the server has closed the connection (whatever it sent is read and dropped)."""
    s.setblocking(False)
    try:
        while True:
            data = s.recv(65536)
            if not data:
                return True
    except BlockingIOError:
        return False
    except OSError:
        return True


def count_open(socks):
    return sum(1 for s in socks if not closed(s))


def drip(port, source, head, every, stop):
    """Sends head one byte every `every` s until the server closes or stop is set: whether it
    was closed before the last byte."""
    s = socket.socket()
    s.bind((source, 0))
    s.connect(("127.0.0.1", port))
    try:
        for b in head:
            if stop.is_set():
                return False
            s.send(bytes([b]))
            end = time.monotonic() + every
            while time.monotonic() < end:
                if closed(s):
                    return True
                time.sleep(0.1)
        return False
    except OSError:
        return True
    finally:
        s.close()


def flood_of_connections(port, name, ask):
    """64 silent connections from 127.0.0.5; `ask()` from another address meanwhile."""
    socks = connections(port, "127.0.0.5", 64)
    time.sleep(0.5)
    still = count_open(socks)
    check(f"{name}: at most 32 of 64 silent connections from one address stay open", still <= 32,
          f"{still} open")
    got = ask()
    check(f"{name}: another address is answered while they wait", got[0] == 200,
          f"{got[0]} {got[1][:200]}")
    gone = checklib.wait_for(lambda: count_open(socks) == 0, 16, 0.5)
    check(f"{name}: silent connections closed once a request's 10 s are over", gone,
          f"{count_open(socks)} still open")
    for s in socks:
        s.close()


def slow_sends(port, name):
    """A header and a body sent a byte every two seconds: closed before they end."""
    stop = threading.Event()
    results = {}
    head = (f"GET /api/status HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nX-Padding: "
            + "a" * 40 + "\r\n\r\n").encode()
    body_req = (f"POST /api/command HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                f"Content-Length: 60\r\n\r\n").encode()

    def header():
        results["header"] = drip(port, "127.0.0.7", head, 2, stop)

    def body():
        s = socket.socket()
        s.bind(("127.0.0.7", 0))
        s.connect(("127.0.0.1", port))
        s.send(body_req)
        try:
            for _ in range(60):
                s.send(b"s")
                end = time.monotonic() + 2
                while time.monotonic() < end:
                    if closed(s):
                        results["body"] = True
                        return
                    time.sleep(0.1)
            results["body"] = False
        except OSError:
            results["body"] = True
        finally:
            s.close()

    threads = [threading.Thread(target=header), threading.Thread(target=body)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(40)
    stop.set()
    check(f"{name}: a header sent a byte every 2 s is closed unfinished", results.get("header"))
    check(f"{name}: a body sent a byte every 2 s is closed unfinished", results.get("body"))


def unread_streams(port):
    socks = []
    for i in range(10):
        s = socket.socket()
        s.bind(("127.0.0.8", 0))
        s.connect(("127.0.0.1", port))
        s.send(f"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
        socks.append(s)
        time.sleep(0.1)
    # The ended ones close at their next word (an event or `alive`, every 2 s).
    ended = checklib.wait_for(lambda: [closed(s) for s in socks].count(True) >= 6, 8, 0.2)
    state = [closed(s) for s in socks]
    check("web: ten unread event streams from one address: the six oldest end", ended and
          all(state[:6]) and not any(state[6:]), str(state))
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=5, source_address=("127.0.0.9", 0))
    c.request("GET", "/api/events")
    r = c.getresponse()
    first = r.fp.readline() + r.fp.readline() + r.fp.readline()
    check("web: another address's event stream runs", r.status == 200 and b"retry" in first,
          repr(first))
    c.close()
    for s in socks:
        s.close()


def reads(port, state):
    log = os.path.join(state, "control.log")
    before = sum(1 for _ in open(log))
    codes = []
    for _ in range(200):
        codes.append(request(port, "/api/command", "127.0.0.10", "POST", "status")[0])
    after = sum(1 for _ in open(log))
    check("web: 200 reads without a PIN, answered from the cache", codes.count(200) == 200,
          str(sorted(set(codes))))
    check("web: ... and control.log does not grow with them", after - before <= 2,
          f"{after - before} lines")
    got = [request(port, "/api/command", "127.0.0.11", "POST", "export text") for _ in range(8)]
    ok = [g for g in got if g[0] == 200]
    held = [g for g in got if g[0] == 429 and '"reason":"reads"' in g[1] and '"seconds":' in g[1]
            and "Retry-After" in g[2]]
    check("web: reads the cache cannot answer: five at once per address, then a wait in seconds",
          len(ok) == 5 and len(held) == 3, str([(g[0], g[1][:80]) for g in got]))


def flood_and_arbiter(port):
    """Sixteen connections flooding reads (cached and not) from 127.0.0.12; the arbiter's
    status from 127.0.0.13 meanwhile: never a "wrong PIN"."""
    stop = threading.Event()

    def flood(line):
        while not stop.is_set():
            request(port, "/api/command", "127.0.0.12", "POST", line, timeout=5)
    threads = [threading.Thread(target=flood, args=("status" if i % 2 else "export brf",))
               for i in range(16)]
    for t in threads:
        t.start()
    codes = []
    for _ in range(30):
        codes.append(arbiter_status(port, "127.0.0.13")[0])
    stop.set()
    for t in threads:
        t.join()
    check("web: the arbiter's 30 commands under a flood of reads: none a wrong PIN",
          403 not in codes and codes.count(200) >= 28, str(codes))


def origin(port):
    base = f"127.0.0.1:{port}"

    def post(headers):
        return request(port, "/api/command", "127.0.0.14", "POST", "status", headers)[0]
    check("web: a POST from another site's page (Origin) is refused",
          post({"Origin": "http://evil.example"}) == 403)
    check("web: a POST whose Origin names another port is refused",
          post({"Origin": "http://127.0.0.1:1"}) == 403)
    check("web: a POST from another site (Sec-Fetch-Site) is refused",
          post({"Sec-Fetch-Site": "cross-site"}) == 403)
    check("web: a POST from the page itself is taken",
          post({"Origin": f"http://{base}", "Sec-Fetch-Site": "same-origin"}) == 200)
    for host, want in (("evil.example", 421), (f"evil.example:{port}", 421),
                       (f"board1.club:{port}", 200), (f"127.0.0.1:{port}", 200),
                       (f"[::1]:{port}", 200), ("localhost", 200),
                       (f"{socket.gethostname()}.local:{port}", 200)):
        got = request(port, "/", "127.0.0.14", headers={"Host": host})[0]
        check(f"web: Host {host}: {want}", got == want, str(got))


def main():
    work = checklib.begin("webflood")
    sock = os.path.join(work, "control")
    state = os.path.join(work, "state")
    conf = os.path.join(work, "annabella.conf")
    with open(conf, "w") as f:
        f.write(f"[control]\nsocket = {sock}\narbiters = nobody-here\narbiter-pin = {ARBITER_PIN}\n"
                "assistant-pin = 123456\n[voice]\nrecord = no\n[web]\nhosts = board1.club\n")
    with open(os.path.join(work, "idle.script"), "w") as f:
        f.write("player white\ntime-control 600+5\n+300000 lift a2\n")
    checklib.spawn("daemon", [f"{BUILD}/annabellad", "--config", conf, "--board",
                              f"sim:{work}/idle.script", "--time", "real", "--audio", "none",
                              "--state", state], stderr=open(os.path.join(work, "daemon.err"), "w"))
    if not checklib.wait_path(sock):
        raise SystemExit("the daemon did not start")
    port = checklib.free_port()
    checklib.spawn("web", [f"{BUILD}/annabella", "web", "--config", conf, "--listen",
                           f"127.0.0.1:{port}"], stdout=subprocess.DEVNULL,
                   stderr=open(os.path.join(work, "web.err"), "w"))
    if not checklib.wait_port(port) or not checklib.wait_for(
            lambda: request(port, "/api/status", "127.0.0.1")[0] == 200, 5):
        raise SystemExit("the page did not start")
    # The room relay, with a broker and one board.
    bport, rport = checklib.free_port(), checklib.free_port()
    bconf = os.path.join(work, "broker.conf")
    checklib.broker_conf(bconf, bport)
    checklib.spawn("broker", ["mosquitto", "-c", bconf], stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    checklib.wait_port(bport)
    subprocess.run(["mosquitto_pub", "-p", str(bport), "-r", "-t", "annabella/b1/pgn", "-m",
                    '[Event "Club"]\n[White "A"]\n[Black "B"]\n[Result "*"]\n\n1. e4 *\n'],
                   check=True)
    checklib.spawn("relay", [f"{BUILD}/annabella", "relay", "--mqtt", f"127.0.0.1:{bport}",
                             "--listen", f"127.0.0.1:{rport}"], stdout=subprocess.DEVNULL,
                   stderr=open(os.path.join(work, "relay.err"), "w"))
    checklib.wait_port(rport)
    checklib.wait_for(lambda: "1. e4" in request(rport, "/round.pgn", "127.0.0.1")[1], 5)

    flood_of_connections(port, "web", lambda: arbiter_status(port, "127.0.0.6"))
    flood_of_connections(rport, "relay", lambda: request(rport, "/round.pgn", "127.0.0.6"))
    slow_sends(port, "web")
    unread_streams(port)
    reads(port, state)
    flood_and_arbiter(port)
    origin(port)


checklib.run(main)
