#!/usr/bin/env bash
# Runs the quota load test on this machine: starts Redis and PostgreSQL if needed, builds release, and runs
# `kiln-dev loadtest quota`, which starts its own API node (from kiln; no worker) and generator processes on a namespace
# of its own and audits every decision. Extra arguments go to `kiln-dev loadtest quota` (see --help and
# loadtests/README.md).
set -euo pipefail
# shellcheck source=prepare.sh source-path=SCRIPTDIR
source "$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)/prepare.sh"
exec "$kiln_dev" loadtest quota "$@"
