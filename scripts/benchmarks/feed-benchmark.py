#!/usr/bin/env python3
"""Measures the changes feed (issue 30) in one run and prints a Markdown table (see Benchmarks/README.md, "The
changes feed"): every figure is a whole `poststore` process or a request to one, on a SQLite store, on loopback.

A holds N posts (JSONPlaceholder's layout) and is served by `poststore serve --allow-writes`; B copies it through
`serve`:
1. Delta against full: B's first sync (a full copy) through a byte-counting proxy; then 100 posts of A are edited and
   10 deleted by served writes, and B syncs again with --prune: bytes both ways and the process's time, each against
   the full sync's.
2. Follow latency: B runs `sync --follow --format json`; 1,000 single-post PUTs go to A at 10 a second. A write's
   latency runs from the moment its request is sent (A commits after that) to the moment B's report of the write
   reaches this script (B commits before it prints): both ends err towards longer.
3. Catch-up: every post of A changes in one write; B (at its checkpoint) syncs by changes, a copy of B syncs the
   same with --full; the ratio of their times.
4. Idle followers: 100 connections each hold a long-poll (`wait=30`, asked again when answered) while the server is
   otherwise idle; the server's CPU time (user + system, /proc) over the period, as a share of one core, beside the
   same server idle with no follower.
5. What the feed costs A (with --baseline, a `poststore` built before the feed, e.g. from commit 4572843): a first
   sync of N posts from a file into a new store, and a re-sync of a changed file (5% removed, 10% edited, 5% added,
   --prune) into a copy of it, by both binaries in alternation, --runs times each; medians and ratios.

The processes are not pinned: servers, clients and this script share the machine's cores as the system schedules
them. After each sync B is checked equal to A (every post's fields, by digest). Usage:
  scripts/benchmarks/feed-benchmark.py [--poststore PATH] [--baseline PATH] [--posts N] [--writes W] [--rate R]
                            [--followers F] [--idle-seconds S] [--runs R]
"""
import argparse
import hashlib
import http.client
import json
import os
import random
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "lib"))  # scripts/lib: script_support
from script_support import SetupError, Server, find_poststore, free_port, make_post


class ByteCountingProxy:
    """A TCP proxy from a free port of 127.0.0.1 to `port`, counting the bytes it carries each way."""

    def __init__(self, port):
        self.upstream = port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.lock = threading.Lock()
        self.to_client = 0
        self.to_server = 0
        threading.Thread(target=self.accept, daemon=True).start()

    def reset(self):
        with self.lock:
            self.to_client = self.to_server = 0

    def total(self):
        with self.lock:
            return self.to_client + self.to_server

    def accept(self):
        while True:
            client, _ = self.listener.accept()
            server = socket.create_connection(("127.0.0.1", self.upstream))
            threading.Thread(target=self.pump, args=(client, server, "to_server"), daemon=True).start()
            threading.Thread(target=self.pump, args=(server, client, "to_client"), daemon=True).start()

    def pump(self, source, target, counter):
        try:
            while data := source.recv(1 << 16):
                target.sendall(data)
                with self.lock:
                    setattr(self, counter, getattr(self, counter) + len(data))
        except OSError:
            pass
        finally:
            for end in (source, target):
                try:
                    end.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass


def run(argv, what):
    """Runs a command to its end; returns (seconds, stdout). A failure is a SetupError naming `what`."""
    start = time.monotonic()
    result = subprocess.run([str(part) for part in argv], capture_output=True, text=True)
    seconds = time.monotonic() - start
    if result.returncode != 0:
        raise SetupError(f"{what} failed ({result.returncode}): {result.stderr.strip()[-2000:]}")
    return seconds, result.stdout


def posts_digest(path):
    """A digest of every post of a SQLite store, in id order, and their count."""
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as database:
        hasher = hashlib.sha256()
        count = 0
        for row in database.execute("SELECT id, user_id, title, body FROM posts ORDER BY id"):
            hasher.update(json.dumps(row, ensure_ascii=False).encode())
            count += 1
    return hasher.hexdigest(), count


def check_equal(a, b, what):
    if posts_digest(a) != posts_digest(b):
        raise SetupError(f"{what}: B does not hold A's posts")


def write_posts(path, posts):
    with open(path, "w") as file:
        json.dump(posts, file, ensure_ascii=False)


def sync_report(stdout):
    return json.loads(stdout.strip().splitlines()[-1])


def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


class Follower:
    """`poststore sync --follow --format json`, its report lines read as they come, each with when it came."""

    def __init__(self, binary, url, store):
        self.process = subprocess.Popen(
            [str(binary), "sync", "--from", url, "--store", str(store), "--prune", "--follow", "--format", "json"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1,
        )
        self.reports = []  # (monotonic seconds, report)
        self.changed = threading.Condition()
        threading.Thread(target=self.read, daemon=True).start()

    def read(self):
        for line in self.process.stdout:
            arrived = time.monotonic()
            with self.changed:
                self.reports.append((arrived, json.loads(line)))
                self.changed.notify_all()
        with self.changed:
            self.changed.notify_all()

    def wait_for(self, condition, seconds):
        deadline = time.monotonic() + seconds
        with self.changed:
            while not condition(self.reports):
                left = deadline - time.monotonic()
                if left <= 0 or self.process.poll() is not None:
                    raise SetupError(f"the follower did not report in time ({self.process.poll()}): "
                                     f"{self.process.stderr.read() if self.process.poll() is not None else ''}")
                self.changed.wait(left)

    def stop(self):
        self.process.send_signal(signal.SIGINT)
        try:
            status = self.process.wait(60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise SetupError("the follower did not exit within 60 s of SIGINT")
        if status != 0:
            raise SetupError(f"the follower exited {status} on SIGINT: {self.process.stderr.read().strip()}")


def put(connection, post):
    connection.request("PUT", f"/posts/{post['id']}", json.dumps(post), {"Content-Type": "application/json"})
    answer = connection.getresponse()
    answer.read()
    if answer.status != 200:
        raise SetupError(f"PUT /posts/{post['id']} answered {answer.status}")


def cpu_seconds(pid):
    """User + system CPU seconds of a process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def long_poll(port, token, stop):
    """One idle follower: a long-poll held by the server, asked again each time it is answered."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    while not stop.is_set():
        try:
            connection.request("GET", f"/posts/_changes?since={token}&wait=30")
            connection.getresponse().read()
        except (OSError, http.client.HTTPException):
            if stop.is_set():
                return
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)


def main():
    parser = argparse.ArgumentParser(description="Measure the changes feed: delta sync, follow, catch-up, cost.")
    parser.add_argument("--poststore", help="the release poststore (default: build one)")
    parser.add_argument("--baseline", help="a release poststore from before the feed, for what the feed costs A")
    parser.add_argument("--posts", type=int, default=1_000_000, help="posts in A (default: %(default)s)")
    parser.add_argument("--writes", type=int, default=1000, help="single-post writes followed (default: %(default)s)")
    parser.add_argument("--rate", type=float, default=10, help="those writes a second (default: %(default)s)")
    parser.add_argument("--followers", type=int, default=100, help="idle long-polls (default: %(default)s)")
    parser.add_argument("--idle-seconds", type=int, default=60, help="how long they are measured (default: %(default)s)")
    parser.add_argument("--runs", type=int, default=3, help="runs of each cost measure (default: %(default)s)")
    args = parser.parse_args()
    if args.posts < 1000 or args.writes < 1 or args.rate <= 0 or args.followers < 1 or args.idle_seconds < 1 \
            or args.runs < 1:
        parser.error("--posts must be at least 1000; --writes, --rate, --followers, --idle-seconds, --runs above 0")
    folder = Path(tempfile.mkdtemp(prefix="feed-benchmark-"))
    server = None
    try:
        binary = find_poststore(args.poststore)
        baseline = find_poststore(args.baseline) if args.baseline else None
        rng = random.Random(2026)
        started = time.monotonic()
        posts = [make_post(rng, post_id) for post_id in range(1, args.posts + 1)]
        write_posts(folder / "posts.json", posts)
        changed = [dict(post, title=post["title"] + " (2)") for post in posts]
        write_posts(folder / "posts-all-changed.json", changed)
        print(f"generated {args.posts} posts in {time.monotonic() - started:.1f} s", file=sys.stderr)
        rows = []
        a = folder / "a.sqlite"
        b = folder / "b.sqlite"
        run([binary, "sync", "--from", folder / "posts.json", "--store", a, "--quiet"], "the sync of A")
        port = free_port()
        server = Server([str(binary), "serve", "--store", str(a), "--port", str(port), "--allow-writes", "--quiet"],
                        port)
        proxy = ByteCountingProxy(port)
        via_proxy = f"http://127.0.0.1:{proxy.port}/posts"
        direct = f"http://127.0.0.1:{port}/posts"

        # 1. Delta against full.
        full_seconds, out = run([binary, "sync", "--from", via_proxy, "--store", b, "--format", "json"], "B's full sync")
        full_bytes = proxy.total()
        check_equal(a, b, "after the full sync")
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        ids = rng.sample(range(1, args.posts + 1), 110)
        for post_id in ids[:100]:
            put(connection, dict(posts[post_id - 1], title=f"edited {post_id}"))
        for post_id in ids[100:]:
            connection.request("DELETE", f"/posts/{post_id}")
            answer = connection.getresponse()
            answer.read()
            if answer.status != 200:
                raise SetupError(f"DELETE /posts/{post_id} answered {answer.status}")
        proxy.reset()
        delta_seconds, out = run([binary, "sync", "--from", via_proxy, "--store", b, "--prune", "--format", "json"],
                                 "B's delta sync")
        delta_bytes = proxy.total()
        report = sync_report(out)
        if not report.get("byChanges") or report["fetched"] != 110 or report["deleted"] != 10:
            raise SetupError(f"the delta sync did not move by the 110 changes: {report}")
        check_equal(a, b, "after the delta sync")
        rows.append(("full sync through serve (B's first)", f"{full_seconds:.2f} s", f"{full_bytes:,} B", ""))
        rows.append(("delta sync, 100 edited + 10 deleted", f"{delta_seconds:.3f} s", f"{delta_bytes:,} B",
                     f"time {delta_seconds / full_seconds:.2%}, bytes 1/{full_bytes / delta_bytes:,.0f}"))

        # 2. Follow latency.
        follower = Follower(binary, direct, b)
        follower.wait_for(lambda reports: len(reports) >= 1, 600)
        with follower.changed:
            first = len(follower.reports)
        sent = []
        interval = 1 / args.rate
        next_write = time.monotonic()
        for number in range(args.writes):
            post_id = rng.randrange(1, args.posts + 1)
            while time.monotonic() < next_write:
                time.sleep(next_write - time.monotonic())
            sent.append(time.monotonic())
            put(connection, dict(posts[post_id - 1], title=f"followed {number}"))
            next_write += interval
        follower.wait_for(lambda reports: sum(r["fetched"] for _, r in reports[first:]) >= args.writes, 120)
        follower.stop()
        check_equal(a, b, "after following")
        latencies = []
        fetched = 0
        reports = iter(follower.reports[first:])
        for number, sent_at in enumerate(sent, start=1):
            while fetched < number:
                arrived, report = next(reports)
                fetched += report["fetched"]
            latencies.append((arrived - sent_at) * 1000)
        batches = len(follower.reports) - first
        rows.append((f"follow: {args.writes} writes at {args.rate:g}/s ({batches} batches)",
                     f"p50 {percentile(latencies, 0.5):.1f} ms, p99 {percentile(latencies, 0.99):.1f} ms, "
                     f"max {max(latencies):.1f} ms", "", ""))

        # 3. Catch-up.
        b_full = folder / "b-full.sqlite"
        shutil.copyfile(b, b_full)
        run([binary, "sync", "--from", folder / "posts-all-changed.json", "--store", a, "--quiet"],
            "the write of every post of A")
        catch_up_seconds, out = run([binary, "sync", "--from", direct, "--store", b, "--prune", "--format", "json"],
                                    "B's catch-up")
        report = sync_report(out)
        if not report.get("byChanges") or report["fetched"] != args.posts:
            raise SetupError(f"the catch-up did not move by changes: {report}")
        refetch_seconds, _ = run([binary, "sync", "--from", direct, "--store", b_full, "--prune", "--full", "--quiet"],
                                 "B's full re-sync")
        check_equal(a, b, "after the catch-up")
        check_equal(a, b_full, "after the full re-sync")
        pages = f"{report['pages']} page{'' if report['pages'] == 1 else 's'}"
        rows.append((f"catch-up, {report['fetched']:,} changes by the feed ({pages})",
                     f"{catch_up_seconds:.2f} s", "", f"{catch_up_seconds / refetch_seconds:.2f}× the full re-sync"))
        rows.append(("the same by a full re-sync (--full)", f"{refetch_seconds:.2f} s", "", ""))

        # 4. Idle followers.
        token = report["changeToken"]
        pid = server.process.pid
        time.sleep(1)
        before = cpu_seconds(pid)
        time.sleep(args.idle_seconds)
        idle_share = (cpu_seconds(pid) - before) / args.idle_seconds
        stop = threading.Event()
        for _ in range(args.followers):
            threading.Thread(target=long_poll, args=(port, token, stop), daemon=True).start()
        time.sleep(2)
        before = cpu_seconds(pid)
        time.sleep(args.idle_seconds)
        held_share = (cpu_seconds(pid) - before) / args.idle_seconds
        stop.set()
        rows.append((f"server CPU, idle", f"{idle_share:.2%} of a core", "", ""))
        rows.append((f"server CPU, {args.followers} idle long-polls ({args.idle_seconds} s)",
                     f"{held_share:.2%} of a core", "", f"{held_share - idle_share:+.2%}"))
        server.stop()
        server = None

        # 5. What the feed costs A.
        if baseline:
            write_posts(folder / "posts-changed.json", changed_source(posts, random.Random(7)))
            times = {}
            for number in range(args.runs):
                for name, program in ([("before", baseline), ("now", binary)][:: 1 if number % 2 == 0 else -1]):
                    store = folder / f"cost-{name}.sqlite"
                    first, _ = run([program, "sync", "--from", folder / "posts.json", "--store", store, "--quiet"],
                                   f"the first sync ({name})")
                    again, _ = run([program, "sync", "--from", folder / "posts-changed.json", "--store", store,
                                    "--prune", "--quiet"], f"the changed re-sync ({name})")
                    times.setdefault(name, []).append((first, again))
                    for suffix in ("", "-wal", "-shm"):
                        Path(f"{store}{suffix}").unlink(missing_ok=True)
            for index, what in enumerate(["first sync from a file", "changed re-sync (20% changed, --prune)"]):
                before = percentile([pair[index] for pair in times["before"]], 0.5)
                now = percentile([pair[index] for pair in times["now"]], 0.5)
                rows.append((f"{what}, before the feed", f"{before:.2f} s", "", ""))
                rows.append((f"{what}, with the feed", f"{now:.2f} s", "", f"{now / before - 1:+.1%}"))

        print(f"{args.posts:,} posts, SQLite stores, loopback; processes unpinned, sharing the machine's "
              f"{os.cpu_count()} cores", file=sys.stderr)
        print("| measure | time | bytes (both ways) | ratio |")
        print("| --- | ---: | ---: | ---: |")
        for row in rows:
            print("| " + " | ".join(row) + " |")
        return 0
    except SetupError as error:
        print(f"feed-benchmark.py: {error}", file=sys.stderr)
        return 1
    finally:
        if server:
            server.stop()
        shutil.rmtree(folder, ignore_errors=True)


def changed_source(posts, rng):
    """The posts with 5% removed, 10% edited (title) and 5% added after the last id, as the Benchmarks harness's."""
    result = []
    for post in posts:
        roll = rng.random()
        if roll < 0.05:
            continue
        result.append(dict(post, title=post["title"] + " (edited)") if roll < 0.15 else post)
    result.extend(make_post(rng, post_id) for post_id in range(len(posts) + 1, len(posts) + len(posts) // 20 + 1))
    return result


if __name__ == "__main__":
    sys.exit(main())
