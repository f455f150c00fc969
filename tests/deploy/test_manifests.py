#!/usr/bin/python3
"""Renders every kustomization of deploy/k8s with `kubectl kustomize` and
checks the result offline: each object against the Kubernetes API's schema
(k8s_schema.py), and what the schema cannot see: that the names one object
gives another meet (selectors, ports, ConfigMaps, volumes, the files a
command runs), that the shard counts equal the replica and completion
counts (docs/decisions.md, D60), the PodMonitor, the alert rules, the
dashboard and the channel list. Usage: test_manifests.py DEPLOY_K8S_DIR
"""
import json
import os
import re
import subprocess
import sys

try:
    import yaml
    import k8s_schema
    import gi
    gi.require_version("GLib", "2.0")
    from gi.repository import GLib
except ImportError as error:
    print(f"SKIP: {error.name} is missing (python3-kubernetes, python3-yaml, "
          "python3-gi: .ci/install-deps.sh)")
    sys.exit(77)

# The monitor's metrics (ssimulacra2cmp-monitor's /metrics) and Prometheus's
# own `up`: what the dashboard's queries may select.
METRICS = {"ssimulacra2cmp_score", "ssimulacra2cmp_alarm", "ssimulacra2cmp_feed_up",
           "ssimulacra2cmp_channel_restarts_total", "ssimulacra2cmp_frames_scored_total",
           "ssimulacra2cmp_frames_skipped_total", "ssimulacra2cmp_coverage_ratio",
           "ssimulacra2cmp_window_score_mean", "ssimulacra2cmp_window_score_min",
           "ssimulacra2cmp_window_score_p5", "up"}
RULE_FIELDS = {"alert", "record", "expr", "for", "labels", "annotations"}
PODMONITOR_ENDPOINT_FIELDS = {"port", "path", "interval", "scrapeTimeout", "scheme",
                              "honorLabels", "relabelings", "metricRelabelings"}


def kustomize_problem():
    """Why this kubectl cannot render deploy/k8s, or None."""
    try:
        run = subprocess.run(["kubectl", "version", "--client", "-o", "json"],
                             capture_output=True, text=True)
    except FileNotFoundError:
        return "no kubectl on PATH: deploy/k8s needs kubectl 1.21 or later"
    version = json.loads(run.stdout or "{}").get("kustomizeVersion", "")
    major = re.match(r"v(\d+)\.", version)
    if not major or int(major.group(1)) < 4:
        return (f"kubectl's kustomize is {version or 'older than v4'}: deploy/k8s needs v4 or "
                "later (kubectl 1.21+; Debian 12's kubernetes-client 1.20 is too old)")
    return None


def kustomizations(root):
    for directory, _, files in sorted(os.walk(root)):
        if "kustomization.yaml" in files:
            with open(os.path.join(directory, "kustomization.yaml")) as f:
                if yaml.safe_load(f).get("kind", "Kustomization") == "Kustomization":
                    yield directory


def render(directory):
    run = subprocess.run(["kubectl", "kustomize", directory], capture_output=True, text=True)
    if run.returncode != 0 or run.stderr.strip():
        return None, run.stderr.strip() or f"kubectl kustomize exited {run.returncode}"
    return [o for o in yaml.safe_load_all(run.stdout) if o], None


def matches(selector, labels):
    return bool(selector) and all(labels.get(k) == v for k, v in selector.items())


def env_value(container, name):
    return next((e.get("value") for e in container.get("env", []) if e["name"] == name), None)


def check_pods(objects, problems):
    """Workloads' pods against the Services, ConfigMaps and claims beside them."""
    by_kind = {}
    for o in objects:
        by_kind.setdefault(o["kind"], {})[o["metadata"]["name"]] = o
    config_maps = by_kind.get("ConfigMap", {})
    for kind in ("StatefulSet", "Job"):
        for name, workload in by_kind.get(kind, {}).items():
            where = f"{kind} {name}"
            spec = workload["spec"]
            template = spec["template"]
            labels = template["metadata"].get("labels", {})
            if "matchLabels" in spec.get("selector", {}) and not matches(spec["selector"]["matchLabels"], labels):
                problems.append(f"{where}: its selector does not select its pods")
            pod = template["spec"]
            volumes = {v["name"]: v for v in pod.get("volumes", [])}
            for volume in volumes.values():
                if "configMap" in volume and volume["configMap"]["name"] not in config_maps:
                    problems.append(f"{where}: no ConfigMap {volume['configMap']['name']}")
                claim = volume.get("persistentVolumeClaim", {}).get("claimName")
                if claim and claim not in by_kind.get("PersistentVolumeClaim", {}):
                    problems.append(f"{where}: no PersistentVolumeClaim {claim}")
            for container in pod["containers"]:
                check_container(where, container, volumes, config_maps, problems)
            check_shards(where, workload, problems)
            for service in by_kind.get("Service", {}).values():
                if service["spec"].get("selector") and matches(service["spec"]["selector"], labels):
                    ports = {p.get("name") for c in pod["containers"] for p in c.get("ports", [])}
                    for port in service["spec"]["ports"]:
                        if isinstance(port.get("targetPort"), str) and port["targetPort"] not in ports:
                            problems.append(f"Service {service['metadata']['name']}: no port {port['targetPort']}")
            if kind == "StatefulSet" and spec["serviceName"] not in by_kind.get("Service", {}):
                problems.append(f"{where}: no Service {spec['serviceName']}")
            for pdb in by_kind.get("PodDisruptionBudget", {}).values():
                if not matches(pdb["spec"]["selector"].get("matchLabels"), labels):
                    problems.append(f"PodDisruptionBudget {pdb['metadata']['name']}: selects no pod of {where}")
            annotations = template["metadata"].get("annotations", {})
            if "prometheus.io/port" in annotations:
                numbers = {str(p["containerPort"]) for c in pod["containers"] for p in c.get("ports", [])}
                if annotations["prometheus.io/port"] not in numbers:
                    problems.append(f"{where}: prometheus.io/port is no container's port")
            for monitor in by_kind.get("PodMonitor", {}).values():
                check_pod_monitor(monitor, labels, pod, problems)


def check_container(where, container, volumes, config_maps, problems):
    where = f"{where} container {container['name']}"
    port_names = {p.get("name") for p in container.get("ports", [])}
    for probe in ("startupProbe", "livenessProbe", "readinessProbe"):
        port = container.get(probe, {}).get("httpGet", {}).get("port")
        if isinstance(port, str) and port not in port_names:
            problems.append(f"{where}: {probe} names no port of the container ({port})")
    mounts = {m["mountPath"]: m["name"] for m in container.get("volumeMounts", [])}
    for mount in mounts.values():
        if mount not in volumes:
            problems.append(f"{where}: mounts no volume {mount}")
    # A file a command or argument names under a ConfigMap's mount is one
    # of that ConfigMap's keys.
    for word in container.get("command", []) + container.get("args", []) + \
            [e.get("value", "") for e in container.get("env", [])]:
        path = str(word).split("=", 1)[-1]
        folder, _, key = path.rpartition("/")
        config_map = volumes.get(mounts.get(folder), {}).get("configMap")
        if config_map and key not in config_maps.get(config_map["name"], {}).get("data", {}):
            problems.append(f"{where}: {path} is not in ConfigMap {config_map['name']}")


def check_shards(where, workload, problems):
    """The shard count each replica or index is told equals how many there are."""
    spec = workload["spec"]
    container = spec["template"]["spec"]["containers"][0]
    if workload["kind"] == "StatefulSet":
        shards, count = env_value(container, "SSIMULACRA2CMP_SHARDS"), spec.get("replicas", 1)
        if "--shard=auto" not in container.get("args", []):
            problems.append(f"{where}: the monitor is not given --shard=auto")
        pod_name = next((e for e in container.get("env", []) if e["name"] == "POD_NAME"), {})
        if pod_name.get("valueFrom", {}).get("fieldRef", {}).get("fieldPath") != "metadata.name":
            problems.append(f"{where}: POD_NAME is not the pod's name")
    else:
        shards, count = env_value(container, "SHARDS"), spec.get("completions")
        if spec.get("completionMode") != "Indexed":
            problems.append(f"{where}: not an Indexed Job")
    if not isinstance(shards, str) or not shards.isdigit() or int(shards) != count:
        problems.append(f"{where}: {count} replicas or completions, but shards {shards!r}")


def check_pod_monitor(monitor, labels, pod, problems):
    where = f"PodMonitor {monitor['metadata']['name']}"
    spec = monitor.get("spec", {})
    problems += [f"{where}: spec.selector: {p}" for p in k8s_schema.check_value(
        spec.get("selector"), "V1LabelSelector", "selector")]
    if not matches(spec.get("selector", {}).get("matchLabels"), labels):
        problems.append(f"{where}: selects no monitor pod")
    ports = {p.get("name") for c in pod["containers"] for p in c.get("ports", [])}
    for endpoint in spec.get("podMetricsEndpoints", []):
        unknown = set(endpoint) - PODMONITOR_ENDPOINT_FIELDS
        if unknown:
            problems.append(f"{where}: unknown endpoint fields {sorted(unknown)}")
        if endpoint.get("port") not in ports:
            problems.append(f"{where}: no container port {endpoint.get('port')}")


def unknown_selections(expr):
    """The metrics a PromQL expression selects that the monitor does not
    export, or all of them when it selects none."""
    selected = set(re.findall(r"([A-Za-z_:][A-Za-z0-9_:]*)\s*(?:\{|\[|==|>|<|$)", expr))
    selected -= {"by", "without", "on", "ignoring"}
    return (selected - METRICS) if selected else {"(no metric)"}


def check_rules(rule, problems):
    where = f"PrometheusRule {rule['metadata']['name']}"
    for group in rule.get("spec", {}).get("groups", []):
        for item in group.get("rules", []):
            name = item.get("alert") or item.get("record")
            unknown = set(item) - RULE_FIELDS
            if unknown or not name or not isinstance(item.get("expr"), str):
                problems.append(f"{where}: rule {name}: needs alert or record and expr; "
                                f"unknown fields {sorted(unknown)}")
                continue
            strangers = unknown_selections(item["expr"])
            if strangers:
                problems.append(f"{where}: rule {name} selects {sorted(strangers)}")


def check_data(objects, problems):
    """The dashboard and the channel list the ConfigMaps carry."""
    for o in objects:
        if o["kind"] != "ConfigMap":
            continue
        for key, text in o.get("data", {}).items():
            where = f"ConfigMap {o['metadata']['name']} {key}"
            if key.endswith(".json"):
                dashboard = json.loads(text)
                for panel in dashboard["panels"]:
                    for target in panel["targets"]:
                        if unknown_selections(target["expr"]):
                            problems.append(f"{where}: panel {panel['title']}: {target['expr']}")
            elif key.endswith(".conf"):
                config = GLib.KeyFile()
                config.load_from_data(text, len(text.encode()), GLib.KeyFileFlags.NONE)
                groups = config.get_groups()[0]
                if not groups:
                    problems.append(f"{where}: no channel")
                for group in groups:
                    keys = config.get_keys(group)[0]
                    if not group.startswith("channel ") or not {"reference", "distorted"} <= set(keys):
                        problems.append(f"{where}: [{group}] is not a channel with reference and distorted")


def main():
    root = sys.argv[1]
    problem = kustomize_problem()
    if problem:
        print("FAIL", problem)
        sys.exit(1)
    problems = []
    rendered = 0
    for directory in kustomizations(root):
        name = os.path.relpath(directory, root)
        objects, error = render(directory)
        if error:
            problems.append(f"{name}: {error}")
            continue
        rendered += 1
        before = len(problems)
        for o in objects:
            if o["kind"] == "PrometheusRule":
                check_rules(o, problems)
            elif o["kind"] != "PodMonitor":  # checked with the pods it selects
                problems += k8s_schema.check_object(o)
        check_pods(objects, problems)
        check_data(objects, problems)
        problems[before:] = [f"{name}: {p}" for p in problems[before:]]
        print(f"{name}: {len(objects)} objects: "
              + ", ".join(sorted(f"{o['kind']} {o['metadata']['name']}" for o in objects)))
    for problem in problems:
        print("FAIL", problem)
    print(f"{rendered} kustomizations rendered, {len(problems)} problems")
    sys.exit(1 if problems or rendered == 0 else 0)


if __name__ == "__main__":
    main()
