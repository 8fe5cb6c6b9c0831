"""The client cannot drift from the API: its route list is checked against the live /api/schema/."""

from __future__ import annotations

import inspect
import re
import tomllib
from typing import Any

import httpx
import pytest
from protomem_client import OPERATOR_ONLY, ROUTES, AsyncProtomemClient, ProtomemClient, __version__

from tests.clients.conftest import CLIENT_SRC

pytestmark = pytest.mark.django_db(transaction=True, databases=["default", "injections"])

HTTP_METHODS = ("get", "post", "put", "patch", "delete")
PATH_PARAMS = {
    "chunk_id": "1",
    "name": "any-skill",
    "session_id": "any-session",
    "quarantine_id": "1",
    "log_id": "1",
}


def _schema_operations(base_url: str, key: str) -> set[tuple[str, str]]:
    response = httpx.get(f"{base_url}/api/schema/", params={"format": "json"}, headers=_auth(key))
    response.raise_for_status()
    paths: dict[str, Any] = response.json()["paths"]
    return {(m.upper(), path) for path, item in paths.items() for m in item if m in HTTP_METHODS}


def _auth(key: str) -> dict[str, str]:
    return {"Authorization": f"Api-Key {key}"}


def test_every_schema_operation_is_covered_or_known_operator_only(live_server: Any, agent_key: str) -> None:
    schema = _schema_operations(live_server.url, agent_key)
    client_routes = {route.key for route in ROUTES}

    assert schema, "the schema lists no operations"
    assert sorted(schema - client_routes - OPERATOR_ONLY) == [], "agent routes the client lacks"
    assert sorted(client_routes - schema) == [], "client routes the API no longer has"
    assert sorted(OPERATOR_ONLY - schema) == [], "stale entries in OPERATOR_ONLY"
    assert client_routes.isdisjoint(OPERATOR_ONLY)


def test_operator_only_routes_really_refuse_an_agent_key(live_server: Any, agent_key: str) -> None:
    """So OPERATOR_ONLY cannot hide an agent route from the drift check above."""
    statuses = {}
    for method, template in sorted(OPERATOR_ONLY):
        path = re.sub(r"{(\w+)}", lambda m: PATH_PARAMS[m.group(1)], template)
        body = {} if method in ("POST", "PUT") else None
        response = httpx.request(method, f"{live_server.url}{path}", json=body, headers=_auth(agent_key))
        statuses[(method, template)] = response.status_code

    assert statuses == dict.fromkeys(statuses, 403)


def test_every_route_has_a_method_on_both_clients() -> None:
    for route in ROUTES:
        sync_method = getattr(ProtomemClient, route.tool)
        async_method = getattr(AsyncProtomemClient, route.tool)
        assert not inspect.iscoroutinefunction(sync_method), route.tool
        assert inspect.iscoroutinefunction(async_method), route.tool
        assert inspect.signature(sync_method) == inspect.signature(async_method), route.tool


def test_the_package_metadata_agrees_with_the_code() -> None:
    project = tomllib.loads((CLIENT_SRC.parent / "pyproject.toml").read_text())["project"]

    assert project["version"] == __version__
    assert (CLIENT_SRC / "protomem_client" / "py.typed").is_file()
