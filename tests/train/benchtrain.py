#!/usr/bin/python3
"""make bench: from the player's clock press to the first sample of the engine's announced
reply (tests/bench-train.sh BUILD).

A real annabellad in real time on a live board script, ALSA's null device as the sound
card, `annabella train` with Stockfish at --movetime 100; the test plays White and makes the
engine's moves by following the guidance (tests/train/traintest.py's harness).  The times
come from the daemon's timing trace (ANNABELLA_TRACE, base/trace.h): each press of the
player's clock (`button 0 1`) to the next `first-sample public move`.  Prints "bench NAME
VALUE UNIT" lines: the whole time, the time beyond the engine's 100 ms (and beyond the
20 ms every press waits for its debounce), and where it goes.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import checklib  # noqa: E402
import traintest as tt  # noqa: E402

MOVETIME = 100
DEBOUNCE = 20  # [board] debounce-ms: a press counts once it has been still this long
PLIES = int(os.environ.get("TRAIN_BENCH_PLIES", "30"))


def main():
    if not os.access(tt.STOCKFISH, os.X_OK):
        print(f"bench-train: {tt.STOCKFISH} is not installed (make deps installs it)",
              file=sys.stderr)
        return 1
    trace = os.path.join(checklib.work, "trace")
    try:
        dev = tt.Device("bench", env={"ANNABELLA_TRACE": trace}, audio="alsa",
                        extra="public-device = null\nprivate-device = null\n")
        me = tt.Engine(movetime=30)
        p, out = tt.train(dev, "--level", "0", "--movetime", str(MOVETIME),
                          env={"ANNABELLA_TRACE": trace})
        dev.said(0, "the computer plays Black")
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
                return 1
        me.close()
        dev.stop()
        p.wait(15)
        # Per reply: the press's edge, the engine asked and answering (train's trace), the
        # daemon asked to say the move, its first sample.
        rows = []
        cur = None
        for line in open(trace):
            f = line.split()
            ns, what = int(f[0]), f[1]
            if what == "button" and f[2:4] == ["0", "1"]:
                cur = {"press": ns}
            elif cur is None:
                continue
            elif what in ("engine-go", "engine-move", "train-press") and what not in cur:
                cur[what] = ns
            elif what == "say" and f[2:4] == ["public", "move"] and "engine-move" in cur:
                cur.setdefault("say", ns)
            elif what == "first-sample" and f[2:4] == ["public", "move"] and "say" in cur:
                cur["sample"] = ns
                rows.append(cur)
                cur = None
        if not rows:
            print("bench-train: no reply measured", file=sys.stderr)
            return 1

        def p50(key_from, key_to):
            v = sorted((r[key_to] - r[key_from]) / 1e6 for r in rows)
            return v[len(v) // 2], v[min(len(v) - 1, int(round(0.99 * (len(v) - 1))))]

        total = p50("press", "sample")
        print(f"bench train_replies {len(rows)} moves")
        print(f"bench train_press_to_reply_first_sample_p50 {total[0]:.1f} ms")
        print(f"bench train_press_to_reply_first_sample_p99 {total[1]:.1f} ms")
        print(f"bench train_press_to_reply_beyond_movetime_p50 {total[0] - MOVETIME:.1f} ms")
        print(f"bench train_press_to_reply_beyond_movetime_p99 {total[1] - MOVETIME:.1f} ms")
        print("bench train_press_to_reply_beyond_movetime_and_debounce_p50 "
              f"{total[0] - MOVETIME - DEBOUNCE:.1f} ms")
        for name, a, b in (("press_edge_to_event", "press", "train-press"),
                           ("event_to_engine_asked", "train-press", "engine-go"),
                           ("press_edge_to_engine_asked", "press", "engine-go"),
                           ("engine_thinking", "engine-go", "engine-move"),
                           ("engine_answer_to_announced", "engine-move", "say"),
                           ("announced_to_first_sample", "say", "sample")):
            print(f"bench train_{name}_p50 {p50(a, b)[0]:.1f} ms")
        return 0
    finally:
        checklib.cleanup()


if __name__ == "__main__":
    checklib.begin("bench-train")  # a work directory and the clean-up, no summary
    sys.exit(main())
