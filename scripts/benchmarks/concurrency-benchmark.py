#!/usr/bin/env python3
"""Measures whether one slow call stops everyone else, on this checkout and, with --baseline REF, on an earlier one
side by side in one run (see Benchmarks/README.md, "One slow call and everyone else").

It writes N posts in JSONPlaceholder's layout (lorem-ipsum text: "dolor" is in most of them) and syncs them into a
SQLite store, then, for each build, the servers taking turns within each of R rounds (medians in the table):

- `poststore serve` over the store: `/posts/ID` under wrk (`-t1 -c4`, a random id per request) alone, then while
  two other clients keep asking a common word's search (`/posts?q=dolor&_limit=50`, about a second each); with
  datasette installed (pip install 'datasette<0.66'), the same against datasette on the same file
  (`/DB/posts/ID.json`, `?body__contains=dolor&_size=50`);
- `poststore-stall` (Benchmarks/Concurrency): an app that syncs the N posts into two new SQLite stores at once while
  a reader looks up a post every 10 ms and a ticker sleeps 10 ms in a loop; their p50, p99 and max;
- `poststore-stall --lookups`: calls one after another on the store, in process, as the main harness times them
  (p50 of 20,000 lookups by id and of 5,000 filters by user, 10 results).

The earlier build is made from a worktree of REF in a temporary folder (removed at the end), with this checkout's
Benchmarks/Concurrency copied into it: its first build takes about as long as this checkout's. Every answer is
checked once before it is timed, and a run whose wrk saw an error fails. Needs wrk (apt-get install wrk).

Usage:
  scripts/benchmarks/concurrency-benchmark.py [--posts N] [--runs R] [--seconds S] [--baseline REF] [--no-datasette]
"""
import argparse
import json
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "lib"))  # scripts/lib: script_support
from script_support import REPO, SetupError, Server, fetch, free_port, make_post

SLOW_WORD = "dolor"
ROW_LUA = """
math.randomseed(7)
request = function() return wrk.format("GET", string.format("{pattern}", math.random(1, {high}))) end
"""


def write_posts(path, count):
    rng = random.Random(47)
    with open(path, "w") as out:
        out.write("[")
        for post_id in range(1, count + 1):
            out.write(("," if post_id > 1 else "") + json.dumps(make_post(rng, post_id), separators=(",", ":")))
        out.write("]")


def build(checkout, label):
    """The release `poststore` and `poststore-stall` of the package at `checkout`."""
    print(f"building {label} (release: poststore, Benchmarks/Concurrency) ...", file=sys.stderr, flush=True)
    for argv in (["swift", "build", "-c", "release", "--product", "poststore"],
                 ["swift", "build", "-c", "release", "--package-path", "Benchmarks/Concurrency"]):
        if subprocess.run(argv, cwd=checkout, stdout=subprocess.DEVNULL).returncode != 0:
            raise SetupError(f"{' '.join(argv)} failed in {checkout}")
    return checkout / ".build/release/poststore", checkout / "Benchmarks/Concurrency/.build/release/poststore-stall"


def wrk(base, pattern, high, seconds):
    """Requests/s, p50 and p99 (ms) of `/posts/ID`-like requests (`pattern` holds a %d) against `base`."""
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as script:
        script.write(ROW_LUA.replace("{pattern}", pattern).replace("{high}", str(high)))
    try:
        result = subprocess.run(["wrk", "-t1", "-c4", f"-d{seconds}s", "--timeout", "30s", "--latency", "-s",
                                 script.name, base], capture_output=True, text=True)
    finally:
        Path(script.name).unlink()
    out = result.stdout
    if result.returncode != 0 or "Non-2xx or 3xx responses" in out or "Socket errors" in out:
        raise SetupError(f"wrk against {base}{pattern} failed or saw errors:\n{out}{result.stderr}")

    def percentile(name):
        value, unit = re.search(rf"\s{name}%\s+([\d.]+)(us|ms|s)\b", out).groups()
        return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]

    return float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)), percentile("50"), percentile("99")


def while_searching(url, seconds, measure):
    """Runs `measure` while two clients ask `url` over and over (from half a second before it until it ends);
    returns its result and how many searches were answered."""
    stop = threading.Event()
    answered = []
    failures = []

    def client():
        while not stop.is_set():
            status, _, _ = fetch(url)
            if status != 200:
                failures.append(status)
                return
            answered.append(1)

    clients = [threading.Thread(target=client) for _ in range(2)]
    for thread in clients:
        thread.start()
    time.sleep(0.5)
    try:
        result = measure()
    finally:
        stop.set()
        for thread in clients:
            thread.join()
    if failures:
        raise SetupError(f"the search {url} answered {failures[0]}")
    return result, len(answered)


def serve_poststore(binary, store, posts, seconds):
    port = free_port()
    server = Server([str(binary), "serve", "--store", store, "--port", str(port), "--quiet"], port)
    base = f"http://127.0.0.1:{port}"
    search = f"{base}/posts?q={SLOW_WORD}&_limit=50"
    try:
        status, _, body = fetch(f"{base}/posts/7")
        check(status == 200 and json.loads(body)["id"] == 7, f"{binary}: GET /posts/7")
        status, _, body = fetch(search)
        check(status == 200 and len(json.loads(body)) == 50, f"{binary}: the search")
        alone = wrk(base, "/posts/%d", posts, seconds)
        loaded, searches = while_searching(search, seconds, lambda: wrk(base, "/posts/%d", posts, seconds))
    finally:
        server.stop()
    return {"alone": alone, "loaded": loaded, "searches": searches}


def serve_datasette(sqlite_path, posts, seconds):
    port = free_port()
    server = Server(["datasette", "serve", str(sqlite_path), "--port", str(port), "--setting", "sql_time_limit_ms",
                     "10000"], port)
    name = sqlite_path.stem
    base = f"http://127.0.0.1:{port}"
    search = f"{base}/{name}/posts.json?body__contains={SLOW_WORD}&_size=50&_shape=array"
    try:
        status, _, body = fetch(f"{base}/{name}/posts/7.json")
        check(status == 200 and b'"rows"' in body, "datasette: a row")
        status, _, body = fetch(search)
        check(status == 200 and len(json.loads(body)) == 50, "datasette: the search")
        pattern = f"/{name}/posts/%d.json"
        alone = wrk(base, pattern, posts, seconds)
        loaded, searches = while_searching(search, seconds, lambda: wrk(base, pattern, posts, seconds))
    finally:
        server.stop()
    return {"alone": alone, "loaded": loaded, "searches": searches}


def stall(binary, posts_file, seed_file, folder, posts):
    result = subprocess.run([str(binary), str(posts_file), str(seed_file), str(folder)], capture_output=True,
                            text=True)
    if result.returncode != 0:
        raise SetupError(f"{binary} failed: {result.stderr.strip()}")
    figures = json.loads(result.stdout.strip().splitlines()[-1])
    check(figures["inserted"] == posts - 100, f"{binary}: inserted {figures['inserted']}, not {posts - 100}")
    return figures


def lookups(binary, sqlite_path):
    result = subprocess.run([str(binary), "--lookups", str(sqlite_path)], capture_output=True, text=True)
    if result.returncode != 0:
        raise SetupError(f"{binary} --lookups failed: {result.stderr.strip()}")
    return json.loads(result.stdout.strip().splitlines()[-1])


def check(condition, what):
    if not condition:
        raise SetupError(f"check failed: {what}")


def median(values):
    return statistics.median(values)


def verdict(value, target, at_most=True):
    met = value <= target if at_most else value >= target
    return "met" if met else "**missed**"


def print_tables(builds, serve_rounds, stall_rounds, datasette_rounds, lookup_rounds):
    print("| `poststore serve`, `/posts/ID` | alone, answers/s | alone p99 ms | during 2 searches, answers/s "
          "| p50 ms | p99 ms | searches answered |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    rows = [(label, [r[label] for r in serve_rounds]) for label, _ in builds]
    if datasette_rounds:
        rows.append(("datasette, same file", datasette_rounds))
    for label, runs in rows:
        alone = [median([run["alone"][i] for run in runs]) for i in range(3)]
        loaded = [median([run["loaded"][i] for run in runs]) for i in range(3)]
        searches = median([run["searches"] for run in runs])
        print(f"| {label} | {alone[0]:,.0f} | {alone[2]:.2f} | {loaded[0]:,.0f} | {loaded[1]:.2f} | {loaded[2]:.2f} "
              f"| {searches:.0f} |")
    print()
    print("| app syncing into two stores at once | sync s | lookup p50 ms | p99 ms | max ms | sleep 10 ms, late p50 ms "
          "| p99 ms | max ms |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for label, _ in builds:
        runs = [r[label] for r in stall_rounds]
        lookup = {k: median([run["lookup"][k] for run in runs]) for k in ("p50", "p99", "max")}
        late = {k: median([run["lateness"][k] for run in runs]) for k in ("p50", "p99", "max")}
        took = median([run["seconds"] for run in runs])
        print(f"| {label} | {took:.1f} | {lookup['p50']:.2f} | {lookup['p99']:.2f} | {lookup['max']:.1f} "
              f"| {late['p50']:.2f} | {late['p99']:.2f} | {late['max']:.1f} |")
    print()
    print("| in process, one call after another (p50) | lookup by id µs | filter by user, 10 results µs |")
    print("|---|---:|---:|")
    for label, _ in builds:
        runs = [r[label] for r in lookup_rounds]
        print(f"| {label} | {median([run['id'] for run in runs]):.1f} | {median([run['user'] for run in runs]):.1f} |")
    print()
    current = builds[0][0]
    loaded = [median([r[current]["loaded"][i] for r in serve_rounds]) for i in range(3)]
    runs = [r[current] for r in stall_rounds]
    print(f"- Targets ({current}): `/posts/ID` during the searches p99 ≤ 25 ms: {loaded[2]:.2f} ms, "
          f"{verdict(loaded[2], 25)}; at least 2,460 answers/s: {loaded[0]:,.0f}, "
          f"{verdict(loaded[0], 2460, at_most=False)}.")
    if len(builds) > 1:
        baseline = builds[1][0]
        alone = [median([r[label]["alone"][0] for r in serve_rounds]) for label in (current, baseline)]
        print(f"- `/posts/ID` alone: {alone[0]:,.0f} answers/s against {alone[1]:,.0f} for {baseline} "
              f"({alone[0] / alone[1]:.2f}×; target: at least {baseline}'s).")
    lookup_p99 = median([run["lookup"]["p99"] for run in runs])
    late_p99 = median([run["lateness"]["p99"] for run in runs])
    late_max = median([run["lateness"]["max"] for run in runs])
    print(f"- The app: a lookup's p99 ≤ 5 ms: {lookup_p99:.2f}, {verdict(lookup_p99, 5)}; the ticker's lateness "
          f"p99 ≤ 5 ms: {late_p99:.2f}, {verdict(late_p99, 5)}, max ≤ 50 ms: {late_max:.1f}, "
          f"{verdict(late_max, 50)}.")


def main():
    parser = argparse.ArgumentParser(description="Does one slow call stop everyone else? Side by side.")
    parser.add_argument("--posts", type=int, default=1_000_000, help="posts in the store (default: %(default)s)")
    parser.add_argument("--runs", type=int, default=3, help="rounds of every measure; medians (default: %(default)s)")
    parser.add_argument("--seconds", type=int, default=8, help="seconds of load per measure (default: %(default)s)")
    parser.add_argument("--baseline", metavar="REF", help="a git ref to measure side by side (built in a worktree)")
    parser.add_argument("--no-datasette", action="store_true", help="leave datasette out")
    args = parser.parse_args()
    if args.posts < 1000 or args.runs < 1 or args.seconds < 1:
        parser.error("--posts must be at least 1000, --runs and --seconds at least 1")
    if shutil.which("wrk") is None:
        parser.error("wrk is not installed (apt-get install wrk)")
    use_datasette = not args.no_datasette
    if use_datasette and shutil.which("datasette") is None:
        parser.error("datasette is not installed (pip install 'datasette<0.66'), or pass --no-datasette")

    folder = Path(tempfile.mkdtemp(prefix="poststore-concurrency-"))
    worktree = None
    try:
        builds = [("this checkout", build(REPO, "this checkout"))]
        if args.baseline:
            commit = subprocess.run(["git", "rev-parse", "--short", args.baseline], cwd=REPO, capture_output=True,
                                    text=True)
            if commit.returncode != 0:
                parser.error(f"--baseline: {args.baseline} is not a commit of this repository")
            worktree = folder / "baseline"
            subprocess.run(["git", "worktree", "add", "--detach", str(worktree), args.baseline], cwd=REPO,
                           check=True, capture_output=True)
            shutil.rmtree(worktree / "Benchmarks/Concurrency", ignore_errors=True)
            shutil.copytree(REPO / "Benchmarks/Concurrency", worktree / "Benchmarks/Concurrency",
                            ignore=shutil.ignore_patterns(".build"))
            short = commit.stdout.strip()
            label = short if args.baseline.startswith(short) else f"{args.baseline} ({short})"
            builds.append((label, build(worktree, args.baseline)))

        print(f"writing {args.posts:,} posts and syncing them into a SQLite store ...", file=sys.stderr, flush=True)
        posts_file, seed_file = folder / "posts.json", folder / "seed.json"
        write_posts(posts_file, args.posts)
        seed_file.write_text(json.dumps([{"userId": 1, "id": i, "title": f"seed {i}", "body": ""}
                                         for i in range(1, 101)]))
        sqlite_path = folder / "served.sqlite"
        subprocess.run([str(builds[0][1][0]), "sync", "--from", str(posts_file), "--store", str(sqlite_path),
                        "--quiet"], check=True, stdout=subprocess.DEVNULL)

        serve_rounds, stall_rounds, datasette_rounds, lookup_rounds = [], [], [], []
        for round_number in range(1, args.runs + 1):
            print(f"round {round_number} of {args.runs} ...", file=sys.stderr, flush=True)
            serve_rounds.append({label: serve_poststore(binaries[0], str(sqlite_path), args.posts, args.seconds)
                                 for label, binaries in builds})
            if use_datasette:
                datasette_rounds.append(serve_datasette(sqlite_path, args.posts, args.seconds))
            lookup_rounds.append({label: lookups(binaries[1], sqlite_path) for label, binaries in builds})
            stall_rounds.append({label: stall(binaries[1], posts_file, seed_file, folder, args.posts)
                                 for label, binaries in builds})
        print_tables(builds, serve_rounds, stall_rounds, datasette_rounds, lookup_rounds)
    except SetupError as error:
        print(f"concurrency-benchmark: {error}", file=sys.stderr)
        return 1
    finally:
        if worktree is not None:
            subprocess.run(["git", "worktree", "remove", "--force", str(worktree)], cwd=REPO, capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
