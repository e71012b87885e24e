#!/usr/bin/env bash
# The client package as an app meets it, from a clean copy of KilnClient/ alone: it builds and passes its own tests,
# its public API is the one KilnClient/PublicAPI.txt lists, its DocC documentation builds with the articles' examples,
# and an app's package that adds it by URL and version resolves that one package and builds. Run by deploy/local/test.sh; scratch space under $KILN_STATE_DIR/client.
set -euo pipefail
here=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=../local/env.sh
source "$here/../local/env.sh"

work="$KILN_STATE_DIR/client"
rm -rf "$work"
mkdir -p "$work"
# The folder's tracked files only, as the client's own repository holds them (deploy/client/split.sh).
repository="$work/kiln-client"
mkdir -p "$repository"
(cd "$KILN_ROOT/KilnClient" && git ls-files -z | xargs -0 cp --parents -t "$repository")
git -C "$repository" init -q -b main
git -C "$repository" add -A
git -C "$repository" -c user.name=kiln -c user.email=kiln@localhost commit -q -m "KilnClient"
git -C "$repository" tag 1.0.0

cd "$repository"
swift build 2>&1 | tee "$work/build.log"
kiln_fail_on_compiler_warnings "$work/build.log" "the client package's build"
swift test --disable-xctest 2>&1 | tee "$work/test.log"
# The public API against KilnClient/PublicAPI.txt: nothing gone or changed within 1.x, nothing added unlisted.
symbols=$(swift package dump-symbol-graph 2>&1 | tee "$work/symbols.log" | sed -n 's/^Files written to //p')
[[ -d $symbols ]] || kiln_die "swift package dump-symbol-graph wrote no symbol graphs (see $work/symbols.log)"
python3 "$here/public-api.py" "$symbols"
# The documentation: warnings fail it, so a broken symbol link or article reference does.
KILN_DOCC=1 swift package --allow-writing-to-directory "$work/docs" generate-documentation --target KilnClient \
    --warnings-as-errors --output-path "$work/docs" 2>&1 | tee "$work/docc.log"
[[ -f "$work/docs/data/documentation/kilnclient/gettingstarted.json" ]] \
    || kiln_die "the client's DocC archive has no Getting Started article (see $work/docc.log)"
git -C "$repository" status --porcelain | grep -q . && kiln_die "building the client changed its tracked files"

# An app's package that depends on the client by URL and version, as in the Getting Started article.
app="$work/example-app"
cp -a "$here/example-app" "$app"
sed "s|@KILN_CLIENT_URL@|file://$repository|" "$app/Package.swift.template" >"$app/Package.swift"
rm "$app/Package.swift.template"
(cd "$app" && swift build 2>&1 | tee "$work/app-build.log")
python3 - "$app/Package.resolved" <<'PY' || kiln_die "the app's Package.resolved pins more than the client"
import json, sys
pins = json.load(open(sys.argv[1]))["pins"]
print("the example app's Package.resolved pins:", ", ".join(f'{p["identity"]} {p["state"].get("version")}' for p in pins))
sys.exit(0 if [p["identity"] for p in pins] == ["kiln-client"] else 1)
PY
