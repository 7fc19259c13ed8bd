#!/usr/bin/env python3
"""Crash-safety soak for `poststore sync`: kill a sync at random moments and check the store is never in between.

For each engine (SQLite, JSON file) the script writes two sources, OLD and NEW (NEW changes about half of OLD's
titles and bodies, drops some posts and adds others, so a pruning sync from OLD to NEW inserts, updates and
deletes), seeds a store with OLD, and takes the expected digests from poststore itself: the sha256 of
`poststore query --format ndjson` after a completed sync of each source. It times an uninterrupted OLD -> NEW
sync, then, `--kills` times, starts `poststore sync --from NEW --store S --prune --force --quiet` and sends it
SIGKILL after a delay drawn uniformly from [0, that duration]. (The duration is the median of the last five
completed syncs of the full data set, in either direction -- re-measured when eight rounds in a row gave no new
figure -- so the window follows a machine whose load changes.)
After every kill it checks:

  (a) integrity: SQLite -- `PRAGMA integrity_check` answers `ok` on a copy of the files exactly as the killed
      process left them (database, -wal and -shm), so the check does not checkpoint or recover the live store;
      JSON -- the store file parses as JSON;
  (b) the store is OLD or NEW, never anything else: the digest of `poststore query --format ndjson` equals one of
      the two, and `poststore info --format json` agrees (postCount and lastSync.source belong to the same source);
  (c) JSON engine: temporary files `.NAME.tmp-*` a killed writer left are counted, and none may remain after the
      next completed write that changes the store. Random kills rarely land while the temporary file is being
      written, so `--temp-kills` more rounds send SIGKILL 0-10 ms after a new temporary file appears.

When a round ends in NEW, the store is synced back to OLD (and that sync's report is checked), so every kill
interrupts a real change. `--signals` more rounds per engine send SIGINT and SIGTERM (alternately) instead of
SIGKILL; the script records how the process ends (killed by the signal, or an exit status and its message) and
runs the same checks. It ends with one completed OLD -> NEW sync and a last check, prints a summary table, and
exits 1 if any check failed (the work folder is then kept for inspection), 2 on a setup error.

Deterministic for a given --seed (the data and the kill delays; not, of course, the process timing).
Standard library only.
"""

import argparse
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import statistics
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "lib"))  # scripts/lib: script_support
from script_support import CurrentChild, SetupError, describe_status, digest, find_poststore, make_sources, ndjson_lines, add_soak_arguments, parse_engines, print_failures, print_table, run_soak

SIGNAL_NAMES = {signal.SIGKILL: "SIGKILL", signal.SIGINT: "SIGINT", signal.SIGTERM: "SIGTERM"}


# --------------------------------------------------------------------------------------------------------------------
# Child processes


def run(argv, check=True):
    """Runs a command to the end; returns (exit status, stdout bytes, stderr text)."""
    process = CurrentChild.start(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = process.communicate()
    CurrentChild.current = None
    status = process.returncode
    if check and status != 0:
        raise SetupError(f"{' '.join(map(str, argv))} exited {describe_status(status)}: {err.decode(errors='replace').strip()}")
    return status, out, err.decode(errors="replace").strip()


# --------------------------------------------------------------------------------------------------------------------
# Data


def write_source(path, posts):
    with open(path, "w", encoding="utf-8") as out:
        json.dump(posts, out, ensure_ascii=False)


# --------------------------------------------------------------------------------------------------------------------
# The store under test


@dataclass
class Store:
    engine: str
    path: Path
    poststore: Path

    @property
    def spec(self):
        return f"{self.engine}:{self.path}"

    def command(self, *arguments):
        return [str(self.poststore), *arguments, "--store", self.spec]

    def sync_command(self, source, quiet=True):
        argv = self.command("sync", "--from", str(source), "--prune", "--force")
        return argv + (["--quiet"] if quiet else ["--format", "json"])

    def sync(self, source):
        """A completed sync; returns its JSON report and its wall time."""
        started = time.monotonic()
        _, out, _ = run(self.sync_command(source, quiet=False))
        return json.loads(out), time.monotonic() - started

    def query(self):
        """(exit status, ndjson bytes, stderr)."""
        return run(self.command("query", "--format", "ndjson"), check=False)

    def info(self):
        status, out, err = run(self.command("info", "--format", "json"), check=False)
        return status, (json.loads(out) if status == 0 else None), err

    def temporary_files(self):
        prefix = f".{self.path.name}.tmp-"
        return sorted(entry for entry in os.listdir(self.path.parent) if entry.startswith(prefix))

    def files(self):
        """The files that make up the store on disk."""
        suffixes = ["", "-wal", "-shm", "-journal"] if self.engine == "sqlite" else ["", ".lock"]
        return [Path(str(self.path) + suffix) for suffix in suffixes if Path(str(self.path) + suffix).exists()]

    def remove(self):
        for file in self.files():
            file.unlink()
        if self.engine == "json":
            for name in self.temporary_files():
                (self.path.parent / name).unlink()


def integrity_problem(store, snapshot_folder):
    """None when the store as it is on disk now is whole, else what is wrong."""
    if store.engine == "json":
        try:
            with open(store.path, "rb") as file:
                json.load(file)
        except (OSError, ValueError) as error:
            return f"the JSON store does not parse: {error}"
        return None
    # Check a copy of the files exactly as the killed process left them: sqlite3 on the live files would recover
    # and checkpoint the WAL, which is poststore's own job in the next command.
    shutil.rmtree(snapshot_folder, ignore_errors=True)
    snapshot_folder.mkdir(parents=True)
    for file in store.files():
        shutil.copy2(file, snapshot_folder / file.name)
    copy = snapshot_folder / store.path.name
    result = subprocess.run(["sqlite3", str(copy), "PRAGMA integrity_check"], capture_output=True, text=True)
    answer = (result.stdout + result.stderr).strip()
    shutil.rmtree(snapshot_folder, ignore_errors=True)
    return None if result.returncode == 0 and answer == "ok" else f"integrity_check: {answer[:300]}"


# --------------------------------------------------------------------------------------------------------------------
# The soak


@dataclass
class Tally:
    engine: str
    kills: int = 0
    ended_old: int = 0
    ended_new: int = 0
    temp_file_kills: int = 0
    finished_before_signal: int = 0
    integrity_failures: int = 0
    mixed_states: int = 0
    info_mismatches: int = 0
    other_failures: int = 0
    temp_files_seen: set = field(default_factory=set)  # names of temporary files found right after a kill
    temp_files_left: int = 0
    seconds: float = 0.0
    sync_seconds: list = field(default_factory=list)  # every completed full sync's wall time
    # (signal name, outcome) -> rounds, for the SIGINT/SIGTERM rounds
    signal_outcomes: dict = field(default_factory=dict)
    failures: list = field(default_factory=list)

    def failed(self):
        return bool(self.failures)


@dataclass
class Expected:
    old_source: Path
    new_source: Path
    old_digest: str
    new_digest: str
    old_count: int
    new_count: int
    change: dict  # NEW's inserted/updated/deleted against OLD


def check_query_matches(ndjson, posts):
    """Whether poststore's ndjson output holds exactly these posts (so the expected digest means what we think)."""
    lines = ndjson_lines(ndjson)
    return [json.loads(line) for line in lines] == sorted(posts, key=lambda post: post["id"])


def prepare_engine(store, old_posts, new_posts, change, sources, measure_runs):
    """Seeds the store with OLD, takes the expected digests, times an uninterrupted OLD -> NEW sync (the median of
    `measure_runs`), and leaves the store at OLD. Returns (Expected, list of full-sync durations)."""
    store.remove()
    store.sync(sources["old"])
    status, old_out, err = store.query()
    if status != 0 or not check_query_matches(old_out, old_posts):
        raise SetupError(f"{store.engine}: the store synced from OLD does not hold OLD's posts ({err})")
    durations, new_digest = [], None
    for _ in range(measure_runs):
        durations.append(store.sync(sources["new"])[1])
        if new_digest is None:
            status, new_out, err = store.query()
            if status != 0 or not check_query_matches(new_out, new_posts):
                raise SetupError(f"{store.engine}: the store synced from NEW does not hold NEW's posts ({err})")
            new_digest = digest(new_out)
        durations.append(store.sync(sources["old"])[1])
    expected = Expected(
        sources["old"], sources["new"], digest(old_out), new_digest, len(old_posts), len(new_posts), change
    )
    return expected, durations


def interrupt_sync(store, expected, signal_number, delay, at_temporary_file=False):
    """Starts OLD -> NEW, sends the signal after `delay` seconds unless it finished first -- with
    `at_temporary_file`, `delay` seconds after a new temporary file appears, i.e. while the JSON engine writes it.
    Returns (exit status, stderr text, whether the signal was sent, seconds)."""
    before = set(store.temporary_files()) if at_temporary_file else set()
    started = time.monotonic()
    process = CurrentChild.start(store.sync_command(expected.new_source), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if at_temporary_file:
        while process.poll() is None and not set(store.temporary_files()) - before:
            time.sleep(0.0005)
    try:
        process.wait(timeout=delay)
        sent = False
    except subprocess.TimeoutExpired:
        process.send_signal(signal_number)
        sent = True
    _, err = process.communicate()
    CurrentChild.current = None
    return process.returncode, err.decode(errors="replace").strip(), sent, time.monotonic() - started


def classify_state(store, expected, tally, label, failure_folder):
    """Checks (b): the store reads as OLD or NEW, and info agrees. Returns "old", "new" or None."""
    status, out, err = store.query()
    if status != 0:
        tally.other_failures += 1
        tally.failures.append(f"{label}: query exited {describe_status(status)}: {err}")
        save_failed_store(store, failure_folder / label)
        return None
    found = digest(out)
    state = "old" if found == expected.old_digest else "new" if found == expected.new_digest else None
    if state is None:
        tally.mixed_states += 1
        failure_folder.mkdir(parents=True, exist_ok=True)
        (failure_folder / f"{label}.ndjson").write_bytes(out)
        tally.failures.append(f"{label}: the store is neither OLD nor NEW: {describe_mixture(out, expected)}")
        save_failed_store(store, failure_folder / label)
        return None
    status, info, err = store.info()
    want_count, want_source = (
        (expected.old_count, expected.old_source) if state == "old" else (expected.new_count, expected.new_source)
    )
    if status != 0:
        tally.other_failures += 1
        tally.failures.append(f"{label}: info exited {describe_status(status)}: {err}")
    elif info.get("postCount") != want_count or (info.get("lastSync") or {}).get("source") != str(want_source):
        tally.info_mismatches += 1
        tally.failures.append(
            f"{label}: the posts are {state.upper()} but info says postCount {info.get('postCount')}, "
            f"lastSync {info.get('lastSync')}"
        )
    return state


def describe_mixture(ndjson, expected):
    lines = ndjson_lines(ndjson)
    return f"{len(lines)} posts (OLD has {expected.old_count}, NEW {expected.new_count})"


def save_failed_store(store, folder):
    folder.mkdir(parents=True, exist_ok=True)
    for file in store.files():
        shutil.copy2(file, folder / file.name)


def reset_to_old(store, expected, tally, label, recent):
    """Syncs NEW -> OLD to completion and checks the report undoes NEW's change."""
    report, seconds = store.sync(expected.old_source)
    recent.append(seconds)
    tally.sync_seconds.append(seconds)
    undo = {
        "inserted": expected.change["deleted"],
        "updated": expected.change["updated"],
        "deleted": expected.change["inserted"],
    }
    got = {key: report.get(key) for key in undo}
    if got != undo:
        tally.other_failures += 1
        tally.failures.append(f"{label}: the sync back to OLD reported {got}, expected {undo}")


def check_temporary_files_gone(store, tally, label):
    """(c): after a completed write that changed the store, no temporary file may remain."""
    if store.engine != "json":
        return
    left = store.temporary_files()
    if left:
        tally.temp_files_left += len(left)
        tally.failures.append(f"{label}: {len(left)} temporary files remain after a completed write: {left[:3]}")


def run_round(store, expected, tally, rng, recent, signal_number, at_temporary_file, label, folders):
    """One interrupted sync and its checks; `recent` holds the latest full-sync durations."""
    if at_temporary_file:
        tally.temp_file_kills += 1
        delay = rng.random() * 0.01
    else:
        delay = rng.random() * statistics.median(recent)
    status, err, sent, seconds = interrupt_sync(store, expected, signal_number, delay, at_temporary_file)
    name = SIGNAL_NAMES[signal_number]
    if not sent or status == 0:
        tally.finished_before_signal += 1
        recent.append(seconds)
        tally.sync_seconds.append(seconds)
    if signal_number == signal.SIGKILL:
        tally.kills += 1
        if status not in (0, -signal.SIGKILL):
            tally.other_failures += 1
            tally.failures.append(f"{label}: SIGKILL after {delay:.2f} s, but {describe_status(status)}: {err}")
    else:
        outcome = "finished before the signal (exit 0)" if not sent and status == 0 else describe_status(status)
        if status > 0:
            outcome += f": {err!r}"
        key = (name, outcome)
        tally.signal_outcomes[key] = tally.signal_outcomes.get(key, 0) + 1
        if status not in (0, -signal_number, 128 + signal_number):
            tally.other_failures += 1
            tally.failures.append(f"{label}: {name} after {delay:.2f} s ended {describe_status(status)}: {err}")

    if store.engine == "json":
        tally.temp_files_seen.update(store.temporary_files())
    problem = integrity_problem(store, folders["snapshot"])
    if problem:
        tally.integrity_failures += 1
        tally.failures.append(f"{label}: {name} after {delay:.2f} s: {problem}")
        save_failed_store(store, folders["failures"] / label)

    state = classify_state(store, expected, tally, label, folders["failures"])
    if state == "old":
        tally.ended_old += 1
    elif state == "new":
        tally.ended_new += 1
        reset_to_old(store, expected, tally, label, recent)
        check_temporary_files_gone(store, tally, label)
    else:
        # Unknown state (already reported): start again from a fresh OLD store.
        store.remove()
        store.sync(expected.old_source)


def soak_engine(engine, args, poststore, workdir, old_posts, new_posts, change, sources):
    tally = Tally(engine)
    started = time.monotonic()
    folder = workdir / engine
    folder.mkdir(parents=True, exist_ok=True)
    name = "store.sqlite" if engine == "sqlite" else "store.json"
    store = Store(engine, folder / name, poststore)
    folders = {"snapshot": folder / "snapshot", "failures": workdir / "failures" / engine}
    expected, durations = prepare_engine(store, old_posts, new_posts, change, sources, measure_runs=2)
    tally.sync_seconds.extend(durations)
    recent = deque(durations, maxlen=5)
    print(
        f"{engine}: a full sync takes {statistics.median(recent):.2f} s (OLD -> NEW -> OLD twice: "
        f"{', '.join(f'{d:.2f}' for d in durations)}); killing within the latest median",
        flush=True,
    )
    rng = random.Random(f"{args.seed}-{engine}")
    # (signal, whether to send it while the JSON engine writes its temporary file)
    plan = [(signal.SIGKILL, False)] * args.kills
    plan += [(signal.SIGKILL, True)] * (args.temp_kills if engine == "json" else 0)
    plan += [((signal.SIGINT, signal.SIGTERM)[i % 2], False) for i in range(args.signals)]
    step = max(1, len(plan) // 5)
    samples_then, sampled_at = len(tally.sync_seconds), 1
    for number, (signal_number, at_temporary_file) in enumerate(plan, start=1):
        if number > 1 and len(tally.sync_seconds) == samples_then and number - sampled_at >= 8:
            # Eight rounds without a completed sync: time one OLD -> NEW -> OLD again.
            for source in (expected.new_source, expected.old_source):
                seconds = store.sync(source)[1]
                recent.append(seconds)
                tally.sync_seconds.append(seconds)
                check_temporary_files_gone(store, tally, f"{engine}-round{number}-timing")
        if len(tally.sync_seconds) != samples_then:
            samples_then, sampled_at = len(tally.sync_seconds), number
        label = f"{engine}-round{number}-{SIGNAL_NAMES[signal_number]}" + ("-at-tmp" if at_temporary_file else "")
        run_round(store, expected, tally, rng, recent, signal_number, at_temporary_file, label, folders)
        if number % step == 0 or number == len(plan):
            print(
                f"{engine}: {number}/{len(plan)} rounds, OLD {tally.ended_old}, NEW {tally.ended_new}, "
                f"failures {len(tally.failures)}, sync {statistics.median(recent):.1f} s, "
                f"{time.monotonic() - started:.0f} s",
                flush=True,
            )
    # A last completed OLD -> NEW sync removes whatever a killed writer left, and must leave exactly NEW.
    tally.sync_seconds.append(store.sync(expected.new_source)[1])
    check_temporary_files_gone(store, tally, f"{engine}-final")
    if classify_state(store, expected, tally, f"{engine}-final", folders["failures"]) != "new":
        tally.failures.append(f"{engine}-final: a completed sync to NEW did not leave NEW")
    problem = integrity_problem(store, folders["snapshot"])
    if problem:
        tally.integrity_failures += 1
        tally.failures.append(f"{engine}-final: {problem}")
    tally.seconds = time.monotonic() - started
    return tally


# --------------------------------------------------------------------------------------------------------------------
# Report


def print_summary(tallies, args):
    print()
    print(
        f"crash-soak: {args.posts} posts, {args.kills} SIGKILLs (JSON: + {args.temp_kills} at the temporary file) "
        f"+ {args.signals} SIGINT/SIGTERM per engine, seed {args.seed}"
    )
    headers = [
        "engine", "kills (at tmp)", "ended OLD", "ended NEW", "finished first", "integrity fail", "mixed", "info mismatch",
        "other fail", "tmp after kills", "tmp left", "sync s (min-max)", "time s", "s/round",
    ]
    rows = []
    for t in tallies:
        rounds = t.kills + sum(t.signal_outcomes.values())
        rows.append([
            t.engine, f"{t.kills} ({t.temp_file_kills})", t.ended_old, t.ended_new, t.finished_before_signal, t.integrity_failures,
            t.mixed_states, t.info_mismatches, t.other_failures, len(t.temp_files_seen), t.temp_files_left,
            f"{statistics.median(t.sync_seconds):.1f} ({min(t.sync_seconds):.1f}-{max(t.sync_seconds):.1f})",
            f"{t.seconds:.0f}", f"{t.seconds / max(1, rounds):.1f}",
        ])
    print_table(headers, rows)
    print("(ended OLD/NEW count every round, SIGKILL and SIGINT/SIGTERM; 'finished first': the sync ended before the signal)")
    outcomes = [(t.engine, name, outcome, n) for t in tallies for (name, outcome), n in sorted(t.signal_outcomes.items())]
    if outcomes:
        print()
        print_table(["engine", "signal", "how the sync ended", "rounds"], [list(row) for row in outcomes])
    print_failures([failure for t in tallies for failure in t.failures])


# --------------------------------------------------------------------------------------------------------------------


def parse_arguments():
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog="CI smoke size (about 40 s): scripts/reliability/crash-soak.py --posts 20000 --kills 15 --temp-kills 5 "
        "--signals 4",
    )
    parser.add_argument("--posts", type=int, default=200_000, help="posts in OLD (default 200000)")
    parser.add_argument("--kills", type=int, default=50, help="SIGKILL rounds per engine (default 50)")
    parser.add_argument(
        "--temp-kills",
        type=int,
        default=5,
        help="JSON engine: more SIGKILL rounds sent just after the temporary file appears (default 5)",
    )
    parser.add_argument("--signals", type=int, default=10, help="SIGINT/SIGTERM rounds per engine (default 10)")
    parser.add_argument("--seed", type=int, default=1, help="seed for the data and the kill delays (default 1)")
    add_soak_arguments(parser)
    args = parser.parse_args()
    parse_engines(parser, args)
    if args.posts < 20 or min(args.kills, args.temp_kills, args.signals) < 0:
        parser.error("--posts must be at least 20, --kills, --temp-kills and --signals not negative")
    return args


def main():
    args = parse_arguments()

    def soak(workdir):
        poststore = find_poststore(args.poststore)
        rng = random.Random(args.seed)
        old_posts, new_posts, change = make_sources(rng, args.posts)
        sources = {"old": workdir / "old.json", "new": workdir / "new.json"}
        write_source(sources["old"], old_posts)
        write_source(sources["new"], new_posts)
        print(
            f"crash-soak: {poststore}, work folder {workdir}; OLD {len(old_posts)} posts, NEW {len(new_posts)} "
            f"({change['inserted']} added, {change['updated']} changed, {change['deleted']} removed)",
            flush=True,
        )
        tallies = [
            soak_engine(engine, args, poststore, workdir, old_posts, new_posts, change, sources)
            for engine in args.engines
        ]
        print_summary(tallies, args)
        return any(t.failed() for t in tallies)

    return run_soak("crash-soak", args, "sqlite" in args.engines, soak, CurrentChild.kill_current)


if __name__ == "__main__":
    sys.exit(main())
