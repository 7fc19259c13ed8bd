#!/usr/bin/env python3
"""Writes Samples/posts.json: 100 posts in the JSONPlaceholder /posts layout (ids 1-100, users 1-10 with ten posts
each, four-line bodies), made of pseudo-Latin words from a fixed seed, so the file is the same on every run."""
import json
import random
import sys

from script_support import WORDS


def sentence(rng, low, high):
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(low, high)))


def main():
    rng = random.Random(2026)
    posts = [
        {
            "userId": (post_id - 1) // 10 + 1,
            "id": post_id,
            "title": sentence(rng, 2, 8),
            "body": "\n".join(sentence(rng, 5, 9) for _ in range(4)),
        }
        for post_id in range(1, 101)
    ]
    path = sys.argv[1] if len(sys.argv) > 1 else "Samples/posts.json"
    with open(path, "w", encoding="utf-8") as out:
        json.dump(posts, out, indent=2, ensure_ascii=False)
        out.write("\n")


if __name__ == "__main__":
    main()
