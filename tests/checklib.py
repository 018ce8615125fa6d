"""What the Python checks share: tests/lib.sh's twin.

    import checklib
    from checklib import check

    checklib.begin("web")           # counters at 0, a work directory checklib.work
    ...                             # check(WHAT, OK, DETAIL), spawn, the waits, test users
    checklib.run(main)              # main(); a crash is a failure with its reason; the
                                    # clean-up; "web: N passed, M failed"; the exit status

The clean-up, in this order: the functions given to at_exit (the last first), the processes
started with spawn (SIGTERM, SIGKILL after 5 s), the users and groups made with make_user and
make_group, the work directory.  CHECK_KEEP=1 keeps the work directory and says where it is.
A check run from tests/web/ or another folder finds this module through its own
sys.path line (the folder above its own).
"""
import getpass
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.error
import urllib.request

# Debian installs mosquitto, useradd and the like in sbin, which is not on a plain user's PATH
# (as lib.sh does for the shell checks).
os.environ["PATH"] = os.environ.get("PATH", "/usr/bin:/bin") + ":/usr/sbin:/sbin"

name = "check"
passed = failed = 0
work = None
procs = {}  # name -> Popen, stopped at the end
_hooks = []
_users = []
_groups = []
# Root, or sudo without asking: the users and the daemon's group need it.
SUDO = [] if os.geteuid() == 0 else ["sudo", "-n"]


def begin(check_name, with_work=True):
    """The check's name (the prefix of its lines) and a fresh work directory."""
    global name, work, passed, failed
    name, passed, failed = check_name, 0, 0
    if with_work:
        work = tempfile.mkdtemp()
    return work


def check(what, ok, detail=""):
    """Counts one result; a failure is said as "NAME: FAILED WHAT: DETAIL".  Returns ok."""
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print(f"{name}: FAILED {what}" + (f": {detail}" if detail else ""), flush=True)
    return bool(ok)


def at_exit(fn):
    """fn() at the end, before the processes are stopped (a browser to quit)."""
    _hooks.append(fn)


def browsers():
    """A list of WebDriver sessions the caller fills, each quit at the end."""
    sessions = []

    def quit_all():
        for d in sessions:
            try:
                d.quit()
            except Exception:
                pass

    at_exit(quit_all)
    return sessions


def spawn(key, args, **kw):
    """subprocess.Popen(args, **kw), stopped at the end; also procs[key]."""
    p = subprocess.Popen(args, **kw)
    procs[key] = p
    return p


def stop(*ps, timeout=5):
    """SIGTERM (runuser passes it on to what it runs as a test user, whom a SIGKILL would
    leave behind), SIGCONT for one that is stopped, SIGKILL after timeout s."""
    for p in ps:
        if p.poll() is None:
            try:
                p.terminate()
                os.kill(p.pid, signal.SIGCONT)
            except OSError:
                pass
    end = time.monotonic() + timeout
    for p in ps:
        try:
            p.wait(timeout=max(0.1, end - time.monotonic()))
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()


def paced_card(build, name):
    """An ALSA device `name` that plays in real time, as a card does (tests/bench/pcm_paced.c):
    the environment a program needs to find it (ALSA_CONFIG_PATH), and the card's log (when
    sound started and stopped).  lib.sh's paced_card."""
    conf = os.path.join(work, "alsa-paced.conf")
    log = os.path.join(work, name + ".card")
    if not os.path.exists(conf):
        plugin = os.path.join(os.path.abspath(build), "bench", "libasound_module_pcm_paced.so")
        with open(conf, "w") as f:
            f.write(f'pcm_type.paced {{ lib "{plugin}" }}\n')
    with open(conf, "a") as f:
        f.write(f'pcm.{name} {{ type paced log "{log}" }}\n')
    open(log, "w").close()
    return {"ALSA_CONFIG_PATH": "/usr/share/alsa/alsa.conf:" + conf}, log


def free_port():
    """A TCP port nobody listens on, now."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def wait_port(port, timeout=5):
    """True once something listens on 127.0.0.1:port."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return True
        except OSError:
            time.sleep(0.05)
    return False


def wait_for(what, timeout, step=0.05):
    """what() until it gives something true, at most timeout s; its last value."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        v = what()
        if v:
            return v
        time.sleep(step)
    return what()


def wait_path(path, timeout=5):
    """True once path exists (a socket, a file)."""
    return wait_for(lambda: os.path.exists(path), timeout, 0.02)


def http(url, data=None, headers=None, timeout=5):
    """(status, body) of a request; an HTTP error is a status like any other."""
    req = urllib.request.Request(url, data=data, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def as_user(user, args):
    """args run as a test user (runuser)."""
    return SUDO + ["runuser", "-u", user, "--"] + args


def in_group(group, args):
    """args run by a user with sudo as that user in group (sudo -g: the group a socket is
    given must be one of its owner's); by root as they are."""
    return SUDO + ["-u", getpass.getuser(), "-g", group, "--"] + args if SUDO else args


def _make(cmd, who):
    who.append(cmd[-1])  # removed at the end even if it was left by an earlier run
    r = subprocess.run(SUDO + cmd, capture_output=True, text=True)
    if r.returncode:
        raise SystemExit(f"cannot make the test users (root or sudo needed): {r.stderr}")


def make_group(group):
    """A group of the test's own, removed at the end."""
    _make(["groupadd", group], _groups)


def make_user(user, group=None):
    """A user without home or shell (in group), removed at the end; the work directory is
    opened to it."""
    _make(["useradd", "-M", "-N", "-s", "/usr/sbin/nologin"] + (["-G", group] if group else [])
          + [user], _users)
    os.chmod(work, 0o755)


def copy_for_users(program):
    """A copy in the work directory that the test users can run (the checkout may be in a
    home only its owner can enter: root's, or one made by adduser)."""
    bindir = os.path.join(work, "bin")
    os.makedirs(bindir, mode=0o755, exist_ok=True)
    copy = os.path.join(bindir, os.path.basename(program))
    shutil.copy(program, copy)
    os.chmod(copy, 0o755)
    return copy


def broker_conf(path, port, *lines):
    """An open mosquitto on 127.0.0.1:port, run as the tester (lib.sh's broker_conf)."""
    with open(path, "w") as f:
        f.write(f"listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\n")
        f.writelines(line + "\n" for line in lines)
        f.write(f"user {getpass.getuser()}\n")


def cleanup():
    for fn in reversed(_hooks):
        try:
            fn()
        except Exception:
            pass
    stop(*procs.values())
    for u in reversed(_users):
        subprocess.run(SUDO + ["userdel", u], capture_output=True)
    for g in reversed(_groups):
        subprocess.run(SUDO + ["groupdel", g], capture_output=True)
    if work and os.path.isdir(work):
        if os.environ.get("CHECK_KEEP"):
            print(f"{name}: kept {work}", file=sys.stderr)
        else:
            shutil.rmtree(work, ignore_errors=True)


def summary():
    """The last line; the exit status (0 when nothing failed)."""
    print(f"{name}: {passed} passed, {failed} failed", flush=True)
    sys.exit(1 if failed else 0)


def run(main):
    """main(), then the clean-up and the summary; a crash of the test (or SIGTERM) is a
    failure with its reason."""
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        main()
    except SystemExit as e:
        if e.code not in (None, 0):
            check("the test ran to its end", False, str(e.code))
    except BaseException as e:
        traceback.print_exc()
        check("the test ran to its end", False, repr(e))
    finally:
        cleanup()
    summary()
