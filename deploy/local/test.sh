#!/usr/bin/env bash
# Runs the test suite against real Redis and PostgreSQL (started here if needed). Extra arguments go
# to `swift test`, e.g. `deploy/local/test.sh --filter Queue`. Used by CI via .ci/run.
set -euo pipefail
here=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=env.sh source-path=SCRIPTDIR
source "$here/env.sh"

bash "$here/install-deps.sh" --test-tools
# The deployment files, checked offline in seconds: no cluster runs here, and systemd is not PID 1
# (docs/operations.md).
bash "$KILN_ROOT/deploy/systemd/verify.sh"
python3 "$KILN_ROOT/deploy/kubernetes/validate.py"
python3 "$KILN_ROOT/deploy/monitoring/check.py"
# Integration tests need both servers; in CI a missing server must fail the run, never skip tests.
bash "$here/start-redis.sh" || kiln_die "Redis did not come up on 127.0.0.1:$KILN_REDIS_PORT"
bash "$here/start-postgres.sh" || kiln_die "PostgreSQL did not come up on 127.0.0.1:$KILN_PG_PORT"
kiln_redis_up || kiln_die "Redis is not answering on 127.0.0.1:$KILN_REDIS_PORT"
kiln_pg_up || kiln_die "PostgreSQL is not accepting connections on 127.0.0.1:$KILN_PG_PORT"
# The sharded suites' Redis Cluster: three masters and three replicas on loopback.
bash "$here/start-redis-cluster.sh" || kiln_die "the Redis Cluster did not come up on 127.0.0.1:$KILN_REDIS_CLUSTER_PORT"

export KILN_TEST_REDIS_URL="$KILN_REDIS_URL"
export KILN_TEST_DATABASE_URL="$KILN_DATABASE_URL"
mkdir -p "$KILN_OBJECT_ROOT"

cd "$KILN_ROOT"
# The tree is formatted as .swift-format says (swift format, part of the toolchain): a file that is not fails the run;
# `swift format format --in-place --recursive Sources Tests Package.swift KilnClient` formats it.
swift format lint --strict --recursive --parallel Sources Tests Package.swift KilnClient \
    || kiln_die "swift format lint found the files above not formatted as .swift-format says"
# ARCHITECTURE.md's table of targets agrees with both packages' manifests and with each target's imports.
python3 "$KILN_ROOT/.ci/check-architecture.py"
# A compiler warning in Kiln's own code fails the run: CI builds a fresh clone, so every file is compiled and seen.
build_log="$KILN_STATE_DIR/build.log"
mkdir -p "$KILN_STATE_DIR"
swift build --build-tests 2>&1 | tee "$build_log"
kiln_fail_on_compiler_warnings "$build_log" "the build"
# The previous release's HTTP API, migrations and policies file still hold (docs/compatibility.md).
python3 "$KILN_ROOT/.ci/check-compatibility.py" --kiln "$(swift build --show-bin-path)/kiln"
# The suites that hold the queue's and admission's guarantees: run on one Redis, then on the cluster with three shards.
sharded_suites='KilnIntegrationTests\.(QueueEngineTests|LeaseLossTests|AdmissionTests|AbuseTests|QuotaModelTests|QuotaLoadTests|EntitlementTests|PrivacyTests|FleetTests|ShardTests|EventFollowerTests)'
# The suites that start Redis Clusters of their own, kill their masters and move their slots.
cluster_suites='KilnIntegrationTests\.(RedisClusterTests|ClusterFailoverTests)'
# Swift Testing records a backtrace of every Swift error thrown while a test runs, for the issue it might become; Kiln
# and its libraries throw and catch as they go (JSON decoding tries its shapes), and in the integration process those
# backtraces took a tenth of the cooperative threads every test's tasks share. A failing test still names its error
# and where it was caught.
export SWT_SWIFT_ERROR_BACKTRACING_ENABLED=0
# No --parallel: Swift Testing already runs tests concurrently.
# Every test is a Swift Testing test: without XCTest the run does not also print "Executed 0 tests".
(($#)) && exec swift test --disable-xctest "$@"
# Runs one of the suite's `swift test` processes (its log in $KILN_STATE_DIR/test-$1.log); when it fails, prints each
# issue it recorded once more at the end, with the lines that follow it: CI keeps only the tail of a long log, and the
# issues are otherwise far above it, among hundreds of passing tests.
run_tests() {
    local log="$KILN_STATE_DIR/test-$1.log"
    shift
    swift test --disable-xctest --skip-build "$@" 2>&1 | tee "$log" && return 0
    echo "--- the issues of this process (swift test $*), again:"
    { grep -E -A4 "^✘ Test .* recorded an issue" "$log" || echo "(none: the process ended without recording one)"; } | tail -n 80
    kiln_die "the tests above failed (the whole log: $log)"
}
# The client package from a clean copy of its folder, as an app adds it: its tests, its DocC archive, an app's build.
bash "$KILN_ROOT/deploy/client/test.sh"
# The image: built with the Swift runtime linked in, then an API and a worker container run jobs against the servers
# above (deploy/container/test.sh; a release build of its own, in .build-image/).
bash "$KILN_ROOT/deploy/container/test.sh"
# The previous release and this tree side by side on one Redis and one PostgreSQL, rolled forward and back under load
# (docs/compatibility.md): builds the previous release once (cached in .kiln/upgrade/), uses the image's kiln as the new.
bash "$KILN_ROOT/deploy/upgrade/test.sh"
# The whole suite in six processes, one after the other: the integration suites (each with its own API, workers and
# simulator) and the rest would otherwise share one process's few threads on two cores, and the simulator's
# stream tests would wait behind them past their deadlines; the document tests start Java (epubcheck), LibreOffice and
# Chromium, which take both cores for seconds, and so do the console's browser tests (KilnIntegrationTests'
# ConsoleBrowser… suites), which run beside them, away from the integration suites' deadlines.
run_tests units --skip KilnIntegrationTests --skip DocumentsTests
run_tests documents --filter DocumentsTests --filter ConsoleBrowser
run_tests integration --filter KilnIntegrationTests --skip ConsoleBrowser --skip "$cluster_suites"
# The clusters that are killed and resharded, each suite's own, one suite at a time: a node that answers late under
# the load of the suites above is taken for dead by its peers (cluster-node-timeout).
run_tests cluster --filter 'KilnIntegrationTests\.RedisClusterTests'
run_tests failover --filter 'KilnIntegrationTests\.ClusterFailoverTests'
# The queue and admission suites again, on the Redis Cluster with a namespace of three shards (docs/queue.md, "Shards";
# docs/redis-cluster.md): every guarantee holds as on one Redis.
KILN_TEST_REDIS_URL="$KILN_REDIS_CLUSTER_URL" KILN_TEST_REDIS_SHARDS=3 \
    run_tests sharded --filter "$sharded_suites"
