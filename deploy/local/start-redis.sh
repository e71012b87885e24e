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
redis-server --daemonize yes \
  --bind 127.0.0.1 --port "$KILN_REDIS_PORT" --protected-mode yes \
  --dir "$KILN_STATE_DIR/redis" \
  --appendonly yes --appendfsync everysec --save "" \
  --maxmemory-policy noeviction \
  --pidfile "$KILN_STATE_DIR/redis.pid" --logfile "$log"

for _ in $(seq 50); do  # up to 10 s
  if kiln_redis_up; then echo "Redis up on 127.0.0.1:$KILN_REDIS_PORT"; exit 0; fi
  sleep 0.2
done
echo "Redis did not answer PONG on 127.0.0.1:$KILN_REDIS_PORT within 10 s; log tail ($log):" >&2
tail -n 20 "$log" >&2 || true
exit 1
