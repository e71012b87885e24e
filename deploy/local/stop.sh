#!/usr/bin/env bash
# Stops everything up.sh and the start-* scripts started: API, worker, provider simulator, console, Redis, the Redis
# Cluster, PostgreSQL;
# and the local model server of local-model.sh, if it runs.
# Idempotent: anything already stopped is skipped. Data under $KILN_STATE_DIR is kept.
set -euo pipefail
here=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=env.sh source-path=SCRIPTDIR
source "$here/env.sh"

# Services first, so they do not log connection errors while the servers go away.
kiln_stop_pidfile "$KILN_STATE_DIR/run/api.pid"
kiln_stop_pidfile "$KILN_STATE_DIR/run/worker.pid"
kiln_stop_pidfile "$KILN_STATE_DIR/run/simulator.pid"
kiln_stop_pidfile "$KILN_STATE_DIR/run/console.pid"
kiln_stop_pidfile "$KILN_STATE_DIR/run/local-model.pid"

# Only shut down the Redis we started (its pidfile names a live process), never someone else's on that port.
redis_pid=$(cat "$KILN_STATE_DIR/redis.pid" 2>/dev/null || true)
if [[ -n $redis_pid ]] && kill -0 "$redis_pid" 2>/dev/null && kiln_redis_up; then
  redis-cli -h 127.0.0.1 -p "$KILN_REDIS_PORT" shutdown >/dev/null || true  # flushes the AOF first
  for _ in $(seq 50); do kill -0 "$redis_pid" 2>/dev/null || break; sleep 0.2; done
  echo "Redis stopped"
fi

# The Redis Cluster of start-redis-cluster.sh, node by node, by its pidfiles.
for pidfile in "$KILN_STATE_DIR"/redis-cluster/*/redis.pid; do
  [[ -f $pidfile ]] || continue
  pid=$(cat "$pidfile")
  if kill -0 "$pid" 2>/dev/null; then
    kill "$pid"
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    stopped_cluster=1
  fi
done
if [[ -n ${stopped_cluster:-} ]]; then echo "Redis Cluster stopped"; fi

data="$KILN_STATE_DIR/postgres"
if [[ -f $data/postmaster.pid ]]; then
  bindir=$(kiln_pg_bindir)
  if kiln_as_pg "$bindir/pg_ctl" -D "$data" status >/dev/null 2>&1; then
    kiln_as_pg "$bindir/pg_ctl" -D "$data" -m fast -w stop >/dev/null
    echo "PostgreSQL stopped"
  fi
fi
