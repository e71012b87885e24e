#!/usr/bin/env bash
# Starts a private Redis Cluster on loopback for the sharded tests and benchmarks (docs/redis-cluster.md): six nodes on
# $KILN_REDIS_CLUSTER_PORT.. +5 (three masters, three replicas), AOF as deployed, data under
# $KILN_STATE_DIR/redis-cluster. Kiln reaches it at $KILN_REDIS_CLUSTER_URL. A no-op if the cluster already answers.
set -euo pipefail
here=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=env.sh source-path=SCRIPTDIR
source "$here/env.sh"

first=$KILN_REDIS_CLUSTER_PORT
ports=()
for offset in 0 1 2 3 4 5; do ports+=($((first + offset))); done
cluster_ok() { [[ "$(timeout 3 redis-cli -h 127.0.0.1 -p "$1" cluster info 2>/dev/null || true)" == *cluster_state:ok* ]]; }

if cluster_ok "$first"; then
  echo "Redis Cluster already up on 127.0.0.1:$first-$((first + 5))"
  exit 0
fi
command -v redis-server >/dev/null 2>&1 || kiln_die "redis-server not installed; run deploy/local/install-deps.sh"

root="$KILN_STATE_DIR/redis-cluster"
# No test kills these nodes (the failover test runs a cluster of its own), so a node the loaded machine holds up for a
# second or more must not be failed over in the middle of the sharded suite: 15 s before a node counts as failed.
# A cluster is made once: nodes that remember another cluster (nodes.conf) would not join this one.
rm -rf "$root"
for port in "${ports[@]}"; do
  mkdir -p "$root/$port"
  redis-server --daemonize yes \
    --bind 127.0.0.1 --port "$port" --protected-mode yes \
    --cluster-enabled yes --cluster-config-file nodes.conf --cluster-node-timeout 15000 \
    --dir "$root/$port" --appendonly yes --appendfsync everysec --save "" --auto-aof-rewrite-min-size 512mb \
    --maxmemory-policy noeviction \
    --pidfile "$root/$port/redis.pid" --logfile "$root/$port/redis.log"
done
for port in "${ports[@]}"; do
  for _ in $(seq 50); do
    [[ "$(timeout 3 redis-cli -h 127.0.0.1 -p "$port" ping 2>/dev/null || true)" == PONG ]] && break
    sleep 0.2
  done
done
redis-cli --cluster create $(printf '127.0.0.1:%s ' "${ports[@]}") --cluster-replicas 1 --cluster-yes >"$root/create.log" 2>&1 \
  || { tail -n 20 "$root/create.log" >&2; exit 1; }
for _ in $(seq 100); do  # up to 20 s
  healthy=1
  for port in "${ports[@]}"; do cluster_ok "$port" || healthy=0; done
  if ((healthy)); then echo "Redis Cluster up on 127.0.0.1:$first-$((first + 5))"; exit 0; fi
  sleep 0.2
done
echo "the Redis Cluster on 127.0.0.1:$first-$((first + 5)) did not reach cluster_state:ok within 20 s" >&2
exit 1
