#!/usr/bin/env python3
"""Validates deploy/kubernetes offline; no cluster runs where the tests do.

Renders the kustomization as `kubectl kustomize` does, then checks:
- every core object against Kubernetes' own schema (kubernetes-validate, strict: an unknown field fails);
- every ScaledObject against keda-scaledobject.schema.json (KEDA's documented fields, an unknown one fails);
- what no schema sees: every reference (scale targets, selectors, ConfigMaps) finds its object, each worker class has
  a Deployment with a ScaledObject on its own class's queue metrics, a worker's grace period outlasts its drain, and
  every container runs as the restricted Pod Security Standard asks with a read-only root and set resources.
Exits 1 naming each problem. Usage: validate.py [KUSTOMIZATION_DIR]
"""

import json
import pathlib
import re
import subprocess
import sys

import jsonschema
import kubernetes_validate
import yaml

KUBERNETES_VERSION = "1.30"  # the oldest release whose schema has the preStop sleep action used here
HERE = pathlib.Path(__file__).resolve().parent
WORKER_CLASSES = ("io", "cpu")
# Created by the operator (docs/operations.md), so not in the rendering.
EXTERNAL_SECRETS = {"kiln"}


def render(directory):
    # The policy and provider files live above this directory, in deploy/.
    result = subprocess.run(
        ["kubectl", "kustomize", "--load-restrictor", "LoadRestrictionsNone", str(directory)],
        capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"kubectl kustomize {directory} failed:\n{result.stderr}")
    return [doc for doc in yaml.safe_load_all(result.stdout) if doc]


def name(obj):
    return f"{obj['kind']}/{obj['metadata']['name']}"


def schema_problems(objects):
    keda = jsonschema.Draft202012Validator(json.loads((HERE / "keda-scaledobject.schema.json").read_text()))
    for obj in objects:
        if obj["kind"] == "ScaledObject":
            for error in keda.iter_errors(obj):
                yield f"{name(obj)}: {'.'.join(map(str, error.absolute_path))}: {error.message}"
            continue
        try:
            kubernetes_validate.validate(obj, KUBERNETES_VERSION, strict=True)
        except kubernetes_validate.ValidationError as error:
            yield f"{name(obj)}: {'.'.join(map(str, error.path))}: {error.message}"
        except kubernetes_validate.SchemaNotFoundError:
            yield f"{name(obj)}: no schema for {obj['apiVersion']} {obj['kind']} in Kubernetes {KUBERNETES_VERSION}"


def pod_spec(obj):
    return obj["spec"]["template"]["spec"] if obj["kind"] in ("Deployment", "Job") else None


def matches(selector, labels):
    for key, value in selector.get("matchLabels", {}).items():
        if labels.get(key) != value:
            return False
    for expression in selector.get("matchExpressions", []):
        present = expression["key"] in labels
        value = labels.get(expression["key"])
        if not {"In": present and value in expression.get("values", []),
                "NotIn": not present or value not in expression.get("values", []),
                "Exists": present, "DoesNotExist": not present}[expression["operator"]]:
            return False
    return True


def flag(args, option):
    return args[args.index(option) + 1] if option in args else None


def reference_problems(objects):
    by_kind = {}
    for obj in objects:
        by_kind.setdefault(obj["kind"], {})[obj["metadata"]["name"]] = obj
    deployments = by_kind.get("Deployment", {})
    config_maps = set(by_kind.get("ConfigMap", {}))
    pod_labels = [obj["spec"]["template"]["metadata"].get("labels", {}) for obj in deployments.values()]

    for kind in ("HorizontalPodAutoscaler", "ScaledObject"):
        for obj in by_kind.get(kind, {}).values():
            if obj["spec"]["scaleTargetRef"]["name"] not in deployments:
                yield f"{name(obj)}: scales {obj['spec']['scaleTargetRef']['name']}, which is not a Deployment here"
    for kind, path in (("Service", ("spec", "selector")), ("PodDisruptionBudget", ("spec", "selector")),
                       ("NetworkPolicy", ("spec", "podSelector"))):
        for obj in by_kind.get(kind, {}).values():
            selector = obj[path[0]][path[1]]
            if kind == "Service":
                selector = {"matchLabels": selector}
            if selector and not any(matches(selector, labels) for labels in pod_labels):
                yield f"{name(obj)}: selects no pod"
    for obj in by_kind.get("Ingress", {}).values():
        for rule in obj["spec"]["rules"]:
            for path in rule["http"]["paths"]:
                if path["backend"]["service"]["name"] not in by_kind.get("Service", {}):
                    yield f"{name(obj)}: {path['path']} goes to a Service that is not here"
                if path["path"].startswith(("/metrics", "/readyz", "/healthz")) or path["path"] == "/":
                    yield f"{name(obj)}: {path['path']} exposes the internal paths"

    for obj in objects:
        spec = pod_spec(obj)
        if spec is None:
            continue
        security = spec.get("securityContext", {})
        if not security.get("runAsNonRoot") or security.get("seccompProfile", {}).get("type") != "RuntimeDefault":
            yield f"{name(obj)}: the pod must set runAsNonRoot and the RuntimeDefault seccomp profile"
        for volume in spec.get("volumes", []):
            if "configMap" in volume and volume["configMap"]["name"] not in config_maps:
                yield f"{name(obj)}: volume {volume['name']} names ConfigMap {volume['configMap']['name']}, not here"
        for container in spec["containers"]:
            where = f"{name(obj)} container {container['name']}"
            for source in container.get("envFrom", []):
                if "configMapRef" in source and source["configMapRef"]["name"] not in config_maps:
                    yield f"{where}: envFrom names ConfigMap {source['configMapRef']['name']}, not here"
                if "secretRef" in source and source["secretRef"]["name"] not in EXTERNAL_SECRETS:
                    yield f"{where}: envFrom names Secret {source['secretRef']['name']}, which the docs do not create"
            context = container.get("securityContext", {})
            if (context.get("allowPrivilegeEscalation") is not False or not context.get("readOnlyRootFilesystem")
                    or context.get("capabilities", {}).get("drop") != ["ALL"]):
                yield f"{where}: must drop ALL capabilities, forbid privilege escalation and mount its root read-only"
            resources = container.get("resources", {})
            if "cpu" not in resources.get("requests", {}) or "memory" not in resources.get("limits", {}):
                yield f"{where}: needs a CPU request and a memory limit"

    scaled = {obj["spec"]["scaleTargetRef"]["name"]: obj for obj in by_kind.get("ScaledObject", {}).values()}
    for job_class in WORKER_CLASSES:
        deployment = deployments.get(f"kiln-worker-{job_class}")
        if deployment is None:
            yield f"no Deployment kiln-worker-{job_class} for the {job_class} class"
            continue
        spec = pod_spec(deployment)
        args = spec["containers"][0]["args"]
        others = [c for c in WORKER_CLASSES if c != job_class]
        if args[0] != "worker" or flag(args, f"--{job_class}") in (None, "0") or any(flag(args, f"--{c}") != "0" for c in others):
            yield f"{name(deployment)}: must run `worker` with --{job_class} above 0 and the other classes at 0"
        drain = float(flag(args, "--shutdown-grace") or 10)
        grace = spec.get("terminationGracePeriodSeconds", 30)
        if grace <= drain:
            yield f"{name(deployment)}: terminationGracePeriodSeconds {grace} must outlast --shutdown-grace {drain}"
        if flag(args, "--metrics-host") != "0.0.0.0":
            yield f"{name(deployment)}: --metrics-host 0.0.0.0, or Prometheus cannot scrape the pod"
        scaler = scaled.get(deployment["metadata"]["name"])
        if scaler is None:
            yield f"{name(deployment)}: no ScaledObject scales it"
            continue
        queries = [t["metadata"].get("query", "") for t in scaler["spec"]["triggers"] if t["type"] == "prometheus"]
        for metric in ("kiln_queue_ready", "kiln_queue_oldest_wait_seconds"):
            if not any(re.search(rf'\b{metric}\{{[^}}]*class="{job_class}"', query) for query in queries):
                yield f"{name(scaler)}: no trigger on {metric} of the {job_class} class"


def main():
    directory = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else HERE
    objects = render(directory)
    problems = list(schema_problems(objects)) + list(reference_problems(objects))
    for problem in problems:
        print(f"error: {problem}", file=sys.stderr)
    if problems:
        sys.exit(1)
    kinds = sorted({obj["kind"] for obj in objects})
    print(f"kubernetes: {len(objects)} objects valid for Kubernetes {KUBERNETES_VERSION} and KEDA ({', '.join(kinds)})")


if __name__ == "__main__":
    main()
