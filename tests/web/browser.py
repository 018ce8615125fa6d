"""Headless Chromium for the web tests and benchmarks (Debian's chromium and chromedriver)."""
import time

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service


def chromium(*extra):
    opts = Options()
    opts.binary_location = "/usr/bin/chromium"
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage") + extra:
        opts.add_argument(a)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=opts)


def first_paint(driver, timeout=5):
    """The page's first contentful paint in ms, or None."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        fcp = driver.execute_script(
            "const e = performance.getEntriesByType('paint')"
            ".filter(p => p.name === 'first-contentful-paint');"
            "return e.length ? e[0].startTime : null;")
        if fcp is not None:
            return fcp
        time.sleep(0.02)
    return None
