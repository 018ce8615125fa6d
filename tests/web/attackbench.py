#!/usr/bin/python3
"""tests/bench-attack.sh: the arbiter's `status` while one visitor of the club's network
attacks the page (README "Security model"), each attack for SECONDS: the arbiter's status at
the control socket (as `annabella status` asks it) and through the page with the arbiter's PIN
from an address of its own, p50 and max; and control.log's growth under a flood of reads.

Usage: attackbench.py BUILD SOCKET PAGE_PORT STATE_DIR SECONDS.  Prints "bench NAME VALUE UNIT"."""
import http.client
import os
import socket
import statistics
import sys
import threading
import time

BUILD, SOCK, PORT, STATE, SECONDS = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], \
    float(sys.argv[5])
ARBITER_PIN = "471108"


def post(source, line, pin=None, timeout=10):
    c = http.client.HTTPConnection("127.0.0.1", PORT, timeout=timeout, source_address=(source, 0))
    try:
        c.request("POST", "/api/command", body=line, headers={"X-PIN": pin} if pin else {})
        r = c.getresponse()
        r.read()
        return r.status
    except (OSError, http.client.HTTPException):
        return 0
    finally:
        c.close()


def socket_status():
    s = socket.socket(socket.AF_UNIX)
    s.settimeout(10)
    s.connect(SOCK)
    s.sendall(b"status\n")
    buf = b""
    while not buf.endswith(b"\n"):
        data = s.recv(65536)
        if not data:
            break
        buf += data
    s.close()
    return buf.startswith(b'{"ok":true')


def measure(stop):
    """The arbiter's status, both ways, every 0.5 s until stop: (socket ms, page ms, page
    codes)."""
    sock_ms, page_ms, codes = [], [], []
    while not stop.is_set():
        t0 = time.monotonic()
        ok = socket_status()
        t1 = time.monotonic()
        code = post("127.0.0.250", "status", ARBITER_PIN)
        t2 = time.monotonic()
        if ok:
            sock_ms.append((t1 - t0) * 1000)
        if code == 200:
            page_ms.append((t2 - t1) * 1000)
        codes.append(code)
        time.sleep(0.5)
    return sock_ms, page_ms, codes


# ------------------------------------------------------------------ the attacks


def silent(stop, source="127.0.0.5"):
    socks = []
    while not stop.is_set():
        while len(socks) < 64 and not stop.is_set():
            s = socket.socket()
            s.bind((source, 0))
            try:
                s.connect(("127.0.0.1", PORT))
                socks.append(s)
            except OSError:
                s.close()
                break
        time.sleep(0.2)
        alive = []
        for s in socks:
            s.setblocking(False)
            try:
                gone = s.recv(1) == b""
            except BlockingIOError:
                gone = False
            except OSError:
                gone = True
            (s.close() if gone else alive.append(s))
        socks = alive
    for s in socks:
        s.close()


def drip(stop, source="127.0.0.7"):
    socks = []
    while not stop.is_set():
        while len(socks) < 32:
            s = socket.socket()
            s.bind((source, 0))
            try:
                s.connect(("127.0.0.1", PORT))
                s.send(b"GET / HTTP/1.1\r\n")
                socks.append(s)
            except OSError:
                s.close()
                break
        alive = []
        for s in socks:
            try:
                s.send(b"X")
                alive.append(s)
            except OSError:
                s.close()
        socks = alive
        stop.wait(2)
    for s in socks:
        s.close()


def streams(stop):
    socks = []
    for a in range(8):
        for _ in range(10):
            s = socket.socket()
            s.bind((f"127.0.0.{20 + a}", 0))
            try:
                s.connect(("127.0.0.1", PORT))
                s.send(f"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:{PORT}\r\n\r\n".encode())
                socks.append(s)
            except OSError:
                s.close()
    stop.wait()
    for s in socks:
        s.close()


def reads(stop):
    def one(source, line):
        while not stop.is_set():
            post(source, line, timeout=5)
    threads = [threading.Thread(target=one, args=(f"127.0.0.{30 + i % 2}",
                                                   "status" if i % 4 else "export text"))
               for i in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def guesses(stop):
    def one(i):
        n = 0
        while not stop.is_set():
            if post(f"127.0.1.{i}", f"{(i * 7919 + n) % 1000000:06d}", "x") == 0:
                time.sleep(0.1)
            n += 1
    threads = [threading.Thread(target=one, args=(i,)) for i in range(1, 67)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def commands(stop):
    def one(source):
        while not stop.is_set():
            post(source, "tags Annotator flood", "123456", timeout=5)
    threads = [threading.Thread(target=one, args=(f"127.0.2.{1 + i % 4}",)) for i in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def pct(v, p):
    v = sorted(v)
    return v[min(len(v) - 1, int(round(p / 100 * (len(v) - 1))))] if v else float("nan")


def run(name, attack, words):
    stop = threading.Event()
    t = threading.Thread(target=attack, args=(stop,)) if attack else None
    log = os.path.join(STATE, "control.log")
    before = os.path.getsize(log)
    if t:
        t.start()
        time.sleep(1)
    start = time.monotonic()
    result = {}
    m = threading.Thread(target=lambda: result.update(r=measure(stop)))
    m.start()
    time.sleep(SECONDS)
    stop.set()
    m.join()
    if t:
        t.join()
    grown = os.path.getsize(log) - before
    sock_ms, page_ms, codes = result["r"]
    refused = sum(1 for c in codes if c != 200)
    print(f"bench attack_{name}_status_socket_ms {pct(sock_ms, 50):.1f} ms p50 "
          f"(max {max(sock_ms or [float('nan')]):.1f}; {words})")
    print(f"bench attack_{name}_status_page_ms {pct(page_ms, 50):.1f} ms p50 "
          f"(max {max(page_ms or [float('nan')]):.1f}; {refused} of {len(codes)} not answered: "
          f"{sorted(set(codes))})")
    return grown * 60 / (time.monotonic() - start + 1)


quiet = run("none", None, "no attack")
run("silent", silent, "64 silent connections from one address, renewed as they are closed")
run("slow_headers", drip, "32 connections sending a header byte every 2 s")
run("streams", streams, "80 event streams from 8 addresses, never read")
grown = run("reads", reads, "16 connections flooding reads without a PIN from 2 addresses")
print(f"bench attack_reads_control_log_growth {grown:.0f} bytes a minute (under the flood of "
      f"reads; {quiet:.0f} without it, the game and the arbiter's status going on)")
run("guesses", guesses, "wrong PINs from 66 addresses as fast as the page answers")
run("commands", commands, "16 connections flooding commands with the assistant's PIN")
