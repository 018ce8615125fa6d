#!/usr/bin/env python3
"""The time a restart gives back (docs/control.md "Control interface": clock.uncharged_ms and
uncharged_up_to_ms) against the truth, on slow storage.

    uncharged.py [--real] BUILD [TRIALS] [SLOW_MS...]

For each SLOW_MS (default 0 20 100 300) TRIALS (default 20) power cuts that lose what was not
yet synced (`crash unsynced`) at random moments of a master game with a Fischer clock, each
sync taking SLOW_MS longer (`disk slow`, in virtual time as the writer's thread takes it:
one sync under way, the next waiting); then a restart in real time whose `status` gives the
bounds.  The truth is counted from the files and the script, not from the daemon: the
running clock was last journaled at the last record the journal kept that carries the clock
(read with the product's reader, tests/record.py), and the power went at the script's time
of the cut; the true gap is the difference.  Each cut with the clock running must have
uncharged_ms <= gap <= uncharged_up_to_ms.  Prints one line per SLOW_MS with the cuts, the
misses and the largest gap and bound.  With --real the game before the cut is played in real
time too (thinking times cut to 7 s, the cut within its first 16 actions), so the syncs are
the writer thread's own: for tests/bench-disk.sh, which prints the misses as figures.
"""
import json
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import checklib  # noqa: E402
import gamecheck  # noqa: E402
import record  # noqa: E402
from checklib import check  # noqa: E402

TC = "5400+30"


def cut_time(actions, k, wait):
    """The script's time of the cut gamecheck.split makes at action k, `wait` ms on."""
    rest = actions[k:]
    if rest:
        wait = wait % max(rest[0][1], 1)
    return (actions[k - 1][0] if k else 0) + wait


def status(build, state, script):
    """The clock of `status` right after a restart in real time (None: no answer)."""
    sock = state + ".sock"
    p = checklib.spawn("restart", [os.path.join(build, "annabellad"), "--board",
                                   "sim:" + script, "--time", "real", "--audio", "none",
                                   "--control", sock, "--state", state],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        if not checklib.wait_path(sock, 10):
            return None
        out = subprocess.run([os.path.join(build, "annabella"), "control", "--socket", sock,
                              "status"], capture_output=True, text=True)
        for line in out.stdout.splitlines():
            if line.startswith("{"):
                return json.loads(line).get("clock")
        return None
    finally:
        checklib.stop(p)


def main():
    args = sys.argv[1:]
    real = args[:1] == ["--real"]
    args = args[1:] if real else args
    build = os.path.abspath(args[0])
    trials = int(args[1]) if len(args) > 1 else 20
    slows = [int(a) for a in args[2:]] or [0, 20, 100, 300]
    work = checklib.begin("uncharged")
    tests = os.path.dirname(os.path.abspath(__file__))
    conf = os.path.join(work, "a.conf")
    with open(conf, "w") as f:
        f.write("[state]\nsync = no\n")
    script = os.path.join(work, "game.script")
    with open(script, "w") as f:
        subprocess.run([os.path.join(build, "annabella"), "script",
                        os.path.join(tests, "games", "1999-kasparov-topalov.pgn"),
                        "--player", "white", "--variants", "3", "--time-control", TC],
                       stdout=f, check=True)
    if real:
        # The thinking times cut to 7 s (still longer than a checkpoint's 5 s), the rest
        # as played.
        with open(script) as f:
            fast = [l if not l.startswith("+") or int(l[1:].split()[0]) <= 7000 else
                    "+7000 " + l.split(None, 1)[1] for l in f.read().splitlines()]
        with open(script, "w") as f:
            f.write("\n".join(fast) + "\n")
    header, actions = gamecheck.read_script(script)
    empty = os.path.join(work, "empty.script")
    with open(empty, "w") as f:
        f.write("player white\ntime-control %s\n" % TC)
    rng = random.Random(20261204)
    for slow in slows:
        cuts = misses = 0
        worst_gap = worst_bound = 0
        for t in range(trials):
            # Past the first press (the clock runs) and before the game's end.
            k = rng.randrange(3, 16 if real else len(actions) - 1)
            wait = rng.randrange(6000)
            d = os.path.join(work, "%d-%d" % (slow, t))
            os.makedirs(d)
            s1, s2 = os.path.join(d, "1.script"), os.path.join(d, "2.script")
            gamecheck.split(script, k, wait, s1, s2, "unsynced")
            with open(s1) as f:
                lines = f.read().splitlines()
            at = next(i for i, l in enumerate(lines) if l.startswith("+"))
            lines.insert(at, "+0 disk slow %d" % slow)
            with open(s1, "w") as f:
                f.write("\n".join(lines) + "\n")
            state = os.path.join(d, "state")
            subprocess.run([os.path.join(build, "annabellad"), "--config", conf, "--control",
                            "none", "--board", "sim:" + s1, "--time",
                            "real" if real else "virtual", "--audio", "none", "--state", state],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            kept = [r for r in record.read(build, state)["records"] if r.get("clock")]
            clock = status(build, state, empty)
            if not check("a restart answers status (slow %d, cut %d)" % (slow, t),
                         clock is not None):
                continue
            if "uncharged_up_to_ms" not in clock or not kept:
                continue  # the clock did not run at the cut
            gap = cut_time(actions, k, wait) - kept[-1]["ms"]
            low, high = clock["uncharged_ms"], clock["uncharged_up_to_ms"]
            cuts += 1
            worst_gap = max(worst_gap, gap)
            worst_bound = max(worst_bound, high)
            if not check("the true gap within the bounds (slow %d ms, cut %d after action %d)"
                         % (slow, t, k), low <= gap <= high,
                         "gap %d ms, bounds [%d, %d]" % (gap, low, high)):
                misses += 1
        print("uncharged: disk slow %3d ms%s: %d cuts with the clock running, %d outside "
              "[uncharged_ms, uncharged_up_to_ms]; the largest gap %d ms, the largest bound "
              "%d ms" % (slow, " (real time)" if real else "", cuts, misses, worst_gap,
                         worst_bound), flush=True)
        if real:
            print("bench disk_slow_%d_uncharged_bound_misses %d of_%d_cuts" % (slow, misses, cuts),
                  flush=True)


checklib.run(main)
