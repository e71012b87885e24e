#!/usr/bin/env bash
# Installs the Debian packages Kiln needs to build, test and run locally — only the missing ones,
# so re-running is instant and never touches apt when nothing is missing.
set -euo pipefail
here=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=env.sh source-path=SCRIPTDIR
source "$here/env.sh"

# C libraries the Swift system-library targets link against, the two servers, ffmpeg for rendering,
# curl/python3 for the scripts themselves.
packages=(pkg-config libhiredis-dev libpq-dev libcurl4-openssl-dev redis-server postgresql ffmpeg curl python3)
missing=()
for p in "${packages[@]}"; do
  # `dpkg -s` also succeeds for removed packages whose config files remain, so check the status line.
  dpkg -s "$p" 2>/dev/null | grep -q '^Status: install ok installed' || missing+=("$p")
done

if ((${#missing[@]})); then
  echo "Installing missing packages: ${missing[*]}"
  if [[ $EUID -eq 0 ]]; then
    sudo=()
  elif command -v sudo >/dev/null 2>&1; then
    sudo=(sudo)
  else
    kiln_die "missing packages: ${missing[*]} — not root and no sudo; install them with apt-get as root"
  fi
  "${sudo[@]}" apt-get update
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
fi

# env.sh already added /opt/swift/usr/bin to PATH if swift lives there.
command -v swift >/dev/null 2>&1 ||
  kiln_die "swift is not on PATH (nor in /opt/swift/usr/bin); install a Swift 6 toolchain from swift.org"
