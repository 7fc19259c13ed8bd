#!/usr/bin/env python3
"""Concurrency soak for poststore: several processes syncing and reading one store at the same time.

For each engine (SQLite, JSON file, PostgreSQL) the script writes `--syncers` source files whose posts say where
they come from: source k has its own id range (overlapping its neighbours', so a sync inserts, updates and deletes),
its own post count (--posts + k) and titles and bodies tagged `source-k:`. The expected result of each source is
poststore's own `query --format ndjson` output after a completed sync of it into a scratch SQLite store (so the
other engines are also checked to print exactly what SQLite prints). The store is seeded with source 0, then, for
`--seconds`:

  * each of `--syncers` loops runs `poststore sync --from SOURCE_k --store S --prune --force --quiet`;
  * each of `--readers` loops runs, at random, `query --format ndjson` (most often), `query --count`,
    `query --search source-j: --format ndjson` or `info --format json`.

Checks:
  * every command exits 0 -- a busy or "database is locked" error that reaches the user is a failure (on
    PostgreSQL, exit 74: writers wait for each other's table lock up to the lock timeout, 5 s by default);
  * every query is one source's complete post set: the ndjson is byte-for-byte one source's expected output
    (a consistent snapshot, never a mixture or a partial set); a --count is one source's count; a search for
    `source-j:` is either source j's complete set or empty; `info` shows one source's count, and lastSync names
    that same source;
  * at the end the store is the source of a sync that may have committed last: the one that ended last, or one
    that was still running when that one started (syncs ending close together can commit in either order);
    `info` agrees with the posts (count, lastSync.source); SQLite passes `PRAGMA integrity_check`; a JSON store
    has no temporary files left; a PostgreSQL store's schema, read with psql, holds exactly the tables posts,
    sync_state, store_revision, poststore_migrations, post_tombstones and post_writes (nothing left over from a
    write), every index of them valid, as many rows in posts as `info` counts, one migration row per version up to info's schemaVersion, and a sync_state
    row. (PostgreSQL has no integrity_check to run without installing an extension, and its temporary tables go
    with their session, so those checks do not apply.)

Then, per engine, `--first-sync-rounds` rounds of first syncs racing on a missing store: `--syncers` processes
start `sync` into the same new store at once, each with a fate -- a sync that must succeed, one whose source turns
out bad at its end (exit 65), one with --prune from a two-post source (refused once another sync's posts are in the
store; the others prune with --force, so a store is always one source's posts), one stopped by SIGINT and one
killed by SIGKILL at a random moment. Checks: no lost store (once a sync succeeded the store exists, and it holds
exactly the posts of one sync that succeeded or was stopped after it committed, never those of a failed one), info
agrees, SQLite passes `PRAGMA integrity_check` and a PostgreSQL schema the checks above, no store exists when no
sync can have committed, every fated success exited 0, and nothing but a killed (or, rarely, interrupted) process's
staging folder is left. On PostgreSQL each round uses a new schema, and a sync creates the schema and its tables
(migrates it) when it connects, before it reads its source, so a schema that is there but empty is expected after
a round where only failed syncs ran: there "no store" reads "no posts" (no posts table, or one without rows).
Staging folders do not apply to PostgreSQL (a sync writes in one transaction).

PostgreSQL: with `--postgres URL` (the server's URL, `postgres://USER@HOST:PORT/DB`, without `?schema=`) the
stores go to that server; without it, the script starts a throwaway cluster with `scripts/postgres.sh start` and
stops it (deleting it) at the end, also after a failure, Ctrl-C or SIGTERM. psql (from PATH, else where
postgres.sh finds the server) reads the schemas. Every store of a run is a new schema named
`soak_<pid>_<unix time>` (the main soak) or `soak_<pid>_<unix time>_race_<n>` (a first-sync round); the run
refuses to start if a schema of that prefix exists. At the end the run drops exactly the schemas it named (DROP
SCHEMA ... CASCADE), unless a check failed, the setup failed or --keep was given: then a --postgres server keeps
them for inspection (the script prints the statement that drops them), and the throwaway cluster's schemas are
dumped with pg_dump into the work folder before it is stopped. The `pg_trgm` extension, which poststore's first
migration creates in the database when it is not there, is left alone.

Prints, per engine: processes, duration, syncs and queries completed, p50/p99/max latency of each command kind
(how long they waited for each other), and failures. Exits 1 if any check failed (the work folder is then kept),
2 on a setup error, 130 on Ctrl-C or SIGTERM. The data and each loop's choices are deterministic for a given
--seed; the interleaving is not. Standard library only.
"""

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "lib"))  # scripts/lib: script_support
from script_support import (
    Children, Postgres, PsqlFailed, SetupError, SoakRecords, add_soak_arguments, check_postgres_url, describe_status,
    digest, find_poststore, interrupt_on_sigterm, ndjson_lines, parse_engines, percentile, print_failures,
    print_table, run_soak,
)

WORDS = "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore".split()
ENGINES = ("sqlite", "json", "postgres")


# --------------------------------------------------------------------------------------------------------------------
# Sources


@dataclass
class Source:
    index: int
    path: Path
    posts: list
    digest: str = ""  # sha256 of poststore's ndjson for exactly these posts

    @property
    def tag(self):
        return f"source-{self.index}:"


def make_source(rng, index, count, folder):
    """Source k: ids from 1 + k * count/4 (so neighbours share ids with different contents), count + k posts,
    every title and body tagged `source-k:`."""
    first = 1 + index * (count // 4)
    tag = f"source-{index}:"
    posts = [
        {
            "userId": post_id % 10 + 1,
            "id": post_id,
            "title": f"{tag} post {post_id} " + " ".join(rng.choice(WORDS) for _ in range(rng.randint(2, 6))),
            "body": f"{tag}\n" + " ".join(rng.choice(WORDS) for _ in range(rng.randint(10, 30))),
        }
        for post_id in range(first, first + count + index)
    ]
    path = folder / f"source-{index}.json"
    path.write_text(json.dumps(posts), encoding="utf-8")
    return Source(index, path, posts)


# --------------------------------------------------------------------------------------------------------------------
# The soak


@dataclass
class Record:
    kind: str  # "sync", "query", "count", "search", "info"
    started: float
    ended: float
    status: int
    source: int = -1  # the syncer's source, or the source the result was attributed to


@dataclass
class Soak(SoakRecords):
    """One engine's soak. Its failures' categories: "exit" (a command failed), "mixed" (a result that is no one
    source's), "info" (info disagrees with itself or with the posts), "final" (the end state)."""

    engine: str
    poststore: Path
    store_spec: str
    sources: list
    folder: Path
    deadline: float = 0.0
    stop: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)
    records: list = field(default_factory=list)
    failures: list = field(default_factory=list)  # (category, message)
    final_info: dict = None  # the final `info --format json`, parsed, when it could be read

    def command(self, *arguments):
        return [str(self.poststore), *arguments, "--store", self.store_spec]

    # Result checks --------------------------------------------------------------------------------------------------

    def attribute(self, ndjson):
        """The source whose complete post set this ndjson is, or None."""
        found = digest(ndjson)
        return next((source.index for source in self.sources if source.digest == found), None)

    def describe(self, ndjson):
        """For a failure message: how many posts of each source the output holds."""
        counts = {}
        for line in ndjson_lines(ndjson):
            try:
                title = json.loads(line)["title"]
            except (ValueError, KeyError, TypeError):
                counts["unparsable"] = counts.get("unparsable", 0) + 1
                continue
            tag = title.split(":", 1)[0]
            counts[tag] = counts.get(tag, 0) + 1
        wanted = ", ".join(f"source-{s.index} has {len(s.posts)}" for s in self.sources)
        return f"{sum(counts.values())} posts: {counts} ({wanted})"

    # Loops ------------------------------------------------------------------------------------------------------------

    def syncer(self, source):
        argv = self.command("sync", "--from", str(source.path), "--prune", "--force", "--quiet")
        while self.running():
            started = time.monotonic()
            status, _, err, _ = Children.run(argv)
            ended = time.monotonic()
            if self.stop.is_set():
                return
            self.record(Record("sync", started, ended, status, source.index))
            if status != 0:
                self.fail("exit", f"sync from source-{source.index} {describe_status(status)}: {err}")

    def reader(self, rng):
        while self.running():
            roll = rng.random()
            if roll < 0.6:
                self.read_all()
            elif roll < 0.75:
                self.read_count()
            elif roll < 0.9:
                self.read_search(rng.choice(self.sources))
            else:
                self.read_info()

    def timed(self, kind, argv):
        started = time.monotonic()
        status, out, err, _ = Children.run(argv)
        ended = time.monotonic()
        if self.stop.is_set():
            return None, None
        if status != 0:
            self.record(Record(kind, started, ended, status))
            self.fail("exit", f"{' '.join(argv[1:])} {describe_status(status)}: {err}")
            return None, None
        return Record(kind, started, ended, status), out

    def read_all(self):
        record, out = self.timed("query", self.command("query", "--format", "ndjson"))
        if record is None:
            return
        record.source = self.attribute(out)
        if record.source is None:
            self.fail("mixed", f"query --format ndjson is no source's post set: {self.describe(out)}", out)
            record.source = -1
        self.record(record)

    def read_count(self):
        record, out = self.timed("count", self.command("query", "--count"))
        if record is None:
            return
        text = out.decode(errors="replace").strip()
        counts = {len(source.posts): source.index for source in self.sources}
        if not text.isdigit() or int(text) not in counts:
            self.fail("mixed", f"query --count printed {text!r}, no source's count ({sorted(counts)})")
        self.record(record)

    def read_search(self, source):
        record, out = self.timed("search", self.command("query", "--search", source.tag, "--format", "ndjson"))
        if record is None:
            return
        if out and digest(out) != source.digest:
            self.fail("mixed", f"query --search {source.tag} is neither empty nor all of source-{source.index}: "
                      f"{self.describe(out)}", out)
        self.record(record)

    def read_info(self):
        record, out = self.timed("info", self.command("info", "--format", "json"))
        if record is None:
            return
        problem = self.info_problem(out)
        if problem:
            self.fail("info", f"info --format json: {problem}", out)
        self.record(record)

    def info_problem(self, out, expected_source=None):
        try:
            info = json.loads(out)
            count, synced_from = info["postCount"], (info["lastSync"] or {}).get("source")
        except (ValueError, KeyError, TypeError) as error:
            return f"unreadable: {error}"
        by_path = {str(source.path): source for source in self.sources}
        source = by_path.get(synced_from)
        if source is None:
            return f"lastSync.source {synced_from!r} is no source"
        if count != len(source.posts):
            return f"postCount {count}, but lastSync names source-{source.index}, which has {len(source.posts)} posts"
        if expected_source is not None and source.index != expected_source:
            return f"lastSync names source-{source.index}, but the posts are source-{expected_source}'s"
        return None

    # The end -----------------------------------------------------------------------------------------------------------

    def check_final_state(self):
        """The store must be the source of a sync that may have committed last."""
        syncs = [r for r in self.records if r.kind == "sync" and r.status == 0]
        status, out, err, _ = Children.run(self.command("query", "--format", "ndjson"))
        if status != 0:
            self.fail("final", f"final query {describe_status(status)}: {err}")
            return None
        final = self.attribute(out)
        if final is None:
            self.fail("final", f"the final store is no source's post set: {self.describe(out)}", out)
            return None
        if syncs:
            last = max(syncs, key=lambda r: r.ended)
            # A sync still running when the last-ending one started may have committed after it.
            candidates = {r.source for r in syncs if r.ended >= last.started}
            if final not in candidates:
                self.fail(
                    "final",
                    f"the final store is source-{final}, but the last sync to end was source-{last.source}'s "
                    f"(syncs that may have committed last: {sorted(candidates)})"
                )
        status, info_out, err, _ = Children.run(self.command("info", "--format", "json"))
        problem = f"{describe_status(status)}: {err}" if status != 0 else self.info_problem(info_out, final)
        if problem:
            self.fail("final" if status != 0 else "info", f"final info: {problem}")
        else:
            self.final_info = json.loads(info_out)
        return final


# --------------------------------------------------------------------------------------------------------------------
# First syncs racing on a missing store


FATES = ("ok", "bad", "prune", "interrupt", "kill")


@dataclass
class Race:
    rounds: int = 0
    syncs: dict = field(default_factory=dict)  # fate -> [exit statuses]
    stores: int = 0  # rounds that ended with a store
    lost: int = 0  # rounds where a sync succeeded but the store is missing or not a successful source's
    left: int = 0  # staging folders left (only SIGKILLed syncs may leave one); None on PostgreSQL (none are made)
    failures: list = field(default_factory=list)


def make_race_sources(sources, folder):
    """A source whose last post is bad (so its sync fails after reading everything), and a two-post prune source."""
    bad = list(sources[0].posts) + [{"userId": "not a number", "id": 10_000_000, "title": "bad", "body": "bad"}]
    bad_path = folder / "race-bad.json"
    bad_path.write_text(json.dumps(bad), encoding="utf-8")
    small = [{"userId": 1, "id": 20_000_000 + n, "title": f"prune-{n}", "body": ""} for n in range(2)]
    small_path = folder / "race-prune.json"
    small_path.write_text(json.dumps(small), encoding="utf-8")
    return bad_path, small_path


def race_first_syncs(engine, args, poststore, workdir, sources, postgres):
    """Rounds of `--syncers` first syncs racing on one missing store, some failing on purpose."""
    folder = workdir / engine / "race"
    folder.mkdir(parents=True, exist_ok=True)
    bad_path, small_path = make_race_sources(sources, folder)
    rng = random.Random(f"{args.seed}-{engine}-race")
    race = Race(left=None if engine == "postgres" else 0)
    for number in range(args.first_sync_rounds):
        if engine == "postgres":
            store = postgres.schema(f"race_{number}")  # a schema no one has made yet
            spec = postgres.spec(store)
        else:
            store = folder / (f"race-{number}.sqlite" if engine == "sqlite" else f"race-{number}.json")
            spec = f"{engine}:{store}"
        fates = [FATES[(number + k) % len(FATES)] for k in range(args.syncers)]
        fates[0] = "ok"  # every round has a sync that must succeed, so every round has a store to lose
        processes = []
        for k, fate in enumerate(fates):
            source = sources[k % len(sources)]
            argv = [str(poststore), "sync", "--store", spec, "--quiet", "--from"]
            # A sync that succeeds prunes (--force), so the store is always exactly one source's posts.
            argv += {"bad": [str(bad_path)], "prune": [str(small_path), "--prune"]}.get(
                fate, [str(source.path), "--prune", "--force"]
            )
            process = Children.start(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            processes.append((fate, source, process))
            if fate in ("interrupt", "kill"):
                signal_number = signal.SIGINT if fate == "interrupt" else signal.SIGKILL
                timer = threading.Timer(rng.uniform(0.0, 0.3), _signal, (process, signal_number))
                timer.daemon = True
                timer.start()
        succeeded = []  # the sources of syncs that exited 0 (None: the two-post source)
        candidates = []  # the sources whose posts the store may hold: a signal may land after a sync committed
        for fate, source, process in processes:
            _, err = process.communicate()
            Children.finished(process)
            status = process.returncode
            race.syncs.setdefault(fate, []).append(status)
            if status == 0:
                succeeded.append(None if fate == "prune" else source)
            if status == 0 or fate in ("interrupt", "kill"):
                candidates.append(None if fate == "prune" else source)
            if fate == "ok" and status != 0:
                race.failures.append(f"round {number}: a sync that must succeed {describe_status(status)}: "
                                     f"{err.decode(errors='replace').strip()}")
        race.rounds += 1
        problem = race_check(engine, poststore, store, spec, succeeded, candidates, postgres)
        if problem:
            race.lost += 1
            race.failures.append(f"round {number}: {problem}")
        elif succeeded:
            race.stores += 1
        if engine == "postgres":
            continue
        left = [entry for entry in os.listdir(folder) if entry.startswith(f".{store.name}.new-")]
        race.left += len(left)
        # A killed sync leaves its folder; an interrupted one too when stopped while writing a JSON temporary file.
        stopped = sum(1 for _, _, process in processes if process.returncode in (-signal.SIGKILL, -signal.SIGINT))
        if len(left) > stopped:
            race.failures.append(f"round {number}: {len(left)} staging folders left, {stopped} syncs stopped")
    return race


def _signal(process, signal_number):
    if process.poll() is None:
        try:
            process.send_signal(signal_number)
        except ProcessLookupError:
            pass


def race_check(engine, poststore, store, spec, succeeded, candidates, postgres):
    """None when the round's store is as it must be, else what is wrong: a store must exist once a sync succeeded,
    and hold exactly the posts of one sync that may have committed (none that failed on bad data or a refused prune).
    On PostgreSQL `store` is the schema, which any sync creates, empty, when it connects: there a store "exists"
    when its posts table has rows.
    """
    if engine == "postgres":
        try:
            posts = postgres.posts(store)
        except PsqlFailed as error:
            return f"psql on schema {store}: {error}"
        if not posts:
            state = "does not exist" if posts is None else "has no posts"
            return f"{len(succeeded)} syncs succeeded, but schema {store} {state}" if succeeded else None
        if not candidates:
            return f"no sync succeeded or was stopped, yet schema {store} holds {posts} posts"
    elif not store.exists():
        return f"{len(succeeded)} syncs succeeded, but {store.name} is gone" if succeeded else None
    elif not candidates:
        return f"no sync succeeded or was stopped, yet {store.name} exists"
    status, out, err, _ = Children.run([str(poststore), "query", "--format", "ndjson", "--store", spec])
    if status != 0:
        return f"query {describe_status(status)}: {err}"
    found = digest(out)
    winners = [source for source in candidates if source is not None and source.digest == found]
    if not winners:
        small_only = all(json.loads(line)["title"].startswith("prune-") for line in out.decode().splitlines())
        if not (None in candidates and small_only and out):
            return f"the store holds no successful sync's posts ({len(out.splitlines())} posts)"
    status, info_out, err, _ = Children.run([str(poststore), "info", "--format", "json", "--store", spec])
    if status != 0:
        return f"info {describe_status(status)}: {err}"
    if json.loads(info_out)["postCount"] != len(out.splitlines()):
        return f"info counts {json.loads(info_out)['postCount']} posts, query {len(out.splitlines())}"
    if engine == "postgres":
        return postgres.store_problem(store, json.loads(info_out))
    if engine == "sqlite":
        result = subprocess.run(["sqlite3", str(store), "PRAGMA integrity_check"], capture_output=True, text=True)
        if (result.stdout + result.stderr).strip() != "ok":
            return f"integrity_check: {(result.stdout + result.stderr).strip()[:300]}"
    return None


def print_race_summary(races):
    print()
    rows = []
    for engine, race in races:
        fates = "  ".join(
            f"{fate} {sum(1 for s in race.syncs.get(fate, []) if s == 0)}/{len(race.syncs.get(fate, []))}"
            for fate in FATES
        )
        left = "-" if race.left is None else race.left
        rows.append([engine, race.rounds, race.stores, fates, left, race.lost, len(race.failures)])
    print_table(
        ["engine", "first-sync rounds", "stores made", "exit 0 per fate", "staging left (stopped)", "lost stores",
         "failures"],
        rows,
    )
    found = [(engine, message) for engine, race in races for message in race.failures]
    if found:
        print()
        print(f"{len(found)} FAILED FIRST-SYNC CHECKS:")
        for engine, message in found[:40]:
            print(f"  {engine}: {message}")


def prepare_sources(args, poststore, folder):
    rng = random.Random(args.seed)
    sources = [make_source(rng, index, args.posts, folder) for index in range(args.syncers)]
    # Expected results from poststore itself: sync each source into a new scratch store and read it back.
    for source in sources:
        scratch = folder / f"expected-{source.index}.sqlite"
        status, _, err, _ = Children.run(
            [str(poststore), "sync", "--from", str(source.path), "--store", f"sqlite:{scratch}", "--quiet"]
        )
        status2, out, err2, _ = Children.run([str(poststore), "query", "--format", "ndjson", "--store", f"sqlite:{scratch}"])
        for file in folder.glob(f"{scratch.name}*"):
            file.unlink()
        if status or status2:
            raise SetupError(f"preparing source-{source.index}: {err or err2}")
        if [json.loads(line) for line in ndjson_lines(out)] != sorted(source.posts, key=lambda p: p["id"]):
            raise SetupError(f"poststore's output for source-{source.index} is not its posts")
        source.digest = digest(out)
    return sources


def soak_engine(engine, args, poststore, workdir, sources, postgres):
    folder = workdir / engine
    folder.mkdir(parents=True, exist_ok=True)
    if engine == "postgres":
        schema = postgres.schema()  # a schema no one has made yet: the first sync creates it
        spec = postgres.spec(schema)
        print(f"postgres: store {postgres.shown(spec)}", flush=True)
    else:
        store_path = folder / ("store.sqlite" if engine == "sqlite" else "store.json")
        spec = f"{engine}:{store_path}"
    soak = Soak(engine, poststore, spec, sources, folder)
    status, _, err, _ = Children.run(soak.command("sync", "--from", str(sources[0].path), "--quiet"))
    if status != 0:
        raise SetupError(f"{engine}: the first sync failed: {err}")

    started = time.monotonic()
    soak.deadline = started + args.seconds
    threads = [threading.Thread(target=soak.syncer, args=(source,), daemon=True) for source in sources]
    threads += [
        threading.Thread(target=soak.reader, args=(random.Random(f"{args.seed}-{engine}-reader-{n}"),), daemon=True)
        for n in range(args.readers)
    ]
    for thread in threads:
        thread.start()
    try:
        while any(thread.is_alive() for thread in threads):
            time.sleep(0.2)
    except KeyboardInterrupt:
        soak.stop.set()
        Children.kill_all()
        raise
    elapsed = time.monotonic() - started

    final = soak.check_final_state()
    if engine == "postgres":
        # No integrity_check, no temporary files: the schema holds what info describes, and nothing else.
        problem = postgres.store_problem(schema, soak.final_info) if soak.final_info else None
        if problem:
            soak.fail("final", problem)
    elif engine == "sqlite":
        result = subprocess.run(["sqlite3", str(store_path), "PRAGMA integrity_check"], capture_output=True, text=True)
        if (result.stdout + result.stderr).strip() != "ok":
            soak.fail("final", f"integrity_check: {(result.stdout + result.stderr).strip()[:300]}")
    else:
        left = [entry for entry in os.listdir(folder) if entry.startswith(f".{store_path.name}.tmp-")]
        if left:
            soak.fail("final", f"{len(left)} temporary files left in {folder}: {left[:3]}")
    return soak, elapsed, final


# --------------------------------------------------------------------------------------------------------------------
# Report


def print_summary(results, args):
    print()
    print(
        f"concurrency-soak: {args.syncers} syncers + {args.readers} readers, {args.posts}+k posts per source, "
        f"{args.seconds} s per engine, seed {args.seed}"
    )
    rows = []
    for soak, elapsed, final in results:
        for kind in ("sync", "query", "count", "search", "info"):
            durations = [r.ended - r.started for r in soak.records if r.kind == kind]
            ok = sum(1 for r in soak.records if r.kind == kind and r.status == 0)
            rows.append([
                soak.engine, kind, ok, f"{len(durations) / elapsed:.1f}", f"{percentile(durations, 0.5):.3f}",
                f"{percentile(durations, 0.99):.3f}", f"{max(durations, default=0):.3f}",
            ])
    print_table(["engine", "command", "ok", "per s", "p50 s", "p99 s", "max s"], rows)
    print()
    summary = []
    for soak, elapsed, final in results:
        syncs = sum(1 for r in soak.records if r.kind == "sync" and r.status == 0)
        reads = sum(1 for r in soak.records if r.kind != "sync" and r.status == 0)
        per_source = [sum(1 for r in soak.records if r.kind == "sync" and r.status == 0 and r.source == s.index)
                      for s in soak.sources]
        summary.append([
            soak.engine, args.syncers + args.readers, f"{elapsed:.0f}", syncs, "/".join(map(str, per_source)), reads,
            "-" if final is None else f"source-{final}", soak.count("exit"), soak.count("mixed"), soak.count("info"),
            soak.count("final"), len(soak.failures),
        ])
    print_table(
        ["engine", "processes", "seconds", "syncs", "syncs per source", "reads", "final store", "exit!=0", "mixed",
         "info mismatch", "final bad", "failures"],
        summary,
    )
    print_failures(
        [f"{soak.engine} [{category}]: {message}" for soak, _, _ in results for category, message in soak.failures],
        most=40,
    )


# --------------------------------------------------------------------------------------------------------------------


def parse_arguments():
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog="CI smoke size (about 45 s): scripts/reliability/concurrency-soak.py --seconds 20 --posts 1000. "
        "PostgreSQL on a throwaway cluster: scripts/reliability/concurrency-soak.py --engines postgres; on a server of "
        "yours (new schemas soak_<pid>_<time>*, dropped at the end): --postgres postgres://USER@HOST:PORT/DB.",
    )
    parser.add_argument("--seconds", type=float, default=60, help="how long the loops run, per engine (default 60)")
    parser.add_argument("--syncers", type=int, default=4, help="sync loops, one source each (default 4)")
    parser.add_argument("--readers", type=int, default=4, help="query/info loops (default 4)")
    parser.add_argument("--posts", type=int, default=2000, help="posts per source, plus k for source k (default 2000)")
    parser.add_argument("--seed", type=int, default=1, help="seed for the data and the readers' choices (default 1)")
    parser.add_argument(
        "--first-sync-rounds", type=int, default=20,
        help="rounds of --syncers first syncs racing on a missing store, per engine (default 20)",
    )
    parser.add_argument(
        "--postgres", metavar="URL",
        help="the PostgreSQL server of the postgres engine, postgres://USER@HOST:PORT/DB without ?schema= (default: "
        "a throwaway cluster from scripts/postgres.sh); given, the engines default to sqlite,json,postgres",
    )
    add_soak_arguments(parser, ENGINES, "sqlite,json; with --postgres, sqlite,json,postgres")
    args = parser.parse_args()
    parse_engines(parser, args, ENGINES, "sqlite,json,postgres" if args.postgres else "sqlite,json")
    if args.postgres is not None:
        check_postgres_url(parser, args.postgres)
        if "postgres" not in args.engines:
            parser.error("--postgres is the postgres engine's server, but --engines does not name postgres")
    if args.syncers < 2 or args.readers < 0 or args.posts < 4 or args.seconds <= 0 or args.first_sync_rounds < 0:
        parser.error("need --syncers >= 2, --readers >= 0, --posts >= 4, --seconds > 0, --first-sync-rounds >= 0")
    return args


def main():
    args = parse_arguments()

    def soak(workdir):
        poststore = find_poststore(args.poststore)
        sources = prepare_sources(args, poststore, workdir)
        print(f"concurrency-soak: {poststore}, work folder {workdir}", flush=True)
        postgres = None
        keep_schemas = True  # unless the run passes or is interrupted: a failure's schemas are kept for inspection
        try:
            if "postgres" in args.engines:
                postgres = Postgres.open(args.postgres, "concurrency-soak")
                where = "a throwaway cluster" if postgres.own else "the server"
                print(f"postgres: {where} at {postgres.shown()}, schemas {postgres.prefix}*", flush=True)
            results = []
            races = []
            for engine in args.engines:
                soak, elapsed, final = soak_engine(engine, args, poststore, workdir, sources, postgres)
                print(f"{engine}: {len(soak.records)} commands in {elapsed:.0f} s, {len(soak.failures)} failures",
                      flush=True)
                results.append((soak, elapsed, final))
                race = race_first_syncs(engine, args, poststore, workdir, sources, postgres)
                print(f"{engine}: {race.rounds} first-sync rounds, {len(race.failures)} failures", flush=True)
                races.append((engine, race))
            print_summary(results, args)
            print_race_summary(races)
            failed = any(soak.failures for soak, _, _ in results) or any(race.failures for _, race in races)
            keep_schemas = failed or args.keep
            return failed
        except KeyboardInterrupt:
            keep_schemas = args.keep
            raise
        finally:
            if postgres is not None:
                # No sync may still hold a lock on a schema to drop, nor run on the cluster being stopped.
                Children.kill_all()
                postgres.finish(workdir, keep_schemas)

    # SIGTERM ends the run as Ctrl-C does: the children killed, the throwaway cluster stopped.
    interrupt_on_sigterm()
    return run_soak("concurrency-soak", args, "sqlite" in args.engines, soak, Children.kill_all)


if __name__ == "__main__":
    sys.exit(main())
