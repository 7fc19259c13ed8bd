#!/usr/bin/env python3
"""Measures `poststore serve` under load against datasette serving the same SQLite file, side by side in one run,
and prints a Markdown table (see Benchmarks/README.md, "poststore serve").

It writes N posts in JSONPlaceholder's layout (1 in 10,000 mentions the rare word "zyzzyva"), syncs them into a
SQLite store, a JSON-file store and, with --postgres (or a throwaway cluster of scripts/postgres.sh), a PostgreSQL
store, then for each server: starts it, loads each endpoint with wrk (`wrk -t1 -c16 -d10s --latency`, a Lua script
choosing a random id or user per request), and reads the server's peak resident memory (VmHWM) at the end. The
server and wrk share the machine's two cores as the system schedules them (wrk's one thread takes at most one);
`--pin` puts the server on core 0 and wrk on core 1 instead. With poststore-benchmarks beside the poststore binary
(or --floor PATH), the row is also served by the same `PostServer` over postgres-nio alone, pooled per event loop as
the store's connections and held outside any pool: the floor under PostgreSQL's row. Every endpoint is fetched once
first and its answer checked (status, count, body), and a run whose wrk saw a non-2xx/3xx answer or a socket error
fails.

Endpoints: a row (`/posts/ID`; datasette `/DB/posts/ID.json`), a user's page (`/posts?userId=N&_limit=10`; datasette
`/DB/posts.json?user_id=N&_size=10`), a search page (`/posts?q=zyzzyva&_limit=10`; datasette
`?body__contains=zyzzyva&_size=10`), and a conditional GET answered 304 (poststore only).

With --runs R (default 1) every server is measured R times, the servers taking turns within each round, and the
table gives each figure's median; each poststore row is also given against poststore over SQLite in the same run
(throughput and p99), and the JSON store's peak memory against its file's size: whole, and above the peak of the
same server over an empty JSON store (the program's own code, runtime and threads, about 40 MiB, which a store's
posts do not change).

Needs wrk (apt-get install wrk) and datasette (pip install 'datasette<0.66'); without datasette, --no-datasette
measures poststore alone. Usage:
  scripts/benchmarks/serve-benchmark.py [--poststore PATH] [--posts N] [--seconds S] [--connections C] [--runs R]
                             [--postgres URL] [--floor PATH] [--no-datasette] [--pin]
"""
import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "lib"))  # scripts/lib: script_support
from script_support import (SetupError, Server, fetch, find_poststore, free_port, make_post, start_cluster,
                            stop_cluster)

RARE = "zyzzyva"
LUA = """
math.randomseed(1)
request = function()
  return wrk.format("GET", string.format("{pattern}", math.random(1, {high})), {headers})
end
"""


def run_wrk(args, base, pattern, high, headers=None, drain=None):
    """Requests/s, p50 and p99 (ms) of wrk against base + pattern (a %d for a random number from 1 to high); then a
    fetch of `drain` (a cheap URL), which waits for what wrk left queued in the server, so that the next measure
    starts on an idle server."""
    header_lua = "{" + ", ".join(f'["{k}"] = "{v}"' for k, v in (headers or {}).items()) + "}"
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as script:
        script.write(LUA.replace("{pattern}", pattern).replace("{high}", str(high)).replace("{headers}", header_lua))
    pin = ["taskset", "-c", "1"] if args.pin else []
    argv = [*pin, "wrk", "-t1", f"-c{args.connections}", f"-d{args.seconds}s", "--timeout", "30s", "--latency", "-s",
            script.name, base]
    result = subprocess.run(argv, capture_output=True, text=True)
    os.unlink(script.name)
    out = result.stdout
    if result.returncode != 0 or "Non-2xx or 3xx responses" in out or "Socket errors" in out:
        raise SetupError(f"wrk against {base}{pattern} failed or saw errors:\n{out}{result.stderr}")
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    if drain:
        fetch(drain)

    def percentile(name):
        value, unit = re.search(rf"\s{name}%\s+([\d.]+)(us|ms|s)\b", out).groups()
        return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]

    return rate, percentile("50"), percentile("99")


def check(condition, what):
    if not condition:
        raise SetupError(f"check failed: {what}")


def measure_poststore(args, binary, store, posts, rare_ids, rows):
    port = free_port()
    server = Server([str(binary), "serve", "--store", store, "--port", str(port), "--quiet"], port, pin=args.pin)
    base = f"http://127.0.0.1:{port}"
    try:
        status, _, body = fetch(f"{base}/posts/7")
        check(status == 200 and json.loads(body)["id"] == 7, f"{store}: GET /posts/7")
        status, headers, body = fetch(f"{base}/posts?userId=3&_limit=10")
        check(status == 200 and [p["userId"] for p in json.loads(body)] == [3] * 10, f"{store}: a user's page")
        status, _, body = fetch(f"{base}/posts?q={RARE}&_limit=10")
        check(status == 200 and [p["id"] for p in json.loads(body)] == rare_ids[:10], f"{store}: the search page")
        # The 304's target is fixed (wrk's pattern with 1 as its only number): its tag is that target's.
        status, headers, _ = fetch(f"{base}/posts?userId=7&_limit=10&_=1")
        tag = headers.get("ETag")
        check(fetch(f"{base}/posts?userId=7&_limit=10&_=1", {"If-None-Match": tag})[0] == 304, f"{store}: a 304")
        users = posts // 10
        drain = f"{base}/posts/1"
        measures = {
            "row": run_wrk(args, base, "/posts/%d", posts, drain=drain),
            "user page": run_wrk(args, base, "/posts?userId=%d&_limit=10", users, drain=drain),
            "search page": run_wrk(args, base, f"/posts?q={RARE}&_limit=10&_=%d", posts, drain=drain),
            "304": run_wrk(args, base, "/posts?userId=7&_limit=10&_=%d", 1, {"If-None-Match": tag.replace('"', '\\"')}),
        }
    finally:
        memory = server.stop()
    rows.append((store, measures, memory))
    return measures


def measure_floor(args, floor, store, posts, rows, held):
    """A row through `PostServer` over postgres-nio alone (`poststore-benchmarks --serve-postgres-nio-alone`): the
    floor under `poststore serve` over PostgreSQL, with a pool per event loop as the store's, or `held` connections
    outside any pool."""
    port = free_port()
    argv = [str(floor), "--serve-postgres-nio-alone", store, str(port)] + (["--held"] if held else [])
    server = Server(argv, port, pin=args.pin)
    base = f"http://127.0.0.1:{port}"
    try:
        status, _, body = fetch(f"{base}/posts/7")
        check(status == 200 and json.loads(body)["id"] == 7, "the postgres-nio floor: GET /posts/7")
        measures = {"row": run_wrk(args, base, "/posts/%d", posts, drain=f"{base}/posts/1")}
    finally:
        memory = server.stop()
    name = "PostServer, postgres-nio alone" + (", held connections" if held else ", pooled")
    rows.append((name, measures, memory))


def measure_empty_server(args, binary, folder):
    """The peak memory (MiB) of `poststore serve` over an empty JSON store, each endpoint asked once: the program's
    own (its code, runtime and threads), which the same server over a full store holds too."""
    empty = folder / "empty.json"
    empty.write_text("[]")
    store = f"json:{folder / 'served-empty.json'}"
    subprocess.run([str(binary), "sync", "--from", str(empty), "--store", store, "--quiet"], check=True,
                   stdout=subprocess.DEVNULL)
    port = free_port()
    server = Server([str(binary), "serve", "--store", store, "--port", str(port), "--quiet"], port, pin=args.pin)
    base = f"http://127.0.0.1:{port}"
    try:
        check(fetch(f"{base}/posts/7")[0] == 404, f"{store}: GET /posts/7")
        check(fetch(f"{base}/posts?userId=3&_limit=10")[0] == 200, f"{store}: a user's page")
        check(fetch(f"{base}/posts?q={RARE}&_limit=10")[0] == 200, f"{store}: the search page")
    finally:
        memory = server.stop()
    return memory


def measure_datasette(args, sqlite_path, posts, rare_ids, rows):
    port = free_port()
    server = Server(["datasette", "serve", str(sqlite_path), "--port", str(port), "--setting", "sql_time_limit_ms",
                     "10000"], port, pin=args.pin)
    name = sqlite_path.stem
    base = f"http://127.0.0.1:{port}"
    try:
        status, _, body = fetch(f"{base}/{name}/posts/7.json")
        check(status == 200 and b'"rows"' in body, "datasette: a row")
        status, _, body = fetch(f"{base}/{name}/posts.json?user_id=3&_size=10")
        check(status == 200 and len(json.loads(body)["rows"]) == 10, "datasette: a user's page")
        status, _, body = fetch(f"{base}/{name}/posts.json?body__contains={RARE}&_size=10&_shape=array")
        check(status == 200 and len(json.loads(body)) == min(10, len(rare_ids)), "datasette: the search page")
        users = posts // 10
        drain = f"{base}/{name}/posts/1.json"
        measures = {
            "row": run_wrk(args, base, f"/{name}/posts/%d.json", posts, drain=drain),
            "user page": run_wrk(args, base, f"/{name}/posts.json?user_id=%d&_size=10", users, drain=drain),
            "search page": run_wrk(args, base, f"/{name}/posts.json?body__contains={RARE}&_size=10&_=%d", posts),
        }
    finally:
        memory = server.stop()
    rows.append(("datasette (SQLite)", measures, memory))
    return measures


def shown_name(name):
    """A row's server and store, as the table shows it."""
    if name.startswith("sqlite:"):
        return "poststore serve, SQLite"
    if name.startswith("json:"):
        return "poststore serve, JSON file"
    if name.startswith("postgres"):
        return "poststore serve, PostgreSQL"
    return name


def medians(rounds):
    """The rows of the first round, each figure (requests/s, p50, p99, memory) the median of its rounds'."""
    def median(values):
        values = sorted(values)
        return values[len(values) // 2]
    rows = []
    for index, (name, measures, _) in enumerate(rounds[0]):
        runs = [round_rows[index] for round_rows in rounds]
        combined = {measure: tuple(median([run[1][measure][field] for run in runs]) for field in range(3))
                    for measure in measures}
        rows.append((name, combined, median([run[2] for run in runs])))
    return rows


def main():
    parser = argparse.ArgumentParser(description="Measure poststore serve against datasette under wrk.")
    parser.add_argument("--poststore", help="the release poststore to serve with (default: build one)")
    parser.add_argument("--posts", type=int, default=100_000, help="posts in each store (default: %(default)s)")
    parser.add_argument("--seconds", type=int, default=10, help="seconds of load per measure (default: %(default)s)")
    parser.add_argument("--connections", type=int, default=16, help="wrk's connections (default: %(default)s)")
    parser.add_argument("--runs", type=int, default=1, help="rounds of every measure; medians (default: %(default)s)")
    parser.add_argument("--postgres", help="a PostgreSQL server URL (default: a throwaway cluster)")
    parser.add_argument("--floor", help="poststore-benchmarks, to serve the postgres-nio floor (default: beside "
                        "the poststore binary, if there)")
    parser.add_argument("--no-datasette", action="store_true", help="measure poststore alone")
    parser.add_argument("--pin", action="store_true", help="the server on core 0, wrk on core 1")
    args = parser.parse_args()
    if args.posts < 1000 or args.seconds < 1 or args.connections < 1 or args.runs < 1:
        parser.error("--posts must be at least 1000, --seconds, --connections and --runs at least 1")
    for tool, hint in [("wrk", "apt-get install wrk")] + ([("taskset", "apt-get install util-linux")] if args.pin else []) + (
        [] if args.no_datasette else [("datasette", "pip install 'datasette<0.66'")]
    ):
        if not shutil.which(tool):
            print(f"serve-benchmark.py: {tool} is not installed: {hint}", file=sys.stderr)
            return 69
    cluster = None
    folder = Path(tempfile.mkdtemp(prefix="serve-benchmark-"))
    try:
        binary = find_poststore(args.poststore)
        floor = Path(args.floor) if args.floor else Path(binary).parent / "poststore-benchmarks"
        if args.floor and not os.access(floor, os.X_OK):
            raise SetupError(f"--floor {args.floor} is not an executable file")
        floor = floor if os.access(floor, os.X_OK) else None
        rng = random.Random(2026)
        data = [make_post(rng, post_id) for post_id in range(1, args.posts + 1)]
        rare_ids = []
        for post in data:
            if post["id"] % 10_000 == 4321 % min(args.posts, 10_000):
                post["body"] += f" {RARE}"
                rare_ids.append(post["id"])
        (folder / "posts.json").write_text(json.dumps(data, ensure_ascii=False))
        url = args.postgres or start_cluster()
        cluster = None if args.postgres else url
        stores = [f"sqlite:{folder / 'served.sqlite'}", f"json:{folder / 'served.json'}",
                  f"{url}{'&' if '?' in url else '?'}schema=serve_benchmark_{os.getpid()}"]
        for store in stores:
            subprocess.run([str(binary), "sync", "--from", str(folder / "posts.json"), "--store", store, "--quiet"],
                           check=True)
        split = "wrk on core 1, each server on core 0" if args.pin else "wrk and each server sharing both cores"
        print(f"{args.posts} posts ({len(rare_ids)} with \"{RARE}\"), wrk -t1 -c{args.connections} -d{args.seconds}s, "
              f"{split}", file=sys.stderr)
        rounds = []
        for run in range(args.runs):
            print(f"round {run + 1} of {args.runs}", file=sys.stderr)
            rows = []
            if not args.no_datasette:
                measure_datasette(args, folder / "served.sqlite", args.posts, rare_ids, rows)
            for store in stores:
                measure_poststore(args, binary, store, args.posts, rare_ids, rows)
            if floor:
                for held in (False, True):
                    measure_floor(args, floor, stores[2], args.posts, rows, held)
            rounds.append(rows)
        rows = medians(rounds)
        named = {shown_name(name): (measures, memory) for name, measures, memory in rows}
        peer = named.get("datasette (SQLite)", (None, 0))[0]
        sqlite = named["poststore serve, SQLite"][0]
        print("| server, store | measure | requests/s | p50 ms | p99 ms | vs datasette (throughput; p99) "
              "| vs poststore SQLite (throughput; p99) | peak memory |")
        print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
        for name, (measures, memory) in named.items():
            for measure, (rate, p50, p99) in measures.items():
                versus = ""
                if peer and measure in peer and not name.startswith("datasette"):
                    versus = f"{rate / peer[measure][0]:.1f}×; {p99 / peer[measure][2]:.3f}"
                versus_sqlite = ""
                if name.startswith(("poststore", "PostServer")) and name != "poststore serve, SQLite":
                    versus_sqlite = f"{rate / sqlite[measure][0]:.2f}×; {p99 / sqlite[measure][2]:.2f}"
                print(f"| {name} | {measure} | {rate:,.0f} | {p50:.2f} | {p99:.2f} | {versus} | {versus_sqlite} "
                      f"| {memory:.0f} MiB |")
        json_memory = named["poststore serve, JSON file"][1]
        file_mib = (folder / "served.json").stat().st_size / 1_048_576
        program = measure_empty_server(args, binary, folder)
        posts_memory = json_memory - program
        print(f"\nThe JSON store's file: {file_mib:.1f} MiB; its server's peak memory {json_memory:.1f} MiB, "
              f"{json_memory / file_mib:.2f}× the file. The same server over an empty JSON store: {program:.1f} MiB "
              f"(the program: its code, runtime and threads). The posts took {posts_memory:.1f} MiB, "
              f"{posts_memory / file_mib:.2f}× the file (target ≤ 2×).")
        return 0
    except SetupError as error:
        print(f"serve-benchmark.py: {error}", file=sys.stderr)
        return 1
    finally:
        if cluster:
            stop_cluster(cluster, "serve-benchmark.py")
        elif args.postgres and shutil.which("psql"):
            # The schema this run made, and nothing else.
            subprocess.run(["psql", args.postgres, "-qc", f"DROP SCHEMA IF EXISTS serve_benchmark_{os.getpid()} CASCADE"],
                           capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
