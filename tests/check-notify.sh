#!/usr/bin/env bash
# The daemon under a service manager (sd_notify(3), journald), without one: a datagram
# socket stands for $NOTIFY_SOCKET.  READY=1 comes once the game is open, WATCHDOG=1 at half
# $WATCHDOG_USEC while the loop runs, STOPPING=1 at the end; with stderr named by
# $JOURNAL_STREAM every log line starts with its syslog priority.
set -u
build=${1:-build}
. "$(dirname "$0")/lib.sh"
begin notify
printf 'player white\ntime-control -\n+300 lift e2\n+300 place e4\n+1500 lift e7\n+300 place e5\n' \
	>"$work/game.script"
printf '[log]\nlevel = info\n' >"$work/a.conf"
python3 - "$build/annabellad" "$work" <<'PY'
import os, socket, subprocess, sys, time
daemon, work = sys.argv[1], sys.argv[2]
path = os.path.join(work, "notify")
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(path)
s.settimeout(0.2)
err = open(os.path.join(work, "err"), "w+")
st = os.fstat(err.fileno())
env = dict(os.environ, NOTIFY_SOCKET=path, WATCHDOG_USEC="400000",
           JOURNAL_STREAM="%d:%d" % (st.st_dev, st.st_ino))
p = subprocess.Popen([daemon, "--config", work + "/a.conf", "--board", "sim:" + work + "/game.script", "--time", "real",
                      "--audio", "none", "--control", "none", "--state", work + "/state"],
                     stderr=err, env=env)
msgs = []
t0 = time.monotonic()
while p.poll() is None or time.monotonic() - t0 < 0.5:
    try:
        msgs.append((time.monotonic() - t0, s.recv(4096).decode()))
    except socket.timeout:
        pass
    if time.monotonic() - t0 > 30:
        p.kill()
        break
failed = 0
def check(ok, what):
    global failed
    if not ok:
        failed += 1
        print("notify: " + what)
texts = [m for _, m in msgs]
check(texts and texts[0].startswith("READY=1\nSTATUS=game-"), "the first message is not READY: %r" % texts[:2])
wd = [t for t, m in msgs if m == "WATCHDOG=1"]
check(len(wd) >= 10, "%d WATCHDOG=1 in a run of about 7 s (want one every 200 ms)" % len(wd))
check(all(b - a < 0.5 for a, b in zip(wd, wd[1:])), "a watchdog gap over 0.5 s")
check(texts and texts[-1] == "STOPPING=1", "the last message is not STOPPING: %r" % texts[-1:])
check(p.returncode == 0, "exit %s" % p.returncode)
err.seek(0)
lines = [l for l in err.read().splitlines() if l]
check(lines and all(l[:1] == "<" and l[2:3] == ">" for l in lines), "log lines without a priority: %r" % lines[:3])
check(any(l.startswith("<6>") for l in lines), "no info line at priority 6")
print("notify: %d messages, %d keep-alives; %d failed" % (len(msgs), len(wd), failed))
sys.exit(1 if failed else 0)
PY
check $? "the service manager's messages and the log's priorities are not as they should be"

# STATUS= through a game: the moves, a storage fault (the third move's record cannot be
# written) that heals, the result, its approval.
cat >"$work/status.script" <<'SCRIPT'
player white
time-control 600+5
+300 press opponent-clock
+300 lift e2
+200 place e4
+200 press player-clock
+500 lift e7
+200 place e5
+200 press opponent-clock
+500 disk eio
+300 lift g1
+200 place f3
+200 press player-clock
+2500 disk ok
+3000 control arbiter resign black
+500 control assistant approve
SCRIPT
python3 - "$build/annabellad" "$work" <<'PY'
import os, socket, subprocess, sys, time
daemon, work = sys.argv[1], sys.argv[2]
path = os.path.join(work, "notify-status")
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(path)
s.settimeout(0.2)
p = subprocess.Popen([daemon, "--board", "sim:" + work + "/status.script", "--time", "real",
                      "--audio", "none", "--control", "none", "--state", work + "/state-status"],
                     stderr=subprocess.DEVNULL, env=dict(os.environ, NOTIFY_SOCKET=path))
statuses = []
t0 = time.monotonic()
while p.poll() is None or time.monotonic() - t0 < 0.5:
    try:
        m = s.recv(4096).decode()
    except socket.timeout:
        continue
    statuses += [l[len("STATUS="):] for l in m.split("\n") if l.startswith("STATUS=")]
    if time.monotonic() - t0 > 60:
        p.kill()
        break
p.wait()
failed = []
# In this order, each in a status of its own or a later one.
at = 0
for w in ["move 1, White to move", "move 1, Black to move", "move 2, White to move",
          "saving fails (", "move 2, Black to move", "1-0 (Black resigns) after 2 moves, "
          "waiting for the players' approval", "1-0 (Black resigns) after 2 moves, approved"]:
    while at < len(statuses) and w not in statuses[at]:
        at += 1
    if at == len(statuses):
        failed.append("no status saying '%s' in its place" % w)
        break
fault = [i for i, t in enumerate(statuses) if "saving fails" in t]
if fault and all("saving fails" in t for t in statuses[fault[0]:]):
    failed.append("the storage fault stays in the status after storage healed")
if any(a == b for a, b in zip(statuses, statuses[1:])):
    failed.append("a status sent twice in a row")
if not all(t.startswith("game-") for t in statuses):
    failed.append("a status without its game")
for f in failed:
    print("notify: " + f)
if failed:
    print("notify: the statuses were:")
    for t in statuses:
        print("    " + t)
sys.exit(1 if failed else 0)
PY
check $? "the service's status does not follow the game"
summary
