"""Checks Kubernetes objects against the API's schema, offline.

The schema is the one Debian's python3-kubernetes was generated from (the
Kubernetes API of its version, 1.22 for Debian 12's 22.6.0): each model
class lists its fields with their JSON names and types, and its constructor
refuses a required field left out. An object passes when every field it
sets is a field of its type, of the right JSON type, and no required field
is missing. Custom resources (PodMonitor) are not in that schema; their
checks are the caller's.
"""
import re

import kubernetes.client as models

# Fields of type Quantity: the API takes a number or a string ("4",
# 4, "8Gi"); the generated models call them strings.
QUANTITY_MAPS = {"limits", "requests", "capacity", "allocatable", "hard"}


def model_class(api_version, kind):
    """The model of apiVersion and kind (apps/v1 StatefulSet: V1StatefulSet),
    None when that group and version have no such kind."""
    group, _, version = api_version.rpartition("/")
    capitalized = version[0].upper() + version[1:] if version else ""
    # The group's API class (apps/v1: AppsV1Api, v1: CoreV1Api) creates it.
    words = (group.replace(".k8s.io", "") or "core").replace("-", ".").split(".")
    api = getattr(models, "".join(w.capitalize() for w in words) + capitalized + "Api", None)
    snake = re.sub(r"(?<!^)(?=[A-Z])", "_", kind).lower()
    if api is None or not (hasattr(api, f"create_namespaced_{snake}") or hasattr(api, f"create_{snake}")):
        return None
    return getattr(models, capitalized + kind, None)


def check_object(obj):
    """The problems of one rendered object, as "KIND NAME: PATH: what" strings."""
    kind = obj.get("kind", "?")
    name = (obj.get("metadata") or {}).get("name", "?")
    cls = model_class(obj.get("apiVersion", ""), kind)
    if cls is None:
        return [f"{kind} {name}: {obj.get('apiVersion')} {kind} is not in the schema"]
    problems = []
    _check(obj, cls.__name__, kind, problems)
    return [f"{kind} {name}: {p}" for p in problems]


def check_value(value, type_name, path):
    """The problems of a value of a model type (V1LabelSelector) inside an
    object the schema does not know."""
    problems = []
    _check(value, type_name, path, problems)
    return problems


def _check(value, type_name, path, problems, field=None):
    if type_name == "object":  # IntOrString and free-form fields
        return
    if type_name in ("str", "datetime", "date"):
        if isinstance(value, str):
            return
        if field in QUANTITY_MAPS and isinstance(value, (int, float)) and not isinstance(value, bool):
            return
        problems.append(f"{path}: {value!r} is not a string")
        return
    if type_name == "int":
        if not isinstance(value, int) or isinstance(value, bool):
            problems.append(f"{path}: {value!r} is not an integer")
        return
    if type_name == "float":
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            problems.append(f"{path}: {value!r} is not a number")
        return
    if type_name == "bool":
        if not isinstance(value, bool):
            problems.append(f"{path}: {value!r} is not true or false")
        return
    match = re.fullmatch(r"list\[(.+)\]", type_name)
    if match:
        if not isinstance(value, list):
            problems.append(f"{path}: not a list")
            return
        for i, item in enumerate(value):
            _check(item, match.group(1), f"{path}[{i}]", problems)
        return
    match = re.fullmatch(r"dict\(str, (.+)\)", type_name)
    if match:
        if not isinstance(value, dict):
            problems.append(f"{path}: not a map")
            return
        for key, item in value.items():
            if not isinstance(key, str):
                problems.append(f"{path}: key {key!r} is not a string")
            _check(item, match.group(1), f"{path}.{key}", problems, field=field)
        return
    cls = getattr(models, type_name)
    if not isinstance(value, dict):
        problems.append(f"{path}: not an object ({type_name})")
        return
    by_json_name = {json_name: attr for attr, json_name in cls.attribute_map.items()}
    arguments = {}
    for key, item in value.items():
        attr = by_json_name.get(key)
        if attr is None:
            problems.append(f"{path}: unknown field \"{key}\" of {type_name}")
            continue
        arguments[attr] = item
        _check(item, cls.openapi_types[attr], f"{path}.{key}", problems, field=key)
    try:
        cls(**arguments)  # refuses a required field that is missing
    except ValueError as error:
        problems.append(f"{path}: {error}")
