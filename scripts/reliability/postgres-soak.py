#!/usr/bin/env python3
"""PostgreSQL soak for poststore: many writers on many machines sharing one PostgreSQL store.

One store, a new schema on one PostgreSQL server, written and read for `--seconds` (default 60) by:

  * `--syncers` (4) sync loops, each a series of processes `poststore sync --from FILE --store URL?schema=S --quiet`.
    Loop k owns a range of `--posts` (500) ids, k*100000+1..., whose posts have userId k; its two source files, v1
    and v2, hold the same ids with every title tagged `k:v1` or `k:v2` (and other bodies), and the loop alternates
    between them without --prune (so it never deletes another range), so every sync rewrites its whole range in one
    transaction;
  * `--servers` (4) processes `poststore serve --store URL?schema=S --allow-writes --quiet` (each a "machine"), on
    free ports of 127.0.0.1, and against them, over keep-alive HTTP connections, each request to a server drawn at
    random:
      - `--readers` (8) reader threads fetching a range's page (`/posts?userId=k&_limit=L&_page=P`, or `_start` and
        `_end`), a whole range (`/posts?userId=k`, or `/users/k/posts`), one post (`/posts/ID`), or an answer they
        had again with `If-None-Match` (on any server): a `304` or a new `200`;
      - `--writers` (4) writer threads doing read-modify-write on `--counters` (4) counter posts (userId 100, ids
        9000001..., their body `count=N`, seeded at 0): GET the post and its ETag from one server, PUT N+1 with
        `If-Match` to another (or the same), and on `412 Precondition Failed` read again and retry;
  * one copy loop, each a process `poststore copy --from-store URL?schema=S --to-store sqlite:NEW_FILE`, read back
    with `poststore query --format ndjson` and deleted.

The store is seeded first by one sync of every range's v1 and the counters at 0.

Checks:
  * every process exits 0 (sync, copy, query), no server exits before it is stopped, and each exits 0 on SIGTERM
    at the end; every HTTP answer is what the request allows (a read 200, or 304 to a conditional one; a PUT 200 or
    412; never a 5xx, another status or a socket error);
  * every list answer is ONE committed state: the page's ids are exactly the window of the range asked for, every
    post is (as parsed JSON) exactly that range's v1 or every post its v2, `X-Total-Count` is the range's size;
    `/posts/ID` is that post's v1 or v2; and it is not older than what was committed before the request: the
    version a completed sync wrote, unless the range's next sync may have committed meanwhile (a stale read);
  * ETags: one tag of one request (on any server) always comes with one body; a `304` carries the tag it was asked
    about, and answers for a state that may still be current (the tagged answer's version is allowed as above); a
    `200` to a conditional request carries another tag;
  * zero lost updates: every counter a writer reads is at least the last count confirmed (a PUT answered 200) before
    the read began, on any server; a `412` carries a tag other than the one the PUT named; no two successful PUTs
    wrote the same count of one counter; at the end each counter equals its number of successful PUTs;
  * every copy is one committed state: all of the store's posts, each range one version (allowed as above), each
    counter at least its count confirmed before the copy started;
  * at the end (the loops finish their commands in flight): each range is the version its last completed sync
    wrote, the counters as above, as many posts as the ranges and counters hold, `info` agrees, and the schema read
    with psql holds only the store's tables, every index valid, as many rows as `info` counts.

PostgreSQL: `--postgres URL` (the server's URL, without ?schema=) or, without it, a throwaway cluster started with
scripts/postgres.sh and stopped (deleted) at the end, also after a failure, Ctrl-C or SIGTERM. The store is a new
schema `pgsoak_<pid>_<unix time>`, dropped at the end unless a check failed, the setup failed or --keep was given
(then a --postgres server keeps it, and the script prints the statement that drops it; the throwaway cluster's is
dumped with pg_dump into the work folder before the cluster stops). psql (from PATH, else where postgres.sh finds
the server) reads the schema.

Prints: the processes, p50/p99/max latency per kind of command and request, the counts (syncs and copies
completed, pages, whole ranges and posts served, 304s, PUTs succeeded and 412 conflicts, counters read on another
server than their last PUT's, each counter's successful PUTs and final count, the updates lost), the failures of
each kind and the failed checks. Exits 0 when every check passed, 1 if one failed (the work folder is kept: the
servers' logs, each failure's answer), 2 on a setup error, 130 on Ctrl-C or SIGTERM. The data and each thread's
choices are deterministic for a given --seed; the interleaving is not. Standard library only.
"""

import argparse
import http.client
import json
import random
import re
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "lib"))  # scripts/lib: script_support
from script_support import (
    Children, Postgres, Server, SetupError, SoakRecords, add_soak_arguments, check_postgres_url, describe_status,
    digest, find_poststore, free_port, interrupt_on_sigterm, ndjson_lines, percentile, print_failures, print_table,
    run_soak, sentence,
)

NAME = "postgres-soak"
RANGE_SPAN = 100_000  # range k holds ids k * RANGE_SPAN + 1 ...
COUNTER_USER = 100
COUNTER_FIRST = 9_000_001
CATEGORIES = ("exit", "http", "mixed", "stale", "etag", "lost", "copy", "final", "server")
KINDS = ("sync", "copy", "page", "range", "post", "revalidate", "get", "put")


# --------------------------------------------------------------------------------------------------------------------
# The data


def make_ranges(rng, syncers, count):
    """{k: {1: posts of v1, 2: posts of v2}} for k in 1...syncers; every post of range k has userId k."""
    ranges = {}
    for k in range(1, syncers + 1):
        ids = range(k * RANGE_SPAN + 1, k * RANGE_SPAN + count + 1)
        ranges[k] = {
            version: [
                {"userId": k, "id": post_id, "title": f"{k}:v{version} post {post_id} {sentence(rng, 2, 6)}",
                 "body": f"v{version}\n{sentence(rng, 5, 20)}"}
                for post_id in ids
            ]
            for version in (1, 2)
        }
    return ranges


def counter_post(post_id, count, note=""):
    return {"userId": COUNTER_USER, "id": post_id, "title": f"counter {post_id}", "body": f"count={count}{note}"}


def count_of(post):
    """The count a counter post holds, or None when its body is no count."""
    match = re.match(r"count=(\d+)", post.get("body", "")) if isinstance(post, dict) else None
    return int(match.group(1)) if match else None


# --------------------------------------------------------------------------------------------------------------------
# HTTP


class Client:
    """One thread's keep-alive connections, one per server (urllib's connection per request would leave tens of
    thousands of sockets in TIME_WAIT over a minute)."""

    def __init__(self, ports):
        self.connections = {port: None for port in ports}

    def request(self, port, method, path, headers=None, body=None):
        """(status, headers with lower-case names, body bytes); raises OSError or http.client.HTTPException on a
        socket error, after closing the connection (the next request opens another)."""
        connection = self.connections[port]
        if connection is None:
            connection = self.connections[port] = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        try:
            connection.request(method, path, body=body, headers=headers or {})
            answer = connection.getresponse()
            data = answer.read()
        except (OSError, http.client.HTTPException):
            connection.close()
            self.connections[port] = None
            raise
        if answer.will_close:
            connection.close()
            self.connections[port] = None
        return answer.status, {name.lower(): value for name, value in answer.getheaders()}, data

    def close(self):
        for connection in self.connections.values():
            if connection is not None:
                connection.close()


# --------------------------------------------------------------------------------------------------------------------
# The soak


@dataclass
class Record:
    kind: str  # one of KINDS
    started: float
    ended: float
    ok: bool
    detail: str = ""  # a read: "304"; a PUT: "412"
    rows: int = 0  # posts served


@dataclass
class Sync:
    """One sync of a range: when it started and ended (None while it runs; never, when it failed: it may have
    committed), and the version it writes."""

    started: float
    version: int
    ended: float = None
    failed: bool = False


@dataclass
class Soak(SoakRecords):
    """The soak's data, what it has seen and its failures (their categories: CATEGORIES)."""

    args: argparse.Namespace
    poststore: Path
    spec: str
    folder: Path
    ranges: dict  # k -> {version: [posts]}
    counters: list  # counter ids
    ports: list = field(default_factory=list)
    deadline: float = 0.0
    stop: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)
    records: list = field(default_factory=list)
    failures: list = field(default_factory=list)  # (category, message)
    syncs: dict = field(default_factory=dict)  # k -> [Sync], in order
    tags: dict = field(default_factory=dict)  # (path, ETag) -> digest of the body
    confirmed: dict = field(default_factory=dict)  # counter -> (the largest count a PUT was answered 200 for, its port)
    elsewhere: int = 0  # counters read on one server after a PUT on another was answered 200
    final_counts: dict = field(default_factory=dict)  # counter -> its count at the end
    written: dict = field(default_factory=dict)  # counter -> {count: (writer, port, time)} of successful PUTs
    successes: dict = field(default_factory=dict)  # counter -> how many PUTs were answered 200
    copies: int = 0

    def __post_init__(self):
        self.by_id = {}  # id -> (k, {version: post})
        for k, versions in self.ranges.items():
            for index, post in enumerate(versions[1]):
                self.by_id[post["id"]] = (k, {1: post, 2: versions[2][index]})
        self.range_ids = {k: [post["id"] for post in versions[1]] for k, versions in self.ranges.items()}
        self.syncs = {k: [Sync(0.0, 1, 0.0)] for k in self.ranges}  # the seed wrote v1
        self.confirmed = {counter: (0, None) for counter in self.counters}
        self.written = {counter: {} for counter in self.counters}
        self.successes = {counter: 0 for counter in self.counters}

    # What may be seen -------------------------------------------------------------------------------------------------

    def allowed(self, k, started, ended):
        """The versions of range k that a read from `started` to `ended` may see: the one the last sync completed
        before it began wrote, and those of the syncs that ran meanwhile (one may have committed)."""
        with self.lock:
            syncs = list(self.syncs[k])
        versions, last = set(), 1
        for sync in syncs:
            if sync.ended is not None and not sync.failed and sync.ended < started:
                last = sync.version
            elif sync.started <= ended:
                versions.add(sync.version)
        return versions | {last}

    def version_of(self, k, posts):
        """The version whose posts these are (the whole range, or the window `posts` claims by its ids), or None."""
        for version in (1, 2):
            if posts == [self.by_id[post["id"]][1][version] if post.get("id") in self.by_id else None
                         for post in posts]:
                return version
        return None

    def describe(self, posts):
        """For a failure: how many posts of each version tag the answer holds."""
        tags = {}
        for post in posts if isinstance(posts, list) else []:
            title = post.get("title", "") if isinstance(post, dict) else ""
            tag = title.split(" ", 1)[0]
            tags[tag] = tags.get(tag, 0) + 1
        return f"{sum(tags.values())} posts: {tags}"

    def check_tag(self, path, tag, body):
        """One ETag of one request comes with one body, whichever server sent it."""
        if not tag:
            return "no ETag"
        found = digest(body)
        with self.lock:
            seen = self.tags.setdefault((path, tag), found)
        return None if seen == found else f"ETag {tag} of {path} came with two different bodies"

    # Sync and copy loops ----------------------------------------------------------------------------------------------

    def syncer(self, k, files):
        version = 2
        while self.running():
            sync = Sync(time.monotonic(), version)
            with self.lock:
                self.syncs[k].append(sync)
            status, _, err, _ = Children.run(self.command("sync", "--from", str(files[version]), "--quiet"))
            ended = time.monotonic()
            if self.stop.is_set():
                return
            if status != 0:
                sync.failed = True  # it may have committed: both versions stay possible from here on
                self.fail("exit", f"sync of range {k} v{version} {describe_status(status)}: {err}")
            sync.ended = ended
            self.record(Record("sync", sync.started, ended, status == 0))
            version = 3 - version

    def copier(self):
        number = 0
        while self.running():
            number += 1
            target = self.folder / "copies" / f"copy-{number}.sqlite"
            target.parent.mkdir(exist_ok=True)
            with self.lock:
                floor = {counter: count for counter, (count, _) in self.confirmed.items()}
            started = time.monotonic()
            argv = [str(self.poststore), "copy", "--from-store", self.spec, "--to-store", f"sqlite:{target}"]
            status, _, err, _ = Children.run(argv)
            ended = time.monotonic()
            if self.stop.is_set():
                return
            self.record(Record("copy", started, ended, status == 0))
            if status != 0:
                self.fail("exit", f"copy {number} {describe_status(status)}: {err}")
                continue
            status, out, err, _ = Children.run([str(self.poststore), "query", "--format", "ndjson", "--store",
                                                f"sqlite:{target}"])
            if status != 0:
                self.fail("exit", f"query of copy {number} {describe_status(status)}: {err}")
                continue
            problem = self.state_problem([json.loads(line) for line in ndjson_lines(out)], started, ended, floor)
            if problem:
                self.fail("copy", f"copy {number}: {problem}", out)
            else:
                with self.lock:
                    self.copies += 1
            for file in target.parent.glob(f"{target.name}*"):
                file.unlink()

    def command(self, *arguments):
        return [str(self.poststore), *arguments, "--store", self.spec]

    def state_problem(self, posts, started, ended, floor):
        """None when `posts` (a whole store, as read from `started` to `ended`) is one committed state: every range
        one version it may hold, every counter at least `floor`'s count, nothing else; else what is wrong."""
        by_user = {}
        for post in posts:
            by_user.setdefault(post.get("userId"), []).append(post)
        for k in self.ranges:
            found = sorted(by_user.pop(k, []), key=lambda post: post["id"])
            if [post["id"] for post in found] != self.range_ids[k]:
                return f"range {k} holds {len(found)} posts, not its {len(self.range_ids[k])}"
            version = self.version_of(k, found)
            if version is None:
                return f"range {k} is no one version: {self.describe(found)}"
            if version not in self.allowed(k, started, ended):
                return f"range {k} is v{version}, older than the sync that completed before the read began"
        counters = {post["id"]: count_of(post) for post in by_user.pop(COUNTER_USER, [])}
        if sorted(counters) != self.counters:
            return f"the counters are {sorted(counters)}, not {self.counters}"
        low = [f"{c}: {counters[c]} < {floor[c]}" for c in self.counters
               if counters[c] is None or counters[c] < floor[c]]
        if low:
            return f"counters below the count confirmed before the read began: {', '.join(low)}"
        if by_user:
            return f"posts of no range: users {sorted(by_user, key=str)}"
        return None

    # HTTP readers -----------------------------------------------------------------------------------------------------

    def call(self, client, kind, port, method, path, headers=None, body=None):
        """One request, timed; (status, headers, body, started, ended), or None after a socket error (a failure)."""
        started = time.monotonic()
        try:
            status, answer_headers, data = client.request(port, method, path, headers, body)
        except (OSError, http.client.HTTPException) as error:
            ended = time.monotonic()
            if not self.stop.is_set():
                self.record(Record(kind, started, ended, False))
                self.fail("http", f"{method} {path} on port {port}: {type(error).__name__}: {error}")
            return None
        return status, answer_headers, data, started, time.monotonic()

    def unexpected(self, kind, method, path, port, status, data, started, ended):
        self.record(Record(kind, started, ended, False))
        self.fail("http", f"{method} {path} on port {port}: {status}: {data[:300].decode(errors='replace')}")

    def reader(self, rng, client):
        remembered = []  # (path, tag, k, version) of answers this thread had, the latest last
        while self.running():
            port = rng.choice(self.ports)
            roll = rng.random()
            k = rng.choice(list(self.ranges))
            size = len(self.range_ids[k])
            if roll < 0.25 and remembered:
                self.revalidate(client, port, rng.choice(remembered[-20:]))
                continue
            if roll < 0.55:
                limit = rng.randint(1, 100)
                page = rng.randint(1, (size + limit - 1) // limit)
                path, window = f"/posts?userId={k}&_limit={limit}&_page={page}", ((page - 1) * limit, page * limit)
            elif roll < 0.7:
                start = rng.randrange(size)
                end = rng.randint(start + 1, min(size, start + 200))
                path, window = f"/posts?userId={k}&_start={start}&_end={end}", (start, end)
            elif roll < 0.8:
                path = f"/users/{k}/posts" if rng.random() < 0.5 else f"/posts?userId={k}"
                window = None
            else:
                path, window = f"/posts/{rng.choice(self.range_ids[k])}", None
            kind = "post" if path.startswith("/posts/") else "range" if window is None else "page"
            result = self.call(client, kind, port, "GET", path)
            if result is None:
                continue
            status, headers, data, started, ended = result
            if status != 200:
                self.unexpected(kind, "GET", path, port, status, data, started, ended)
                continue
            version = self.check_read(kind, path, k, window, headers, data, started, ended, port)
            if version is not None:
                remembered.append((path, headers.get("etag"), k, version))
                del remembered[:-40]

    def check_read(self, kind, path, k, window, headers, data, started, ended, port):
        """Checks a 200 read of range k; returns the version it holds, or None after a failure."""
        rows = 0
        try:
            answer = json.loads(data)
            posts = [answer] if kind == "post" else answer
            rows = len(posts)
        except ValueError:
            posts = None
        self.record(Record(kind, started, ended, True, rows=rows))
        if not isinstance(posts, list) or not all(isinstance(post, dict) for post in posts):
            self.fail("mixed", f"GET {path} on port {port}: not a post or a list of posts", data)
            return None
        ids = self.range_ids[k]
        wanted = [int(path.rsplit("/", 1)[1])] if kind == "post" else ids if window is None else ids[slice(*window)]
        if [post.get("id") for post in posts] != wanted:
            self.fail("mixed", f"GET {path} on port {port}: ids {[p.get('id') for p in posts][:5]}... "
                      f"({len(posts)}), not the {len(wanted)} wanted", data)
            return None
        version = self.version_of(k, posts)
        if version is None:
            self.fail("mixed", f"GET {path} on port {port}: no one version: {self.describe(posts)}", data)
            return None
        if window is not None and headers.get("x-total-count") != str(len(ids)):
            self.fail("mixed", f"GET {path} on port {port}: X-Total-Count {headers.get('x-total-count')!r}, "
                      f"the range has {len(ids)}")
        if version not in self.allowed(k, started, ended):
            self.fail("stale", f"GET {path} on port {port}: v{version}, but the sync that completed before the "
                      "request wrote the other version, and none ran meanwhile")
        problem = self.check_tag(path, headers.get("etag"), data)
        if problem:
            self.fail("etag", f"GET {path} on port {port}: {problem}", data)
        return version

    def revalidate(self, client, port, remembered):
        path, tag, k, version = remembered
        kind = "revalidate"
        result = self.call(client, kind, port, "GET", path, {"If-None-Match": tag})
        if result is None:
            return
        status, headers, data, started, ended = result
        if status == 304:
            self.record(Record(kind, started, ended, True, "304"))
            if headers.get("etag") != tag:
                self.fail("etag", f"GET {path} on port {port} If-None-Match {tag}: 304 with ETag {headers.get('etag')}")
            if version not in self.allowed(k, started, ended):
                self.fail("stale", f"GET {path} on port {port} If-None-Match {tag}: 304 for v{version}, but the sync "
                          "that completed before the request wrote the other version, and none ran meanwhile")
        elif status == 200:
            window = None
            if "_page=" in path:
                limit, page = (int(re.search(rf"{name}=(\d+)", path).group(1)) for name in ("_limit", "_page"))
                window = ((page - 1) * limit, page * limit)
            elif "_start=" in path:
                window = tuple(int(re.search(rf"{name}=(\d+)", path).group(1)) for name in ("_start", "_end"))
            kind = "post" if path.startswith("/posts/") else "range" if window is None else "page"
            self.check_read(kind, path, k, window, headers, data, started, ended, port)
            # Counted as a conditional request too, without its rows (the read above counted them).
            self.record(Record("revalidate", started, ended, True, "200"))
            if headers.get("etag") == tag:
                self.fail("etag", f"GET {path} on port {port} If-None-Match {tag}: 200 with that same ETag")
        else:
            self.unexpected(kind, "GET", path, port, status, data, started, ended)

    # HTTP writers -----------------------------------------------------------------------------------------------------

    def writer(self, number, rng, client):
        while self.running():
            counter = rng.choice(self.counters)
            path = f"/posts/{counter}"
            port = rng.choice(self.ports)
            with self.lock:
                floor, floor_port = self.confirmed[counter]
            result = self.call(client, "get", port, "GET", path)
            if result is None:
                continue
            status, headers, data, started, ended = result
            if status != 200:
                self.unexpected("get", "GET", path, port, status, data, started, ended)
                continue
            self.record(Record("get", started, ended, True, rows=1))
            try:
                count = count_of(json.loads(data))
            except ValueError:
                count = None
            tag = headers.get("etag")
            if count is None or not tag:
                self.fail("http", f"GET {path} on port {port}: no count or no ETag", data)
                continue
            if count < floor:
                self.fail("lost", f"GET {path} on port {port}: count={count}, but a PUT of count={floor} was "
                          f"answered 200 on port {floor_port} before the request")
            elif floor and floor_port != port:
                with self.lock:
                    self.elsewhere += 1
            write_port = rng.choice(self.ports)
            body = json.dumps(counter_post(counter, count + 1, f" (writer {number}, port {write_port})")).encode()
            headers = {"If-Match": tag, "Content-Type": "application/json"}
            result = self.call(client, "put", write_port, "PUT", path, headers, body)
            if result is None:
                continue
            status, answer_headers, data, started, ended = result
            if status == 200:
                self.record(Record("put", started, ended, True))
                with self.lock:
                    twice = self.written[counter].get(count + 1)
                    self.written[counter][count + 1] = (number, write_port, ended)
                    if count + 1 > self.confirmed[counter][0]:
                        self.confirmed[counter] = (count + 1, write_port)
                    self.successes[counter] += 1
                if twice:
                    self.fail("lost", f"PUT {path} count={count + 1} (If-Match {tag}) by writer {number} on port "
                              f"{write_port} answered 200, as was the same count's PUT by writer {twice[0]} on port "
                              f"{twice[1]} {ended - twice[2]:.3f} s earlier: one of the two updates is lost")
            elif status == 412:
                self.record(Record("put", started, ended, True, "412"))
                if answer_headers.get("etag") == tag:
                    self.fail("http", f"PUT {path} If-Match {tag} on port {write_port}: 412 naming that same ETag")
            else:
                self.unexpected("put", "PUT", path, write_port, status, data, started, ended)

    # The end ----------------------------------------------------------------------------------------------------------

    def check_final(self, postgres, schema):
        """The store after every loop ended: each range its last completed sync's version, each counter its
        successful PUTs, nothing else; info agrees; the schema holds the store and nothing else."""
        status, out, err, _ = Children.run(self.command("query", "--format", "ndjson"))
        if status != 0:
            self.fail("final", f"final query {describe_status(status)}: {err}")
            return
        posts = [json.loads(line) for line in ndjson_lines(out)]
        now = time.monotonic()
        problem = self.state_problem(posts, now, now, {c: count for c, (count, _) in self.confirmed.items()})
        if problem:
            self.fail("final", f"the final store: {problem}", out)
        for k in self.ranges:
            last = self.syncs[k][-1]
            found = self.version_of(k, sorted((p for p in posts if p.get("userId") == k), key=lambda p: p["id"]))
            if not last.failed and found != last.version:
                self.fail("final", f"range {k} is v{found}, but its last sync, which completed, wrote v{last.version}")
        counts = {post["id"]: count_of(post) for post in posts if post.get("userId") == COUNTER_USER}
        self.final_counts = counts
        for counter in self.counters:
            puts = self.successes[counter]
            if counts.get(counter) != puts:
                missing = sorted(set(range(1, puts + 1)) - set(self.written[counter]))
                self.fail("lost", f"counter {counter} holds count={counts.get(counter)} after {puts} successful PUTs "
                          f"(counts no PUT wrote: {missing[:10]}{'...' if len(missing) > 10 else ''})")
        status, info_out, err, _ = Children.run(self.command("info", "--format", "json"))
        if status != 0:
            self.fail("final", f"final info {describe_status(status)}: {err}")
            return
        info = json.loads(info_out)
        if info["postCount"] != len(posts):
            self.fail("final", f"info counts {info['postCount']} posts, query {len(posts)}")
        problem = postgres.store_problem(schema, info)
        if problem:
            self.fail("final", problem)


# --------------------------------------------------------------------------------------------------------------------
# Running it


def write_sources(folder, ranges, counters):
    """Each range's v1 and v2 files, and the seed: every range's v1 and the counters at 0."""
    files = {}
    for k, versions in ranges.items():
        files[k] = {}
        for version, posts in versions.items():
            files[k][version] = folder / f"range-{k}-v{version}.json"
            files[k][version].write_text(json.dumps(posts, ensure_ascii=False), encoding="utf-8")
    seed = folder / "seed.json"
    posts = [post for versions in ranges.values() for post in versions[1]]
    seed.write_text(json.dumps(posts + [counter_post(c, 0) for c in counters], ensure_ascii=False), encoding="utf-8")
    return files, seed


def start_servers(soak, servers, count, folder):
    """Starts `count` servers into the list `servers`, so that those started are stopped whatever happens."""
    for number in range(1, count + 1):
        port = free_port()
        argv = [str(soak.poststore), "serve", "--store", soak.spec, "--port", str(port), "--allow-writes", "--quiet"]
        log = folder / f"server-{number}.log"
        try:
            servers.append(Server(argv, port, log=log))
        except SetupError as error:
            raise SetupError(f"server {number}: {error} (its log: {log})") from None


def stop_servers(soak, servers):
    """Stops every server with SIGTERM: each must still be running, and exit 0."""
    for number, server in enumerate(servers, 1):
        early = server.process.poll()
        if early is not None:
            soak.fail("server", f"server {number} (port {server.port}) ended during the run: {describe_status(early)}")
            continue
        server.stop()
        if server.process.returncode != 0:
            soak.fail("server", f"server {number} (port {server.port}) stopped by SIGTERM: "
                      f"{describe_status(server.process.returncode)}")


def run(args, poststore, workdir, postgres):
    rng = random.Random(args.seed)
    ranges = make_ranges(rng, args.syncers, args.posts)
    counters = list(range(COUNTER_FIRST, COUNTER_FIRST + args.counters))
    files, seed = write_sources(workdir, ranges, counters)
    schema = postgres.schema()
    spec = postgres.spec(schema)
    print(f"{NAME}: store {postgres.shown(spec)}", flush=True)
    soak = Soak(args, poststore, spec, workdir, ranges, counters)
    status, _, err, _ = Children.run(soak.command("sync", "--from", str(seed), "--quiet"))
    if status != 0:
        raise SetupError(f"the seed sync {describe_status(status)}: {err}")
    servers, clients = [], []
    try:
        start_servers(soak, servers, args.servers, workdir)
        soak.ports = [server.port for server in servers]
        started = time.monotonic()
        soak.deadline = started + args.seconds
        for k in soak.syncs:
            soak.syncs[k][0] = Sync(started, 1, started)
        threads = [threading.Thread(target=soak.syncer, args=(k, files[k]), daemon=True) for k in ranges]
        threads.append(threading.Thread(target=soak.copier, daemon=True))
        for role, count, loop in (("reader", args.readers, soak.reader), ("writer", args.writers, soak.writer)):
            for number in range(1, count + 1):
                clients.append(Client(soak.ports))
                loop_args = (random.Random(f"{args.seed}-{role}-{number}"), clients[-1])
                threads.append(threading.Thread(target=loop, args=((number,) if role == "writer" else ()) + loop_args,
                                                daemon=True))
        for thread in threads:
            thread.start()
        print(f"{NAME}: {args.syncers} sync loops, {len(servers)} servers (ports {', '.join(map(str, soak.ports))}), "
              f"{args.readers} readers, {args.writers} writers, 1 copy loop for {args.seconds:g} s", flush=True)
        reported = set()
        while any(thread.is_alive() for thread in threads):
            for number, server in enumerate(servers, 1):
                if server.process.poll() is not None and number not in reported:
                    reported.add(number)
                    print(f"{NAME}: server {number} ended: {describe_status(server.process.returncode)}", flush=True)
            time.sleep(0.2)
        elapsed = time.monotonic() - started
        soak.check_final(postgres, schema)
    except KeyboardInterrupt:
        soak.stop.set()
        Children.kill_all()
        raise
    finally:
        for client in clients:
            client.close()
        stop_servers(soak, servers)
    return soak, elapsed


def print_summary(soak, elapsed, args):
    print()
    print(f"{NAME}: {args.syncers} sync loops ({args.posts} posts each), {args.servers} servers, "
          f"{args.readers} readers, {args.writers} writers on {args.counters} counters, 1 copy loop; "
          f"{elapsed:.0f} s, seed {args.seed}")
    rows = []
    for kind in KINDS:
        records = [r for r in soak.records if r.kind == kind]
        durations = [(r.ended - r.started) * 1000 for r in records]
        rows.append([
            kind, sum(1 for r in records if r.ok), sum(1 for r in records if not r.ok),
            f"{len(records) / elapsed:.1f}", f"{percentile(durations, 0.5):.1f}", f"{percentile(durations, 0.99):.1f}",
            f"{max(durations, default=0):.1f}",
        ])
    print_table(["kind", "ok", "failed", "per s", "p50 ms", "p99 ms", "max ms"], rows)
    ok = [r for r in soak.records if r.ok]
    served = [r for r in ok if r.kind in ("page", "range", "post")]
    puts = [r for r in ok if r.kind == "put"]
    counts = [
        ["syncs completed", sum(1 for r in ok if r.kind == "sync")],
        ["copies completed (each checked)", soak.copies],
        ["pages served (windowed lists)", sum(1 for r in served if r.kind == "page")],
        ["whole ranges served", sum(1 for r in served if r.kind == "range")],
        ["single posts served", sum(1 for r in served if r.kind == "post")],
        ["posts in them (rows)", sum(r.rows for r in served)],
        ["conditional GETs: 304 / 200", f"{sum(1 for r in ok if r.kind == 'revalidate' and r.detail == '304')} / "
                                        f"{sum(1 for r in ok if r.kind == 'revalidate' and r.detail == '200')}"],
        ["PUTs succeeded / 412 conflicts", f"{sum(1 for r in puts if not r.detail)} / "
                                           f"{sum(1 for r in puts if r.detail == '412')}"],
        ["counters read on another server than their last PUT's", soak.elsewhere],
        ["successful PUTs per counter", ", ".join(str(soak.successes[c]) for c in soak.counters)],
        ["counters at the end", ", ".join(str(soak.final_counts.get(c, "-")) for c in soak.counters)],
        ["updates lost (successful PUTs the counters lack)",
         sum(soak.successes[c] - (soak.final_counts.get(c) or 0) for c in soak.counters) if soak.final_counts else "-"],
    ]
    counts += [[f"failures: {category}", soak.count(category)] for category in CATEGORIES]
    counts.append(["failures", len(soak.failures)])
    print()
    print_table(["count", "value"], counts)
    print_failures([f"[{category}] {message}" for category, message in soak.failures], most=40)


def parse_arguments():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Deep checks' size (about 30 s): scripts/reliability/postgres-soak.py --seconds 20 --posts 200. On a "
        "server of yours (a new schema pgsoak_<pid>_<time>, dropped at the end): "
        "--postgres postgres://USER@HOST:PORT/DB.",
    )
    parser.add_argument("--seconds", type=float, default=60, help="how long the loops run (default 60)")
    parser.add_argument("--seed", type=int, default=1, help="seed for the data and every thread's choices (default 1)")
    parser.add_argument(
        "--postgres", metavar="URL",
        help="the PostgreSQL server, postgres://USER@HOST:PORT/DB without ?schema= (default: a throwaway cluster "
        "from scripts/postgres.sh)",
    )
    parser.add_argument("--syncers", type=int, default=4, help="sync loops, one range each (default 4)")
    parser.add_argument("--posts", type=int, default=500, help="posts in each range (default 500)")
    parser.add_argument("--servers", type=int, default=4, help="poststore serve processes (default 4)")
    parser.add_argument("--readers", type=int, default=8, help="HTTP reader threads (default 8)")
    parser.add_argument("--writers", type=int, default=4, help="HTTP read-modify-write threads (default 4)")
    parser.add_argument("--counters", type=int, default=4, help="counter posts the writers share (default 4)")
    add_soak_arguments(parser, engines=None)
    args = parser.parse_args()
    if args.postgres is not None:
        check_postgres_url(parser, args.postgres)
    if (args.seconds <= 0 or not 1 <= args.syncers <= 9 or not 1 <= args.posts < RANGE_SPAN or args.servers < 1
            or args.readers < 0 or args.writers < 0 or args.counters < 1):
        parser.error("need --seconds > 0, --syncers from 1 to 9, --posts from 1 to 99999, --servers >= 1, "
                     "--readers >= 0, --writers >= 0, --counters >= 1")
    return args


def main():
    args = parse_arguments()

    def soak(workdir):
        poststore = find_poststore(args.poststore)
        print(f"{NAME}: {poststore}, work folder {workdir}", flush=True)
        postgres = Postgres.open(args.postgres, NAME, word="pgsoak")
        where = "a throwaway cluster" if postgres.own else "the server"
        print(f"{NAME}: {where} at {postgres.shown()}", flush=True)
        keep_schema = True  # unless the run passes or is interrupted: a failure's schema is kept for inspection
        try:
            result, elapsed = run(args, poststore, workdir, postgres)
            print_summary(result, elapsed, args)
            failed = bool(result.failures)
            keep_schema = failed or args.keep
            return failed
        except KeyboardInterrupt:
            keep_schema = args.keep
            raise
        finally:
            Children.kill_all()  # nothing may hold a lock on the schema to drop, nor run on the cluster being stopped
            postgres.finish(workdir, keep_schema)

    # SIGTERM ends the run as Ctrl-C does: the children killed, the servers and the throwaway cluster stopped.
    interrupt_on_sigterm()
    return run_soak(NAME, args, False, soak, Children.kill_all)


if __name__ == "__main__":
    raise SystemExit(main())
