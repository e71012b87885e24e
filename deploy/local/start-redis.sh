#!/usr/bin/env bash
# Starts a private Redis for Kiln on loopback:$KILN_REDIS_PORT with data under $KILN_STATE_DIR/redis.
# A no-op if something already answers PONG there; never touches other Redis instances (e.g. 6379).
set -euo pipefail
here=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=env.sh source-path=SCRIPTDIR
source "$here/env.sh"

if kiln_redis_up; then
  echo "Redis already up on 127.0.0.1:$KILN_REDIS_PORT"
  exit 0
fi
command -v redis-server >/dev/null 2>&1 || kiln_die "redis-server not installed; run deploy/local/install-deps.sh"

mkdir -p "$KILN_STATE_DIR/redis"
log="$KILN_STATE_DIR/redis.log"
# Redis is the queue's source of truth: AOF (fsync every second) for durability, no RDB snapshots
# (they fork and stall), and noeviction so Redis errors out instead of silently dropping jobs when full.
# The AOF is rewritten once it has grown by 512 MB, not Redis's 64 MB: a job writes about 2.3 KB to it, and each
# rewrite forks a child that writes out everything Redis holds (docs/operations.md, "Back up and restore").
redis-server --daemonize yes \
  --bind 127.0.0.1 --port "$KILN_REDIS_PORT" --protected-mode yes \
  --dir "$KILN_STATE_DIR/redis" \
  --appendonly yes --appendfsync everysec --save "" --auto-aof-rewrite-min-size 512mb \
  --maxmemory-policy noeviction \
  --pidfile "$KILN_STATE_DIR/redis.pid" --logfile "$log"

for _ in $(seq 300); do  # up to 60 s: a restart first loads the AOF, about 55 MB a second here
  if kiln_redis_up; then echo "Redis up on 127.0.0.1:$KILN_REDIS_PORT"; exit 0; fi
  sleep 0.2
done
echo "Redis did not answer PONG on 127.0.0.1:$KILN_REDIS_PORT within 60 s; log tail ($log):" >&2
tail -n 20 "$log" >&2 || true
exit 1
