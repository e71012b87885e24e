#!/usr/bin/env bash
# Checks the systemd units offline, as installed on a host (docs/operations.md, "systemd"): in a scratch root with a
# stand-in for /usr/local/bin/kiln, `systemd-analyze verify` must find no unknown key, bad value or missing program
# (--recursive-errors=no makes those errors, not warnings), the sysusers file must create the kiln user, and each
# service's sandbox must rate an exposure of 2.0 or less. Needs systemd-analyze; systemd need not be PID 1.
set -euo pipefail
here=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)

root=$(mktemp -d)
trap 'rm -rf -- "$root"' EXIT
mkdir -p "$root/etc/systemd/system" "$root/etc/kiln" "$root/usr/local/bin" "$root/usr/lib/sysusers.d"
cp -r "$here"/kiln-*.service "$here/kiln-.service.d" "$root/etc/systemd/system/"
cp "$here"/*.env "$root/etc/kiln/"
cp "$here/kiln.sysusers" "$root/usr/lib/sysusers.d/kiln.conf"
printf '#!/bin/sh\n' >"$root/usr/local/bin/kiln"
chmod +x "$root/usr/local/bin/kiln"

out=$(systemd-sysusers --root="$root" 2>&1) || { echo "$out" >&2; exit 1; }
grep -q '^kiln:' "$root/etc/passwd" || { echo "error: kiln.sysusers did not create the kiln user" >&2; exit 1; }
units=(kiln-api.service kiln-console.service kiln-worker@io.service kiln-worker@cpu.service kiln-migrate.service)
systemd-analyze verify --root="$root" --man=no --recursive-errors=no "${units[@]}"
for unit in "${units[@]}"; do
    # The threshold is the score times ten.
    systemd-analyze security --offline=yes --root="$root" --threshold=20 --no-pager "$unit" >/dev/null ||
        { echo "error: $unit is exposed more than 2.0 (systemd-analyze security --offline=yes)" >&2; exit 1; }
done
echo "systemd units: ${units[*]} verified"
