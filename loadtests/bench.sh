#!/usr/bin/env bash
# Runs the queue benchmark on this machine: starts Redis and PostgreSQL if needed, builds release, and runs
# `kiln bench`, which starts its own API and workers. Extra arguments go to `kiln bench` (see --help).
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
exec "$kiln" bench "$@"
