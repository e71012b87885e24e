#!/usr/bin/env bash
# The upgrade test: two versions of Kiln side by side on one Redis and one PostgreSQL, rolled forward and back under
# load, then audited.
#
#   deploy/upgrade/test.sh [OLD_BIN NEW_BIN]
#
# OLD_BIN and NEW_BIN are folders holding `kiln` (with its resource bundles beside it), OLD's `kiln-dev` too, each
# inside the source tree it was built from, whose migrations/ and deploy/ it uses. Without them, OLD is the previous
# release (deploy/upgrade/previous-release, built once and cached by build-previous.sh) and NEW this tree's `kiln` as
# the image builds it (release mode, in .build-image/), both built if need be.
#
# What it does, all on loopback, with its data under .kiln/upgrade/run (removed at the end) and ports of its own
# (Redis 16390, PostgreSQL 15440, the provider simulator 18790, the proxy 18800, the API nodes 18801 and 18802, the
# workers' metrics 18803 and 18804):
#
# 1. Starts Redis (AOF, fsync every second, noeviction) and PostgreSQL with deploy/local's scripts, the provider
#    simulator (OLD's kiln-dev, deploy/providers.json pointed at it), and a fleet of OLD: `kiln migrate`, the tenants
#    `upgrade` (unmetered) and `loadtest` (metered by the policy file) with a key each, two API nodes behind
#    proxy.py (round robin; a backend leaves the rotation before its node is stopped), an io worker
#    (`--io 32 --cpu 0`) and a cpu worker (`--io 0 --cpu 1`).
# 2. Puts it under load.py's load for the whole test: idempotent submitters, followers of streamed jobs resuming
#    with Last-Event-ID, metered identities running into their daily quotas and device cooldowns, long jobs (a chat
#    video, a diag.sleep) in flight.
# 3. Upgrades: `kiln migrate` of NEW, then rolls API node 1 (out of the proxy's rotation, SIGTERM, wait for its exit,
#    NEW started, /readyz, back in rotation) and the io worker (SIGTERM: it drains; NEW started): 30 s on that mixed
#    fleet; then API node 2 and the cpu worker: 30 s on the new fleet.
# 4. Rolls back to OLD the same way, with the same holds; the migrations stay (they are additive).
# 5. Stops the load, waits for every accepted job to end, and audits (audit.py): every accepted job recorded once
#    with its result, none lost, doubled, failed or dead; no 5xx but 503 with Retry-After; every follower read each
#    event once, in order, to the end; quotas exact against the policy's numbers and the quota ledger; and, from the
#    fleet: every drained process exited 0 within its time, none died on its own, `kiln quota reconcile` finds no
#    drift, nothing is left in flight, unrecorded or dead.
#
# About 3 minutes on 2 cores with debug builds, besides the builds. Prints the counts and exits non-zero on any
# failure. Every process it started is stopped on exit (trap), and its data folder removed (UPGRADE_KEEP=1 keeps it,
# with the logs and load.json, for a post-mortem).
#
# Settings (environment): UPGRADE_HOLD (seconds on each mixed and new fleet, 30), UPGRADE_WARMUP (15),
# UPGRADE_RATE (plain submissions a second, 8), UPGRADE_FOLLOWERS (4), UPGRADE_WORKER_GRACE (--shutdown-grace, 10),
# UPGRADE_POLICIES (the operator's policy file; OLD's deploy/policies.json), UPGRADE_PROXY_FAULT_502 (a share of
# connections the proxy answers 502, to see the audit fail), UPGRADE_*_PORT, UPGRADE_DATA_DIR.
set -euo pipefail
here=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
root=$(cd -- "$here/../.." && pwd -P)
test_started=$(date +%s)

die() { echo "upgrade test: error: $*" >&2; exit 1; }
say() { echo "$(date +%H:%M:%S) upgrade test: $*"; }

# ---- the two versions ----------------------------------------------------------------------------------------------

if (($# == 0)); then
  # The Swift toolchain tarball installs under /opt/swift without touching PATH (as deploy/local/env.sh says).
  if ! command -v swift >/dev/null 2>&1 && [[ -x /opt/swift/usr/bin/swift ]]; then
    export PATH="/opt/swift/usr/bin:$PATH"
  fi
  old_bin=$(bash "$here/build-previous.sh")
  # The new version is the image's build (deploy/container/build.sh builds it the same way, so after the image test
  # this builds nothing); the simulator is the old version's kiln-dev.
  scratch=${KILN_IMAGE_SCRATCH:-$root/.build-image}
  say "building this tree (release mode, in $scratch) as the new version"
  (cd "$root" && swift build -c release --static-swift-stdlib --scratch-path "$scratch" --product kiln) >&2 ||
    die "this tree did not build"
  new_bin=$scratch/release
elif (($# == 2)); then
  old_bin=$1
  new_bin=$2
else
  die "usage: $0 [OLD_BIN NEW_BIN] (folders holding kiln, and for OLD kiln-dev too)"
fi
old_bin=$(cd -- "$old_bin" && pwd -P) || die "no folder $old_bin"
new_bin=$(cd -- "$new_bin" && pwd -P) || die "no folder $new_bin"
[[ -x $old_bin/kiln && -x $old_bin/kiln-dev ]] || die "$old_bin does not hold kiln and kiln-dev"
[[ -x $new_bin/kiln ]] || die "$new_bin does not hold kiln"

# The source tree a bin folder was built in: the nearest folder above it with Package.swift and migrations/.
source_root() {
  local d=$1
  while [[ $d != / ]]; do
    [[ -f $d/Package.swift && -d $d/migrations ]] && { echo "$d"; return 0; }
    d=$(dirname -- "$d")
  done
  return 1
}
old_root=${UPGRADE_OLD_ROOT:-$(source_root "$old_bin")} ||
  die "no source tree (Package.swift, migrations/) above $old_bin; set UPGRADE_OLD_ROOT"
new_root=${UPGRADE_NEW_ROOT:-$(source_root "$new_bin")} ||
  die "no source tree (Package.swift, migrations/) above $new_bin; set UPGRADE_NEW_ROOT"
# What a version calls itself: `kiln --version` (1.0.0 and later), else the commit of its source tree.
describe() {
  local v
  v=$("$1/kiln" --version 2>/dev/null | head -n 1) && [[ -n $v ]] && { echo "$v"; return; }
  echo "commit $(git -C "$2" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)"
}
old_version=$(describe "$old_bin" "$old_root")
new_version=$(describe "$new_bin" "$new_root")

# ---- settings ------------------------------------------------------------------------------------------------------

redis_port=${UPGRADE_REDIS_PORT:-16390}
pg_port=${UPGRADE_PG_PORT:-15440}
sim_port=${UPGRADE_SIMULATOR_PORT:-18790}
proxy_port=${UPGRADE_PROXY_PORT:-18800}
api_ports=("${UPGRADE_API1_PORT:-18801}" "${UPGRADE_API2_PORT:-18802}")
# The workers' Prometheus metrics: io, cpu.
metrics_ports=("${UPGRADE_WORKER_IO_METRICS_PORT:-18803}" "${UPGRADE_WORKER_CPU_METRICS_PORT:-18804}")
hold=${UPGRADE_HOLD:-30}
warmup=${UPGRADE_WARMUP:-15}
grace=${UPGRADE_WORKER_GRACE:-10}
data=${UPGRADE_DATA_DIR:-$root/.kiln/upgrade/run}
[[ $data == /* ]] || data="$root/$data"
policies=${UPGRADE_POLICIES:-$old_root/deploy/policies.json}

# deploy/local's settings and helpers, pointed at this test's servers and folder.
export KILN_STATE_DIR=$data KILN_REDIS_PORT=$redis_port KILN_PG_PORT=$pg_port KILN_API_PORT=$proxy_port
# shellcheck source-path=SCRIPTDIR source=../local/env.sh
source "$root/deploy/local/env.sh"
export KILN_POLICIES=$policies
export KILN_PROVIDERS=$data/providers.json
export KILN_PUBLIC_URL="http://127.0.0.1:$proxy_port"
export LOG_LEVEL=${LOG_LEVEL:-info}
psql_bin="$(kiln_pg_bindir)/psql"

# Refuse to start on a port something answers on: start-redis.sh and start-postgres.sh would take that server as ours.
for port in "$redis_port" "$pg_port" "$sim_port" "$proxy_port" "${api_ports[@]}" "${metrics_ports[@]}"; do
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
    die "something already listens on 127.0.0.1:$port; stop it or choose other UPGRADE_*_PORT settings"
  fi
done
# The data folder is this test's alone: a folder left by an earlier run (it holds the marker) is removed.
if [[ -e $data ]]; then
  [[ -f $data/.upgrade-test ]] ||
    die "$data exists and is not an upgrade test's folder; remove it or set UPGRADE_DATA_DIR"
  rm -rf "$data"
fi
mkdir -p "$data/logs" "$data/objects"
touch "$data/.upgrade-test"

# ---- processes -----------------------------------------------------------------------------------------------------

declare -A pids=()      # name -> pid of what runs now
declare -A versions=()  # name -> the version it runs
declare -A starts=()    # name -> how many times it was started
fleet_findings=()
load_pid=""
proxy_pid=""

cleanup() {
  local rc=$?
  set +e
  trap - EXIT INT TERM
  touch "$data/stop" 2>/dev/null
  if [[ -n $load_pid ]] && kill -0 "$load_pid" 2>/dev/null; then kill -TERM "$load_pid"; fi
  for name in "${!pids[@]}"; do
    kill -TERM "${pids[$name]}" 2>/dev/null
  done
  for name in "${!pids[@]}"; do
    for _ in $(seq 150); do alive "${pids[$name]}" || break; sleep 0.2; done
    kill -KILL "${pids[$name]}" 2>/dev/null
  done
  if [[ -n $proxy_pid ]]; then kill -TERM "$proxy_pid" 2>/dev/null; fi
  if [[ -n $load_pid ]]; then kill -KILL "$load_pid" 2>/dev/null; fi
  wait 2>/dev/null
  # The servers: only ours (their pid files are in our folder).
  if [[ -f $data/redis.pid ]]; then
    redis-cli -h 127.0.0.1 -p "$redis_port" shutdown nosave >/dev/null 2>&1
    local rp
    rp=$(cat "$data/redis.pid" 2>/dev/null)
    if [[ -n $rp ]]; then
      for _ in $(seq 50); do kill -0 "$rp" 2>/dev/null || break; sleep 0.2; done
    fi
  fi
  if [[ -f $data/postgres/postmaster.pid ]]; then
    kiln_as_pg "$(kiln_pg_bindir)/pg_ctl" -D "$data/postgres" -m fast -w stop >/dev/null 2>&1
  fi
  if [[ ${UPGRADE_KEEP:-0} == 1 ]]; then
    echo "upgrade test: kept $data (logs, load.json)"
  else
    rm -rf "$data"
  fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

logs_tail() {
  local log=$1
  echo "--- last lines of $log:" >&2
  tail -n 25 "$log" >&2 || true
}

# start NAME VERSION(old|new) ARGS…: a process of that version's kiln (or kiln-dev for the simulator), in the
# background, with a log of its own per start.
start() {
  local name=$1 version=$2
  shift 2
  local bin=$old_bin label=$old_version
  [[ $version == new ]] && bin=$new_bin label=$new_version
  local program=$bin/kiln
  [[ $1 == simulator ]] && program=$bin/kiln-dev
  starts[$name]=$((${starts[$name]:-0} + 1))
  local log="$data/logs/$name-${starts[$name]}-$version.log"
  KILN_VERSION=$label "$program" "$@" >"$log" 2>&1 </dev/null &
  pids[$name]=$!
  versions[$name]=$version
}

# The log of NAME's latest start (NAME-<start>-<version>.log).
log_of() { printf '%s\n' "$data/logs/$1-${starts[$1]}-${versions[$1]}.log"; }

# Whether a pid runs (a zombie does not).
alive() {
  local stat
  stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
  stat=${stat##*) }
  [[ ${stat:0:1} != Z ]]
}

# Waits for NAME's URL to answer 200, or fails with its log.
wait_http() {
  local name=$1 url=$2 limit=${3:-120}
  for _ in $(seq $((limit * 2))); do
    curl -fsS -o /dev/null --max-time 5 "$url" 2>/dev/null && return 0
    alive "${pids[$name]}" || { logs_tail "$(log_of "$name")"; die "$name exited before $url answered"; }
    sleep 0.5
  done
  logs_tail "$(log_of "$name")"
  die "$url did not answer within $limit s"
}

wait_log() {
  local name=$1 pattern=$2 limit=${3:-120}
  for _ in $(seq $((limit * 2))); do
    grep -q -- "$pattern" "$(log_of "$name")" 2>/dev/null && return 0
    alive "${pids[$name]}" || { logs_tail "$(log_of "$name")"; die "$name exited before it logged '$pattern'"; }
    sleep 0.5
  done
  logs_tail "$(log_of "$name")"
  die "$name did not log '$pattern' within $limit s"
}

# Sends NAME a SIGTERM and waits for it to exit (within LIMIT seconds, else SIGKILL); a drained process exits 0.
stop_drained() {
  local name=$1 limit=$2 pid=${pids[$1]} rc=0 t0
  t0=$(date +%s.%N)
  kill -TERM "$pid"
  for _ in $(seq $((limit * 5))); do alive "$pid" || break; sleep 0.2; done
  if alive "$pid"; then
    kill -KILL "$pid"
    fleet_findings+=("$name (${versions[$name]}) did not exit within $limit s of SIGTERM; killed")
  fi
  wait "$pid" || rc=$?
  unset "pids[$name]"
  local took
  took=$(python3 -c "import time; print(f'{time.time() - $t0:.1f}')")
  if ((rc != 0)); then
    fleet_findings+=("$name (${versions[$name]}) exited $rc after SIGTERM (log: $(basename "$(log_of "$name")"))")
    logs_tail "$(log_of "$name")"
  fi
  say "$name (${versions[$name]}) drained and exited $rc in $took s"
}

# Every process that should run, runs.
check_alive() {
  local name
  for name in "${!pids[@]}"; do
    if ! alive "${pids[$name]}"; then
      local rc=0
      wait "${pids[$name]}" || rc=$?
      fleet_findings+=("$name (${versions[$name]}) exited $rc on its own (log: $(basename "$(log_of "$name")"))")
      logs_tail "$(log_of "$name")"
      unset "pids[$name]"
    fi
  done
}

phase() {
  check_alive
  if [[ -n $load_pid ]] && ! alive "$load_pid"; then
    logs_tail "$data/logs/load.log"
    die "the load stopped before its time"
  fi
  echo "$1" >"$data/phase"
  say "phase $1"
}

# ---- the proxy's rotation ------------------------------------------------------------------------------------------

generation=0
# rotation PORT…: the API nodes in the proxy's rotation; returns once the proxy applied it.
rotation() {
  generation=$((generation + 1))
  {
    echo "# generation $generation"
    for p in "$@"; do echo "127.0.0.1:$p"; done
  } >"$data/proxy.control.tmp"
  mv "$data/proxy.control.tmp" "$data/proxy.control"
  kill -HUP "$proxy_pid"
  for _ in $(seq 100); do
    if python3 -c 'import json, sys; sys.exit(json.load(open(sys.argv[1]))["generation"] != sys.argv[2])' \
        "$data/proxy.state" "$generation" 2>/dev/null; then
      return 0
    fi
    sleep 0.1
  done
  die "the proxy did not apply rotation $generation within 10 s"
}

api_port_of() { echo "${api_ports[$((${1#api} - 1))]}"; }
other_api() { [[ $1 == api1 ]] && echo api2 || echo api1; }

# roll_api NAME VERSION: out of the rotation, SIGTERM (it finishes its requests and ends its streams), wait for its
# exit, the other version started on the same port, /readyz, back in rotation.
roll_api() {
  local name=$1 version=$2 port
  port=$(api_port_of "$name")
  phase "roll-$name-to-$version"
  rotation "$(api_port_of "$(other_api "$name")")"
  stop_drained "$name" 60
  start "$name" "$version" api --port "$port"
  wait_http "$name" "http://127.0.0.1:$port/readyz" 180
  rotation "${api_ports[@]}"
  # /healthz names the version from 1.0.0 on.
  say "$name runs $version: /healthz $(curl -sS --max-time 5 "http://127.0.0.1:$port/healthz" 2>&1 | head -c 200)"
}

worker_args() {
  [[ $1 == worker-io ]] && echo "--io 32 --cpu 0 --metrics-port ${metrics_ports[0]}" || echo "--io 0 --cpu 1 --metrics-port ${metrics_ports[1]}"
}

# Scrapes an API node and both workers into $data/metrics-VERSION-*.txt.
scrape_metrics() {
  local version=$1 i=0 url
  for url in "http://127.0.0.1:${api_ports[0]}/metrics" "http://127.0.0.1:${metrics_ports[0]}/metrics" \
    "http://127.0.0.1:${metrics_ports[1]}/metrics"; do
    i=$((i + 1))
    curl -fsS "$url" >"$data/metrics-$version-$i.txt" || { fleet_findings+=("$url did not answer"); return 1; }
  done
}

# The metrics the previous release's alerts, dashboard and KEDA triggers name, exported by the new fleet with the
# labels the old fleet gave them: what an operator's monitoring reads keeps working (docs/compatibility.md).
check_metrics() {
  scrape_metrics new || return 0
  python3 "$old_root/deploy/monitoring/check.py" --exported "$data"/metrics-new-*.txt ||
    fleet_findings+=("the new fleet does not export every metric the previous release's monitoring names")
  python3 "$here/metric-labels.py" "$old_root/deploy/monitoring" --old "$data"/metrics-old-*.txt --new "$data"/metrics-new-*.txt ||
    fleet_findings+=("the new fleet's metrics lost labels the previous release's gave them")
}

# roll_worker NAME VERSION: SIGTERM (it stops claiming, lets its jobs finish for the grace period, hands back the
# rest), wait for its exit, the other version started.
roll_worker() {
  local name=$1 version=$2
  phase "roll-$name-to-$version"
  stop_drained "$name" $((grace + 60))
  # shellcheck disable=SC2046
  start "$name" "$version" worker $(worker_args "$name") --shutdown-grace "$grace"
  wait_log "$name" "worker started" 180
  say "$name runs $version"
}

# ---- the servers and the fleet of OLD ------------------------------------------------------------------------------

say "old: $old_version in $old_bin (migrations and policies of $old_root)"
say "new: $new_version in $new_bin (migrations of $new_root)"
# The promises a roll needs besides the data: the old CLI's commands and options, the old HTTP API, migrations and
# policies file (docs/compatibility.md).
python3 "$root/.ci/check-compatibility.py" --kiln "$new_bin/kiln" --previous-kiln "$old_bin/kiln" || die "the new version breaks a promise"
say "data in $data"
bash "$root/deploy/local/start-redis.sh" >/dev/null
bash "$root/deploy/local/start-postgres.sh" >/dev/null
kiln_redis_up || die "Redis is not answering on 127.0.0.1:$redis_port"
kiln_pg_up || die "PostgreSQL is not answering on 127.0.0.1:$pg_port"
say "Redis on 127.0.0.1:$redis_port, PostgreSQL on 127.0.0.1:$pg_port"

sed "s#http://127.0.0.1:8790#http://127.0.0.1:$sim_port#g" "$old_root/deploy/providers.json" >"$KILN_PROVIDERS"
grep -q "127.0.0.1:$sim_port" "$KILN_PROVIDERS" ||
  die "could not point $old_root/deploy/providers.json at the simulator"
# 50 ms between deltas: a generation streams for about 5 s, long enough for API nodes to stop under its followers.
start simulator old simulator --port "$sim_port" --delta-interval-ms 50
wait_http simulator "http://127.0.0.1:$sim_port/healthz"

"$old_bin/kiln" migrate --directory "$old_root/migrations" >"$data/logs/migrate-old.log" 2>&1 ||
  { logs_tail "$data/logs/migrate-old.log"; die "kiln migrate (old) failed"; }
"$old_bin/kiln" tenant create upgrade --name "Upgrade test" --diagnostics --running-cap 1000 >/dev/null
"$old_bin/kiln" tenant create loadtest --name "Upgrade test, metered" --diagnostics --running-cap 100 >/dev/null
key_plain=$("$old_bin/kiln" key create upgrade --raw)
key_metered=$("$old_bin/kiln" key create loadtest --raw)

start api1 old api --port "${api_ports[0]}"
start api2 old api --port "${api_ports[1]}"
wait_http api1 "http://127.0.0.1:${api_ports[0]}/readyz" 180
wait_http api2 "http://127.0.0.1:${api_ports[1]}/readyz" 180
{
  echo "# generation 0"
  for p in "${api_ports[@]}"; do echo "127.0.0.1:$p"; done
} >"$data/proxy.control"
python3 "$here/proxy.py" --listen "127.0.0.1:$proxy_port" --backend "127.0.0.1:${api_ports[0]}" \
  --backend "127.0.0.1:${api_ports[1]}" --control "$data/proxy.control" --state "$data/proxy.state" \
  >"$data/logs/proxy.log" 2>&1 &
proxy_pid=$!
for _ in $(seq 100); do [[ -s $data/proxy.state ]] && break; sleep 0.1; done
[[ -s $data/proxy.state ]] || { logs_tail "$data/logs/proxy.log"; die "the proxy did not start"; }

# shellcheck disable=SC2046
start worker-io old worker $(worker_args worker-io) --shutdown-grace "$grace"
# shellcheck disable=SC2046
start worker-cpu old worker $(worker_args worker-cpu) --shutdown-grace "$grace"
wait_log worker-io "worker started" 180
wait_log worker-cpu "worker started" 180
say "old fleet up: api1, api2 behind the proxy on 127.0.0.1:$proxy_port, worker-io, worker-cpu"

# ---- load, upgrade, roll back --------------------------------------------------------------------------------------

echo old >"$data/phase"
python3 "$here/load.py" --url "http://127.0.0.1:$proxy_port" --key-plain "$key_plain" --key-metered "$key_metered" \
  --out "$data/load.json" --stop-file "$data/stop" --phase-file "$data/phase" \
  --rate "${UPGRADE_RATE:-8}" --followers "${UPGRADE_FOLLOWERS:-4}" >"$data/logs/load.log" 2>&1 &
load_pid=$!
load_started=$(date +%s)

phase old
sleep "$warmup"
tail -n 1 "$data/logs/load.log"
scrape_metrics old || true

phase migrate-new
"$new_bin/kiln" migrate --directory "$new_root/migrations" >"$data/logs/migrate-new.log" 2>&1 ||
  { logs_tail "$data/logs/migrate-new.log"; die "kiln migrate (new) failed"; }
say "$(tail -n 1 "$data/logs/migrate-new.log")"

for direction in new old; do
  roll_api api1 "$direction"
  roll_worker worker-io "$direction"
  phase "mixed-to-$direction"
  sleep "$hold"
  tail -n 1 "$data/logs/load.log"
  roll_api api2 "$direction"
  roll_worker worker-cpu "$direction"
  phase "all-$direction"
  sleep "$hold"
  tail -n 1 "$data/logs/load.log"
  if [[ $direction == new ]]; then check_metrics; fi
done

# ---- audit ---------------------------------------------------------------------------------------------------------

phase stopping
touch "$data/stop"
load_rc=0
for _ in $(seq 600); do alive "$load_pid" || break; sleep 1; done
if alive "$load_pid"; then
  kill -TERM "$load_pid"
  fleet_findings+=("the load did not end within 600 s of its stop")
fi
wait "$load_pid" || load_rc=$?
load_pid=""
load_seconds=$(($(date +%s) - load_started))
tail -n 3 "$data/logs/load.log"
((load_rc == 0)) || { logs_tail "$data/logs/load.log"; die "load.py exited $load_rc"; }
check_alive

audit_rc=0
python3 "$here/audit.py" --load "$data/load.json" --policies "$policies" --psql "$psql_bin" \
  --database-url "$KILN_DATABASE_URL" --wait 300 || audit_rc=$?

# The fleet's own account, with the version that runs now.
kiln=$old_bin/kiln
reconcile=$("$kiln" quota reconcile --tenant loadtest 2>&1) ||
  fleet_findings+=("kiln quota reconcile failed: $reconcile")
grep -q "^no drift on" <<<"$reconcile" || fleet_findings+=("kiln quota reconcile: $(tr '\n' ' ' <<<"$reconcile")")
stats=$("$kiln" queue stats 2>&1) || fleet_findings+=("kiln queue stats failed: $stats")
# Nothing left: no ready rows under the header, and in flight, delayed, dead and unrecorded all 0.
for counter in in_flight delayed dead unrecorded; do
  grep -q -x "$counter 0" <<<"$stats" ||
    fleet_findings+=("kiln queue stats: $(grep "^$counter" <<<"$stats" || echo "no $counter")")
done
(($(grep -c -P '^[a-z0-9-]+\t(io|cpu)\t' <<<"$stats" || true) == 0)) ||
  fleet_findings+=("kiln queue stats shows jobs still ready")
check_alive

echo
echo "=== the fleet ==="
echo "  processes started: $(for n in "${!starts[@]}"; do printf '%s×%s ' "$n" "${starts[$n]}"; done)"
echo "  kiln quota reconcile --tenant loadtest: $(tail -n 1 <<<"$reconcile")"
echo "  kiln queue stats:"
while IFS= read -r line; do echo "    $line"; done <<<"$stats"
echo "  warnings and errors logged (by log):"
for log in "$data"/logs/*.log; do
  n=$(grep -c -E '^[^ ]+ (warning|error|critical) ' "$log" || true)
  ((n == 0)) && continue
  echo "    $(basename "$log"): $n"
  grep -E '^[^ ]+ (warning|error|critical) ' "$log" | sed -E 's/^[^ ]+ //' | cut -c1-220 | sort | uniq -c |
    sort -rn | head -n 5 | sed 's/^/      /'
done
echo "  load ran $load_seconds s; the whole test $(($(date +%s) - test_started)) s"
if ((${#fleet_findings[@]})); then
  echo "FLEET CHECKS FAILED:"
  printf '  - %s\n' "${fleet_findings[@]}"
fi
if ((audit_rc != 0 || ${#fleet_findings[@]} != 0)); then
  say "FAILED"
  exit 1
fi
say "passed: old ($old_version) → new ($new_version) → old under load"
