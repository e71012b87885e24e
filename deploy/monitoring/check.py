#!/usr/bin/env python3
"""Checks Kiln's alert rules and Grafana dashboard offline, and that they only name metrics Kiln exports.

check.py            `promtool check rules` and `promtool test rules` on kiln-alerts.yml; the dashboard's JSON model
                    (unique panel ids, the 24-column grid, the datasource variable, defined variables), and every
                    panel's query parsed by promtool as PromQL.
check.py --exported FILE...
                    every metric the alerts, the dashboard and the KEDA ScaledObjects (deploy/kubernetes) name is in
                    one of these Prometheus text expositions (scraped from a running API and worker: the image
                    test does that).
"""

import json
import pathlib
import re
import subprocess
import sys
import tempfile

import yaml

HERE = pathlib.Path(__file__).resolve().parent
RULES = HERE / "kiln-alerts.yml"
RULE_TESTS = HERE / "kiln-alerts.test.yml"
DASHBOARD = HERE / "kiln-dashboard.json"
SCALED_OBJECTS = sorted((HERE.parent / "kubernetes").glob("worker-*.yaml"))
# What the dashboard's variables stand for when its queries are parsed.
VARIABLES = {"$__rate_interval": "5m", "$class": ".*", "$tenant": ".*"}
# Kiln's own metrics, and Hummingbird's HTTP metrics that Kiln's API exports.
METRIC = re.compile(r"\b(?:kiln|hb|http_server)_[a-zA-Z0-9_]*\b")


def promtool(*args):
    result = subprocess.run(["promtool", *args], capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"promtool {' '.join(args)} failed:\n{result.stdout}{result.stderr}")


def dashboard_panels(dashboard):
    for panel in dashboard["panels"]:
        yield panel
        yield from panel.get("panels", [])


def dashboard_problems(dashboard):
    if not dashboard.get("uid") or not dashboard.get("title"):
        yield "the dashboard needs a stable uid and a title"
    variables = {variable["name"] for variable in dashboard["templating"]["list"]}
    ids = set()
    for panel in dashboard_panels(dashboard):
        where = f"panel {panel.get('id')} ({panel.get('title')})"
        if panel.get("id") in ids:
            yield f"{where}: the id is used twice"
        ids.add(panel.get("id"))
        grid = panel["gridPos"]
        if grid["x"] < 0 or grid["w"] < 1 or grid["x"] + grid["w"] > 24:
            yield f"{where}: gridPos is outside the 24 columns"
        if panel["type"] == "row":
            continue
        if panel.get("datasource", {}).get("uid") != "${datasource}":
            yield f"{where}: its datasource must be the ${{datasource}} variable (file provisioning has no __inputs)"
        if not panel.get("targets"):
            yield f"{where}: no query"
        for target in panel.get("targets", []):
            for name in re.findall(r"\$(\w+)", target["expr"]):
                if name not in variables and f"${name}" not in VARIABLES:
                    yield f"{where}: ${name} is not a variable of the dashboard"


def dashboard_queries(dashboard):
    for panel in dashboard_panels(dashboard):
        for target in panel.get("targets", []):
            yield panel["title"], target["expr"]


def check():
    promtool("check", "rules", str(RULES))
    promtool("test", "rules", str(RULE_TESTS))
    dashboard = json.loads(DASHBOARD.read_text())
    problems = list(dashboard_problems(dashboard))
    for problem in problems:
        print(f"error: {DASHBOARD.name}: {problem}", file=sys.stderr)
    if problems:
        sys.exit(1)
    # promtool parses PromQL only inside rules: each panel query becomes a recording rule of a scratch file.
    rules = []
    for index, (title, expr) in enumerate(dashboard_queries(dashboard)):
        for variable, value in VARIABLES.items():
            expr = expr.replace(variable, value)
        rules.append({"record": f"dashboard_query_{index}", "expr": expr, "labels": {"panel": title}})
    with tempfile.NamedTemporaryFile("w", suffix=".yml") as scratch:
        yaml.safe_dump({"groups": [{"name": "kiln-dashboard", "rules": rules}]}, scratch)
        scratch.flush()
        promtool("check", "rules", scratch.name)
    print(f"monitoring: alert rules checked and tested; {len(rules)} dashboard queries parse")


def used_metrics():
    exprs = [rule["expr"] for group in yaml.safe_load(RULES.read_text())["groups"] for rule in group["rules"]]
    dashboard = json.loads(DASHBOARD.read_text())
    exprs += [expr for _, expr in dashboard_queries(dashboard)]
    exprs += [variable["definition"] for variable in dashboard["templating"]["list"] if variable["type"] == "query"]
    for path in SCALED_OBJECTS:
        for obj in yaml.safe_load_all(path.read_text()):
            if obj and obj["kind"] == "ScaledObject":
                exprs += [trigger["metadata"]["query"] for trigger in obj["spec"]["triggers"]]
    return {name for expr in exprs for name in METRIC.findall(expr)}


def exported_metrics(paths):
    names = set()
    for path in paths:
        for line in pathlib.Path(path).read_text().splitlines():
            if line.startswith("# TYPE "):
                name, kind = line.split()[2:4]
                names.add(name)
                if kind == "histogram":
                    names.update(f"{name}_{suffix}" for suffix in ("bucket", "sum", "count"))
            elif line and not line.startswith("#"):
                names.add(re.split(r"[{ ]", line, maxsplit=1)[0])
    return names


def main():
    if sys.argv[1:2] == ["--exported"]:
        missing = sorted(used_metrics() - exported_metrics(sys.argv[2:]))
        if missing:
            sys.exit(f"error: the alerts, dashboard or ScaledObjects name metrics Kiln does not export: {', '.join(missing)}")
        print(f"monitoring: all {len(used_metrics())} metrics the alerts, dashboard and ScaledObjects name are exported")
    else:
        check()


if __name__ == "__main__":
    main()
