"""The agent's hot endpoints keep their OpenAPI contract byte for byte while their transport is
made leaner: the schema of recall, per-turn context and memory_ingest, with every component they
reference, equals the stored copy (tests/perf/fixtures/hot_endpoints_schema.json).

A deliberate contract change regenerates the copy:
    DJANGO_SETTINGS_MODULE=protomem.settings .venv/bin/python -m tests.perf.test_hot_schema
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

STORED = Path(__file__).parent / "fixtures" / "hot_endpoints_schema.json"
HOT_PATHS = (
    "/api/memory/recall/",
    "/api/sessions/{session_id}/context/",
    "/api/sessions/{session_id}/memory/ingest/",
)


def _refs(node: Any, out: set[str]) -> None:
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str):
            out.add(ref)
        for value in node.values():
            _refs(value, out)
    elif isinstance(node, list):
        for value in node:
            _refs(value, out)


def hot_schema() -> str:
    """The hot paths and the components they reach, as canonical JSON."""
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    paths = {p: schema["paths"][p] for p in HOT_PATHS}
    components: dict[str, Any] = {}
    pending: set[str] = set()
    _refs(paths, pending)
    while pending:
        ref = pending.pop()
        section, name = ref.split("/")[-2:]
        if name in components.get(section, {}):
            continue
        body = schema["components"][section][name]
        components.setdefault(section, {})[name] = body
        _refs(body, pending)
    security = schema["components"].get("securitySchemes", {})
    document = {"paths": paths, "components": components, "securitySchemes": security}
    return json.dumps(document, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def test_hot_endpoints_schema_equals_the_stored_copy() -> None:
    current = hot_schema()
    stored = STORED.read_text(encoding="utf-8")
    assert json.loads(current)["paths"].keys() == set(HOT_PATHS)
    assert "RecallHitOutput" in json.loads(current)["components"]["schemas"]
    assert current == stored


if __name__ == "__main__":
    import django

    django.setup()
    STORED.write_text(hot_schema(), encoding="utf-8")
    print(f"wrote {STORED}")  # noqa: T201 - a maintainer command
