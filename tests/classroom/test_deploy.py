"""deploy/: the Zero-to-JupyterHub values file for a class on Kubernetes.

What can be checked without a cluster: the file is YAML; every key it sets is one of
the chart's (from the chart's own values schema, vendored in tests/fixtures/z2jh with
its licence); every embedded Python snippet (hub.extraConfig, the nbgrader configs in
singleuser.extraFiles) compiles; the LTI 1.3 settings are traits ltiauthenticator has;
the roles' files say what ``classroom setup`` says (the same menus off for students, the
same exchange service); the service image runs the same scripts as
``setup --exchange service``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

yaml = pytest.importorskip("yaml")

VALUES = ROOT / "deploy" / "z2jh-values.yaml"
SCHEMA = ROOT / "tests" / "fixtures" / "z2jh" / "values.schema.yaml"
#: LTI13Authenticator's configurable traits in jupyterhub-ltiauthenticator 1.6.3 (the
#: version z2jh 4.4's hub image ships; read from ltiauthenticator/lti13/auth.py at tag 1.6.3).
LTI13_TRAITS = {"authorize_url", "client_id", "jwks_algorithms", "issuer", "jwks_endpoint",
                "username_key", "uri_scheme", "tool_name", "tool_description"}


def values() -> dict:
    return yaml.safe_load(VALUES.read_text(encoding="utf-8"))


def unknown_keys(value, schema: dict, path: str = "") -> list[str]:
    """Keys of ``value`` that ``schema`` (JSON schema as the chart writes it) does not allow.

    Descends through ``properties`` and ``patternProperties``; a free-form object
    (``additionalProperties: true`` without properties) accepts anything below it.
    """
    import re

    found = []
    if isinstance(value, dict) and schema.get("type") in ("object", None):
        props = schema.get("properties", {})
        patterns = schema.get("patternProperties", {})
        for key, sub in value.items():
            where = f"{path}.{key}" if path else key
            if key in props:
                found += unknown_keys(sub, props[key], where)
                continue
            match = next((s for p, s in patterns.items() if re.search(p, key)), None)
            if match is not None:
                found += unknown_keys(sub, match, where)
            elif schema.get("additionalProperties") is not True:
                found.append(where)
    elif isinstance(value, list) and isinstance(schema.get("items"), dict):
        for i, item in enumerate(value):
            found += unknown_keys(item, schema["items"], f"{path}[{i}]")
    return found


def test_values_are_yaml_with_the_charts_keys_only() -> None:
    schema = yaml.safe_load(SCHEMA.read_text(encoding="utf-8"))
    assert unknown_keys(values(), schema) == []
    # The checker itself: a misspelt key is caught, at any depth.
    assert unknown_keys({"singleuser": {"memory": {"limt": "1G"}}, "hubb": {}}, schema) == [
        "singleuser.memory.limt", "hubb"]
    assert unknown_keys({"hub": {"networkPolicy": {"ingres": []}}}, schema) == ["hub.networkPolicy.ingres"]


def test_every_python_snippet_compiles() -> None:
    v = values()
    snippets = dict(v["hub"]["extraConfig"])
    snippets |= {name: f["stringData"] for name, f in v["singleuser"]["extraFiles"].items()
                 if f["mountPath"].endswith(".py")}
    assert len(snippets) == 3
    for name, code in snippets.items():
        compile(code, name, "exec")


def test_lti_settings_are_ltiauthenticators_traits() -> None:
    config = values()["hub"]["config"]
    assert config["JupyterHub"]["authenticator_class"] == "ltiauthenticator.lti13.auth.LTI13Authenticator"
    assert set(config["LTI13Authenticator"]) <= LTI13_TRAITS
    assert isinstance(config["LTI13Authenticator"]["client_id"], list)


def test_roles_match_the_one_machine_setup() -> None:
    from coursetools.classroom.setup import NBGRADER_SERVER, STUDENT_DISABLED_LAB, STUDENT_DISABLED_SERVER

    files = values()["singleuser"]["extraFiles"]
    by_path = {f["mountPath"]: f for f in files.values()}
    student_lab = by_path["/etc/coursetools/student/labconfig/page_config.json"]["data"]
    assert {k for k, off in student_lab["disabledExtensions"].items() if off} == set(STUDENT_DISABLED_LAB)
    server = by_path["/etc/coursetools/student/jupyter_server_config.json"]["data"]
    assert server["ServerApp"]["jpserver_extensions"] == {
        n: n not in STUDENT_DISABLED_SERVER for n in NBGRADER_SERVER}
    for role in ("student", "instructor"):
        text = by_path[f"/etc/coursetools/{role}/nbgrader_config.py"]["stringData"]
        assert 'configureExchange(c, "http://proxy-public/services/ngshare")' in text
        assert ("VerifiedReleaseAssignment" in text) == (role == "instructor")
        assert ('kernel_name = "perceptron-sandbox"' in text) == (role == "instructor")
    hook = values()["hub"]["extraConfig"]["coursetools-roles"]
    assert '"/etc/coursetools/" + role' in hook
    json.dumps(student_lab)  # a JSON file: plain data only


def test_service_sidecar_runs_setups_scripts_behind_the_proxy() -> None:
    from coursetools.classroom import service

    deploy = ROOT / "deploy" / "ngshare"
    assert (deploy / "run_ngshare.py").read_text() == service.RUN_NGSHARE
    assert (deploy / "manage_ngshare.py").read_text() == service.MANAGE_NGSHARE
    docker = (deploy / "Dockerfile").read_text()
    for pin in service.SERVICE_REQUIREMENTS:
        assert f'"{pin}"' in docker
    hub = values()["hub"]
    (sidecar,) = hub["extraContainers"]
    port = sidecar["ports"][0]["containerPort"]
    assert hub["services"]["ngshare"]["url"].endswith(f":{port}")
    # Only the proxy's pods may open the sidecar's port (student pods may not).
    (rule,) = hub["networkPolicy"]["ingress"]
    assert rule["ports"] == [{"port": port, "protocol": "TCP"}]
    assert rule["from"] == [{"podSelector": {"matchLabels": {"app.kubernetes.io/component": "proxy"}}}]
    assert "sqlite:////srv/ngshare/" in " ".join(sidecar["args"])  # a file on a volume
    assert sidecar["volumeMounts"][0]["mountPath"] == "/srv/ngshare"
