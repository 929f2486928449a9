#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests: a temporary directory, a free port on
# 127.0.0.1, a role with a random password and a database of its own. Used by `.ci/run` and by
# hand:
#
#   eval "$(scripts/pg-throwaway.sh start)"    # exports DATABASE_URL and PG_THROWAWAY_DIR
#   cargo test -p dnd-store-postgres
#   scripts/pg-throwaway.sh stop "$PG_THROWAWAY_DIR"
#
# `start` prints the two `export` lines on standard output (and nothing else there), progress on
# standard error. The server runs as the `postgres` user (initdb refuses root): run this as root,
# or as `postgres` itself. Debian's binaries are looked for in /usr/lib/postgresql/*/bin unless
# PG_BIN names the folder. The role may create databases (each test makes its own) and nothing
# else; the cluster listens on 127.0.0.1 only, and on a Unix socket inside the directory.
set -euo pipefail

usage() {
    echo "usage: $0 start | stop DIR" >&2
    exit 2
}

find_bin() {
    if [[ -n "${PG_BIN:-}" ]]; then
        echo "$PG_BIN"
        return
    fi
    local dir
    dir="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)"
    if [[ -z "$dir" || ! -x "$dir/initdb" ]]; then
        echo "error: no PostgreSQL server binaries (initdb) in /usr/lib/postgresql/*/bin; install Debian's postgresql or set PG_BIN" >&2
        exit 1
    fi
    echo "$dir"
}

# Runs a command as the `postgres` user (directly when that is who we are).
as_postgres() {
    if [[ "$(id -un)" == postgres ]]; then
        "$@"
    else
        runuser -u postgres -- "$@"
    fi
}

# A port nobody listens on now; the start below retries with another if it is taken meanwhile.
free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])' 2>/dev/null ||
        echo $((20000 + RANDOM % 30000))
}

start() {
    local bin dir port password ok=""
    bin="$(find_bin)"
    dir="$(mktemp -d /tmp/pg-throwaway.XXXXXX)"
    # Whatever fails from here on, no half-started cluster is left behind.
    trap 'stop "$dir" >/dev/null 2>&1 || true' EXIT
    chmod 700 "$dir"
    chown postgres: "$dir" 2>/dev/null || true
    password="$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
    local pwfile="$dir/superuser.pw"
    as_postgres sh -c "umask 077; od -An -N16 -tx1 /dev/urandom | tr -d ' \n' > '$pwfile'"
    as_postgres "$bin/initdb" -D "$dir/data" -U postgres --pwfile="$pwfile" \
        --auth-local=peer --auth-host=scram-sha-256 -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 ||
        { cat "$dir/initdb.log" >&2; exit 1; }
    for _ in 1 2 3 4 5; do
        port="$(free_port)"
        # fsync off: a throwaway cluster need not survive a power loss, and tests run faster.
        if as_postgres "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 start \
            -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200" >&2; then
            ok=1
            break
        fi
    done
    if [[ -z "$ok" ]]; then
        cat "$dir/server.log" >&2 || true
        echo "error: the throwaway cluster did not start (log above)" >&2
        exit 1
    fi
    as_postgres "$bin/psql" -q -v ON_ERROR_STOP=1 -h "$dir" -p "$port" -U postgres -d postgres \
        -c "CREATE ROLE dnd LOGIN CREATEDB PASSWORD '$password'" \
        -c "CREATE DATABASE dnd OWNER dnd" >&2
    trap - EXIT
    echo "throwaway PostgreSQL on 127.0.0.1:$port in $dir" >&2
    echo "export DATABASE_URL='postgres://dnd:$password@127.0.0.1:$port/dnd'"
    echo "export PG_THROWAWAY_DIR='$dir'"
}

stop() {
    local dir="${1:-}" bin
    [[ -n "$dir" && -d "$dir" ]] || { echo "stop: no such directory ${dir:-(none given)}" >&2; return 0; }
    case "$dir" in
        /tmp/pg-throwaway.*) ;;
        *) echo "error: $dir is not a throwaway cluster's directory (/tmp/pg-throwaway.*)" >&2; exit 1 ;;
    esac
    bin="$(find_bin)"
    if [[ -f "$dir/data/postmaster.pid" ]]; then
        as_postgres "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >&2 || true
    fi
    rm -rf "$dir"
}

case "${1:-}" in
    start) start ;;
    stop) stop "${2:-}" ;;
    *) usage ;;
esac
