#!/usr/bin/env python3
"""How fast `poststore serve` makes its pages for people, and how much they weigh: a SQLite store of a million
posts (by default), served by a release `poststore`, each page asked for one request at a time. For each page it
prints the server's own time to make it (its `Server-Timing`, from the request reaching the pages to the page
made: the store's reads and the rendering), p50 and p95, the time a client waits for the whole answer, and beside
it the time for the same list as JSON (the API's answer to the same address), so that the page's cost over the
API's shows as a ratio measured in the same run. Then the home page's weight: its HTML, style sheet and script.

Targets (issue 33): a page of 50 posts made in 5 ms or less at a million posts; the whole page 50 KB or less.

    python3 scripts/benchmarks/page-benchmark.py --poststore Benchmarks/.build/release/poststore
"""
import argparse
import re
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "lib"))  # scripts/lib: script_support
from script_support import REPO, Server, SetupError, find_poststore, free_port, percentile

PAGES = [
    ("home page (the first 50 posts)", "/"),
    ("page 10,000 of 50 posts", "/posts?_page=10000&_limit=50"),
    ("sorted by title, page 2", "/posts?_sort=title&_page=2&_limit=50"),
    ("a user's posts", "/users/77/posts?_page=1&_limit=50"),
    ("a search, first page", "/posts?q=dolor&_page=1&_limit=50"),
]


def get(url, accept):
    request = urllib.request.Request(url, headers={"Accept": accept})
    started = time.perf_counter()
    with urllib.request.urlopen(request, timeout=60) as answer:
        body = answer.read()
        headers = answer.headers
        # urllib follows a redirect by itself: a page that redirects (a list route without its window) would be
        # timed with its redirect.
        if answer.geturl() != url:
            raise SetupError(f"{url} redirects to {answer.geturl()}: measure the address it names")
    return (time.perf_counter() - started) * 1000, headers, body


def server_milliseconds(headers):
    match = re.search(r"dur=([0-9.]+)", headers.get("Server-Timing", ""))
    if not match:
        raise SetupError("a page came without its Server-Timing")
    return float(match.group(1))


def measure(base, target, requests):
    """p50 and p95 of the page's Server-Timing, the client's p50 for the page and for the same list as JSON."""
    page_url = base + target
    json_url = base + (target if target != "/" else "/posts?_page=1&_limit=50")
    for _ in range(20):  # warm the store's caches and the connection's prepared statements
        get(page_url, "text/html")
        get(json_url, "application/json")
    made, page_wait, json_wait = [], [], []
    for _ in range(requests):
        waited, headers, _ = get(page_url, "text/html")
        made.append(server_milliseconds(headers))
        page_wait.append(waited)
        waited, _, _ = get(json_url, "application/json")
        json_wait.append(waited)
    return percentile(made, 0.5), percentile(made, 0.95), statistics.median(page_wait), statistics.median(json_wait)


def weight(base):
    _, _, html = get(base + "/", "text/html")
    assets = re.findall(rb'(?:href|src)="(/_page/[^"]+\.(?:css|js))"', html)
    sizes = {"HTML": len(html)}
    for path in assets:
        _, _, body = get(base + path.decode(), "*/*")
        sizes[path.decode().rsplit(".", 1)[-1].upper()] = len(body)
    return sizes


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--poststore", help="the poststore binary (default: build it in release)")
    parser.add_argument("--posts", type=int, default=1_000_000, help="posts in the store (default: %(default)s)")
    parser.add_argument("--requests", type=int, default=300, help="requests a page (default: %(default)s)")
    args = parser.parse_args()
    if args.posts < 1 or args.requests < 1:
        parser.error("--posts and --requests must be at least 1")
    try:
        poststore = str(find_poststore(args.poststore))
        with tempfile.TemporaryDirectory(prefix="poststore-pages-") as folder:
            folder = Path(folder)
            print(f"writing {args.posts} posts and syncing them into a SQLite store ...", flush=True)
            make_sample = REPO / "scripts" / "development" / "make-sample.py"
            subprocess.run([sys.executable, str(make_sample), str(folder / "posts.json"), "--posts", str(args.posts)],
                           check=True)
            subprocess.run([poststore, "sync", "--from", "posts.json", "--store", "pages.sqlite", "--quiet"],
                           cwd=folder, check=True)
            port = free_port()
            server = Server([poststore, "serve", "--store", "pages.sqlite", "--port", str(port), "--quiet"], port,
                            cwd=folder)
            try:
                base = f"http://127.0.0.1:{port}"
                rows = [(name, *measure(base, target, args.requests)) for name, target in PAGES]
                sizes = weight(base)
            finally:
                server.stop()
    except (SetupError, subprocess.CalledProcessError) as error:
        print(f"page-benchmark: {error}", file=sys.stderr)
        return 2
    print(f"\nSQLite store of {args.posts:,} posts, {args.requests} requests a page, one at a time\n")
    print("| page | made by the server, p50 ms | p95 ms | client, page p50 ms | client, same list as JSON p50 ms "
          "| page / JSON | target |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for name, made50, made95, page50, json50 in rows:
        target = "≤ 5 ms: " + ("met" if made50 <= 5 else "**missed**")
        print(f"| {name} | {made50:.2f} | {made95:.2f} | {page50:.2f} | {json50:.2f} | {page50 / json50:.2f}× "
              f"| {target} |")
    total = sum(sizes.values())
    parts = ", ".join(f"{kind} {size:,} B" for kind, size in sizes.items())
    print(f"\nThe home page's weight: {total:,} bytes ({parts}); target ≤ 50 KB: "
          + ("met" if total <= 50_000 else "**missed**"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
