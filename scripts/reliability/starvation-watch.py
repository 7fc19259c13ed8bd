#!/usr/bin/env python3
"""Watches a `swift test` run's event stream and, when a test has run longer than a limit, prints what every thread of
the test process is doing: the cause of a starvation, found while it happens, rather than a wait made longer.

scripts/lib/sanitizer_support.sh runs it beside a sanitized run when POSTSTORE_STARVATION_LIMIT is set (it is off by
default: gdb stops the whole process while it reads the threads). A test that takes minutes under a sanitizer is
nearly always waiting for something that cannot run: Swift's cooperative pool has one thread per core (two here),
so one blocking call on it (a sleep, a lock held across a wait, a synchronous read) stops every task behind it.
The thread dump shows which call that is.

Usage: scripts/reliability/starvation-watch.py EVENTS --pid PID [--limit SECONDS] [--dumps N]
  EVENTS     the file of `swift test --event-stream-output-path EVENTS --event-stream-version 0`: Swift Testing
             writes each event as a JSON line when it happens (its console output is buffered when not a terminal)
  --pid      the `swift test` process: the watch ends when it does, and dumps its test-runner child
  --limit    how long a test may run before the dump (default 120 s)
  --dumps    how many dumps at most (default 3)
The report goes to standard error and to EVENTS.starvation; the test run itself is left alone (its own time-outs
decide). Attaching gdb stops every thread for a moment: a system call with a time-out (a socket read with
SO_RCVTIMEO, for one) then returns EINTR instead of restarting, so test code retries on EINTR, as the product does.
"""
import argparse
import json
import os
import subprocess
import sys
import time

def parent_of(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8") as file:
            return int(file.read().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return 0


def runner_pids(parent: int) -> list[int]:
    """The test runner under `swift test` (a descendant of `parent`): the process whose command line names a
    *PackageTests* binary. Another run's test process on the machine is left alone."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as file:
                command = file.read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if "PackageTests" not in command or "swift-test" in command.split(" ")[0]:
            continue
        ancestor = int(entry)
        while ancestor > 1 and ancestor != parent:
            ancestor = parent_of(ancestor)
        if ancestor == parent:
            found.append(int(entry))
    return found


def dump_threads(pid: int) -> str:
    result = subprocess.run(
        ["gdb", "-p", str(pid), "-batch", "-nx", "-ex", "set pagination off", "-ex", "thread apply all bt 25"],
        capture_output=True, text=True, timeout=300,
    )
    return result.stdout + result.stderr


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
        return True
    except OSError:
        return False


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("events")
    parser.add_argument("--pid", type=int, required=True)
    parser.add_argument("--limit", type=float, default=120)
    parser.add_argument("--dumps", type=int, default=3)
    arguments = parser.parse_args()
    if not alive(arguments.pid):
        print(f"starvation-watch: no process {arguments.pid} to watch", file=sys.stderr)
        return 64

    running: dict[str, float] = {}
    reported: set[str] = set()
    dumps = 0
    position = 0
    partial = ""
    while alive(arguments.pid):
        try:
            with open(arguments.events, encoding="utf-8", errors="replace") as file:
                file.seek(position)
                text = file.read()
                position = file.tell()
        except FileNotFoundError:
            text = ""
        lines = (partial + text).split("\n")
        partial = lines.pop()
        now = time.monotonic()
        for line in lines:
            try:
                payload = json.loads(line).get("payload", {})
            except json.JSONDecodeError:
                continue
            test = payload.get("testID", "")
            if "/" not in test:  # a suite, or an event of the run
                continue
            if payload.get("kind") == "testStarted":
                running.setdefault(test, now)
            elif payload.get("kind") in ("testEnded", "testSkipped"):
                running.pop(test, None)
        late = sorted((name for name, start in running.items() if now - start > arguments.limit
                       and name not in reported), key=running.get)
        if late and dumps < arguments.dumps:
            dumps += 1
            reported.update(late)
            lines = [f"starvation-watch: {len(late)} test(s) running for over {arguments.limit:.0f} s:"]
            lines += [f"  {name} ({now - running[name]:.0f} s)" for name in late]
            for pid in runner_pids(arguments.pid):
                lines.append(f"starvation-watch: every thread of the test process {pid}:")
                try:
                    lines.append(dump_threads(pid))
                except (OSError, subprocess.TimeoutExpired) as error:
                    lines.append(f"(gdb failed: {error})")
            report = "\n".join(lines) + "\n"
            sys.stderr.write(report)
            with open(arguments.events + ".starvation", "a", encoding="utf-8") as out:
                out.write(report)
        time.sleep(2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
