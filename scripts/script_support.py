"""Helpers shared by the repository's Python scripts (the soaks and the sample writer): where the repository is,
the release `poststore` they run, the word list posts are made of, and the frame every soak's `main` runs in."""
import hashlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SCRATCH = ".build-soak"

WORDS = (
    "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore "
    "magna aliqua enim ad minim veniam quis nostrud exercitation ullamco laboris nisi aliquip ex ea commodo "
    "consequat duis aute irure in reprehenderit voluptate velit esse cillum fugiat nulla pariatur excepteur sint "
    "occaecat cupidatat non proident sunt culpa qui officia deserunt mollit anim id est laborum"
).split()


class SetupError(Exception):
    """Something needed to run the soak failed (not a finding about the store)."""


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
