"""The OpenAPI schema documents the chunk-store endpoints and generates without warnings."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
import yaml
from django.core.management import call_command
from django.urls import include, path
from drf_spectacular.drainage import GENERATOR_STATS
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.validation import validate_schema

MINE = {
    "/api/sessions/{session_id}/memory/ingest/": {"post"},
    "/api/sessions/{session_id}/knowledge/ingest/": {"post"},
    "/api/memory/recall/": {"get", "post"},
    "/api/memory/list/": {"get"},
    "/api/memory/chunks/{chunk_id}/review/": {"post"},
    "/api/memory/chunks/{chunk_id}/influence/": {"get"},
    "/api/sessions/{session_id}/quarantine/": {"post"},
    "/api/quarantines/{quarantine_id}/lift/": {"post"},
    "/api/knowledge/chunks/": {"get"},
    "/api/knowledge/chunks/{chunk_id}/": {"get", "put"},
    "/api/knowledge/chunks/{chunk_id}/promote/": {"post"},
    "/api/knowledge/chunks/{chunk_id}/erase/": {"post"},
    "/api/knowledge/chunks/bulk-delete/": {"post"},
    "/api/knowledge/chunks/bulk-restore/": {"post"},
}


def test_store_endpoints_generate_without_warnings():
    GENERATOR_STATS.reset()
    generator = SchemaGenerator(patterns=[path("api/", include("memory.api.urls"))])
    schema = generator.get_schema(request=None, public=True)
    assert not GENERATOR_STATS._warn_cache, list(GENERATOR_STATS._warn_cache)
    assert not GENERATOR_STATS._error_cache, list(GENERATOR_STATS._error_cache)
    validate_schema(schema)
    assert {p: set(ops) & {"get", "post", "put"} for p, ops in schema["paths"].items()} == MINE
    review = schema["paths"]["/api/memory/chunks/{chunk_id}/review/"]["post"]
    assert review["parameters"][0]["schema"]["type"] == "integer"
    list_params = {p["name"] for p in schema["paths"]["/api/memory/list/"]["get"]["parameters"]}
    assert {"review_state", "memory_kind", "namespace", "limit", "offset", "created_after"} <= list_params
    state = schema["components"]["schemas"]["ReviewInputRequest"]["properties"]["state"]
    assert state == {"$ref": "#/components/schemas/ReviewStateEnum"}
    assert schema["components"]["schemas"]["ReviewStateEnum"]["enum"] == ["pending", "confirmed", "rejected"]


@pytest.mark.django_db
def test_whole_schema_validates_with_fail_on_warn(tmp_path: Path):
    out = tmp_path / "schema.yml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(out), stderr=io.StringIO())
    schema = yaml.safe_load(out.read_text())
    for route, methods in MINE.items():
        assert methods <= set(schema["paths"][route]), route


@pytest.mark.django_db
def test_schema_and_docs_are_served(staff_client):
    assert staff_client.get("/api/schema/").status_code == 200
    assert staff_client.get("/api/docs/").status_code == 200
