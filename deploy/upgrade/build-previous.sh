#!/usr/bin/env bash
# Builds the previous release of Kiln, the commit named in deploy/upgrade/previous-release, for the upgrade test
# (deploy/upgrade/test.sh), and prints the folder that holds its `kiln` and `kiln-dev`.
#
# The commit gets a git worktree of its own, .kiln/upgrade/previous-<commit> (under $UPGRADE_PREVIOUS_ROOT if set;
# detached; .kiln/ is git-ignored), built in release mode as deploy/local/up.sh builds: `swift build -c release
# --product kiln`, then `--product kiln-dev`. The build is cached: once both executables of that commit exist, this
# does nothing but print their folder, so only the first run on a machine (or a change of previous-release) pays for
# it. The build's output goes to stderr; stdout holds only the folder.
set -euo pipefail
here=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../local/env.sh
source "$here/../local/env.sh"

wanted=$(tr -d '[:space:]' <"$here/previous-release")
[[ -n $wanted ]] || kiln_die "$here/previous-release names no commit"
# A shallow clone may not hold the previous release: fetch it then.
if ! commit=$(git -C "$KILN_ROOT" rev-parse --verify --quiet "$wanted^{commit}"); then
  git -C "$KILN_ROOT" fetch --quiet origin "$wanted" >&2 || true
  commit=$(git -C "$KILN_ROOT" rev-parse --verify --quiet "$wanted^{commit}") ||
    kiln_die "the previous release $wanted is not in this clone (a shallow clone? git fetch --unshallow)"
fi

dir="${UPGRADE_PREVIOUS_ROOT:-$KILN_ROOT/.kiln/upgrade}/previous-$commit"
stamp="$dir/.kiln-bin-path"  # written once both executables are built: their folder
if [[ -s $stamp ]]; then
  bin=$(<"$stamp")
  if [[ -x $bin/kiln && -x $bin/kiln-dev ]]; then
    echo "$bin"
    exit 0
  fi
fi

if [[ ! -e $dir/.git ]]; then
  git -C "$KILN_ROOT" worktree prune
  mkdir -p "$(dirname -- "$dir")"
  git -C "$KILN_ROOT" worktree add --detach "$dir" "$commit" >&2
fi
[[ $(git -C "$dir" rev-parse HEAD) == "$commit" ]] ||
  kiln_die "$dir is not at $commit; remove it (git worktree remove --force $dir)"
# Package.resolved is not committed: start from this tree's pins, so the previous release builds against the
# dependencies the current one does (and needs no network when they are in SwiftPM's cache); SwiftPM resolves again
# if its Package.swift asks for others.
if [[ ! -f $dir/Package.resolved && -f $KILN_ROOT/Package.resolved ]]; then
  cp "$KILN_ROOT/Package.resolved" "$dir/Package.resolved"
fi

echo "Building the previous release ${commit:0:12} (release mode) in $dir; the first build takes many minutes." >&2
cd "$dir"
build_log="$dir/.build-release.log"
{ swift build -c release --product kiln && swift build -c release --product kiln-dev; } 2>&1 | tee "$build_log" >&2 ||
  kiln_die "the previous release did not build (log: $build_log)"
bin=$(swift build -c release --show-bin-path)
[[ -x $bin/kiln && -x $bin/kiln-dev ]] || kiln_die "no kiln and kiln-dev in $bin after the build"
echo "$bin" >"$stamp"
echo "$bin"
