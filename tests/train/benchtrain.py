#!/usr/bin/python3
"""make bench: from the player's clock press to the first sample of the engine's announced
reply (tests/bench-train.sh BUILD).

A real annabellad in real time on a live board script, `annabella train` with Stockfish at
--movetime 100; the test plays White and makes the engine's moves by following the guidance
(tests/train/traintest.py's harness).  Twice: on ALSA's `null` device, which swallows any
amount of sound at once, and on sound cards that play in real time (an ALSA plugin,
tests/bench/pcm_paced.c, for the speaker and the earphone), where an announcement
waits for the one being played before it unless that one is cut short.  The times come from
the daemon's timing trace (ANNABELLA_TRACE, base/trace.h): each press of the player's clock
(`button 0 1`) to the `first-sample` of the reply's announcement (the say line's
`utterance=`), with what it came behind (its `behind=`).  Prints "bench NAME VALUE UNIT"
lines: the whole time, the time beyond the engine's 100 ms (and beyond the 20 ms every press
waits for its debounce), where it goes, and, on the paced card, how much of the reply was
still being heard when the engine's clock was pressed (the player's clock charged for it;
the goal: 0) and how long after the reply had been heard the press came (the engine's clock
charged for it).
TRAIN_BENCH_PLIES (30) plies each.
"""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import checklib  # noqa: E402
import traintest as tt  # noqa: E402

MOVETIME = 100
DEBOUNCE = 20  # [board] debounce-ms: a press counts once it has been still this long
PLIES = int(os.environ.get("TRAIN_BENCH_PLIES", "30"))


def pct(values, p):
    v = sorted(values)
    return v[min(len(v) - 1, int(round(p / 100 * (len(v) - 1))))]


def quiet(logs):
    """Whether the cards whose logs these are play nothing now."""
    for log in logs:
        with open(log) as f:
            lines = f.read().split()
        if lines and lines[-1] != "stop":
            return False
    return True


def play(build, sink):
    """A game against the engine on `sink` ("null" or "paced"): the rows of the trace, one
    per reply, and the public card's log (paced)."""
    trace = os.path.join(checklib.work, sink + ".trace")
    card_log = None
    cards = []
    env = {"ANNABELLA_TRACE": trace}
    if sink == "paced":
        public, private = "speaker", "earphone"
        for card in (public, private):
            card_env, log = checklib.paced_card(build, card)
            env.update(card_env)
            cards.append(log)
        card_log = cards[0]
    else:
        public = private = "null"
    dev = tt.Device(sink, env=env, audio="alsa",
                    extra=f"public-device = {public}\nprivate-device = {private}\n")
    me = tt.Engine(movetime=30)
    p, out = tt.train(dev, "--level", "0", "--movetime", str(MOVETIME),
                      env={"ANNABELLA_TRACE": trace})
    dev.said(0, "the computer plays Black")
    # The player listens to what the device says at the start (its settings, the training)
    # before starting the clock.
    checklib.wait_for(lambda: quiet(cards) and time.sleep(0.3) is None and quiet(cards), 30)
    tt.start_clock(dev)
    for _ in range(PLIES // 2):
        st = dev.status()
        if st.get("result", {}).get("state") != "on":
            break
        mark = dev.mark()
        tt.player_move(dev, me, st)
        if tt.engine_reply(dev, mark, st["plies"] + 2) is None:
            print("bench-train: the engine's reply did not come: " + open(out).read(),
                  file=sys.stderr)
            return None, None
    me.close()
    dev.stop()
    p.wait(15)
    # Per reply: the press's edge, the engine asked and answering (train's trace), the
    # daemon asked to say the move (and what it came behind), its first sample, the engine's
    # clock pressed (`said`).
    rows = []
    cur = None
    for line in open(trace):
        f = line.split()
        ns, what = int(f[0]), f[1]
        if what == "button" and f[2:4] == ["0", "1"]:
            cur = {"press": ns}
        elif what == "said" and rows and "said" not in rows[-1]:
            rows[-1]["said"] = ns
        elif cur is None:
            continue
        elif what in ("engine-go", "engine-move", "train-press") and what not in cur:
            cur[what] = ns
        elif what == "say" and f[2:4] == ["public", "move"] and "engine-move" in cur:
            if "say" not in cur:
                words = dict(w.split("=", 1) for w in f[2:] if "=" in w)
                cur.update(say=ns, behind=words.get("behind", "?"),
                           utterance=words.get("utterance"))
        elif what == "first-sample" and f[2:4] == ["public", "move"] and "say" in cur and \
                f"utterance={cur['utterance']}" in f:
            cur["sample"] = ns
            rows.append(cur)
            cur = None
    card = []
    if card_log:
        card = [(int(ns), what) for ns, what in (l.split() for l in open(card_log))]
    return rows, card


def report(prefix, rows, card):
    def p50(key_from, key_to):
        v = [(r[key_to] - r[key_from]) / 1e6 for r in rows if key_to in r and key_from in r]
        return pct(v, 50), pct(v, 99)

    total = p50("press", "sample")
    print(f"bench {prefix}replies {len(rows)} moves")
    print(f"bench {prefix}press_to_reply_first_sample_p50 {total[0]:.1f} ms")
    print(f"bench {prefix}press_to_reply_first_sample_p99 {total[1]:.1f} ms")
    print(f"bench {prefix}press_to_reply_beyond_movetime_p50 {total[0] - MOVETIME:.1f} ms")
    print(f"bench {prefix}press_to_reply_beyond_movetime_p99 {total[1] - MOVETIME:.1f} ms")
    print(f"bench {prefix}press_to_reply_beyond_movetime_and_debounce_p50 "
          f"{total[0] - MOVETIME - DEBOUNCE:.1f} ms")
    for name, a, b in (("press_edge_to_event", "press", "train-press"),
                       ("event_to_engine_asked", "train-press", "engine-go"),
                       ("press_edge_to_engine_asked", "press", "engine-go"),
                       ("engine_thinking", "engine-go", "engine-move"),
                       ("engine_answer_to_announced", "engine-move", "say"),
                       ("announced_to_first_sample", "say", "sample")):
        print(f"bench {prefix}{name}_p50 {p50(a, b)[0]:.1f} ms")
    # What the reply came behind: the player's own move still being said (cut short now).
    behind = sum(1 for r in rows if r.get("behind") not in ("-", "?"))
    print(f"bench {prefix}replies_behind_another_announcement {behind} moves")
    if not card:
        return
    # The player's clock runs from the engine's press: how much of the reply was still
    # to be heard then (the card's sound stopping after the reply's first sample).
    charged, late = [], []
    for r in rows:
        stop = next((ns for ns, what in card if what == "stop" and ns > r["sample"]), None)
        if stop is not None and "said" in r:
            charged.append(max(0.0, (stop - r["said"]) / 1e6))
            late.append(max(0.0, (r["said"] - stop) / 1e6))
    if charged:
        print(f"bench {prefix}player_clock_charged_while_reply_heard_p50 "
              f"{pct(charged, 50):.1f} ms")
        print(f"bench {prefix}player_clock_charged_while_reply_heard_max "
              f"{max(charged):.1f} ms")
        print(f"bench {prefix}engine_clock_pressed_after_reply_heard_p50 "
              f"{pct(late, 50):.1f} ms")


def main(build):
    if not os.access(tt.STOCKFISH, os.X_OK):
        print(f"bench-train: {tt.STOCKFISH} is not installed (make deps installs it)",
              file=sys.stderr)
        return 1
    try:
        for sink, prefix in (("null", "train_"), ("paced", "train_paced_")):
            rows, card = play(build, sink)
            if not rows:
                print(f"bench-train: no reply measured ({sink})", file=sys.stderr)
                return 1
            report(prefix, rows, card)
        return 0
    finally:
        checklib.cleanup()


if __name__ == "__main__":
    checklib.begin("bench-train")  # a work directory and the clean-up, no summary
    sys.exit(main(sys.argv[1]))
