#!/usr/bin/env python3
"""first_frame.py - how soon the explorer shows its first screen.

Starts the explorer in a pseudo-terminal of 80 x 24 (TERM=xterm-256color), in
a temporary folder with a temporary XDG_STATE_HOME, and times from just before
the fork to the moment the terminal has received the whole first frame: the
bytes up to the status line's last word ("help"), which the first doupdate()
writes last.  Then it sends q and waits for the exit.  Beside it, for scale:
/bin/true and `mha-explorer --dump input` (fork, exec and exit), and `echo help`
in the same pseudo-terminal: what the measurement itself costs (this script's
fork, the terminal, the reading), to take away from the explorer's figure.

Usage: bench/first_frame.py [--runs N] [path/to/mha-explorer]
Prints the median and the range of N runs (default 30) in milliseconds.
"""
import argparse
import fcntl
import os
import pty
import select
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time

MARK = b"help"


def first_frame(argv, folder):
    env = dict(os.environ, TERM="xterm-256color", LANG="C.UTF-8", LC_ALL="C.UTF-8",
               XDG_STATE_HOME=os.path.join(folder, "state"))
    env.pop("NO_COLOR", None)
    start = time.perf_counter()
    pid, fd = pty.fork()
    if pid == 0:  # the child: the explorer in the pty
        os.chdir(folder)
        os.execve(argv[0], argv, env)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    seen = b""
    took = None
    deadline = start + 10
    while took is None and time.perf_counter() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.5)
        if not ready:
            continue
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            break
        seen += chunk
        if MARK in seen:
            took = time.perf_counter() - start
    os.write(fd, b"q")
    end = time.perf_counter() + 5
    while time.perf_counter() < end:  # drain until it exits
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                if not os.read(fd, 65536):
                    break
            except OSError:
                break
        done, _ = os.waitpid(pid, os.WNOHANG)
        if done:
            break
    else:
        os.kill(pid, 9)
    try:
        os.waitpid(pid, 0)
    except ChildProcessError:
        pass
    os.close(fd)
    if took is None:
        sys.exit("first_frame: no frame within 10 s (is this an explorer build?)")
    return took * 1000


def run_ms(argv, folder):
    start = time.perf_counter()
    subprocess.run(argv, cwd=folder, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   check=True)
    return (time.perf_counter() - start) * 1000


def summary(name, values):
    print(f"{name:<34} median {statistics.median(values):7.2f} ms"
          f"   range {min(values):.2f}-{max(values):.2f} ms")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("exe", nargs="?", default="build/src/mha-explorer")
    ap.add_argument("--runs", type=int, default=30)
    a = ap.parse_args()
    if a.runs < 1:
        ap.error("--runs needs a whole number of 1 or more")
    exe = os.path.abspath(a.exe)
    if not os.access(exe, os.X_OK):
        ap.error(f"{a.exe}: not an executable file")
    folder = tempfile.mkdtemp(prefix="mha-first-frame-")
    try:
        true_ms = [run_ms(["/bin/true"], folder) for _ in range(a.runs)]
        dump_ms = [run_ms([exe, "--dump", "input"], folder) for _ in range(a.runs)]
        floor_ms = [first_frame(["/bin/echo", "help"], folder) for _ in range(a.runs)]
        frame_ms = [first_frame([exe], folder) for _ in range(a.runs)]
    finally:
        shutil.rmtree(folder)
    summary("/bin/true", true_ms)
    summary("mha-explorer --dump input", dump_ms)
    summary("echo help in the same terminal", floor_ms)
    summary("mha-explorer: first frame, 80x24", frame_ms)
    print(f"the explorer's own part of the first frame: "
          f"{statistics.median(frame_ms) - statistics.median(floor_ms):.2f} ms (median less echo's)")
    print(f"--dump input / /bin/true: {statistics.median(dump_ms) / statistics.median(true_ms):.2f}x")


if __name__ == "__main__":
    main()
