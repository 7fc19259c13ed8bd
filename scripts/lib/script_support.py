"""Helpers shared by the repository's Python scripts (the soaks, the benchmarks and the sample writer): where the
repository is, the release `poststore` they run and the child processes a soak runs at once, the posts they are
made of (the word list, OLD and NEW sources), the throwaway PostgreSQL cluster of scripts/postgres.sh and the
soaks' schemas on a server, servers on 127.0.0.1, and the frame every soak's `main` runs in."""
import hashlib
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]  # this file is scripts/lib/script_support.py
SCRATCH = ".build-soak"

WORDS = (
    "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore "
    "magna aliqua enim ad minim veniam quis nostrud exercitation ullamco laboris nisi aliquip ex ea commodo "
    "consequat duis aute irure in reprehenderit voluptate velit esse cillum fugiat nulla pariatur excepteur sint "
    "occaecat cupidatat non proident sunt culpa qui officia deserunt mollit anim id est laborum"
).split()


# Occasional awkward text, so the checks also cover escaping: quotes, backslashes, non-ASCII, emoji.
ODD_WORDS = ['"quoted"', "back\\slash", "café", "日本語", "Ωμέγα", "emoji🙂", "tab\there", "naïve", "<tag>", "100%"]


class SetupError(Exception):
    """Something needed to run the soak failed (not a finding about the store)."""


class CurrentChild:
    """The one poststore process a script runs at a time, so that Ctrl-C (or the end of the run) can stop it."""

    current = None

    @classmethod
    def start(cls, argv, **options):
        # A new session: Ctrl-C in the terminal reaches only the script, which then kills the child itself.
        # SIGINT and SIGTERM get their default action back: a shell without job control starts background
        # commands (a script under `... &` in CI) with SIGINT ignored, and children inherit that.
        cls.current = subprocess.Popen(argv, start_new_session=True, preexec_fn=default_signal_actions, **options)
        return cls.current

    @classmethod
    def kill_current(cls):
        process = cls.current
        if process is not None and process.poll() is None:
            process.kill()
            process.wait()
        cls.current = None


class Children:
    """Every poststore process a soak runs at once, so Ctrl-C (or the end of the soak) can stop them all."""

    _lock = threading.Lock()
    _running = set()

    @classmethod
    def start(cls, argv, **options):
        """Starts a command, which `kill_all` kills until it is `finished`."""
        # A new session: Ctrl-C in the terminal reaches only this script, which then kills the children itself.
        process = subprocess.Popen(argv, start_new_session=True, **options)
        with cls._lock:
            cls._running.add(process)
        return process

    @classmethod
    def finished(cls, process):
        with cls._lock:
            cls._running.discard(process)

    @classmethod
    def run(cls, argv):
        """Runs a command to the end; returns (exit status, stdout bytes, stderr text, seconds)."""
        started = time.monotonic()
        process = cls.start(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            out, err = process.communicate()
        finally:
            cls.finished(process)
        return process.returncode, out, err.decode(errors="replace").strip(), time.monotonic() - started

    @classmethod
    def kill_all(cls):
        with cls._lock:
            running = list(cls._running)
        for process in running:
            if process.poll() is None:
                process.kill()


def default_signal_actions():
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def interrupt_on_sigterm():
    """Makes SIGTERM end the run as Ctrl-C does (a KeyboardInterrupt): children killed, the cluster stopped."""
    signal.signal(signal.SIGTERM, _interrupt)


def _interrupt(signal_number, frame):
    raise KeyboardInterrupt


def describe_status(status):
    return f"killed by {signal.Signals(-status).name}" if status < 0 else f"exit {status}"


def find_poststore(path):
    """The `poststore` binary at `path`, or one built in release into `.build-soak`."""
    if path:
        binary = Path(path).resolve()
    else:
        print(f"building poststore (swift build -c release --product poststore --scratch-path {SCRATCH}) ...", flush=True)
        build = subprocess.run(
            ["swift", "build", "-c", "release", "--product", "poststore", "--scratch-path", SCRATCH], cwd=REPO
        )
        if build.returncode != 0:
            raise SetupError("swift build failed")
        binary = REPO / SCRATCH / "release" / "poststore"
    if not os.access(binary, os.X_OK):
        raise SetupError(f"{binary} is not an executable")
    return binary


def digest(data):
    return hashlib.sha256(data).hexdigest()


def ndjson_lines(data):
    r"""poststore's ndjson output (bytes) as one str per post, split at LF bytes only.

    Not data.decode().splitlines(): str.splitlines also splits at U+0085, U+2028 and U+2029, which JSON leaves
    unescaped inside a string, so a post holding one would read as two broken lines.

    >>> ndjson_lines('{"title": "a\u2028b\u0085c"}\n{"title": "d"}\n'.encode())
    ['{"title": "a\u2028b\x85c"}', '{"title": "d"}']
    """
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    return [line.decode(errors="replace") for line in lines]


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else 0.0


def print_table(headers, rows):
    widths = [max(len(str(cell)) for cell in column) for column in zip(headers, *rows)]
    for row in [headers, ["-" * width for width in widths], *rows]:
        print("  ".join(str(cell).rjust(width) if i else str(cell).ljust(width) for i, (cell, width) in enumerate(zip(row, widths))))


def print_failures(failures, most=50):
    """The failed checks, one line each, at most `most` of them; nothing when there are none."""
    if not failures:
        return
    print()
    print(f"{len(failures)} FAILED CHECKS:")
    for failure in failures[:most]:
        print("  " + failure)
    if len(failures) > most:
        print(f"  ... and {len(failures) - most} more")


FILE_ENGINES = ("sqlite", "json")


def add_soak_arguments(parser, engines=FILE_ENGINES, default_engines="both"):
    """The options every soak takes: --poststore, --engines (some of `engines`; `default_engines` says in the help
    which are soaked when it is not given; no --engines when `engines` is None), --workdir and --keep."""
    parser.add_argument("--poststore", help=f"the poststore binary (default: build {SCRATCH}/release/poststore)")
    if engines is not None:
        parser.add_argument("--engines", help=f"comma-separated: {','.join(engines)} (default {default_engines})")
    parser.add_argument("--workdir", help="work folder (default: a new temporary folder)")
    parser.add_argument("--keep", action="store_true", help="keep the work folder (it is always kept on failure)")


def parse_engines(parser, args, engines=FILE_ENGINES, default=",".join(FILE_ENGINES)):
    """Turns --engines (`default` when not given) into a list without repeats, refusing anything but `engines`."""
    text = default if args.engines is None else args.engines
    chosen = list(dict.fromkeys(engine.strip() for engine in text.split(",") if engine.strip()))
    if not chosen or any(engine not in engines for engine in chosen):
        if len(engines) == 2:
            parser.error(f"--engines takes {engines[0]}, {engines[1]} or both")
        parser.error(f"--engines takes one or more of {', '.join(engines)}, comma-separated")
    args.engines = chosen


def check_postgres_url(parser, url):
    """Refuses a --postgres that is not a server's URL without ?schema= (a soak names its own schemas)."""
    if not re.match(r"postgres(ql)?://", url):
        parser.error("--postgres takes a postgres:// or postgresql:// URL")
    if re.search(r"[?&]schema=", url):
        parser.error("--postgres takes the server's URL without ?schema=: the soak names its own schemas")


class SoakRecords:
    """What a soak's loops record from their threads: a dataclass that mixes it in has the fields `folder`,
    `deadline`, `stop` (a threading.Event), `lock`, `records` and `failures` (a list of (category, message))."""

    def fail(self, category, message, output=None):
        """Records a failed check; `output` (bytes) is saved in the folder's failures/, and the message says where."""
        with self.lock:
            number = len(self.failures) + 1
            if output is not None:
                saved = self.folder / "failures" / f"failure-{number}.out"
                saved.parent.mkdir(parents=True, exist_ok=True)
                saved.write_bytes(output)
                message += f" (output saved to {saved})"
            self.failures.append((category, message))

    def count(self, category):
        return sum(1 for found, _ in self.failures if found == category)

    def record(self, record):
        with self.lock:
            self.records.append(record)

    def running(self):
        return not self.stop.is_set() and time.monotonic() < self.deadline


def run_soak(name, args, needs_sqlite3, soak, stop_children):
    """Runs `soak(workdir)` (which returns whether a check failed) in a work folder, and turns its end into the exit
    status: 0 passed, 1 a check failed (the folder is kept), 2 a setup error, 130 Ctrl-C (the children are killed).
    """
    if needs_sqlite3 and shutil.which("sqlite3") is None:
        print(f"{name}: the sqlite3 shell is needed for the integrity check", file=sys.stderr)
        return 2
    workdir = Path(args.workdir).resolve() if args.workdir else Path(tempfile.mkdtemp(prefix=f"{name}-"))
    workdir.mkdir(parents=True, exist_ok=True)
    keep = args.keep
    try:
        failed = soak(workdir)
        keep = keep or failed
        return 1 if failed else 0
    except KeyboardInterrupt:
        stop_children()
        print(f"\n{name}: interrupted", file=sys.stderr)
        return 130
    except SetupError as error:
        stop_children()
        print(f"{name}: {error}", file=sys.stderr)
        keep = True
        return 2
    finally:
        sys.stdout.flush()
        if keep:
            print(f"{name}: work folder kept: {workdir}", file=sys.stderr)
        else:
            shutil.rmtree(workdir, ignore_errors=True)


# --------------------------------------------------------------------------------------------------------------------
# Posts: an OLD source and a NEW one that removes, edits and adds


def sentence(rng, low, high):
    words = [rng.choice(WORDS) for _ in range(rng.randint(low, high))]
    if rng.random() < 0.05:
        words[rng.randrange(len(words))] = rng.choice(ODD_WORDS)
    return " ".join(words)


def make_post(rng, post_id):
    return {
        "userId": (post_id - 1) // 10 % 50 + 1,
        "id": post_id,
        "title": sentence(rng, 3, 9),
        "body": "\n".join(sentence(rng, 5, 10) for _ in range(4)),
    }


def make_sources(rng, count):
    """OLD: ids 1...count. NEW: drops ~5% of them, changes the title or body (or both) of about half of the rest,
    and adds ~5% new ids. Returns both lists and NEW's change counts against OLD."""
    old = [make_post(rng, post_id) for post_id in range(1, count + 1)]
    new, changed, removed = [], 0, 0
    for post in old:
        if rng.random() < 0.05:
            removed += 1
            continue
        post = dict(post)
        roll = rng.random()
        if roll < 0.5:
            changed += 1
            if roll < 0.2 or roll >= 0.35:
                post["title"] = sentence(rng, 3, 9) + " (new)"
            if roll < 0.35:
                post["body"] = "\n".join(sentence(rng, 5, 10) for _ in range(4))
        new.append(post)
    added = max(1, count // 20)
    new.extend(make_post(rng, post_id) for post_id in range(count + 1, count + added + 1))
    return old, new, {"inserted": added, "updated": changed, "deleted": removed}


# --------------------------------------------------------------------------------------------------------------------
# The throwaway PostgreSQL cluster (scripts/postgres.sh)


def postgres_bin_folders():
    """Where PostgreSQL's programs may be, in the order postgres.sh looks: pg_config --bindir, then
    /usr/lib/postgresql/*/bin, newest version first."""
    folders = []
    if shutil.which("pg_config"):
        folder = subprocess.run(["pg_config", "--bindir"], capture_output=True, text=True).stdout.strip()
        if folder:
            folders.append(Path(folder))
    version = lambda folder: tuple(int(part) if part.isdigit() else 0 for part in folder.parent.name.split("."))
    return folders + sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=version, reverse=True)


def start_cluster():
    """Starts a throwaway cluster with scripts/postgres.sh; returns its URL. Ctrl-C lets the start finish, then
    stops that cluster."""
    argv = ["bash", str(REPO / "scripts" / "postgres.sh"), "start"]
    # Its own session, so that Ctrl-C does not stop it halfway.
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        out, err = process.communicate()
    except KeyboardInterrupt:
        out, _ = process.communicate()
        if process.returncode == 0 and out.strip():
            stop_cluster(out.strip(), "start")
        raise
    if process.returncode != 0 or not out.strip():
        raise SetupError(f"scripts/postgres.sh start {describe_status(process.returncode)}: {err.strip()}")
    return out.strip()


def stop_cluster(target, name):
    """Stops the cluster started with that URL (or in that folder) and deletes it; `name`, the script, complains but
    goes on when that fails."""
    argv = ["bash", str(REPO / "scripts" / "postgres.sh"), "stop", str(target)]
    result = subprocess.run(argv, capture_output=True, text=True, start_new_session=True)
    if result.returncode != 0:
        print(f"{name}: scripts/postgres.sh stop {target} failed: {result.stderr.strip()}", file=sys.stderr)


# --------------------------------------------------------------------------------------------------------------------
# PostgreSQL stores of the soaks: schemas on a server or the throwaway cluster, read with psql


POSTGRES_TABLES = [  # a store schema's tables, sorted
    "post_tombstones", "post_writes", "posts", "poststore_migrations", "store_revision", "sync_state",
]


class PsqlFailed(Exception):
    """psql could not run a statement (the message is its error)."""


def find_psql():
    """psql: on the PATH, else next to the server postgres.sh uses."""
    found = shutil.which("psql")
    if found:
        return found
    for folder in postgres_bin_folders():
        if os.access(folder / "psql", os.X_OK):
            return str(folder / "psql")
    raise SetupError("the postgres engine needs psql to check its schemas; install it (e.g. postgresql-client)")


@dataclass
class Postgres:
    """The server the postgres engine is soaked on, and the schemas (stores) this run names on it."""

    url: str  # the server's URL, never with ?schema=
    own: bool  # a throwaway cluster this script started, and stops at the end
    psql: str
    prefix: str  # every schema of this run starts with it: <word>_<pid>_<unix time>
    name: str  # the script, for its messages
    schemas: list = field(default_factory=list)  # the schemas this run named, the only ones it may drop

    @classmethod
    def open(cls, url, name, word="soak"):
        """The server at `url`, or (url None) a throwaway cluster; checks it answers and that this run's schema
        names (`word`_<pid>_<unix time>...) are free. `name`, the script, signs its messages."""
        psql = find_psql()
        server = cls(url or start_cluster(), url is None, psql, f"{word}_{os.getpid()}_{int(time.time())}", name)
        try:
            taken = server.sql(
                f"SELECT count(*) FROM pg_namespace WHERE left(nspname, {len(server.prefix)}) = '{server.prefix}'"
            )
            if taken != "0":
                raise SetupError(f"{server.shown()} already has schemas named {server.prefix}...; run again")
        except BaseException as error:
            if server.own:
                stop_cluster(server.url, server.name)
            if isinstance(error, PsqlFailed):
                raise SetupError(f"psql cannot read {server.shown()}: {error}") from None
            raise
        return server

    def schema(self, suffix=""):
        """A new schema name of this run (created by the first sync into it)."""
        name = self.prefix + (f"_{suffix}" if suffix else "")
        assert re.fullmatch(r"[a-z0-9_]{1,63}", name) and name not in self.schemas, name
        self.schemas.append(name)
        return name

    def spec(self, schema):
        """The store spec of a schema: the server's URL and ?schema=NAME."""
        return self.url + ("&" if "?" in self.url else "?") + f"schema={schema}"

    def shown(self, text=None):
        """A URL (the server's by default) as messages show it: without its password."""
        text = self.url if text is None else text
        text = re.sub(r"^(postgres(?:ql)?://[^:@/?]*):[^@/?]*@", r"\1:PASSWORD@", text)
        return re.sub(r"([?&]password=)[^&]*", r"\1PASSWORD", text)

    def conninfo(self):
        """The URL as libpq takes it: without poststore's own parameter statement_timeout (never a schema)."""
        base, _, query = self.url.partition("?")
        kept = [pair for pair in query.split("&") if pair and not pair.startswith("statement_timeout=")]
        return base + ("?" + "&".join(kept) if kept else "")

    def sql(self, statements):
        """Runs statements through psql; returns what they print (unaligned, tuples only), stripped."""
        environment = dict(os.environ)
        environment.setdefault("PGCONNECT_TIMEOUT", "10")
        argv = [self.psql, "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-d", self.conninfo(), "-c", statements]
        try:
            result = subprocess.run(argv, capture_output=True, text=True, env=environment, timeout=300)
        except subprocess.TimeoutExpired:
            raise PsqlFailed("psql took more than 300 s") from None
        if result.returncode != 0:
            raise PsqlFailed(f"{describe_status(result.returncode)}: {' '.join(result.stderr.split())[:300]}")
        return result.stdout.strip()

    def posts(self, schema):
        """How many posts the schema holds; None when it has no posts table (or does not exist)."""
        if self.sql(f"SELECT to_regclass('\"{schema}\".posts') IS NULL") == "t":
            return None
        return int(self.sql(f'SELECT count(*) FROM "{schema}".posts'))

    def store_problem(self, schema, info):
        """None when the schema is the store `info` (poststore's info --format json, parsed) describes and nothing
        else, else what is wrong: only the store's tables, every index valid, posts and migrations as info counts,
        a sync state."""
        try:
            tables = self.sql(
                "SELECT string_agg(c.relname || ':' || c.relkind::text, ',' ORDER BY c.relname) FROM pg_class c "
                f"JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = '{schema}' AND c.relkind <> 'i'"
            )
            wanted = ",".join(f"{table}:r" for table in POSTGRES_TABLES)
            if tables != wanted:
                return f"schema {schema} holds {tables or 'nothing'} (name:relkind), not {wanted}"
            invalid = self.sql(
                "SELECT string_agg(c.relname, ',') FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid "
                f"JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = '{schema}' "
                "AND NOT (i.indisvalid AND i.indisready AND i.indislive)"
            )
            if invalid:
                return f"schema {schema} has invalid indexes: {invalid}"
            posts, migrations, newest, states = self.sql(
                f'SELECT (SELECT count(*) FROM "{schema}".posts), '
                f'(SELECT count(*) FROM "{schema}".poststore_migrations), '
                f'(SELECT coalesce(max(version), 0) FROM "{schema}".poststore_migrations), '
                f'(SELECT count(*) FROM "{schema}".sync_state)'
            ).split("|")
        except PsqlFailed as error:
            return f"psql on schema {schema}: {error}"
        if int(posts) != info["postCount"]:
            return f"schema {schema} has {posts} rows in posts, info counts {info['postCount']}"
        if not int(migrations) == int(newest) == info["schemaVersion"]:
            return f"schema {schema} records {migrations} migrations up to version {newest}, info says schema " \
                   f"version {info['schemaVersion']}"
        if info["lastSync"] and int(states) == 0:
            return f"schema {schema} has no sync_state row, but info shows a last sync"
        return None

    def finish(self, workdir, keep):
        """The end of the run: drops this run's schemas (kept instead when `keep`: on a --postgres server, printing
        how to drop them; from the throwaway cluster, dumped into the work folder) and stops the throwaway cluster.
        Complains but goes on when something fails, so that the cluster is always stopped."""
        try:
            quoted = ", ".join(f'"{schema}"' for schema in self.schemas)
            if keep and self.schemas and self.own:
                dump = workdir / "postgres-dump.sql"
                pg_dump = Path(self.psql).with_name("pg_dump")
                argv = [str(pg_dump), "-d", self.conninfo(), "-f", str(dump)] + [f"--schema={s}" for s in self.schemas]
                result = subprocess.run(argv, capture_output=True, text=True)
                if result.returncode == 0:
                    print(f"{self.name}: the PostgreSQL schemas are dumped to {dump}", file=sys.stderr)
                else:
                    print(f"{self.name}: pg_dump failed: {result.stderr.strip()[:300]}", file=sys.stderr)
            elif keep and self.schemas:
                print(
                    f"{self.name}: PostgreSQL schemas kept: {', '.join(self.schemas)}; drop them with\n"
                    f"  psql '{self.shown(self.conninfo())}' -c 'DROP SCHEMA IF EXISTS {quoted} CASCADE'",
                    file=sys.stderr,
                )
            elif self.schemas and not self.own:
                self.sql(f"SET lock_timeout = '60s'; DROP SCHEMA IF EXISTS {quoted} CASCADE")
        except (PsqlFailed, OSError) as error:
            print(f"{self.name}: cleaning up the PostgreSQL schemas {self.prefix}*: {error}", file=sys.stderr)
        finally:
            if self.own:
                stop_cluster(self.url, self.name)


# --------------------------------------------------------------------------------------------------------------------
# Servers on 127.0.0.1, for the benchmarks


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_listening(port, process, seconds=60):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SetupError(f"the server exited ({process.returncode}) before it listened")
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return
        except OSError:
            time.sleep(0.1)
    raise SetupError(f"nothing listened on port {port} within {seconds} s")


def fetch(url, headers=None):
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return answer.status, dict(answer.headers), answer.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def peak_memory_mib(pid):
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


class Server:
    """A server process listening on `port` (on core 0 with `pin`), run in `cwd`, its output discarded, or written to
    the file `log`. After `stop`, `process.returncode` is how it ended."""

    def __init__(self, argv, port, pin=False, log=None, cwd=None):
        self.port = port
        output = subprocess.DEVNULL if log is None else open(log, "ab")
        try:
            self.process = subprocess.Popen((["taskset", "-c", "0"] if pin else []) + argv, stdout=output,
                                            stderr=subprocess.STDOUT if log is not None else output, cwd=cwd)
        finally:
            if log is not None:
                output.close()
        wait_listening(port, self.process)

    def stop(self):
        memory = peak_memory_mib(self.process.pid)
        self.process.terminate()
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        return memory
