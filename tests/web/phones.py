#!/usr/bin/python3
"""tests/bench-relay.sh: a room of phones and a broadcast's software against the relay.

    phones.py phones URL N SECONDS     N phones, each from a loopback address of its own
                                       (127.1.x.y), polling URL/api/boards as the room page
                                       does (gzip, one keep-alive connection, the next poll a
                                       second after the answer)
    phones.py round URL SECONDS MS     URL/round.pgn polled every MS ms (If-None-Match, gzip)

Each prints "polls N failed F p50 MS p99 MS max MS" (the time of each poll, request to its
whole answer) and, for the phones, "phones_served K" (phones whose every poll was answered)."""
import asyncio
import http.client
import sys
import time
import urllib.parse


def stats(lat):
    lat.sort()
    if not lat:
        return "p50 - p99 - max -"

    def pct(p):
        return lat[min(len(lat) - 1, int(round(p / 100 * (len(lat) - 1))))]
    return f"p50 {pct(50):.1f} p99 {pct(99):.1f} max {lat[-1]:.1f}"


async def phone(i, host, port, end, lat, failed):
    addr = f"127.1.{1 + i // 250}.{1 + i % 250}"
    reader = writer = None
    ok = True
    req = (f"GET /api/boards HTTP/1.1\r\nHost: {host}:{port}\r\nAccept-Encoding: gzip\r\n"
           f"User-Agent: phone-{i}\r\n\r\n").encode()
    # The phones do not all start in the same millisecond.
    await asyncio.sleep((i % 100) / 100)
    while time.monotonic() < end:
        t0 = time.monotonic()
        try:
            if writer is None:
                reader, writer = await asyncio.wait_for(asyncio.open_connection(
                    host, port, local_addr=(addr, 0)), 5)
            writer.write(req)
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)
            length = 0
            for line in head.split(b"\r\n"):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            await asyncio.wait_for(reader.readexactly(length), 5)
            if not head.startswith(b"HTTP/1.1 200"):
                raise OSError(head[:40])
            lat.append((time.monotonic() - t0) * 1000)
        except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError, ValueError):
            failed[0] += 1
            ok = False
            if writer:
                writer.close()
            reader = writer = None
        await asyncio.sleep(1)
    if writer:
        writer.close()
    return ok


async def phones(url, n, seconds):
    u = urllib.parse.urlparse(url)
    end = time.monotonic() + seconds
    lat, failed = [], [0]
    served = await asyncio.gather(*(phone(i, u.hostname, u.port, end, lat, failed)
                                    for i in range(n)))
    print(f"polls {len(lat) + failed[0]} failed {failed[0]} {stats(lat)}")
    print(f"phones_served {sum(served)}")


def round_pgn(url, seconds, interval_ms):
    u = urllib.parse.urlparse(url)
    end = time.monotonic() + seconds
    lat, failed, etag = [], 0, None
    conn = http.client.HTTPConnection(u.hostname, u.port, timeout=10,
                                      source_address=("127.0.0.200", 0))
    while time.monotonic() < end:
        t0 = time.monotonic()
        headers = {"Accept-Encoding": "gzip"}
        if etag:
            headers["If-None-Match"] = etag
        try:
            conn.request("GET", "/round.pgn", headers=headers)
            r = conn.getresponse()
            r.read()
            if r.status not in (200, 304):
                raise OSError(r.status)
            etag = r.getheader("ETag") or etag
            lat.append((time.monotonic() - t0) * 1000)
        except (OSError, http.client.HTTPException):
            failed += 1
            conn.close()
            conn = http.client.HTTPConnection(u.hostname, u.port, timeout=10,
                                              source_address=("127.0.0.200", 0))
        time.sleep(max(0.0, interval_ms / 1000 - (time.monotonic() - t0)))
    print(f"polls {len(lat) + failed} failed {failed} {stats(lat)}")


if sys.argv[1] == "phones":
    asyncio.run(phones(sys.argv[2], int(sys.argv[3]), float(sys.argv[4])))
else:
    round_pgn(sys.argv[2], float(sys.argv[3]), int(sys.argv[4]))
