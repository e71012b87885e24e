#!/usr/bin/env bash
# Runs the quota load test on this machine: starts Redis and PostgreSQL if needed, builds release, and runs
# `kiln loadtest quota`, which starts its own API node (no worker) and generator processes on a namespace of its own and
# audits every decision. Extra arguments go to `kiln loadtest quota` (see --help and loadtests/README.md).
set -euo pipefail
here=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=../deploy/local/env.sh source-path=SCRIPTDIR
source "$here/../deploy/local/env.sh"
bash "$KILN_ROOT/deploy/local/install-deps.sh"
bash "$KILN_ROOT/deploy/local/start-redis.sh"
bash "$KILN_ROOT/deploy/local/start-postgres.sh"
cd "$KILN_ROOT"
swift build -c release --product kiln
kiln="$(swift build -c release --show-bin-path)/kiln"
"$kiln" migrate
exec "$kiln" loadtest quota "$@"
