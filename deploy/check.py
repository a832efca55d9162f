#!/usr/bin/env python3
"""deploy/check.py — every manifest under deploy/k8s parses and validates, offline.

Core objects (Deployment, Service) against the Kubernetes 1.35 JSON schemas in
deploy/schemas/kubernetes-1.35.0; the Agones objects (Fleet, FleetAutoscaler) against the
openAPIV3Schema of the CRDs in deploy/schemas/agones-1.60.0, the Agones release the manifests
target (deploy/schemas/README.md says where each file came from). Validation is strict both ways:
the Kubernetes schemas are the strict variant (unknown fields refused), and a CRD schema's
objects refuse fields they do not declare (the API server would drop them silently: a typo
would vanish, not fail). Before the manifests, it proves it can fail: a few broken copies of
them must be refused. Exit 0 valid, 1 invalid, 2 a file missing or unreadable.
Needs python3-yaml and python3-jsonschema (Debian's packages; .ci/lib.sh installs them).
"""

import copy
import json
import sys
from pathlib import Path

import jsonschema
import yaml

HERE = Path(__file__).resolve().parent
SCHEMAS = HERE / "schemas"
K8S = SCHEMAS / "kubernetes-1.35.0"
AGONES = SCHEMAS / "agones-1.60.0"

# (apiVersion, kind) -> the file that holds its schema.
CORE = {
    ("apps/v1", "Deployment"): K8S / "deployment-apps-v1.json",
    ("v1", "Service"): K8S / "service-v1.json",
}
CRDS = [AGONES / "fleets.yaml", AGONES / "fleetautoscalers.yaml"]


def core_schema(path):
    """A kind's strict schema, its `/api/_definitions.json#/$defs/X` references made local."""
    defs = json.loads((K8S / "_definitions.json").read_text())["$defs"]
    schema = json.loads(path.read_text())
    text = json.dumps({**schema, "$defs": defs}).replace("/api/_definitions.json#", "#")
    return json.loads(text)


def strict(node):
    """A CRD schema that refuses undeclared fields where it declares its fields."""
    if isinstance(node, dict):
        if (
            node.get("type") == "object"
            and "properties" in node
            and "additionalProperties" not in node
            and not node.get("x-kubernetes-preserve-unknown-fields")
        ):
            node["additionalProperties"] = False
        for value in node.values():
            strict(value)
    elif isinstance(node, list):
        for value in node:
            strict(value)
    return node


def crd_schemas():
    out = {}
    for path in CRDS:
        crd = yaml.safe_load(path.read_text())
        group, kind = crd["spec"]["group"], crd["spec"]["names"]["kind"]
        for version in crd["spec"]["versions"]:
            if version.get("served"):
                schema = strict(copy.deepcopy(version["schema"]["openAPIV3Schema"]))
                # The API server fills these for every object; the CRD leaves them out.
                schema.setdefault("properties", {})
                for field in ("apiVersion", "kind", "metadata"):
                    schema["properties"].setdefault(field, {"type": ["string", "object"]})
                out[(f"{group}/{version['name']}", kind)] = schema
    return out


def schemas():
    out = {key: core_schema(path) for key, path in CORE.items()}
    out.update(crd_schemas())
    return out


def problems(doc, known):
    """What is wrong with one object (empty: valid)."""
    if not isinstance(doc, dict):
        return ["not a mapping"]
    key = (doc.get("apiVersion"), doc.get("kind"))
    if key not in known:
        return [f"no schema for apiVersion {key[0]!r} kind {key[1]!r}"]
    if not doc.get("metadata", {}).get("name"):
        return ["metadata.name missing"]
    validator = jsonschema.Draft202012Validator(known[key])
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))
    return [f"{'.'.join(map(str, e.absolute_path)) or '(top)'}: {e.message}" for e in errors]


def manifests():
    files = sorted((HERE / "k8s").glob("*.yaml"))
    if not files:
        print("error: no manifests in deploy/k8s", file=sys.stderr)
        sys.exit(2)
    for path in files:
        try:
            docs = [d for d in yaml.safe_load_all(path.read_text()) if d is not None]
        except (OSError, yaml.YAMLError) as e:
            print(f"error: {path}: {e}", file=sys.stderr)
            sys.exit(2)
        yield path, docs


def breakages(docs):
    """Broken copies of the manifests, each of which must be refused."""
    by_kind = {d["kind"]: d for d in docs}
    fleet, scaler, deploy = by_kind["Fleet"], by_kind["FleetAutoscaler"], by_kind["Deployment"]
    cases = []

    def case(name, doc, change):
        broken = copy.deepcopy(doc)
        change(broken)
        cases.append((name, broken))

    case("Fleet replicas as a word", fleet, lambda d: d["spec"].update(replicas="two"))
    case("Fleet field misspelt", fleet, lambda d: d["spec"].update(replicaz=2))
    case(
        "Fleet port policy unknown",
        fleet,
        lambda d: d["spec"]["template"]["spec"]["ports"][0].update(portPolicy="Sometimes"),
    )
    case(
        "autoscaler list policy misspelt",
        scaler,
        lambda d: d["spec"]["policy"]["list"].update(buffer_size="20%"),
    )
    case("Deployment replicas as a string", deploy, lambda d: d["spec"].update(replicas="2"))
    case(
        "container field misspelt",
        deploy,
        lambda d: d["spec"]["template"]["spec"]["containers"][0].update(imag="x"),
    )
    return cases


def main():
    known = schemas()
    every = []
    failed = False
    for path, docs in manifests():
        for doc in docs:
            every.append(doc)
            found = problems(doc, known)
            name = f"{path.relative_to(HERE.parent)}: {doc.get('kind')} {doc.get('metadata', {}).get('name')}"
            if found:
                failed = True
                print(f"INVALID {name}")
                for p in found:
                    print(f"  {p}")
            else:
                print(f"valid   {name}")
    for name, broken in breakages(every):
        if problems(broken, known):
            print(f"refused (as it must be): {name}")
        else:
            failed = True
            print(f"NOT REFUSED: {name}: the check cannot see that breakage")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
