#!/usr/bin/env bash
# Starts and stops a throwaway PostgreSQL cluster for the PostgreSQL engine's tests, benchmarks and soaks: a new
# cluster in a temporary folder, listening on 127.0.0.1 only (and a Unix socket in the folder), trusting local
# connections for the role `poststore`; a second role, `poststore_password`, must log in with its password
# `poststore-test-password` (the tests of a refused login). Nothing outside that folder is touched; `stop` deletes it.
#
# Usage:
#   scripts/postgres.sh start [--port N]   start a cluster; prints its URL on standard output, for example
#                                          POSTSTORE_TEST_POSTGRES_URL=$(scripts/postgres.sh start)
#   scripts/postgres.sh stop URL|DIR       stop the cluster started with that URL (or in that folder), delete it
#
#   --port N   the port to listen on (default: a free one the system picks)
#
# initdb refuses to run as root: as root the cluster runs as the `postgres` user (through runuser), otherwise as
# the invoking user. The server binaries are looked up with pg_config, then in /usr/lib/postgresql/*/bin.
# Exits 64 on a bad option, 69 when no PostgreSQL server is installed, 1 when the cluster fails to start or stop.
set -euo pipefail
# shellcheck source=scripts/lib/usage_support.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/usage_support.sh"

# The folder holding initdb and pg_ctl.
server_bin() {
    local candidate
    if command -v pg_config >/dev/null && candidate=$(pg_config --bindir 2>/dev/null) && [[ -x "$candidate/initdb" ]]; then
        echo "$candidate"
        return
    fi
    for candidate in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
        [[ -x "$candidate/initdb" ]] && { echo "$candidate"; return; }
    done
    echo "postgres.sh: no PostgreSQL server found (initdb); install it, e.g. apt-get install postgresql" >&2
    exit 69
}

# Runs a command as the cluster's owner: the `postgres` user when we are root, else ourselves.
as_owner() {
    if [[ $(id -u) -eq 0 ]]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

start() {
    local port=""
    while (($#)); do
        case "$1" in
            --port)
                [[ $# -ge 2 && "$2" =~ ^[0-9]+$ ]] || usage 64
                port=$2
                shift 2
                ;;
            *) usage 64 ;;
        esac
    done
    local bin dir
    bin=$(server_bin)
    [[ -n "$port" ]] || port=$(free_port)
    # The folder is named after the port, so that `stop URL` finds it.
    dir=$(mktemp -d "${TMPDIR:-/tmp}/poststore-postgres-$port-XXXXXX")
    chmod 700 "$dir"
    [[ $(id -u) -eq 0 ]] && chown postgres: "$dir"
    if ! as_owner "$bin/initdb" -D "$dir/data" -A trust -U poststore -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1; then
        echo "postgres.sh: initdb failed:" >&2
        tail -5 "$dir/initdb.log" >&2
        rm -rf "$dir"
        exit 1
    fi
    # A second role must give its password (the refused-password tests); everyone else is trusted.
    sed -i '1i host all poststore_password 127.0.0.1/32 scram-sha-256' "$dir/data/pg_hba.conf"
    # The suite runs its tests at once, each PostgreSQL store with a pool of up to 8 connections: past the default
    # 100 connections, one test's own connection was refused ("sorry, too many clients already", CI 2026-11-28).
    if ! as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
        -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c max_connections=500" start >/dev/null 2>&1; then
        echo "postgres.sh: the server did not start on port $port:" >&2
        tail -5 "$dir/server.log" >&2
        rm -rf "$dir"
        exit 1
    fi
    as_owner "$bin/psql" -q -h "$dir" -p "$port" -U poststore -d postgres -c \
        "CREATE ROLE poststore_password LOGIN PASSWORD 'poststore-test-password';
         GRANT CREATE ON DATABASE postgres TO poststore_password;" >/dev/null
    echo "$dir" >"$dir/data/poststore-folder"
    echo "postgres://poststore@127.0.0.1:$port/postgres"
}

stop() {
    [[ $# -eq 1 ]] || usage 64
    local dir=$1
    # A URL from `start`: its port names the folder.
    if [[ "$dir" =~ ^postgres(ql)?://[^/]*:([0-9]+)(/|$) ]]; then
        local matches=("${TMPDIR:-/tmp}/poststore-postgres-${BASH_REMATCH[2]}-"*)
        dir=${matches[0]}
    fi
    # Only a folder this script made: it holds the marker written at start.
    if [[ ! -f "$dir/data/poststore-folder" ]]; then
        echo "postgres.sh: $dir is not a cluster folder made by postgres.sh start; nothing stopped" >&2
        exit 1
    fi
    local bin
    bin=$(server_bin)
    as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
    rm -rf "$dir"
}

(($#)) || usage 64
command=$1
shift
case "$command" in
    start) start "$@" ;;
    stop) stop "$@" ;;
    -h | --help) usage 0 ;;
    *) usage 64 ;;
esac
