#!/usr/bin/env bash
# Builds the benchmark harness and the `poststore` CLI it times (both in release, in Benchmarks/.build) and runs it.
# Arguments go to the harness: --posts N (default 1,000,000), --runs R (default 3). See Benchmarks/README.md.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --package-path Benchmarks --product poststore
swift build -c release --package-path Benchmarks --product poststore-benchmarks
Benchmarks/.build/release/poststore-benchmarks "$@"
