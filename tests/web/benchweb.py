#!/usr/bin/python3
"""tests/bench-web.sh: the page's size and first paint.  Usage: benchweb.py BUILD SOCKET."""
import os
import statistics
import subprocess
import sys
import time

from browser import chromium, first_paint

build, sock = sys.argv[1], sys.argv[2]
for _ in range(200):
    if os.path.exists(sock):
        break
    time.sleep(0.02)
web = subprocess.Popen([f"{build}/annabella", "web", "--listen", "127.0.0.1:0", "--socket", sock],
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
base = "http://" + web.stdout.readline().split("http://", 1)[1].strip().rstrip("/")
driver = chromium("--disable-features=BackForwardCache")
try:
    fcps, sizes = [], []
    # WEB_BENCH_LOADS (16) loads, the first only warming the browser.
    for i in range(max(2, int(os.environ.get("WEB_BENCH_LOADS", "16")))):
        driver.get("about:blank")
        driver.get(f"{base}/?load={i}")
        fcp = first_paint(driver)
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
