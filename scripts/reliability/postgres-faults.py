#!/usr/bin/env python3
"""Fault soak for the PostgreSQL engine: a real `poststore` against a real throwaway server that is killed,
disconnected, frozen and refused, checking every time that a write is whole or absent and that the user is told.

The script starts its own cluster with `scripts/postgres.sh start` and stops it (deleting it) at the end, also
after a failure, Ctrl-C or SIGTERM (frozen server processes get SIGCONT first); the server's log is copied into
the work folder first. It writes two sources, OLD and NEW (NEW drops ~5% of OLD's posts, changes the title or body
of about half of the rest and adds ~5%, so a pruning sync between them inserts, updates and deletes), and syncs
each once into a reference schema: the md5 of every post (`id:user_id:hex(title):hex(body)` in id order, read with
psql) must equal the one computed from the source file, and a store "equals OLD" when its posts have that digest
and its latest sync_state row names OLD's file with OLD's post count (so a commit of the posts without the sync
state, or the reverse, is caught). Every fault has a store (schema) of its own, seeded with OLD and synced to NEW
once to time a full sync (the median of the latest five completed syncs sets the window the faults land in).

Each round runs `poststore sync --from SOURCE --store URL --prune --force --quiet` from the state the store is in
to the other one (OLD -> NEW, then NEW -> OLD, ...), so every sync changes the store. The store URLs carry a
password (the trusted role ignores it) that must never appear in anything poststore prints. Faults, `--rounds`
each:

  kill       SIGKILL the postmaster and all its children (the backends) after a random delay within a sync's
             usual duration, then start the server again at once (pg_ctl start with postgres.sh's options; crash
             recovery). The sync retries a lost connection up to 5 times (0.25 s, doubling: 3.75 s in all), so it
             may ride across the restart, or give up.
  terminate  pg_terminate_backend() on the sync's backend(s) (pg_stat_activity: application_name 'poststore',
             active or idle in transaction; polled through one open psql) after a random delay: the sync must
             retry and exit 0. A non-zero exit that leaves the old state is acceptable but counted apart.
  terminate-read  the same for a read: `query --format ndjson` whose backend is terminated while it streams the
             posts (`SELECT id, ...`) must retry and print exactly the store's posts (or fail with one line), never
             a partial or mixed list. (postgres-nio 1.33.2 traps when a connection closes while a result streams
             through its back-pressured sequence; a read of every post takes its rows as they arrive instead.)
  stop       a server that stops answering: (a) with the postmaster and all backends SIGSTOPped, `query --count`
             and `sync` with `statement_timeout=2s&connect_timeout=2` must fail within a bound (5 connection
             attempts of the connect timeout, plus the 3.75 s of backoff between them, plus 10 s of slack); (b) a
             sync (statement timeout 1.5 x the longest full sync seen, at least 5 s, so that no statement of a
             healthy sync meets it) is frozen mid-way: it must end within statement timeout + 5 s (the client's
             watchdog), plus 10 s, of the SIGSTOP — or 60 s more when its pooled connection was not there yet (no
             backend of the sync, or the sync ends saying no connection could be made: the freeze came between its
             first connection, whose schema check may be caught mid-statement, and its pooled one), as postgres-nio's
             pool tries to connect until its circuit breaker trips, after 60 s. Then SIGCONT.
  kill-copy, terminate-copy  kill and terminate aimed at the sync's `COPY … FROM STDIN` (its backend active in
             `COPY`): after a random delay of up to 0.4 s from when the copy is first seen. postgres-nio 1.33.2 traps
             or hangs when a copy's connection closes; the store's copy must fail and retry like any statement. Not
             in the default set (they need a sync whose copy lasts: 100,000 posts or so).
  password   the role `poststore_password` (postgres.sh makes it log in with a password) with a wrong password in
             the URL (`info` and `sync`), a wrong PGPASSWORD, and no password at all: exit 77, and neither the wrong
             nor the right password in the output. Before the rounds, the right password (in the URL, and in
             PGPASSWORD) must work; after them the store still holds what the right password's sync wrote.

Checks after every sync: exit 0 means the store equals the target exactly (and nothing on standard error); a
non-zero exit means exactly one line `poststore: ...` on standard error, nothing on standard output, exit 69 for the
server faults (77 for the password ones), and the store exactly as before -- or exactly the target when the line
says the write "may or may not have been saved" (a connection lost during COMMIT). Never anything in between. A
crash (a signal such as SIGILL from a failed precondition) is a failure, reported with its `Fatal error` line.
Before reading the store the script waits until no backend of the ended poststore is left (one still running a
COMMIT sent before its client gave up could otherwise change the store after the check). A sync that does not end
within three full syncs + 3.75 s + 60 s (a frozen-server command: its bound + 60 s) is hung: the script notes how
many sockets it still has open and what poststore's backends are doing, kills it, and counts a failure. After every
round `poststore info --format json` must work and agree with psql on the post count and the latest sync's source,
and no poststore output may contain a password.

Each outcome names what the sync's backends were doing when the fault came (from pg_stat_activity: `INSERT
INTO`, `SELECT count` -- the prune count --, `UPDATE ...`, `idle in transaction after CREATE`, ...). Prints a
table per fault (rounds, failures, seconds from the fault to the exit: p50 and max, and the bound), the outcomes
counted per fault, and the distinct messages poststore printed. Exits 1 if any check failed (the work folder is
kept, with the server log), 2 on a setup error, 130 on Ctrl-C or SIGTERM. The data and the delays are
deterministic for a given --seed; the timing is not. Standard library only; needs PostgreSQL's server binaries
(postgres.sh finds them) and psql next to them; run as root, the server runs as `postgres` (as postgres.sh does).

--posts (default 10000) sets how long a sync lasts, and the delays follow the measured duration, whatever it is.
(Builds before 89fe13e counted a prune's victims once per stored post: a sync took about 3 s at 10000 posts, 22 s
at 20000, and met the 300 s statement timeout at 100000.)
"""

import argparse
import hashlib
import json
import os
import random
import re
import shutil
import signal
import statistics
import subprocess
import sys
import time
from collections import Counter, deque
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "lib"))  # scripts/lib: script_support
from script_support import (
    CurrentChild,
    SetupError,
    describe_status,
    find_poststore,
    make_sources,
    postgres_bin_folders,
    print_failures,
    print_table,
    run_soak,
    start_cluster,
    stop_cluster,
)

NAME = "postgres-faults"
FAULTS = ("kill", "terminate", "terminate-read", "stop", "password", "kill-copy", "terminate-copy")
# The faults run when --faults is not given.
DEFAULT_FAULTS = FAULTS[:5]
# Exit codes the error table documents (Sources/PostStore/PostStore.docc/Errors.md; a busy store is 74, and 77,
# access denied, is the PostgreSQL engine's).
DOCUMENTED_CODES = {1, 64, 65, 66, 69, 74, 77}
UNAVAILABLE = 69
ACCESS_DENIED = 77
MAYBE_SAVED = "may or may not have been saved"
RETRY_BACKOFF = 0.25 + 0.5 + 1 + 2  # seconds the engine waits between its 5 attempts
ATTEMPTS = 5
SLACK = 10.0  # seconds allowed on top of a computed bound (a loaded machine)
HANG = 60.0  # seconds past its bound after which a command counts as hung and is killed
# A server frozen after the sync's first connection (its schema check) and before its pooled one: postgres-nio's pool
# keeps trying to connect until its circuit breaker trips, after 60 s (not configurable through PostgresClient).
POOL_CIRCUIT_BREAKER = 60.0
PASSWORD_ROLE = "poststore_password"
PASSWORD = "poststore-test-password"  # postgres.sh gives the role this password


# --------------------------------------------------------------------------------------------------------------------
# Child processes


@dataclass
class Ended:
    """How a poststore command ended."""

    argv: list
    status: int
    out: bytes
    err: bytes
    seconds: float  # from its start
    ended_at: float  # time.monotonic()
    limit: float  # how long it was given
    hung: str = ""  # when it did not end in time (and was killed): what it was doing

    @property
    def text(self):
        return (self.out + self.err).decode(errors="replace")

    @property
    def line(self):
        return self.err.decode(errors="replace").strip()


def finish(process, argv, started, limit, diagnose=None):
    """Waits for a started command, at most `limit` seconds from now; then it is hung: `diagnose(process)` says what
    it was doing, and it is killed."""
    hung = ""
    try:
        out, err = process.communicate(timeout=limit)
    except subprocess.TimeoutExpired:
        hung = diagnose(process) if diagnose else "hung"
        process.kill()
        out, err = process.communicate()
    CurrentChild.current = None
    ended_at = time.monotonic()
    return Ended(argv, process.returncode, out or b"", err, ended_at - started, ended_at, limit, hung)


def wait_briefly(process, seconds):
    """Whether the process ended within `seconds` (its output stays in the pipes for `finish`)."""
    try:
        process.wait(timeout=max(0.0, seconds))
        return True
    except subprocess.TimeoutExpired:
        return False


# --------------------------------------------------------------------------------------------------------------------
# The throwaway cluster


def server_bin():
    """The folder of pg_ctl and psql, found as postgres.sh finds it."""
    for folder in postgres_bin_folders():
        if all(os.access(folder / tool, os.X_OK) for tool in ("initdb", "pg_ctl", "psql")):
            return folder
    raise SetupError("no PostgreSQL server binaries (initdb, pg_ctl, psql) found; install e.g. postgresql")


def process_alive(pid):
    """Whether the process exists and is not a zombie."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rpartition(")")[2].split()[0] != "Z"
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return False


def stop_and_wait(pid):
    """SIGSTOP, and wait until the process is stopped: the signal takes effect when the process next leaves the
    kernel, so a postmaster in the middle of a fork finishes it first, and its children are listed after that."""
    os.kill(pid, signal.SIGSTOP)
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            with open(f"/proc/{pid}/stat") as stat:
                if stat.read().rpartition(")")[2].split()[0] in ("T", "t", "Z"):
                    return
        except (FileNotFoundError, ProcessLookupError):
            return
        time.sleep(0.001)


def children_of(pid):
    """The pids of a process's children, from /proc."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read().rpartition(")")[2].split()
        except (FileNotFoundError, ProcessLookupError):
            continue
        if len(fields) > 1 and fields[1] == str(pid):
            found.append(int(entry))
    return found


def signal_pids(pids, number):
    for pid in pids:
        try:
            os.kill(pid, number)
        except ProcessLookupError:
            pass


# What a backend of pg_stat_activity is doing, in a few words: an active one's statement's first two words (INSERT
# INTO, SELECT count, UPDATE "schema".posts), else its state and its last statement's first word.
DOING = (
    "CASE WHEN state = 'active' THEN left(array_to_string((regexp_split_to_array(btrim(query, E' \\n\\t'), "
    "'[\\s(,]+'))[1:2], ' '), 40) ELSE state || ' after ' || split_part(btrim(query, E' \\n\\t'), ' ', 1) END"
)


# Terminates the backends of poststore that meet a condition (added after it); answers how many, and what they
# were doing.
TERMINATE = (
    f"SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)), coalesce(string_agg(DISTINCT {DOING}, ', '), '') "
    "FROM pg_stat_activity WHERE application_name = 'poststore' AND pid <> pg_backend_pid()"
)
BUSY = "state IN ('active', 'idle in transaction')"
# A backend of a sync while it copies the posts in (`COPY … FROM STDIN`).
COPYING = "state = 'active' AND query LIKE 'COPY %'"
# How long after a sync's COPY is first seen a -copy fault lands: up to the copy's usual length at 100,000 posts.
COPY_WINDOW = 0.4
# The backend of a read, once it ran the statement that reads the posts (active, or idle with the rows sent).
READING = "query LIKE 'SELECT id, user_id, title, body FROM %'"


class PsqlFailed(Exception):
    """psql could not run a statement (the message is its error)."""


class PsqlSession:
    """One psql reading statements from a pipe: a new psql per statement takes tens of milliseconds, too slow to
    catch a statement that lasts a tenth of a second."""

    MARK = "--postgres-faults-done--"

    def __init__(self, argv, environment):
        self.process = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=environment,
            start_new_session=True,
        )

    def sql(self, statement):
        self.process.stdin.write(f"{statement.rstrip().rstrip(';')};\n\\echo {self.MARK}\n")
        self.process.stdin.flush()
        lines = []
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise PsqlFailed(f"psql ended: {' '.join(lines)[:300]}")
            if line.rstrip("\n") == self.MARK:
                break
            # A backend that ended between pg_stat_activity and pg_terminate_backend is a warning, not a result.
            if line.startswith(("WARNING:", "NOTICE:")):
                continue
            lines.append(line.rstrip("\n"))
        if any("ERROR:" in line or "FATAL:" in line for line in lines):
            raise PsqlFailed(" ".join(lines)[:300])
        return "\n".join(lines).strip()

    def close(self):
        try:
            self.process.stdin.close()
            self.process.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            self.process.kill()
            self.process.wait()


class Cluster:
    """The throwaway cluster: postgres.sh starts and stops it; this class kills, restarts, freezes and thaws it."""

    def __init__(self):
        self.bin = server_bin()
        self.url = None  # postgres://poststore@127.0.0.1:PORT/postgres
        self.port = None
        self.folder = None  # the cluster folder: data/, server.log, the Unix socket
        self.frozen = []  # pids SIGSTOPped by `freeze`, SIGCONTed by `thaw`
        self.owner = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []

    def start(self):
        if not self._found(start_cluster()):
            raise SetupError("scripts/postgres.sh start printed a URL this script does not know")

    def _found(self, out):
        """Takes the URL postgres.sh printed, and finds the cluster folder it names (by port, with the marker)."""
        match = re.fullmatch(r"postgres://poststore@127\.0\.0\.1:(\d+)/postgres", (out or "").strip())
        if not match:
            return False
        self.url, self.port = match.group(0), int(match.group(1))
        tmp = Path(os.environ.get("TMPDIR") or "/tmp")
        folders = [
            folder for folder in tmp.glob(f"poststore-postgres-{self.port}-*")
            if (folder / "data" / "poststore-folder").is_file()
            and (folder / "data" / "poststore-folder").read_text().strip() == str(folder)
        ]
        if folders:
            self.folder = max(folders, key=lambda folder: folder.stat().st_mtime)
        return True

    @property
    def data(self):
        return self.folder / "data"

    @property
    def log(self):
        return self.folder / "server.log"

    def postmaster(self):
        """The postmaster's pid (postmaster.pid's first line) when it runs, else None."""
        try:
            pid = int((self.data / "postmaster.pid").read_text().split("\n")[0])
        except (OSError, ValueError):
            return None
        return pid if process_alive(pid) else None

    def processes(self):
        """The postmaster and its children (it stopped first, so that it forks no new one meanwhile)."""
        pid = self.postmaster()
        if pid is None:
            return []
        return [pid] + children_of(pid)

    def kill(self):
        """SIGKILL to the postmaster and every child of it; returns when all are gone."""
        pid = self.postmaster()
        if pid is None:
            raise SetupError("the server is not running, nothing to kill")
        stop_and_wait(pid)  # no new backend between the listing and the kill
        everyone = [pid] + children_of(pid)
        signal_pids(everyone, signal.SIGKILL)
        # Gone means reaped, not a zombie: the new postmaster refuses to start while the old pid still answers.
        deadline = time.monotonic() + 60
        while any(os.path.exists(f"/proc/{p}") for p in everyone):
            if time.monotonic() > deadline:
                left = [p for p in everyone if os.path.exists(f"/proc/{p}")]
                raise SetupError(f"server processes not gone (or not reaped) 60 s after SIGKILL: {left}")
            time.sleep(0.01)
        return len(everyone)

    def restart(self):
        """pg_ctl start with postgres.sh's options (crash recovery after a kill); returns its seconds."""
        started = time.monotonic()
        argv = self.owner + [
            str(self.bin / "pg_ctl"), "-D", str(self.data), "-l", str(self.log), "-w", "-t", "300",
            "-o", f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1", "start",
        ]
        result = subprocess.run(argv, capture_output=True, text=True, start_new_session=True)
        if result.returncode != 0:
            raise SetupError(f"pg_ctl start failed: {result.stderr.strip()} {self.log_tail()}")
        return time.monotonic() - started

    def freeze(self):
        """SIGSTOP to the postmaster, then to each of its children."""
        pid = self.postmaster()
        if pid is None:
            raise SetupError("the server is not running, nothing to stop")
        stop_and_wait(pid)
        self.frozen = [pid] + children_of(pid)
        signal_pids(self.frozen[1:], signal.SIGSTOP)

    def thaw(self):
        """SIGCONT to every process `freeze` stopped, and to whatever belongs to the server now."""
        signal_pids(self.frozen + self.processes(), signal.SIGCONT)
        self.frozen = []

    def log_tail(self, lines=5):
        try:
            return " | ".join(self.log.read_text(errors="replace").strip().split("\n")[-lines:])
        except OSError:
            return ""

    def psql(self, *arguments):
        """psql's command line and environment (application_name postgres-faults, no PG* variables of ours)."""
        environment = {k: v for k, v in os.environ.items() if not k.startswith("PG")}
        environment.update(PGAPPNAME=NAME, PGCONNECT_TIMEOUT="10")
        argv = [
            str(self.bin / "psql"), "-X", "-q", "-A", "-t", "-h", "127.0.0.1", "-p", str(self.port), "-U", "poststore",
            "-d", "postgres", *arguments,
        ]
        return argv, environment

    def session(self):
        """A psql kept open, for a statement polled many times a second."""
        return PsqlSession(*self.psql())

    def sql(self, statement, timeout=300):
        """Runs a statement through psql; returns its output, stripped."""
        argv, environment = self.psql("-v", "ON_ERROR_STOP=1", "-c", statement)
        try:
            result = subprocess.run(argv, capture_output=True, text=True, env=environment, timeout=timeout)
        except subprocess.TimeoutExpired:
            raise PsqlFailed(f"psql took more than {timeout} s") from None
        if result.returncode != 0:
            raise PsqlFailed(f"{describe_status(result.returncode)}: {' '.join(result.stderr.split())[:300]}")
        return result.stdout.strip()

    def activity(self):
        """What poststore's backends are doing, in a few words: the first two words of the statement of an active
        one, `idle in transaction` (or another state) with the last statement's first word otherwise."""
        rows = self.sql(
            f"SELECT {DOING} FROM pg_stat_activity WHERE application_name = 'poststore' AND pid <> pg_backend_pid()"
        )
        return ", ".join(sorted(set(rows.split("\n")))) if rows else "no backend"

    def poststore_backends(self):
        """How many backends of poststore (application_name 'poststore') the server has."""
        return int(self.sql("SELECT count(*) FROM pg_stat_activity WHERE application_name = 'poststore'"))

    def shutdown(self, workdir):
        """Thaws the server, copies its log into the work folder, and stops and deletes the cluster (postgres.sh
        stop). Complains, but goes on, when something fails."""
        try:
            self.thaw()
        except OSError as error:
            print(f"{NAME}: SIGCONT to the server: {error}", file=sys.stderr)
        if self.folder is not None:
            try:
                shutil.copy2(self.log, workdir / "server.log")
            except OSError as error:
                print(f"{NAME}: copying the server log: {error}", file=sys.stderr)
        # By folder: a URL names a port, and stale folders of an earlier cluster on the same port may be there.
        target = self.folder if self.folder is not None else self.url
        if target is not None:
            stop_cluster(target, NAME)


# --------------------------------------------------------------------------------------------------------------------
# Data


def posts_digest(posts):
    """The digest `read_state` reads from a store holding exactly these posts."""
    rows = sorted(posts, key=lambda post: post["id"])
    text = ",".join(
        f"{p['id']}:{p['userId']}:{p['title'].encode().hex()}:{p['body'].encode().hex()}" for p in rows
    )
    return hashlib.md5(text.encode()).hexdigest() if rows else ""


@dataclass(frozen=True)
class State:
    """A store's contents as psql reads them: the posts, and the latest sync's source and fetched count."""

    count: int
    digest: str
    source: str
    fetched: int


def read_state(cluster, schema):
    """The State of a store (schema), read with psql (titles, bodies and sources are text; their UTF-8 bytes in hex
    keep the digest free of separators)."""
    def hex_of(column):
        return f"encode(convert_to({column}, 'UTF8'), 'hex')"
    row = cluster.sql(
        f'SELECT (SELECT count(*) FROM "{schema}".posts), '
        f"(SELECT coalesce(md5(string_agg(id || ':' || user_id || ':' || {hex_of('title')} || ':' || "
        f"{hex_of('body')}, ',' ORDER BY id)), '') FROM \"{schema}\".posts), "
        f'(SELECT {hex_of("source")} || \':\' || fetched FROM "{schema}".sync_state '
        "ORDER BY synced_at_ms DESC, source LIMIT 1)"
    )
    count, digest, latest = row.split("|")
    source, _, fetched = latest.rpartition(":")
    return State(int(count), digest, bytes.fromhex(source).decode(errors="replace"), int(fetched or -1))


# --------------------------------------------------------------------------------------------------------------------
# The soak


@dataclass
class Tally:
    """One row of the summary: a fault (or a part of one) and what its rounds came to."""

    name: str
    schema: str  # the store's schema
    bound: str = "-"  # the bound on `exit_seconds`, as shown
    rounds: int = 0
    outcomes: Counter = field(default_factory=Counter)
    messages: Counter = field(default_factory=Counter)  # (command, exit status, line, port elided) -> count
    failures: list = field(default_factory=list)
    exit_seconds: list = field(default_factory=list)  # from the fault to the command's exit
    seconds: float = 0.0


class Soak:
    """The run: the expected states, the timing of a full sync, and one method per fault."""

    def __init__(self, args, poststore, cluster, workdir):
        self.args = args
        self.poststore = poststore
        self.cluster = cluster
        self.workdir = workdir
        self.rng = random.Random(args.seed)
        # The trusted role ignores a password, so every store URL carries one, which must never be printed.
        self.url_password = f"faults-secret-{self.rng.randrange(10 ** 9)}"
        self.secrets = {PASSWORD, self.url_password}
        self.recent = deque(maxlen=5)  # the latest completed full syncs' seconds
        self.sync_seconds = []  # every completed full sync's seconds
        self.tallies = []
        self.environment = {
            k: v for k, v in os.environ.items() if not k.startswith("PG") and k != "POSTSTORE_STORE"
        }

    # ---- URLs and commands

    def store_url(self, schema, **parameters):
        query = "&".join([f"schema={schema}"] + [f"{key}={value}" for key, value in parameters.items()])
        return f"postgres://poststore:{self.url_password}@127.0.0.1:{self.cluster.port}/postgres?{query}"

    def sync_argv(self, source, url):
        return [str(self.poststore), "sync", "--from", str(source), "--store", url, "--prune", "--force", "--quiet"]

    def start(self, argv, env=None, stdout=subprocess.PIPE):
        process = CurrentChild.start(argv, env=env or self.environment, stdout=stdout, stderr=subprocess.PIPE)
        return process, time.monotonic()

    def run(self, argv, limit, env=None):
        process, started = self.start(argv, env)
        return self.finish(process, argv, started, limit)

    def finish(self, process, argv, started, limit):
        """`finish` with a hung command's diagnosis: its open sockets, and what poststore's backends are doing."""
        def diagnose(process):
            try:
                sockets = sum(
                    os.readlink(f"/proc/{process.pid}/fd/{fd}").startswith("socket:")
                    for fd in os.listdir(f"/proc/{process.pid}/fd")
                )
            except OSError:
                sockets = "?"
            try:
                doing = self.cluster.activity()
            except PsqlFailed as error:
                doing = f"psql failed: {error}"
            return f"{sockets} sockets open; poststore's backends: {doing}"
        return finish(process, argv, started, limit, diagnose)

    def full_sync(self, source, url, tally, label):
        """A sync that must complete (exit 0); its seconds count towards the fault window."""
        ended = self.run(self.sync_argv(source, url), limit=self.hang_limit())
        self.check_secrets(ended, tally, label)
        if ended.status != 0:
            raise SetupError(f"{label}: a sync without a fault {describe_status(ended.status)}: {ended.line}")
        self.recent.append(ended.seconds)
        self.sync_seconds.append(ended.seconds)
        return ended

    def window(self):
        """The seconds a full sync usually takes: faults land within them."""
        return statistics.median(self.recent)

    def hang_limit(self):
        """How long a sync may take before it counts as hung: three full syncs (a retried sync starts again) and
        the retries' backoff, plus HANG."""
        return 3 * max(self.recent, default=60.0) + RETRY_BACKOFF + HANG

    # ---- checks

    def fail(self, tally, label, message):
        tally.failures.append(f"{label}: {message}")
        print(f"  FAILED {label}: {message}", flush=True)

    def check_secrets(self, ended, tally, label):
        text = ended.text
        for secret in self.secrets:
            if secret in text or quote(secret, safe="") in text:
                self.fail(tally, label, f"the output of {ended.argv[1]} shows a password: {text.strip()[:300]!r}")

    def check_one_line(self, ended, tally, label, expected_code):
        """A failed command: one line `poststore: ...` on standard error, nothing on standard output, the
        expected (documented) exit status."""
        what = f"{ended.argv[1]} {describe_status(ended.status)}"
        if ended.status not in DOCUMENTED_CODES:
            self.fail(tally, label, f"{what}, not a documented exit status: {ended.line!r}")
        elif ended.status != expected_code:
            self.fail(tally, label, f"{what}, expected {expected_code}: {ended.line!r}")
        lines = ended.err.split(b"\n")
        if not (len(lines) == 2 and lines[1] == b"" and lines[0].startswith(b"poststore: ")):
            self.fail(tally, label, f"{what} printed {len(lines) - 1} lines on standard error: {ended.err[:500]!r}")
        if ended.out:
            self.fail(tally, label, f"{what} printed on standard output: {ended.out[:200]!r}")
        shown = ended.line.replace(f":{self.cluster.port}/", ":PORT/")
        tally.messages[(ended.argv[1], describe_status(ended.status), shown)] += 1

    def wait_for_backends(self, tally, label):
        """Waits until no poststore backend is left (a COMMIT received before its client went may still land)."""
        deadline = time.monotonic() + HANG
        while self.cluster.poststore_backends():
            if time.monotonic() > deadline:
                self.fail(tally, label, f"a poststore backend is still there {HANG:.0f} s after poststore ended")
                return
            time.sleep(0.1)

    def judge_sync(self, ended, before, target, tally, label, states, expected_code=UNAVAILABLE):
        """Checks a sync from `before` to `target` (State) that met a fault, and returns (outcome, state name or
        None when the store is neither)."""
        self.check_secrets(ended, tally, label)
        self.wait_for_backends(tally, label)
        state = read_state(self.cluster, tally.schema)
        name = next((n for n, s in states.items() if s == state), None)
        old, new = states_name(states, before), states_name(states, target)
        where = "previous" if state == before else "target" if state == target else "MIXED"
        if ended.hung:
            self.fail(tally, label, f"the sync did not end within {ended.limit:.0f} s (killed; {ended.hung}); "
                      f"the store is {name or describe(state, states)}")
            return f"hung (killed), store = {where}", name
        if ended.status < 0:
            self.fail(tally, label, f"the sync crashed ({describe_status(ended.status)}): {crash_line(ended.err)}; "
                      f"the store is {name or describe(state, states)}")
            return f"crashed ({describe_status(ended.status)}), store = {where}", name
        if ended.status == 0:
            if ended.err:
                self.fail(tally, label, f"a --quiet sync exited 0 but printed on standard error: {ended.err[:300]!r}")
            if state != target:
                self.fail(tally, label, f"the sync exited 0 but the store is {name or describe(state, states)}, "
                          f"not {new}")
            return "exit 0, store = target", name
        self.check_one_line(ended, tally, label, expected_code)
        maybe = MAYBE_SAVED in ended.line
        said = f"exit {ended.status}" + (" 'may or may not have been saved'" if maybe else "")
        if state == before:
            return f"{said}, store = previous", name
        if state == target and maybe:
            return f"{said}, store = target", name
        if state == target:
            self.fail(tally, label, f"the sync failed ({ended.line!r}) but its write was saved: the store is {new}")
        else:
            self.fail(tally, label, f"the sync failed ({ended.line!r}) and the store is neither {old} nor {new}: "
                      f"{describe(state, states)}")
        return f"{said}, store = {name or 'MIXED'}", name

    def check_info(self, url, tally, label):
        """`poststore info` works and agrees with psql on the post count and the latest sync's source."""
        ended = self.run([str(self.poststore), "info", "--store", url, "--format", "json"], limit=60 + HANG)
        self.check_secrets(ended, tally, label)
        if ended.status != 0:
            self.fail(tally, label, f"info {describe_status(ended.status)}: {ended.line}")
            return
        info = json.loads(ended.out)
        state = read_state(self.cluster, tally.schema)
        source = (info.get("lastSync") or {}).get("source")
        if info.get("postCount") != state.count or source != state.source:
            self.fail(tally, label, f"info says {info.get('postCount')} posts, last sync from {source}; psql "
                      f"counts {state.count}, latest sync_state row {state.source}")

    # ---- setup

    def prepare(self, sources, old_posts, new_posts):
        """Reference schemas synced once from OLD and from NEW: the expected states."""
        tally = Tally("setup", "")
        self.states = {}
        for name, posts in (("OLD", old_posts), ("NEW", new_posts)):
            schema = f"reference_{name.lower()}"
            ended = self.run(self.sync_argv(sources[name], self.store_url(schema)), limit=self.hang_limit())
            self.check_secrets(ended, tally, f"setup-{name}")
            if ended.status != 0:
                raise SetupError(
                    f"the first sync of {name} into {schema} {describe_status(ended.status)}: {ended.line}"
                )
            state = read_state(self.cluster, schema)
            want = State(len(posts), posts_digest(posts), str(sources[name]), len(posts))
            if state != want:
                raise SetupError(
                    f"schema {schema}, synced from {name}, reads {state} with psql, not {want}: poststore did "
                    "not store the source's posts byte for byte"
                )
            self.states[name] = state
        if tally.failures:
            raise SetupError("; ".join(tally.failures))

    def new_tally(self, name, schema, bound="-"):
        tally = Tally(name, schema, bound)
        self.tallies.append(tally)
        return tally

    def seed(self, tally, sources, url):
        """Seeds the fault's store with OLD, then times a full OLD -> NEW sync; returns the state name (NEW)."""
        self.full_sync(sources["OLD"], url, tally, f"{tally.name}-seed")
        self.full_sync(sources["NEW"], url, tally, f"{tally.name}-seed")
        state = read_state(self.cluster, tally.schema)
        if state != self.states["NEW"]:
            raise SetupError(f"{tally.name}: a completed sync to NEW left {describe(state, self.states)}")
        print(f"{tally.name}: a full sync takes {self.window():.1f} s (latest: "
              f"{', '.join(f'{s:.1f}' for s in self.recent)})", flush=True)
        return "NEW"

    def after_round(self, tally, name, url, sources, label):
        """The state the next round starts from; a store in neither state (already reported) is synced to OLD."""
        if name is None:
            self.full_sync(sources["OLD"], url, tally, f"{label}-repair")
            name = "OLD"
        self.check_info(url, tally, label)
        return name

    def progress(self, tally, number, outcome, extra):
        print(f"{tally.name}: round {number}/{self.args.rounds}: {outcome} ({extra})", flush=True)

    def record(self, tally, number, outcome, extra):
        """Counts a round and its outcome, and prints it."""
        tally.rounds += 1
        tally.outcomes[outcome] += 1
        self.progress(tally, number, outcome, extra)

    # ---- the faults

    def begin(self, name, sources):
        """A fault's own store (schema `faults_NAME`), seeded: its URL, its tally, when the fault started, and the
        state the store is in."""
        schema = "faults_" + name.replace("-", "_")
        url = self.store_url(schema)
        tally = self.new_tally(name, schema, "-")
        started = time.monotonic()
        return url, tally, started, self.seed(tally, sources, url)

    def fault_kill(self, sources, copy=False):
        """`kill`; with `copy`, `kill-copy`: the delay counts from when the sync's backend is first seen copying, and
        is at most COPY_WINDOW."""
        name = "kill-copy" if copy else "kill"
        url, tally, started, current = self.begin(name, sources)
        for number in range(1, self.args.rounds + 1):
            label = f"{name}-round{number}"
            target = other(current)
            delay = self.rng.uniform(0, COPY_WINDOW if copy else self.window())
            process, begun = self.start(self.sync_argv(sources[target], url))
            extra = f"delay {delay:.2f} s into the COPY" if copy else f"delay {delay:.1f} s"
            if (copy and not self.wait_for(process, COPYING, self.hang_limit())) or wait_briefly(process, delay):
                # It has ended: 10 s to drain its pipes (a timeout of 0 could expire before they are read).
                ended = finish(process, self.sync_argv(sources[target], url), begun, 10)
                kind = "finished before the kill"
            else:
                during = self.cluster.activity()
                killed_at = time.monotonic()
                victims = self.cluster.kill()
                restart = self.cluster.restart()
                ended = self.finish(process, self.sync_argv(sources[target], url), begun, self.hang_limit())
                tally.exit_seconds.append(ended.ended_at - killed_at)
                kind = f"killed during {during}"
                extra += f", {victims} server processes killed, restart {restart:.1f} s, " \
                         f"exit {ended.ended_at - killed_at:.1f} s after the kill"
            outcome, name_reached = self.judge_sync(
                ended, self.states[current], self.states[target], tally, label, self.states
            )
            if kind == "finished before the kill" and ended.status == 0 and not copy:
                self.recent.append(ended.seconds)
                self.sync_seconds.append(ended.seconds)
            self.record(tally, number, f"{kind}: {outcome}", extra)
            current = self.after_round(tally, name_reached, url, sources, label)
        tally.seconds = time.monotonic() - started

    def fault_kill_copy(self, sources):
        self.fault_kill(sources, copy=True)

    def fault_terminate(self, sources, copy=False):
        """`terminate`; with `copy`, `terminate-copy`: only a backend running `COPY` is terminated, the delay
        counting from when it is first seen and at most COPY_WINDOW."""
        name = "terminate-copy" if copy else "terminate"
        url, tally, started, current = self.begin(name, sources)
        for number in range(1, self.args.rounds + 1):
            label = f"{name}-round{number}"
            target = other(current)
            delay = self.rng.uniform(0, COPY_WINDOW if copy else self.window())
            argv = self.sync_argv(sources[target], url)
            process, begun = self.start(argv)
            terminated, terminated_at, during = self.terminate_after(
                process, delay, self.hang_limit(), **({"only": COPYING, "from_sight": True} if copy else {})
            )
            ended = self.finish(process, argv, begun, self.hang_limit())
            if terminated:
                kind = f"terminated {terminated} backend{'s' if terminated > 1 else ''} during {during}"
                tally.exit_seconds.append(ended.ended_at - terminated_at)
                extra = f"delay {delay:.1f} s, exit {ended.ended_at - terminated_at:.1f} s after"
            else:
                kind = during or ("the COPY ended before the terminate" if copy else "finished before the terminate")
                extra = f"delay {delay:.1f} s, sync {ended.seconds:.1f} s"
                if ended.status == 0 and not during and not copy:
                    self.recent.append(ended.seconds)
                    self.sync_seconds.append(ended.seconds)
            outcome, name_reached = self.judge_sync(
                ended, self.states[current], self.states[target], tally, label, self.states
            )
            if terminated and ended.status > 0:
                outcome += " (gave up instead of retrying: acceptable, but see the message)"
            self.record(tally, number, f"{kind}: {outcome}", extra)
            current = self.after_round(tally, name_reached, url, sources, label)
        tally.seconds = time.monotonic() - started

    def fault_terminate_copy(self, sources):
        self.fault_terminate(sources, copy=True)

    def wait_for(self, process, only, limit):
        """Polls until a backend of poststore meets `only`; False if the process ends first or `limit` seconds
        pass."""
        session = self.cluster.session()
        seen = f"SELECT count(*) FROM pg_stat_activity WHERE application_name = 'poststore' AND {only}"
        deadline = time.monotonic() + limit
        try:
            while process.poll() is None and time.monotonic() < deadline:
                if session.sql(seen) != "0":
                    return True
                time.sleep(0.002)
            return False
        finally:
            session.close()

    def fault_terminate_read(self, sources):
        url, tally, started, current = self.begin("terminate-read", sources)
        expected = self.expected_ndjson(tally)
        for number in range(1, self.args.rounds + 1):
            self.terminate_read(tally, url, expected, current, number)
        tally.seconds = time.monotonic() - started

    def terminate_after(self, process, delay, limit, only=BUSY, from_sight=False):
        """After `delay` seconds, polls until a backend of poststore meets `only` (an SQL condition on
        pg_stat_activity: busy, by default) and terminates it, unless the process ends first or `limit` seconds
        pass; returns (backends terminated, when, what they were doing). With `from_sight`, `delay` counts from
        when such a backend appears."""
        session = self.cluster.session()
        condition = f" AND {only}"
        try:
            if from_sight:
                seen = f"SELECT count(*) FROM pg_stat_activity WHERE application_name = 'poststore' {condition}"
                while process.poll() is None and session.sql(seen) == "0":
                    time.sleep(0.002)
            if wait_briefly(process, delay):
                return 0, None, ""
            deadline = time.monotonic() + limit
            while process.poll() is None and time.monotonic() < deadline:
                count, during = session.sql(TERMINATE + condition).split("|")
                if int(count):
                    return int(count), time.monotonic(), during
                time.sleep(0.005)
            return 0, None, "" if process.poll() is not None else f"no busy backend within {limit:.0f} s"
        finally:
            session.close()

    def expected_ndjson(self, tally):
        """`query --format ndjson` of the reference schemas, and how long the reads took (the window of a read)."""
        expected = {}
        self.read_seconds = []
        for name in ("OLD", "NEW"):
            ended = self.run(
                [str(self.poststore), "query", "--store", self.store_url(f"reference_{name.lower()}"), "--format",
                 "ndjson"], limit=60 + HANG,
            )
            self.check_secrets(ended, tally, f"reference-{name}")
            lines = ended.out.count(b"\n")
            if ended.status != 0 or lines != self.states[name].count:
                raise SetupError(f"query of reference_{name.lower()}: {describe_status(ended.status)}, {lines} "
                                 f"lines for {self.states[name].count} posts: {ended.line[:300]}")
            expected[name] = ended.out
            self.read_seconds.append(ended.seconds)
        return expected

    def terminate_read(self, tally, url, expected, current, number):
        """A `query --format ndjson` whose backend is terminated mid-read: it must retry and print the store's
        posts complete (or fail with one line), never print a partial or mixed list, never crash."""
        label = f"terminate-read{number}"
        # From when the statement that reads the posts appears (not the first connection's schema check): at once
        # (the backend still sending rows) or after a random delay (the server may have sent them all, its backend
        # idle, while poststore still reads them from the socket).
        delay = self.rng.choice([0, self.rng.uniform(0, statistics.median(self.read_seconds) / 4)])
        argv = [str(self.poststore), "query", "--store", url, "--format", "ndjson"]
        # Standard output into a file, not a pipe: nobody reads a pipe while the backend is polled for.
        with open(self.workdir / "read.ndjson", "wb") as out:
            process, begun = self.start(argv, stdout=out)
            terminated, terminated_at, during = self.terminate_after(
                process, delay, 60 + HANG, only=READING, from_sight=True
            )
            ended = self.finish(process, argv, begun, 60 + HANG)
        ended.out = (self.workdir / "read.ndjson").read_bytes()
        self.check_secrets(ended, tally, label)
        kind = f"terminated during {during}" if terminated else (during or "finished before the terminate")
        if terminated:
            tally.exit_seconds.append(ended.ended_at - terminated_at)
        if ended.hung:
            self.fail(tally, label, f"query did not end within {ended.limit:.0f} s (killed; {ended.hung})")
            outcome = "hung"
        elif ended.status < 0:
            self.fail(tally, label, f"query crashed ({describe_status(ended.status)}): {crash_line(ended.err)}")
            outcome = f"crashed ({describe_status(ended.status)})"
        elif ended.status == 0:
            outcome = "exit 0, all posts"
            if ended.out != expected[current]:
                outcome = "exit 0, WRONG posts"
                lines = ended.out.count(b"\n")
                self.fail(tally, label, f"query exited 0 but printed {lines} lines, not the "
                          f"{self.states[current].count} posts of {current} (or in another order or form)")
            if ended.err:
                self.fail(tally, label, f"query exited 0 but printed on standard error: {ended.err[:300]!r}")
        else:
            self.check_one_line(ended, tally, label, UNAVAILABLE)
            outcome = f"exit {ended.status} (gave up instead of retrying: acceptable, but see the message)"
        self.record(tally, number, f"{kind}: {outcome}", f"delay {delay:.2f} s, read {ended.seconds:.1f} s")
        tally.seconds += time.monotonic() - begun

    def fault_stop(self, sources):
        schema = "faults_stop"
        url = self.store_url(schema)
        connect = 2
        frozen_url = self.store_url(schema, statement_timeout="2s", connect_timeout=connect)
        bound_a = ATTEMPTS * connect + RETRY_BACKOFF + SLACK
        query_tally = self.new_tally("stop: query --count, server frozen", schema, f"{bound_a:.2f}")
        sync_tally = self.new_tally("stop: sync, server frozen", schema, f"{bound_a:.2f}")
        tally = self.new_tally("stop: sync frozen mid-way", schema)
        started = time.monotonic()
        current = self.seed(tally, sources, url)
        # Long enough for every statement of a healthy sync (none lasts longer than a whole sync).
        statement = max(5, int(1.5 * max(self.recent)) + 1)
        mid_url = self.store_url(schema, statement_timeout=f"{statement}s", connect_timeout=connect)
        bound_b = max(statement + 5, ATTEMPTS * connect + RETRY_BACKOFF) + SLACK
        tally.bound = f"{bound_b:.2f}"
        print(f"stop: frozen-server commands must end within {bound_a:.2f} s; a sync frozen mid-way (statement "
              f"timeout {statement} s) within {bound_b:.2f} s of the SIGSTOP", flush=True)
        for number in range(1, self.args.rounds + 1):
            target = other(current)
            # (a) A server frozen before the command starts.
            self.cluster.freeze()
            try:
                for part, argv in (
                    (query_tally, [str(self.poststore), "query", "--store", frozen_url, "--count"]),
                    (sync_tally, self.sync_argv(sources[target], frozen_url)),
                ):
                    label = f"stop-round{number}-frozen-{argv[1]}"
                    ended = self.run(argv, limit=bound_a + HANG)
                    self.check_secrets(ended, part, label)
                    part.rounds += 1
                    part.exit_seconds.append(ended.seconds)
                    if ended.hung:
                        self.fail(
                            part, label, f"{argv[1]} did not end within {ended.limit:.0f} s (killed; {ended.hung})"
                        )
                        part.outcomes["hung"] += 1
                        continue
                    if ended.status == 0:
                        self.fail(part, label, f"{argv[1]} exited 0 against a frozen server")
                    else:
                        self.check_one_line(ended, part, label, UNAVAILABLE)
                    if ended.seconds > bound_a:
                        self.fail(part, label, f"{argv[1]} took {ended.seconds:.1f} s, more than {bound_a:.2f} s")
                    part.outcomes[f"{describe_status(ended.status)}"] += 1
            finally:
                self.cluster.thaw()
            self.wait_for_backends(sync_tally, f"stop-round{number}-frozen")
            if read_state(self.cluster, schema) != self.states[current]:
                self.fail(sync_tally, f"stop-round{number}-frozen", "the store changed under a frozen server")
            # (b) A sync frozen mid-way.
            label = f"stop-round{number}-mid-sync"
            delay = self.rng.uniform(0, self.window())
            argv = self.sync_argv(sources[target], mid_url)
            process, begun = self.start(argv)
            extra = f"delay {delay:.1f} s"
            if wait_briefly(process, delay):
                ended = finish(process, argv, begun, 10)  # it has ended: 10 s to drain its pipes
                kind = "finished before the stop"
                if ended.status == 0:
                    self.recent.append(ended.seconds)
                    self.sync_seconds.append(ended.seconds)
            else:
                during = self.cluster.activity()
                self.cluster.freeze()
                stopped_at = time.monotonic()
                try:
                    ended = self.finish(process, argv, begun, bound_b + POOL_CIRCUIT_BREAKER + HANG)
                finally:
                    self.cluster.thaw()
                took = ended.ended_at - stopped_at
                tally.exit_seconds.append(took)
                kind = f"frozen during {during}"
                extra += f", exit {took:.1f} s after the SIGSTOP"
                # Frozen before the sync's pooled connection was made (no backend yet, or only its first
                # connection's schema check, caught mid-statement): the pool tries until its breaker trips.
                pool_waited = during == "no backend" or "no connection could be made" in (ended.line or "")
                bound = bound_b + (POOL_CIRCUIT_BREAKER if pool_waited else 0)
                if took > bound and not ended.hung:
                    self.fail(tally, label, f"the sync ended {took:.1f} s after the SIGSTOP, more than {bound:.2f} s")
            outcome, name = self.judge_sync(
                ended, self.states[current], self.states[target], tally, label, self.states
            )
            self.record(tally, number, f"{kind}: {outcome}", extra + f"; frozen server: query "
                          f"{query_tally.exit_seconds[-1]:.1f} s, sync {sync_tally.exit_seconds[-1]:.1f} s")
            current = self.after_round(tally, name, url, sources, label)
        tally.seconds = time.monotonic() - started

    def fault_password(self, sources):
        schema = "faults_password"
        tally = self.new_tally("password", schema)
        started = time.monotonic()
        base = f"127.0.0.1:{self.cluster.port}/postgres?schema={schema}"
        right_url = f"postgres://{PASSWORD_ROLE}:{quote(PASSWORD, safe='')}@{base}"
        bare_url = f"postgres://{PASSWORD_ROLE}@{base}"
        limit = 60 + HANG
        # The right password works: in the URL (creating the store) and in PGPASSWORD.
        for label, argv, env in (
            ("password-right-url", self.sync_argv(sources["OLD"], right_url), None),
            ("password-right-env", [str(self.poststore), "query", "--store", bare_url, "--count"],
             dict(self.environment, PGPASSWORD=PASSWORD)),
        ):
            ended = self.run(argv, limit, env)
            self.check_secrets(ended, tally, label)
            if ended.status != 0:
                raise SetupError(
                    f"{label}: the right password is refused: {describe_status(ended.status)}: {ended.line}"
                )
        self.check_info(right_url, tally, "password-right-info")
        for number in range(1, self.args.rounds + 1):
            # Characters a URL must percent-encode, so that neither spelling may show.
            wrong = f"wrong:{self.rng.randrange(10 ** 9)}@p/ss%w?rd"
            self.secrets.add(wrong)
            wrong_url = f"postgres://{PASSWORD_ROLE}:{quote(wrong, safe='')}@{base}"
            for what, argv, env in (
                ("wrong password in the URL: info", [str(self.poststore), "info", "--store", wrong_url], None),
                ("wrong password in the URL: sync", self.sync_argv(sources["NEW"], wrong_url), None),
                ("wrong PGPASSWORD: query --count", [str(self.poststore), "query", "--store", bare_url, "--count"],
                 dict(self.environment, PGPASSWORD=wrong)),
                ("no password: query --count", [str(self.poststore), "query", "--store", bare_url, "--count"], None),
            ):
                label = f"password-round{number}-{what}"
                ended = self.run(argv, limit, env)
                self.check_secrets(ended, tally, label)
                tally.exit_seconds.append(ended.seconds)
                if ended.hung:
                    self.fail(tally, label, f"did not end within {limit:.0f} s (killed; {ended.hung})")
                elif ended.status == 0:
                    self.fail(tally, label, "exited 0 with a wrong password")
                else:
                    self.check_one_line(ended, tally, label, ACCESS_DENIED)
                tally.outcomes[f"{what}: {describe_status(ended.status)}"] += 1
            tally.rounds += 1
            self.progress(tally, number, "4 refused logins", f"{tally.exit_seconds[-1]:.1f} s each")
        # The refused sync wrote nothing: the store still holds OLD (the right password's sync).
        state = read_state(self.cluster, schema)
        if state != self.states["OLD"]:
            self.fail(tally, "password-final", f"the store is {describe(state, self.states)}, not OLD")
        self.check_info(right_url, tally, "password-final")
        tally.seconds = time.monotonic() - started


def crash_line(err):
    """The line of a crashed process's standard error that says why (Swift's `Fatal error: ...`), else its first."""
    lines = err.decode(errors="replace").strip().split("\n")
    return next((line for line in lines if "Fatal error" in line), lines[0])[:300]


def other(name):
    return "NEW" if name == "OLD" else "OLD"


def states_name(states, state):
    return next((name for name, s in states.items() if s == state), "?")


def describe(state, states):
    name = states_name(states, state)
    if name != "?":
        return name
    return (f"neither OLD nor NEW: {state.count} posts (OLD {states['OLD'].count}, NEW {states['NEW'].count}), "
            f"latest sync {state.source} ({state.fetched} fetched)")


# --------------------------------------------------------------------------------------------------------------------
# Report


def print_summary(soak, args, elapsed, sources_line):
    print()
    print(f"{NAME}: {sources_line}; {args.rounds} rounds per fault, seed {args.seed}, {elapsed:.0f} s")
    seconds = soak.sync_seconds
    if seconds:
        print(f"full syncs without a fault: {len(seconds)}, {statistics.median(seconds):.1f} s median "
              f"({min(seconds):.1f}-{max(seconds):.1f})")
    headers = ["fault", "rounds", "failures", "fault->exit s p50", "max", "bound", "time s"]
    rows = []
    for t in soak.tallies:
        times = t.exit_seconds
        rows.append([
            t.name, t.rounds, len(t.failures), f"{statistics.median(times):.1f}" if times else "-",
            f"{max(times):.1f}" if times else "-", t.bound, f"{t.seconds:.0f}",
        ])
    print_table(headers, rows)
    print("(fault->exit: kill -- from the SIGKILL to the sync's exit, restart included; terminate -- from "
          "pg_terminate_backend; frozen -- the command's whole run; mid-way -- from the SIGSTOP; password -- the "
          "command's whole run)")
    outcomes = [[t.name, outcome, n] for t in soak.tallies for outcome, n in sorted(t.outcomes.items())]
    if outcomes:
        print()
        print_table(["fault", "outcome", "rounds"], outcomes)
    messages = [[t.name, command, status, n, line] for t in soak.tallies
                for (command, status, line), n in sorted(t.messages.items())]
    if messages:
        print()
        print_table(["fault", "command", "exit", "times", "message"], messages)
    print_failures([failure for t in soak.tallies for failure in t.failures])


# --------------------------------------------------------------------------------------------------------------------


def parse_arguments():
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog="Smoke size (a few minutes; each hung sync adds about a minute): "
        "scripts/reliability/postgres-faults.py --posts 5000 --rounds 2",
    )
    parser.add_argument("--posts", type=int, default=10_000, help="posts in OLD (default 10000)")
    parser.add_argument("--rounds", type=int, default=10, help="rounds per fault (default 10)")
    parser.add_argument(
        "--seed", type=int, default=1, help="seed for the data, the delays and the passwords (default 1)"
    )
    parser.add_argument(
        "--faults", default=",".join(DEFAULT_FAULTS),
        help=f"comma-separated: {','.join(FAULTS)} (default {','.join(DEFAULT_FAULTS)})"
    )
    parser.add_argument("--poststore", help="the poststore binary (default: build .build-soak/release/poststore)")
    parser.add_argument("--workdir", help="work folder (default: a new temporary folder)")
    parser.add_argument("--keep", action="store_true", help="keep the work folder (it is always kept on failure)")
    args = parser.parse_args()
    faults = [fault.strip() for fault in args.faults.split(",") if fault.strip()]
    if not faults or any(fault not in FAULTS for fault in faults):
        parser.error(f"--faults takes some of {','.join(FAULTS)}")
    args.faults = [fault for fault in FAULTS if fault in faults]
    if args.posts < 20 or args.rounds < 1:
        parser.error("--posts must be at least 20, --rounds at least 1")
    return args


def main():
    args = parse_arguments()

    def stop_on_sigterm(number, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop_on_sigterm)

    def soak(workdir):
        poststore = find_poststore(args.poststore)
        cluster = Cluster()
        started = time.monotonic()
        rng = random.Random(args.seed)
        old_posts, new_posts, _ = make_sources(rng, args.posts)
        sources = {"OLD": workdir / "old.json", "NEW": workdir / "new.json"}
        for name, posts in (("OLD", old_posts), ("NEW", new_posts)):
            with open(sources[name], "w", encoding="utf-8") as out:
                json.dump(posts, out, ensure_ascii=False)
        sources_line = f"OLD {len(old_posts)} posts, NEW {len(new_posts)}"
        try:
            cluster.start()
            if cluster.folder is None:
                raise SetupError(f"the cluster folder of {cluster.url} was not found")
            print(f"{NAME}: {poststore}; work folder {workdir}; cluster {cluster.url} in {cluster.folder}; "
                  f"{sources_line}", flush=True)
            run = Soak(args, poststore, cluster, workdir)
            try:
                run.prepare(sources, old_posts, new_posts)
                for fault in args.faults:
                    getattr(run, f"fault_{fault.replace('-', '_')}")(sources)
            except PsqlFailed as error:
                raise SetupError(f"psql: {error}; server log: {cluster.log_tail()}") from None
            print_summary(run, args, time.monotonic() - started, sources_line)
            failed = any(t.failures for t in run.tallies)
            if failed:
                print(f"\n{NAME}: checks failed; the server log is kept at {workdir / 'server.log'}", flush=True)
            return failed
        finally:
            CurrentChild.kill_current()
            cluster.shutdown(workdir)

    return run_soak(NAME, args, False, soak, CurrentChild.kill_current)


if __name__ == "__main__":
    sys.exit(main())
