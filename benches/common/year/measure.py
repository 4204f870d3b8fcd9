#!/usr/bin/env python3
"""What a user waits for on a year store, with the release binary: the figures of part 21.

    measure.py cli FOLDER [BIN]   each command three times: wall, CPU, peak RSS; medians
    measure.py export FOLDER [BIN]   `track export` once: wall and peak RSS
    measure.py app FOLDER [BIN] [--settled]   the app in tmux at 140x40: first frame, the
        Track tab's runs list and chart after Alt+8, History's first screen after Alt+4,
        VmHWM after browsing them and Jobs, how long Ctrl+C takes; --settled waits for the
        start-up work (the store's quick check, the jobs list) to end before Alt+8
    measure.py quit FOLDER SECONDS [BIN]   Ctrl+C that long after start: how long to end

FOLDER is a built store (`target/year-stores/<generator>/<size>`, made by
`VANTAGE_BENCH_YEAR=500k VANTAGE_BENCH_YEAR_BUILD_ONLY=1 cargo bench --bench year`); BIN is
`target/release/vantage` unless given. Needs /usr/bin/time and tmux. Run it on a quiet
machine: the load average is printed beside each figure."""

import glob
import os
import re
import statistics
import subprocess
import sys
import time

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
SET = "boots"


def load():
    return open("/proc/loadavg").read().split()[0]


def env_of(folder):
    return dict(os.environ, VANTAGE_DATA_DIR=f"{folder}/data", VANTAGE_CONFIG=f"{folder}/config.toml")


def timed(folder, argv, out=subprocess.DEVNULL):
    """Wall, CPU (user + sys) and peak RSS (MB) of one command, and its exit code."""
    stats = "/tmp/vantage-year-time.txt"
    done = subprocess.run(
        ["/usr/bin/time", "-f", "TIME %e %U %S %M", "-o", stats, *argv],
        cwd=folder, env=env_of(folder), stdout=out, stderr=subprocess.DEVNULL,
    )
    line = [l for l in open(stats) if l.startswith("TIME")][0].split()
    return float(line[1]), float(line[2]) + float(line[3]), int(line[4]) / 1024, done.returncode


def cli(folder, binary):
    commands = [
        ("track trends", ["track", "trends", SET]),
        ("track check", ["track", "check", SET]),
        ("track report --format html", ["track", "report", SET, "--format", "html", "-o", "/tmp/vantage-year-report.html"]),
        ("track list", ["track", "list"]),
        ("brands discover", ["brands", "discover"]),
        ("history", ["history"]),
        ("history search", ["history", "search", "Lowa Renegade"]),
    ]
    print(f"{'command':<28} {'wall':>7} {'cpu':>7} {'peak RSS':>9}   walls (load)")
    for name, args in commands:
        runs = []
        for _ in range(3):
            before = load()
            wall, cpu, rss, code = timed(folder, [binary, *args])
            runs.append((wall, cpu, rss, code, before))
        median = lambda i: statistics.median(r[i] for r in runs)
        walls = ", ".join(f"{r[0]:.2f} ({r[4]})" for r in runs)
        codes = {r[3] for r in runs}
        print(f"{name:<28} {median(0):6.2f}s {median(1):6.2f}s {median(2):7.1f}MB   {walls}  exit {codes}")


def export(folder, binary):
    wall, cpu, rss, code = timed(folder, [binary, "track", "export", SET])
    print(f"track export: {wall:.1f} s wall, {cpu:.1f} s CPU, peak RSS {rss:.0f} MB, exit {code} (load {load()})")


def tmux(*args):
    return subprocess.run(["tmux", *args], capture_output=True, text=True).stdout


def alive(pid):
    try:
        return open(f"/proc/{pid}/stat").read().split(") ")[1].split()[0] != "Z"
    except OSError:
        return False


def memory(pid):
    fields = {}
    for line in open(f"/proc/{pid}/status"):
        key, _, value = line.partition(":")
        if key in ("VmHWM", "VmRSS"):
            fields[key] = f"{int(value.split()[0]) // 1024} MB"
    return fields


def cpu_ticks(pid):
    total = 0
    for task in glob.glob(f"/proc/{pid}/task/*"):
        try:
            fields = open(f"{task}/stat").read().split(") ")[1].split()
            total += int(fields[11]) + int(fields[12])
        except OSError:
            pass
    return total


SESSION = "vantage-year"


def start(folder, binary):
    tmux("kill-session", "-t", SESSION)
    e = env_of(folder)
    tmux("new-session", "-d", "-s", SESSION, "-x", "140", "-y", "40", "-c", folder,
         f"env VANTAGE_DATA_DIR={e['VANTAGE_DATA_DIR']} VANTAGE_CONFIG={e['VANTAGE_CONFIG']} {binary}")


def screen():
    return tmux("capture-pane", "-p", "-t", SESSION)


def wait_for(condition, since, limit=180.0):
    while time.monotonic() - since < limit:
        if condition(screen()):
            return time.monotonic() - since
        time.sleep(0.005)
    return None


def counts(folder):
    toml = open(f"{folder}/built").read()
    answers, runs = re.match(r"(\d+) answers over (\d+) runs", toml).groups()
    return answers, runs


def app(folder, binary, settled):
    answers, runs = counts(folder)
    started = time.monotonic()
    start(folder, binary)
    first = wait_for(lambda s: "1 Chat" in s and "Prompt" in s, started)
    pid = tmux("display", "-p", "-t", SESSION, "#{pane_pid}").strip()
    print(f"first frame after {first:.3f} s (load {load()})")
    if settled:
        # The start-up work ends when the process stops using CPU.
        previous = -1
        while (ticks := cpu_ticks(pid)) != previous:
            previous = ticks
            time.sleep(1.0)
        print(f"start-up work ended after {time.monotonic() - started:.1f} s, {memory(pid)}")
    else:
        time.sleep(1.0)
    pressed = time.monotonic()
    tmux("send-keys", "-t", SESSION, "M-8")
    track = wait_for(lambda s: f"Runs {runs} " in s and "Visibility of each brand" in s and "100│" in s, pressed)
    print(f"Track tab: runs list and chart after {track} s (load {load()}), {memory(pid)}")
    time.sleep(0.5)
    pressed = time.monotonic()
    tmux("send-keys", "-t", SESSION, "M-4")
    history = wait_for(lambda s: f"History {answers} requests" in s and "track " in s, pressed)
    print(f"History: first screen after {history} s (load {load()}), {memory(pid)}")
    for key in ["PageDown", "PageDown", "Down"]:
        tmux("send-keys", "-t", SESSION, key)
        time.sleep(0.3)
    tmux("send-keys", "-t", SESSION, "M-8")
    time.sleep(1.0)
    for key in ["Down", "c", "v", "m", "s"]:
        tmux("send-keys", "-t", SESSION, key)
        time.sleep(0.3)
    print(f"after browsing Track and History: {memory(pid)}")
    tmux("send-keys", "-t", SESSION, "M-3")
    jobs = wait_for(lambda s: "done" in s, time.monotonic(), limit=60)
    time.sleep(1.0)
    print(f"Jobs: first screen after {jobs} s; after browsing Jobs too: {memory(pid)}")
    tmux("send-keys", "-t", SESSION, "M-1")
    time.sleep(0.3)
    quit_at = time.monotonic()
    tmux("send-keys", "-t", SESSION, "C-c")
    while alive(pid) and time.monotonic() - quit_at < 120:
        time.sleep(0.01)
    print(f"Ctrl+C ended it after {time.monotonic() - quit_at:.2f} s")
    tmux("kill-session", "-t", SESSION)


def quit_after(folder, binary, seconds):
    start(folder, binary)
    time.sleep(0.3)
    pid = tmux("display", "-p", "-t", SESSION, "#{pane_pid}").strip()
    time.sleep(seconds)
    quit_at = time.monotonic()
    tmux("send-keys", "-t", SESSION, "C-c")
    while alive(pid) and time.monotonic() - quit_at < 180:
        time.sleep(0.01)
    print(f"Ctrl+C {seconds} s after start ended it after {time.monotonic() - quit_at:.2f} s (load {load()})")
    tmux("kill-session", "-t", SESSION)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    what, folder = sys.argv[1], os.path.abspath(sys.argv[2])
    rest = [a for a in sys.argv[3:] if not a.startswith("--")]
    if what == "quit":
        seconds, rest = float(rest[0]), rest[1:]
    binary = os.path.abspath(rest[0]) if rest else f"{REPO}/target/release/vantage"
    if what == "cli":
        cli(folder, binary)
    elif what == "export":
        export(folder, binary)
    elif what == "app":
        app(folder, binary, "--settled" in sys.argv)
    elif what == "quit":
        quit_after(folder, binary, seconds)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
