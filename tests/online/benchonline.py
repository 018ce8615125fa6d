#!/usr/bin/python3
"""make bench: online play's two figures (tests/bench-online.sh BUILD).

The check's harness (tests/online/onlinetest.py): a real annabellad in real time on a live
board script with ALSA's null device as its sound card, the test's lichess on 127.0.0.1 and
`annabella online`; a game begun by a challenge, the test playing both sides.  The times are
on one clock (CLOCK_MONOTONIC): the daemon's and the online process's timing trace
(ANNABELLA_TRACE, base/trace.h) and the server's own lines in the same file.

  - press to move sent: the player's clock press (its edge, `button 0 1`) to the server
    receiving the move (`server-move`); with where it goes: the press's `complete` event at
    the online process, its request made (`online-move-sent`).
  - the opponent's streamed move to the first sample of its announcement: the server writing
    the state with the opponent's move into the game's stream (`server-sent`) to the first
    sample of the move's announcement handed to the sound sink (`first-sample public
    move`).  A relayed move waits for no settle time: the figure is the whole of it.  The
    opponent moves THINK_S after the player's move reached the server, when the device has
    finished saying it (a move that comes while the last is still said waits for it).
"""
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, os.path.join(HERE, "..", "train"))
import checklib  # noqa: E402
import onlinetest as ot  # noqa: E402

PLIES = int(os.environ.get("ONLINE_BENCH_PLIES", "40"))
THINK_S = 2.5


def percentiles(values):
    v = sorted(values)
    return v[len(v) // 2], v[min(len(v) - 1, int(round(0.99 * (len(v) - 1))))]


def main():
    if not os.access(ot.tt.STOCKFISH, os.X_OK):
        print(f"bench-online: {ot.tt.STOCKFISH} is not installed (make deps installs it)",
              file=sys.stderr)
        return 1
    trace = os.path.join(checklib.work, "trace")
    env = {"ANNABELLA_TRACE": trace}
    try:
        server = ot.new_server(trace=trace)
        token = ot.token_file()
        # ALSA's null device as the sound card (as bench-train), then [online].
        dev = ot.tt.Device("bench", extra="public-device = null\nprivate-device = null\n" +
                           ot.online_conf(server.url, token), env=env, audio="alsa")
        p, out = ot.run_online(dev, "--challenge", ot.FRIEND, "--time-control", "900+10",
                               env=env)
        cid = ot.wait_until(lambda: next(iter(server.challenges), None), 15)
        if cid is None:
            print("bench-online: no challenge came: " + open(out).read(), file=sys.stderr)
            return 1
        game = server.accept_challenge(cid)
        dev.said(0, "Online game: you play", 15)
        play = ot.Play(dev, server, game)
        for _ in range(PLIES):
            if game.status != "started":
                break
            plies = len(game.moves)
            if play.player_turn():
                play.player_moves()
                if not play.wait_server_plies(plies + 1, 30):
                    print("bench-online: the move did not reach the server: " +
                          open(out).read()[-500:], file=sys.stderr)
                    return 1
                continue
            # The opponent thinks a moment, as people do: the device has said the player's
            # move, so what is measured is the stream and the announcement, not a queue.
            time.sleep(THINK_S)
            if play.opponent_moves() is None and game.status == "started":
                print("bench-online: the opponent's move was not announced", file=sys.stderr)
                return 1
        color = play.color
        play.close()
        ot.checklib.stop(p)
        dev.stop()
        server.stop()
        sent, announced = [], []
        breakdown = {"press_to_event": [], "event_to_request": [], "request_to_server": []}
        press = complete = request = state = None
        for line in open(trace):
            f = line.split()
            ns, what = int(f[0]), f[1]
            if what == "button" and f[2:4] == ["0", "1"]:
                press, complete, request = ns, None, None
            elif what == "online-complete" and press and complete is None:
                complete = ns
            elif what == "online-move-sent" and press and request is None:
                request = ns
            elif what == "server-move" and press:
                sent.append((ns - press) / 1e6)
                if complete and request:
                    breakdown["press_to_event"].append((complete - press) / 1e6)
                    breakdown["event_to_request"].append((request - complete) / 1e6)
                    breakdown["request_to_server"].append((ns - request) / 1e6)
                press = None
            elif what == "server-sent":
                # The state after ply N: the opponent's when N's mover is not the player.
                n = int(f[2])
                state = ns if (n - 1) % 2 != color else None
            elif what == "first-sample" and f[2:4] == ["public", "move"] and state:
                announced.append((ns - state) / 1e6)
                state = None
        if os.environ.get("ONLINE_BENCH_DEBUG"):
            print("sent", [round(x, 1) for x in sent], "announced",
                  [round(x, 1) for x in announced], file=sys.stderr)
        if not sent or not announced:
            print(f"bench-online: nothing measured ({len(sent)} moves sent, "
                  f"{len(announced)} announced)", file=sys.stderr)
            return 1
        a, b = percentiles(sent)
        print(f"bench online_moves_sent {len(sent)} moves")
        print(f"bench online_press_to_move_sent_p50 {a:.1f} ms")
        print(f"bench online_press_to_move_sent_p99 {b:.1f} ms")
        for name, values in breakdown.items():
            if values:
                print(f"bench online_{name}_p50 {percentiles(values)[0]:.1f} ms")
        a, b = percentiles(announced)
        print(f"bench online_moves_announced {len(announced)} moves")
        print(f"bench online_streamed_move_to_first_sample_p50 {a:.1f} ms")
        print(f"bench online_streamed_move_to_first_sample_p99 {b:.1f} ms")
        return 0
    finally:
        checklib.cleanup()


if __name__ == "__main__":
    checklib.begin("bench-online")
    sys.exit(main())
