#!/usr/bin/env bash
# Checks `poststore serve` against its OpenAPI document (openapi.yaml) with schemathesis, a property-based API tester
# (PyPI): it generates requests from the document, valid and invalid, sends them to a server on a free loopback port
# over a copy of Samples/posts.json (writes allowed), and fails on any server error (5xx) and any response that the
# document does not allow (status, content type, headers, body schema), and on a schema-invalid request accepted.
#
# One check is left out: "positive_data_acceptance" (a schema-valid request must not be a 4xx). The document cannot
# say the rules that tie parameters together (`_page` with `_start`, `_end` with `_limit`, `_sort=-id` with
# `_order=asc`, a body's id that differs from the path's), which the server answers with a 400 by design.
#
# Usage:
#   scripts/reliability/api-check.sh [--poststore PATH] [--examples N]
#     --poststore PATH  the binary to serve with (default: builds and uses .build/debug/poststore)
#     --examples N      examples per operation and phase (default 100; CI runs 20)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/usage_support.sh"
poststore=""
examples=100
while (($#)); do
    case "$1" in
        -h | --help) usage 0 ;;
        --poststore) [[ $# -ge 2 ]] || usage 64; poststore=$2; shift 2 ;;
        --examples) [[ $# -ge 2 && $2 =~ ^[1-9][0-9]*$ ]] || usage 64; examples=$2; shift 2 ;;
        *) echo "api-check.sh: unknown option $1" >&2; usage 64 ;;
    esac
done
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
command -v schemathesis >/dev/null || {
    echo "api-check.sh: schemathesis is not installed: pip install schemathesis" >&2
    exit 69
}
if [[ -z $poststore ]]; then
    swift build --product poststore
    poststore=.build/debug/poststore
fi
folder=$(mktemp -d)
server=""
cleanup() {
    [[ -n $server ]] && kill -TERM "$server" 2>/dev/null && wait "$server" || true
    rm -rf "$folder"
}
trap cleanup EXIT
"$poststore" sync --from Samples/posts.json --store "$folder/served.sqlite" --quiet
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$poststore" serve --store "$folder/served.sqlite" --port "$port" --allow-writes --quiet 2>"$folder/serve.log" &
server=$!
for _ in $(seq 100); do
    python3 -c "import socket; socket.create_connection(('127.0.0.1', $port), 0.2)" 2>/dev/null && break
    sleep 0.1
done
schemathesis run openapi.yaml --url "http://127.0.0.1:$port" --max-examples "$examples" \
    --exclude-checks positive_data_acceptance --seed 1 --no-color
kill -TERM "$server"
wait "$server" || { echo "api-check.sh: the server did not stop cleanly:" >&2; cat "$folder/serve.log" >&2; exit 1; }
server=""
