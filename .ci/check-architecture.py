#!/usr/bin/env python3
"""Holds ARCHITECTURE.md's table of targets to Package.swift and to the code.

For each package (the server at the root, the client in KilnClient/), `swift package dump-package` says which targets
exist, where, and what each declares it depends on. The table in ARCHITECTURE.md must list exactly those targets, each
with its folder and its declared dependencies; and each target's Swift files must import exactly what it declares
(besides the toolchain's own modules), so a dependency that is added, dropped or used without being declared fails
the run until the table says so too. `--table` prints the table as the packages declare it, to paste.
"""
import json
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
PACKAGES = [ROOT, ROOT / "KilnClient"]
TOOLCHAIN_MODULES = {
    "Foundation", "FoundationNetworking", "FoundationEssentials", "Glibc", "Musl", "Darwin", "Dispatch", "Testing",
    "XCTest", "Synchronization", "_Concurrency", "CoreFoundation", "os", "RegexBuilder", "PackageDescription", "PackagePlugin",
}
IMPORT = re.compile(
    r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:public\s+|package\s+|internal\s+|fileprivate\s+|private\s+)?import\s+"
    r"(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?([A-Za-z_]\w*)", re.M)
BEGIN, END = "<!-- targets: begin -->", "<!-- targets: end -->"


def declared_targets():
    """name -> (folder relative to the repository, {dependency module names})"""
    targets = {}
    for package in PACKAGES:
        dump = json.loads(subprocess.run(["swift", "package", "dump-package"], cwd=package, check=True,
                                         capture_output=True, text=True).stdout)
        for target in dump["targets"]:
            folder = package.relative_to(ROOT) / (target.get("path") or
                                                   ("Tests" if target["type"] == "test" else "Sources") + "/" + target["name"])
            dependencies = set()
            for dependency in target["dependencies"]:
                (kind, value), = dependency.items()
                dependencies.add(value[0])
            targets[target["name"]] = (folder.as_posix(), dependencies)
    return targets


def imports(folder):
    found = set()
    for file in (ROOT / folder).rglob("*.swift"):
        # A multi-line string literal can hold another language's imports (the tests' Python scripts).
        code = re.sub(r'#*"""[\s\S]*?"""#*', "", file.read_text(encoding="utf-8"))
        found.update(IMPORT.findall(code))
    return found - TOOLCHAIN_MODULES


def table_row(name, folder, dependencies):
    return f"| {name} | `{folder}` | {', '.join(sorted(dependencies, key=str.lower)) or '—'} |"


def documented_rows():
    text = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8")
    if BEGIN not in text or END not in text:
        sys.exit(f"ARCHITECTURE.md has no table between {BEGIN} and {END}")
    rows = {}
    for line in text.split(BEGIN, 1)[1].split(END, 1)[0].splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 3 or cells[0] in ("target", "") or set(cells[0]) <= set("-: "):
            continue
        name, folder, dependencies = cells
        rows[name] = (folder.strip("`"), set() if dependencies == "—" else {d.strip() for d in dependencies.split(",")})
    return rows


def main():
    targets = declared_targets()
    if "--table" in sys.argv:
        print("| target | folder | depends on |\n|---|---|---|")
        for name, (folder, dependencies) in targets.items():
            print(table_row(name, folder, dependencies))
        return
    problems = []
    rows = documented_rows()
    for name in sorted(set(rows) - set(targets)):
        problems.append(f"ARCHITECTURE.md lists {name}, which neither package declares")
    for name, (folder, dependencies) in targets.items():
        if name not in rows:
            problems.append(f"{name} ({folder}) is not in ARCHITECTURE.md's table")
            continue
        documented_folder, documented = rows[name]
        if documented_folder != folder:
            problems.append(f"{name}: ARCHITECTURE.md says {documented_folder}, Package.swift {folder}")
        for missing in sorted(dependencies - documented):
            problems.append(f"{name} depends on {missing} in Package.swift, not in ARCHITECTURE.md")
        for extra in sorted(documented - dependencies):
            problems.append(f"{name} depends on {extra} in ARCHITECTURE.md, not in Package.swift")
        imported = imports(folder)
        for undeclared in sorted(imported - dependencies - {name}):
            problems.append(f"{name} imports {undeclared} without declaring it in Package.swift")
        for unused in sorted(dependencies - imported):
            problems.append(f"{name} declares {unused} in Package.swift and imports it nowhere")
    for problem in problems:
        print(f"architecture: {problem}", flush=True)
    if problems:
        sys.exit(f"architecture: {len(problems)} disagreement(s); `python3 .ci/check-architecture.py --table` prints "
                 "what the packages declare")
    print(f"architecture: ARCHITECTURE.md agrees with {len(targets)} targets' declarations and imports")


main()
