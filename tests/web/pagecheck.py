#!/usr/bin/python3
"""A page in headless Chromium: wait until a CSS selector matches at least N elements, then
run axe-core on it.  Prints the violations, one per line; exit 0 when there are none.
Usage: pagecheck.py URL AXE_JS SELECTOR N"""
import sys
import time

from browser import chromium

url, axe, selector, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
driver = chromium()
try:
    driver.get(url)
    end = time.monotonic() + 10
    while time.monotonic() < end and driver.execute_script(
            "return document.querySelectorAll(arguments[0]).length", selector) < n:
        time.sleep(0.05)
    found = driver.execute_script("return document.querySelectorAll(arguments[0]).length", selector)
    if found < n:
        print(f"only {found} of {n} '{selector}' on the page")
        sys.exit(1)
    with open(axe) as f:
        driver.execute_script(f.read())
    driver.set_script_timeout(30)
    result = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a',"
        " 'wcag21aa', 'best-practice']}}).then(r => done(r.violations.map(v => v.id + ': ' +"
        " v.nodes.length + ' ' + v.help)), e => done(['axe failed: ' + e]));")
    for v in result:
        print(v)
    sys.exit(1 if result else 0)
finally:
    driver.quit()
