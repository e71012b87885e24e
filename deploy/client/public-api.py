#!/usr/bin/env python3
"""KilnClient's public API as text, one declaration a line, held to KilnClient/PublicAPI.txt.

public-api.py SYMBOLGRAPH-DIR            fails when a declaration of PublicAPI.txt is gone or changed (a breaking change,
                                        which semantic versioning keeps for a new major release) or when one was
                                        added and PublicAPI.txt does not list it yet (a minor release: list it)
public-api.py SYMBOLGRAPH-DIR --update  writes PublicAPI.txt anew

SYMBOLGRAPH-DIR is what `swift package dump-symbol-graph` writes for the client package. The API is what an app sees
through `import KilnClient`: the client and the modules it re-exports, and KilnJSON, whose JSONValue their
signatures use.
"""
import json
import pathlib
import sys

LISTING = pathlib.Path(__file__).resolve().parent.parent.parent / "KilnClient/PublicAPI.txt"
MODULES = {"KilnClient", "JobVocabulary", "ImageOptions", "ChatTaleInputs", "WorldArchitectInputs", "TalevoniaInputs",
           "VeramoInputs", "JoanieInputs", "DocumentInputs", "KilnJSON"}


def declarations(folder):
    lines = set()
    for file in pathlib.Path(folder).glob("*.symbols.json"):
        module = file.name.split(".")[0].split("@")[0]
        if module not in MODULES:
            continue
        graph = json.loads(file.read_text())
        for symbol in graph["symbols"]:
            if symbol.get("accessLevel") not in ("public", "open"):
                continue
            path = ".".join(symbol["pathComponents"])
            declaration = "".join(fragment["spelling"] for fragment in symbol.get("declarationFragments", []))
            lines.add(f"{module} {path}: {' '.join(declaration.split())}")
    return lines


def main():
    current = declarations(sys.argv[1])
    if not current:
        sys.exit(f"public-api: no symbols of {', '.join(sorted(MODULES))} in {sys.argv[1]}")
    if "--update" in sys.argv:
        LISTING.write_text("".join(line + "\n" for line in sorted(current)))
        print(f"public-api: {len(current)} declarations written to {LISTING.name}")
        return
    listed = set(LISTING.read_text().splitlines())
    gone, added = sorted(listed - current), sorted(current - listed)
    for line in gone:
        print(f"public-api: gone or changed (breaking): {line}")
    for line in added:
        print(f"public-api: new, not in PublicAPI.txt: {line}")
    if gone or added:
        sys.exit("public-api: KilnClient's public API differs from KilnClient/PublicAPI.txt: a breaking change waits for "
                 "2.0 (docs/compatibility.md); an added declaration goes in with deploy/client/public-api.py DIR --update")
    print(f"public-api: KilnClient's {len(current)} public declarations are those of PublicAPI.txt")


main()
