#!/usr/bin/env python3
"""Writes Samples/posts.json: 100 posts in the JSONPlaceholder /posts layout (ids 1-100, users 1-10 with ten posts
each, four-line bodies), made of pseudo-Latin words from a fixed seed, so the file is the same on every run.
With --posts N it writes N posts in the same layout (ten a user), for trying a large sync by hand."""
import argparse
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "lib"))  # scripts/lib: script_support
from script_support import WORDS


def sentence(rng, low, high):
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(low, high)))


def main():
    parser = argparse.ArgumentParser(description="Write a deterministic file of posts in JSONPlaceholder's layout.")
    parser.add_argument("path", nargs="?", default="Samples/posts.json", help="where to write (default: %(default)s)")
    parser.add_argument("--posts", type=int, default=100, help="how many posts (default: %(default)s)")
    args = parser.parse_args()
    if args.posts < 0:
        parser.error("--posts must be 0 or more")
    rng = random.Random(2026)
    posts = [
        {
            "userId": (post_id - 1) // 10 + 1,
            "id": post_id,
            "title": sentence(rng, 2, 8),
            "body": "\n".join(sentence(rng, 5, 9) for _ in range(4)),
        }
        for post_id in range(1, args.posts + 1)
    ]
    with open(args.path, "w", encoding="utf-8") as out:
        json.dump(posts, out, indent=2, ensure_ascii=False)
        out.write("\n")


if __name__ == "__main__":
    main()
