#!/usr/bin/env python3
"""The labels of the metrics a release's monitoring names, kept by the next release (docs/compatibility.md).

metric-labels.py MONITORING-DIR --old FILE... --new FILE...

MONITORING-DIR is the previous release's deploy/monitoring: its check.py says which metrics its alerts, dashboard and
KEDA triggers name. Each FILE is a Prometheus text exposition scraped from a process of that release (--old) or of the
new one (--new). For every such metric the old fleet exported, every label name it carried must still be there on the
new fleet's series of that metric. Exits 1 naming each label gone.
"""
import argparse
import importlib.util
import pathlib
import re
import sys

SERIES = re.compile(r"^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s")
LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="')


def labels(paths):
    """metric name -> the label names its series carry, histograms' `le` aside."""
    found = {}
    for path in paths:
        for line in pathlib.Path(path).read_text().splitlines():
            match = SERIES.match(line)
            if not match or line.startswith("#"):
                continue
            name = re.sub(r"_(bucket|sum|count)$", "", match.group(1))
            found.setdefault(name, set()).update(set(LABEL.findall(match.group(2) or "")) - {"le"})
    return found


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("monitoring")
    parser.add_argument("--old", nargs="+", required=True)
    parser.add_argument("--new", nargs="+", required=True)
    arguments = parser.parse_args()
    spec = importlib.util.spec_from_file_location("monitoring_check", pathlib.Path(arguments.monitoring) / "check.py")
    check = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(check)
    used = {re.sub(r"_(bucket|sum|count)$", "", name) for name in check.used_metrics()}
    old, new = labels(arguments.old), labels(arguments.new)
    gone = [f"{name}: label {label}" for name in sorted(used & old.keys()) for label in sorted(old[name] - new.get(name, set()))]
    for item in gone:
        print(f"metric labels: gone on the new fleet: {item}", flush=True)
    if gone:
        sys.exit(1)
    print(f"metric labels: the {len(used & old.keys())} metrics the previous monitoring names keep their labels")


main()
