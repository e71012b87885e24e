#!/usr/bin/env bash
# Starts a private PostgreSQL cluster for Kiln on loopback:$KILN_PG_PORT with data under
# $KILN_STATE_DIR/postgres, and makes sure the `kiln` role and database exist. Safe to re-run.
set -euo pipefail
here=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=env.sh source-path=SCRIPTDIR
source "$here/env.sh"

bindir=$(kiln_pg_bindir)
data="$KILN_STATE_DIR/postgres"
sock="$KILN_STATE_DIR/pg-socket"
log="$KILN_STATE_DIR/postgres.log"

if ! kiln_pg_up; then
  mkdir -p "$data" "$sock"
  touch "$log"
  if [[ $EUID -eq 0 ]]; then
    id -u postgres >/dev/null 2>&1 || kiln_die "no 'postgres' system user; run deploy/local/install-deps.sh"
    # The server runs as `postgres`, so it needs to reach its data dir through every parent directory.
    if ! kiln_as_pg test -x "$KILN_STATE_DIR"; then
      p=""
      IFS=/ read -ra parts <<<"${KILN_STATE_DIR#/}"
      for part in "${parts[@]}"; do
        p+="/$part"
        kiln_as_pg test -x "$p" ||
          kiln_die "user 'postgres' cannot traverse $p; run 'chmod o+x $p' or set KILN_STATE_DIR elsewhere"
      done
    fi
    chown postgres:postgres "$data" "$sock" "$log"  # pg_ctl -l opens the log as the server user
  fi
  chmod 700 "$data"  # initdb/postgres insist on a private data dir

  if [[ ! -f $data/PG_VERSION ]]; then
    # trust auth: local dev only, and the server listens on loopback only. C locale: no dependency on
    # generated system locales, and byte-order collation is deterministic across machines.
    kiln_as_pg "$bindir/initdb" -D "$data" -U postgres --auth=trust -E UTF8 --no-locale >/dev/null
  fi
  # 400 connections: the integration suites run about 190 tests at once, each with pools, API nodes and workers of its own.
  opts="-p $KILN_PG_PORT -k '$sock' -c listen_addresses=127.0.0.1 -c fsync=on -c max_connections=400"
  if ! kiln_as_pg "$bindir/pg_ctl" -D "$data" -l "$log" -o "$opts" -w start >/dev/null; then
    echo "PostgreSQL failed to start on 127.0.0.1:$KILN_PG_PORT; log tail ($log):" >&2
    tail -n 20 "$log" >&2 || true
    exit 1
  fi
  kiln_pg_up || kiln_die "PostgreSQL started but is not accepting connections on 127.0.0.1:$KILN_PG_PORT"
  echo "PostgreSQL up on 127.0.0.1:$KILN_PG_PORT"
else
  echo "PostgreSQL already up on 127.0.0.1:$KILN_PG_PORT"
fi

psql_pg() { "$bindir/psql" -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$KILN_PG_PORT" -U postgres -d postgres "$@"; }
# SUPERUSER is fine for a loopback-only dev cluster and needed: integration tests create and drop
# their own schemas (and extensions) per test run.
if [[ -z $(psql_pg -tAc "SELECT 1 FROM pg_roles WHERE rolname = 'kiln'") ]]; then
  psql_pg -c "CREATE ROLE kiln LOGIN SUPERUSER"
  echo "Created role kiln"
fi
if [[ -z $(psql_pg -tAc "SELECT 1 FROM pg_database WHERE datname = 'kiln'") ]]; then
  psql_pg -c "CREATE DATABASE kiln OWNER kiln ENCODING 'UTF8'"
  echo "Created database kiln"
fi
