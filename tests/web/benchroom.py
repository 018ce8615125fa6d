#!/usr/bin/python3
"""tests/bench-broadcast.sh: the room page with every board of the room, in headless
Chromium over 10 fresh loads: its weight (the page, its scripts and styles, and the first
/api/boards, as sent: gzipped) and its first contentful paint.  Usage: benchroom.py URL."""
import statistics
import sys
import time

from browser import chromium, first_paint

url = sys.argv[1].rstrip("/")
driver = chromium("--disable-features=BackForwardCache")
try:
    fcps, sizes, boards = [], [], 0
    for i in range(11):
        driver.get("about:blank")
        driver.get(f"{url}/?load={i}")
        fcp = first_paint(driver)
        end = time.monotonic() + 10
        while time.monotonic() < end and not driver.execute_script(
                "return document.querySelectorAll('#boards svg').length"):
            time.sleep(0.05)
        time.sleep(0.3)
        boards = driver.execute_script("return document.querySelectorAll('#boards > li').length")
        size = driver.execute_script(
            "let n = performance.getEntriesByType('navigation')[0].transferSize;"
            "const seen = new Set();"
            "for (const r of performance.getEntriesByType('resource')) {"
            "  const p = new URL(r.name).pathname;"
            "  if (seen.has(p)) continue; seen.add(p); n += r.transferSize; }"
            "return n;")
        if i and fcp is not None:
            fcps.append(fcp)
            sizes.append(size)
    print(f"bench room_page_bytes {max(sizes)} bytes ({boards} boards, gzipped /api/boards included)")
    print(f"bench room_first_contentful_paint_p50_ms {statistics.median(fcps):.0f} ms")
    print(f"bench room_first_contentful_paint_max_ms {max(fcps):.0f} ms")
finally:
    driver.quit()
