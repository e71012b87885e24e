# shellcheck shell=bash
# Sourced by the load-test scripts: installs what is missing, starts Redis and PostgreSQL if needed, builds kiln and
# kiln-dev release (side by side: kiln-dev starts API nodes and workers from the kiln beside it), applies migrations, and
# sets `kiln` and `kiln_dev` to the binaries. The sourcing script sets `set -euo pipefail` first.
prepare_here=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=../deploy/local/env.sh source-path=SCRIPTDIR
source "$prepare_here/../deploy/local/env.sh"
bash "$KILN_ROOT/deploy/local/install-deps.sh"
bash "$KILN_ROOT/deploy/local/start-redis.sh"
bash "$KILN_ROOT/deploy/local/start-postgres.sh"
cd "$KILN_ROOT"
swift build -c release --product kiln
swift build -c release --product kiln-dev
bin="$(swift build -c release --show-bin-path)"
kiln="$bin/kiln"
# Used by the scripts that source this file.
# shellcheck disable=SC2034
kiln_dev="$bin/kiln-dev"
"$kiln" migrate
