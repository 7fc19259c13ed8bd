"""Helpers shared by the repository's Python scripts (the soaks and the sample writer): where the repository is,
the release `poststore` they run, the posts they are made of (the word list, OLD and NEW sources), the throwaway
PostgreSQL cluster of scripts/postgres.sh, and the frame every soak's `main` runs in."""
import hashlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
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


def default_signal_actions():
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


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
    which are soaked when it is not given), --workdir and --keep."""
    parser.add_argument("--poststore", help=f"the poststore binary (default: build {SCRATCH}/release/poststore)")
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
    """A server process listening on `port` (on core 0 with `pin`), its output discarded."""

    def __init__(self, argv, port, pin=False):
        self.port = port
        self.process = subprocess.Popen((["taskset", "-c", "0"] if pin else []) + argv, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL)
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
