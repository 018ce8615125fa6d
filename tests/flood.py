#!/usr/bin/env python3
"""A flood of reads on the control socket, as anonymous visitors of the page make them (docs/web.md
"The web page for the assistant and the arbiter": status, moves, export and help need no PIN):
CLIENTS connections (default 4, under the socket's six per user), each sending the four reads
in turn, as fast as the daemon answers, for SECONDS.  Prints the requests answered.

usage: flood.py SOCKET SECONDS [CLIENTS]
"""
import socket
import sys
import threading
import time

READS = [b"status public\n", b"moves\n", b"export pgn\n", b"help\n"]


def client(path, until, counts, i):
    s = socket.socket(socket.AF_UNIX)
    s.connect(path)
    f = s.makefile("rb")
    n = 0
    while time.monotonic() < until:
        s.sendall(READS[n % len(READS)])
        if not f.readline():
            break
        n += 1
    counts[i] = n
    s.close()


def main():
    path, seconds = sys.argv[1], float(sys.argv[2])
    clients = int(sys.argv[3]) if len(sys.argv) > 3 else 4
    until = time.monotonic() + seconds
    counts = [0] * clients
    threads = [threading.Thread(target=client, args=(path, until, counts, i))
               for i in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print(sum(counts))


main()
