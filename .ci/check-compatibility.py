#!/usr/bin/env python3
"""Holds the tree to docs/compatibility.md's promises against the previous release (deploy/upgrade/previous-release).

check-compatibility.py --kiln BIN [--previous-kiln BIN]

- The HTTP API: every path, method and answer status of the previous release's openapi.json is still there; no schema,
  property or enum value it described is gone; no property's type changed; no answer lost a field it promised
  (`required`); no request body requires a field the previous release did not.
- The PostgreSQL schema: every migration of the previous release is still there, byte for byte (new ones only add).
- The policies file: the previous release's deploy/policies.json loads in this release (`kiln policies check`).
- The CLI, with --previous-kiln: every command and option of the previous release's `kiln` is still there.

The previous release is read from git, so this needs the clone's history. Exits 1 naming every broken promise.
"""
import argparse
import json
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
METHODS = {"get", "put", "post", "delete", "patch", "head", "options"}


def git(*args):
    return subprocess.run(["git", "-C", str(ROOT), *args], check=True, capture_output=True).stdout


def previous_release():
    commit = (ROOT / "deploy/upgrade/previous-release").read_text().strip()
    try:
        git("cat-file", "-e", f"{commit}^{{commit}}")
    except subprocess.CalledProcessError:
        sys.exit(f"compatibility: the previous release {commit} is not in this clone's history (git fetch --unshallow)")
    return commit


def previous_file(commit, name):
    """The previous release's file that ends with `name` (the tree was laid out anew since)."""
    paths = [p for p in git("ls-tree", "-r", "--name-only", commit).decode().splitlines() if p == name or p.endswith("/" + name)]
    if len(paths) != 1:
        sys.exit(f"compatibility: the previous release has {len(paths)} files named {name}")
    return git("show", f"{commit}:{paths[0]}")


def referenced_schemas(node, into):
    if isinstance(node, dict):
        ref = node.get("$ref", "")
        if ref.startswith("#/components/schemas/"):
            into.add(ref.rsplit("/", 1)[1])
        for value in node.values():
            referenced_schemas(value, into)
    elif isinstance(node, list):
        for value in node:
            referenced_schemas(value, into)
    return into


def request_schemas(document):
    """The schemas a request body uses, directly or through others: a new required field there refuses old clients."""
    names = set()
    for item in document.get("paths", {}).values():
        for method, operation in item.items():
            if method in METHODS:
                referenced_schemas(operation.get("requestBody", {}), names)
    schemas = document.get("components", {}).get("schemas", {})
    grown = True
    while grown:
        before = len(names)
        for name in list(names):
            referenced_schemas(schemas.get(name, {}), names)
        grown = len(names) != before
    return names


def compare_schema(where, old, new, in_request, problems):
    if not isinstance(old, dict) or not isinstance(new, dict):
        return
    if "type" in old and old.get("type") != new.get("type"):
        problems.append(f"{where}: type {old.get('type')} became {new.get('type')}")
    for value in old.get("enum", []):
        if value not in new.get("enum", [value]):
            problems.append(f"{where}: enum value {value!r} is gone")
    old_required, new_required = set(old.get("required", [])), set(new.get("required", []))
    for name in sorted(old_required - new_required):
        problems.append(f"{where}: {name} is no longer required (answers promised it)")
    if in_request:
        for name in sorted(new_required - old_required):
            problems.append(f"{where}: a request now requires {name}")
    for name, property in old.get("properties", {}).items():
        if name not in new.get("properties", {}):
            problems.append(f"{where}: property {name} is gone")
        else:
            compare_schema(f"{where}.{name}", property, new["properties"][name], in_request, problems)
    if "items" in old:
        compare_schema(f"{where}[]", old["items"], new.get("items", {}), in_request, problems)


def check_openapi(commit, problems):
    old = json.loads(previous_file(commit, "KilnAPI/openapi.json"))
    new = json.loads((ROOT / "Sources/Edges/KilnAPI/openapi.json").read_text())
    for path, item in old.get("paths", {}).items():
        for method, operation in item.items():
            if method not in METHODS:
                continue
            current = new.get("paths", {}).get(path, {}).get(method)
            if current is None:
                problems.append(f"openapi: {method.upper()} {path} is gone")
                continue
            for status in operation.get("responses", {}):
                if status not in current.get("responses", {}):
                    problems.append(f"openapi: {method.upper()} {path} no longer answers {status}")
    in_request = request_schemas(new)
    old_schemas, new_schemas = old.get("components", {}).get("schemas", {}), new.get("components", {}).get("schemas", {})
    for name, schema in old_schemas.items():
        if name not in new_schemas:
            problems.append(f"openapi: schema {name} is gone")
        else:
            compare_schema(f"openapi: {name}", schema, new_schemas[name], name in in_request, problems)


def check_migrations(commit, problems):
    for path in git("ls-tree", "-r", "--name-only", commit, "migrations/").decode().splitlines():
        current = ROOT / path
        if not current.exists():
            problems.append(f"migrations: {path} is gone (migrations are forward-only)")
        elif current.read_bytes() != git("show", f"{commit}:{path}"):
            problems.append(f"migrations: {path} changed (a released migration never changes; add a new one)")


def check_policies(commit, kiln, problems):
    with tempfile.NamedTemporaryFile(suffix=".json") as file:
        file.write(previous_file(commit, "deploy/policies.json"))
        file.flush()
        result = subprocess.run([kiln, "policies", "check", "--policies", file.name], capture_output=True, text=True)
        if result.returncode != 0:
            problems.append(f"policies: the previous release's policies.json does not load: {result.stderr.strip()}")


def command_tree(kiln):
    """Every command path with its options' and arguments' names."""
    tree = {}

    def walk(command, path):
        names = set()
        for argument in command.get("arguments", []):
            names.update(n["name"] for n in argument.get("names", []) or [{"name": argument.get("valueName", "")}])
        tree[" ".join(path)] = names
        for sub in command.get("subcommands", []):
            walk(sub, path + [sub["commandName"]])

    walk(json.loads(subprocess.run([kiln, "--experimental-dump-help"], check=True, capture_output=True).stdout)["command"], ["kiln"])
    return tree


def check_cli(kiln, previous_kiln, problems):
    old, new = command_tree(previous_kiln), command_tree(kiln)
    for command, names in old.items():
        if command not in new:
            problems.append(f"cli: `{command}` is gone")
            continue
        for name in sorted(names - new[command]):
            problems.append(f"cli: `{command}` no longer takes {name}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--kiln", required=True, help="this tree's kiln")
    parser.add_argument("--previous-kiln", help="the previous release's kiln, for the CLI")
    arguments = parser.parse_args()
    commit = previous_release()
    problems = []
    check_openapi(commit, problems)
    check_migrations(commit, problems)
    check_policies(commit, arguments.kiln, problems)
    if arguments.previous_kiln:
        check_cli(arguments.kiln, arguments.previous_kiln, problems)
    for problem in problems:
        print(f"compatibility: {problem}", flush=True)
    if problems:
        sys.exit(f"compatibility: {len(problems)} broken promise(s) against {commit} (docs/compatibility.md)")
    print(f"compatibility: the HTTP API, the migrations, the policies file{' and the CLI' if arguments.previous_kiln else ''} "
          f"keep {commit}'s promises")


main()
