#!/usr/bin/python3
"""tests/check-webtls.sh: the page over TLS (docs/web.md "The web page for the assistant and
the arbiter"), as the arbiter and a laptop on the club's Wi-Fi meet it:

- `annabella web certificate DIR` makes the key (0600) and a self-signed certificate (0644)
  once; its fingerprint is the one openssl reads, the one `annabella status` prints and the one
  the page logs at its start;
- the page speaks TLS only: curl trusting that certificate alone gets the status, a PIN's
  command goes through; plain HTTP to it gets nothing;
- a tap between the client and the page (what a laptop on the path sees) never sees the PIN;
  the same tap before a page without TLS does (the tap works);
- headless Chromium trusting the page's key alone (--ignore-certificate-errors-spki-list)
  loads the page over https and gives the arbiter's command with the PIN.

Usage: tlstest.py BUILD."""
import base64
import hashlib
import os
import socket
import stat
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import checklib  # noqa: E402
from checklib import check  # noqa: E402

BUILD = sys.argv[1]
PIN = "471108"
HOST = socket.gethostname()


class Tap:
    """A TCP forwarder on a port of its own to 127.0.0.1:target that keeps every byte both
    ways (what a machine on the path reads)."""

    def __init__(self, target):
        self.target = target
        self.seen = bytearray()
        self.lock = threading.Lock()
        self.server = socket.socket()
        self.server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(16)
        self.port = self.server.getsockname()[1]
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self):
        while True:
            try:
                c, _ = self.server.accept()
            except OSError:
                return
            u = socket.create_connection(("127.0.0.1", self.target))
            threading.Thread(target=self.pipe, args=(c, u), daemon=True).start()
            threading.Thread(target=self.pipe, args=(u, c), daemon=True).start()

    def pipe(self, a, b):
        try:
            while True:
                data = a.recv(65536)
                if not data:
                    break
                with self.lock:
                    self.seen += data
                b.sendall(data)
        except OSError:
            pass
        finally:
            for s in (a, b):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass


def curl(*args):
    r = subprocess.run(["curl", "-s", "-m", "10"] + list(args), capture_output=True, text=True)
    return r.returncode, r.stdout


def start_web(conf, extra=()):
    port = checklib.free_port()
    out = os.path.join(checklib.work, f"web{port}.out")
    checklib.spawn(f"web{port}", [f"{BUILD}/annabella", "web", "--config", conf, "--listen",
                                  f"127.0.0.1:{port}"] + list(extra),
                   stdout=open(out, "w"), stderr=subprocess.STDOUT)
    if not checklib.wait_port(port):
        raise SystemExit(f"the page did not start: {open(out).read()}")
    return port, out


def main():
    work = checklib.begin("webtls")
    etc = os.path.join(work, "etc")
    os.mkdir(etc)
    made = subprocess.run([f"{BUILD}/annabella", "web", "certificate", etc], capture_output=True,
                          text=True)
    crt, key = os.path.join(etc, "web.crt"), os.path.join(etc, "web.key")
    check("web certificate makes the certificate and its key", made.returncode == 0 and
          os.path.exists(crt) and os.path.exists(key), made.stderr)
    check("the key is readable by its owner alone, the certificate by all",
          stat.S_IMODE(os.stat(key).st_mode) == 0o600 and
          stat.S_IMODE(os.stat(crt).st_mode) == 0o644)
    fp = made.stdout.split("SHA-256 ")[-1].strip()
    again = subprocess.run([f"{BUILD}/annabella", "web", "certificate", etc], capture_output=True,
                           text=True)
    check("a second run keeps them", again.stdout.strip().endswith(fp), again.stdout)
    ossl = subprocess.run(["openssl", "x509", "-in", crt, "-noout", "-fingerprint", "-sha256"],
                          capture_output=True, text=True).stdout
    check("its fingerprint is the one openssl reads", ossl.strip().endswith("=" + fp),
          f"{ossl!r} {fp!r}")
    names = subprocess.run(["openssl", "x509", "-in", crt, "-noout", "-ext", "subjectAltName"],
                           capture_output=True, text=True).stdout
    check("it names this host and HOST.local", f"DNS:{HOST}" in names and
          f"DNS:{HOST}.local" in names, names)

    sock = os.path.join(work, "control")
    conf = os.path.join(work, "annabella.conf")
    with open(conf, "w") as f:
        f.write(f"[control]\nsocket = {sock}\narbiters = nobody-here\narbiter-pin = {PIN}\n"
                f"assistant-pin = 123456\n[voice]\nrecord = no\n[web]\ncertificate = {crt}\n"
                f"key = {key}\n")
    with open(os.path.join(work, "idle.script"), "w") as f:
        f.write("player white\ntime-control 600+5\n+300000 lift a2\n")
    checklib.spawn("daemon", [f"{BUILD}/annabellad", "--config", conf, "--board",
                              f"sim:{work}/idle.script", "--time", "real", "--audio", "none",
                              "--state", os.path.join(work, "state")],
                   stderr=open(os.path.join(work, "daemon.err"), "w"))
    if not checklib.wait_path(sock):
        raise SystemExit("the daemon did not start")
    status = subprocess.run([f"{BUILD}/annabella", "status", "--socket", sock, "--config", conf],
                            capture_output=True, text=True).stdout
    check("annabella status prints the page's fingerprint", f"SHA-256 {fp}" in status, status)
    port, out = start_web(conf)
    time.sleep(0.5)
    log = open(out).read()
    check("the page says it is https and logs its fingerprint",
          f"https://127.0.0.1:{port}/" in log and fp in log, log)

    url = f"https://{HOST}:{port}"
    resolve = f"{HOST}:{port}:127.0.0.1"
    rc, body = curl("--cacert", crt, "--resolve", resolve, f"{url}/api/status")
    check("curl trusting that certificate alone gets the status over TLS", rc == 0 and
          '"plies"' in body, f"{rc} {body[:200]}")
    rc, body = curl(f"http://127.0.0.1:{port}/api/status")
    check("plain HTTP to the page gets no page", '"plies"' not in body, f"{rc} {body[:200]}")

    tap = Tap(port)
    rc, body = curl("--cacert", crt, "--resolve", f"{HOST}:{tap.port}:127.0.0.1", "-H",
                    f"X-PIN: {PIN}", "--data-binary", "status", f"https://{HOST}:{tap.port}/api/command")
    check("the arbiter's command through the tap", rc == 0 and '"ok":true' in body, body[:200])
    with tap.lock:
        seen = bytes(tap.seen)
    check("the tap saw the exchange, and never the PIN", len(seen) > 1000 and
          PIN.encode() not in seen and b"X-PIN" not in seen, f"{len(seen)} bytes")
    # The same tap before a page without TLS reads the PIN: it would have seen it.
    plain_conf = os.path.join(work, "plain.conf")
    with open(plain_conf, "w") as f:
        f.write(open(conf).read().split("[web]")[0])
    plain, _ = start_web(plain_conf)
    tap2 = Tap(plain)
    curl("-H", f"X-PIN: {PIN}", "--data-binary", "status",
         f"http://127.0.0.1:{tap2.port}/api/command")
    with tap2.lock:
        check("without TLS the tap reads the PIN", f"X-PIN: {PIN}".encode() in tap2.seen)

    # Chromium, trusting the page's key alone.
    der = subprocess.run(f"openssl x509 -in {crt} -pubkey -noout | openssl pkey -pubin -outform der",
                         shell=True, capture_output=True).stdout
    spki = base64.b64encode(hashlib.sha256(der).digest()).decode()
    from browser import chromium  # noqa: E402
    from selenium.webdriver.common.by import By  # noqa: E402
    driver = chromium(f"--ignore-certificate-errors-spki-list={spki}",
                      f"--host-resolver-rules=MAP {HOST} 127.0.0.1",
                      f"--user-data-dir={work}/chromium")
    checklib.at_exit(driver.quit)
    driver.get(f"{url}/?lang=en")
    loaded = checklib.wait_for(lambda: driver.execute_script(
        "return document.getElementById('pin') !== null && location.protocol"), 10)
    check("Chromium loads the page over https, trusting its key alone", loaded == "https:",
          str(loaded))
    pin = driver.find_element(By.ID, "pin")
    pin.send_keys(PIN)
    ok = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "fetch('/api/command', {method: 'POST', headers: {'X-PIN': arguments[0]}, body: 'status'})"
        ".then(r => r.json()).then(j => done(!!j.ok && 'clock' in j)).catch(e => done(String(e)));",
        PIN)
    check("the arbiter's command from Chromium over https", ok is True, str(ok))


checklib.run(main)
