#!/usr/bin/env bash
# Runs the queue benchmark on this machine: starts Redis and PostgreSQL if needed, builds release, and runs
# `kiln-dev bench`, which starts its own API and workers (from kiln). Extra arguments go to `kiln-dev bench`
# (see --help).
#
#   loadtests/bench.sh --reference [args]   also runs ../shared/bench/sidekiq-reference.sh (when present) right after
#                                           the no-op burn-down and prints Kiln's rates as ratios of Sidekiq's.
set -euo pipefail
# shellcheck source=prepare.sh source-path=SCRIPTDIR
source "$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)/prepare.sh"
args=()
for arg in "$@"; do
  if [[ $arg == --reference ]]; then
    reference="$KILN_ROOT/../shared/bench/sidekiq-reference.sh"
    if [[ -x $reference ]]; then
      args+=(--reference "$reference")
    else
      echo "no reference benchmark at $reference: running without it" >&2
    fi
  else
    args+=("$arg")
  fi
done
exec "$kiln_dev" bench "${args[@]}"
