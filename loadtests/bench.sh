#!/usr/bin/env bash
# Runs the queue benchmark on this machine: starts Redis and PostgreSQL if needed, builds release, and runs
# `kiln-dev bench`, which starts its own API and workers (from kiln). Extra arguments go to `kiln-dev bench`
# (see --help).
set -euo pipefail
# shellcheck source=prepare.sh source-path=SCRIPTDIR
source "$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)/prepare.sh"
exec "$kiln_dev" bench "$@"
