#!/usr/bin/env bash
# Runs the queue benchmark on this machine: starts Redis and PostgreSQL if needed, builds release, and runs
# `kiln bench`, which starts its own API and workers. Extra arguments go to `kiln bench` (see --help).
set -euo pipefail
# shellcheck source=prepare.sh source-path=SCRIPTDIR
source "$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)/prepare.sh"
exec "$kiln" bench "$@"
