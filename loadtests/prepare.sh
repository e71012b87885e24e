# shellcheck shell=bash
# Sourced by the load-test scripts: installs what is missing, starts Redis and PostgreSQL if needed, builds kiln
# release, applies migrations, and sets `kiln` to the binary. The sourcing script sets `set -euo pipefail` first.
prepare_here=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=../deploy/local/env.sh source-path=SCRIPTDIR
source "$prepare_here/../deploy/local/env.sh"
bash "$KILN_ROOT/deploy/local/install-deps.sh"
bash "$KILN_ROOT/deploy/local/start-redis.sh"
bash "$KILN_ROOT/deploy/local/start-postgres.sh"
cd "$KILN_ROOT"
swift build -c release --product kiln
kiln="$(swift build -c release --show-bin-path)/kiln"
"$kiln" migrate
