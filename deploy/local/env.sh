# shellcheck shell=bash
# Shared settings for the deploy/local scripts; also handy interactively: `source deploy/local/env.sh`.
# No `set -euo pipefail` here on purpose: this file is only ever sourced, and those options would leak
# into an interactive shell that sources it. Every script that sources it sets them itself.

# Repo root, resolved from this file's location so the scripts work from any cwd.
KILN_ROOT="${KILN_ROOT:-$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/../.." && pwd -P)}"
KILN_STATE_DIR="${KILN_STATE_DIR:-$KILN_ROOT/.kiln}"
# Redis/PostgreSQL chdir when daemonising, so relative paths would break: make the state dir absolute.
[[ $KILN_STATE_DIR == /* ]] || KILN_STATE_DIR="$PWD/$KILN_STATE_DIR"
# Non-default ports so we never collide with system services (6379/5432) or other checkouts' defaults.
KILN_REDIS_PORT="${KILN_REDIS_PORT:-6391}"
KILN_PG_PORT="${KILN_PG_PORT:-5491}"
KILN_API_PORT="${KILN_API_PORT:-8787}"
# Where up.sh's worker serves its metrics; not exported, so other workers started from this shell do not compete for it.
KILN_WORKER_METRICS_PORT="${KILN_WORKER_METRICS_PORT:-8788}"
# The operators' console (docs/console.md), which `kiln console` reads too.
export KILN_CONSOLE_PORT="${KILN_CONSOLE_PORT:-8795}"
# A local Redis Cluster (start-redis-cluster.sh): six nodes from this port on, three masters and three replicas; each
# node's cluster bus is its port + 10000.
KILN_REDIS_CLUSTER_PORT="${KILN_REDIS_CLUSTER_PORT:-7391}"
export KILN_ROOT KILN_STATE_DIR KILN_REDIS_PORT KILN_PG_PORT KILN_API_PORT KILN_REDIS_CLUSTER_PORT

# What the Swift program reads. Always derived from the values above (not overridable) so a stale
# export from an earlier `source` can never point the program at a different server than the scripts start.
export KILN_REDIS_URL="redis://127.0.0.1:$KILN_REDIS_PORT"
export KILN_REDIS_CLUSTER_URL="redis-cluster://$(for offset in 0 1 2 3 4 5; do printf '127.0.0.1:%s,' $((KILN_REDIS_CLUSTER_PORT + offset)); done | sed 's/,$//')"
export KILN_DATABASE_URL="postgresql://kiln@127.0.0.1:$KILN_PG_PORT/kiln"
export KILN_OBJECT_ROOT="$KILN_STATE_DIR/objects"
export KILN_MIGRATIONS_DIR="$KILN_ROOT/migrations"
export KILN_POLICIES="$KILN_ROOT/deploy/policies.json"
# The provider simulator listens on 8790, where deploy/providers.json sends every provider; point KILN_PROVIDERS at a
# file of real providers (deploy/providers.real.json, with their keys in the environment) to use them instead.
export KILN_PROVIDERS="${KILN_PROVIDERS:-$KILN_ROOT/deploy/providers.json}"
export KILN_API_URL="http://127.0.0.1:$KILN_API_PORT"
# Where published pages (share.publish) say they are; behind a real ingress, its public address.
export KILN_PUBLIC_URL="${KILN_PUBLIC_URL:-$KILN_API_URL}"
# The HS256 secrets deploy/policies.json names for the apps with their own sign-in. `kiln api` refuses to start
# without them; set them to the apps' real secrets to accept their users' tokens. Left unset, each shell makes up a
# random one, so the local stack starts and refuses those apps' tokens.
export KILN_JOANIE_JWT_SECRET="${KILN_JOANIE_JWT_SECRET:-$(head -c 32 /dev/urandom | base64)}"
export KILN_VERAMO_JWT_SECRET="${KILN_VERAMO_JWT_SECRET:-$(head -c 32 /dev/urandom | base64)}"

# The Swift toolchain tarball installs under /opt/swift without touching PATH.
if ! command -v swift >/dev/null 2>&1 && [[ -x /opt/swift/usr/bin/swift ]]; then
  export PATH="/opt/swift/usr/bin:$PATH"
fi

kiln_die() { echo "error: $*" >&2; exit 1; }

# Fails when the build log $1 shows a compiler warning in Kiln's own code, naming the build ($2: "the build", "the
# release build"). Packages' own sources live under .build/checkouts, and SwiftPM keeps their warnings quiet anyway.
kiln_fail_on_compiler_warnings() {
  if grep -E "/(Sources|Tests)/[^:]+:[0-9]+:[0-9]+: warning:" "$1" | grep -v "/\.build"; then
    kiln_die "$2 printed the compiler warnings above in Kiln's code; Kiln builds without any"
  fi
}

# Newest PostgreSQL server bindir (15 on Debian 12, 16+ elsewhere). /usr/bin and /usr/local/bin only hold
# postgresql-common wrappers that pick clusters by their own rules, so we never use those.
kiln_pg_bindir() {
  local dir
  dir=$(printf '%s\n' /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
  [[ -x $dir/pg_ctl ]] || kiln_die "no PostgreSQL server under /usr/lib/postgresql/*/bin; run deploy/local/install-deps.sh"
  echo "$dir"
}

# PostgreSQL refuses to run as root: as root, run server-side commands as the `postgres` system user.
# cd / first so it never complains about an unreadable cwd (e.g. /root).
kiln_as_pg() {
  if [[ $EUID -eq 0 ]]; then (cd / && runuser -u postgres -- "$@"); else "$@"; fi
}

kiln_redis_up() {
  [[ "$(timeout 3 redis-cli -h 127.0.0.1 -p "$KILN_REDIS_PORT" ping 2>/dev/null || true)" == PONG ]]
}

kiln_pg_up() {
  "$(kiln_pg_bindir)/pg_isready" -q -h 127.0.0.1 -p "$KILN_PG_PORT"
}

# Stop the process named in a pidfile (API/worker), but only if that pid is still a kiln process:
# pids are reused, and we must never kill something we did not start.
kiln_stop_pidfile() {
  local pidfile=$1 pid
  [[ -f $pidfile ]] || return 0
  pid=$(<"$pidfile")
  if [[ $pid =~ ^[0-9]+$ ]] && tr '\0' ' ' 2>/dev/null <"/proc/$pid/cmdline" | grep -q kiln; then
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done  # 10 s to drain
    if kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid" 2>/dev/null || true; fi
  fi
  rm -f "$pidfile"
}
