#!/usr/bin/python3
"""tests/bench-web.sh: the page's size and first paint.  Usage: benchweb.py BUILD SOCKET."""
import os
import statistics
import subprocess
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service

build, sock = sys.argv[1], sys.argv[2]
for _ in range(200):
    if os.path.exists(sock):
        break
    time.sleep(0.02)
web = subprocess.Popen([f"{build}/annabella", "web", "--listen", "127.0.0.1:0", "--socket", sock],
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
base = "http://" + web.stdout.readline().split("http://", 1)[1].strip().rstrip("/")
opts = Options()
opts.binary_location = "/usr/bin/chromium"
for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
          "--disable-features=BackForwardCache"):
    opts.add_argument(a)
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=opts)
try:
    fcps, sizes = [], []
    for i in range(16):
        driver.get("about:blank")
        driver.get(f"{base}/?load={i}")
        fcp = None
        end = time.monotonic() + 5
        while fcp is None and time.monotonic() < end:
            fcp = driver.execute_script(
                "const e = performance.getEntriesByType('paint')"
                ".filter(p => p.name === 'first-contentful-paint');"
                "return e.length ? e[0].startTime : null;")
            time.sleep(0.02)
        # Everything the page loaded: the document, its resources, and the API answers of
        # its first refresh (the event stream has no end, so it is left out).
        time.sleep(0.3)
        size = driver.execute_script(
            "let n = performance.getEntriesByType('navigation')[0].encodedBodySize;"
            "for (const r of performance.getEntriesByType('resource'))"
            "  if (!r.name.endsWith('/api/events')) n += r.encodedBodySize;"
            "return n;")
        if i and fcp is not None:  # the first load warms the browser
            fcps.append(fcp)
            sizes.append(size)
    if os.environ.get("BENCH_VERBOSE"):
        print(fcps, sizes)
    print(f"bench web_page_bytes {max(sizes)} bytes")
    print(f"bench web_first_contentful_paint_p50_ms {statistics.median(fcps):.0f} ms")
    print(f"bench web_first_contentful_paint_max_ms {max(fcps):.0f} ms")
finally:
    driver.quit()
    web.kill()
