"""One permission model for admin and API (issue 19, items 3-4), generated from the OpenAPI schema.

Every operation the schema documents is resolved to its view. Each is either agent-callable
(IsAgent, or AgentReadsOrOperatorPerms for reads) or gated by HasModelPerms with the Django
permissions it declares for its method (`required_perms`), and nothing else lets a staff user
in. For every operation gated by HasModelPerms: a staff user holding every operator permission
but one it needs gets 403 (one case per permission), and one holding exactly what it needs
gets 2xx. A new operator route without an entry in EXAMPLES fails
test_every_operator_operation_has_an_example, so it cannot ship unchecked.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.urls import resolve
from drf_spectacular.generators import SchemaGenerator
from rest_framework.permissions import AND, NOT, OR, BasePermission
from rest_framework.test import APIClient

from audit.services import injection_log_record
from delivery.api.views import AgentReadsOrOperatorPerms
from delivery.skills import skill_create
from memory.lifecycle.quarantine import session_quarantine
from memory.lifecycle.writes import ChunkDraft, add_chunk
from sessions_app.models import Agent
from sessions_app.permissions import HasModelPerms, IsAgent, required_perms
from sessions_app.services import MessageInput, session_register, session_turn_append
from tests.conftest import OPERATOR_PERMS
from tests.factories import AgentFactory, UserFactory

pytestmark = pytest.mark.django_db(databases=["default", "injections"])

METHODS = ("get", "post", "put", "patch", "delete")
SESSION = "perm-thread"
SKILL = "deploy-checklist"


def schema_operations(schema: dict[str, Any]) -> list[tuple[str, str]]:
    return sorted(
        (method.upper(), path) for path, ops in schema["paths"].items() for method in ops if method in METHODS
    )


def concrete(path: str) -> str:
    """A schema path with placeholder values, for resolving it to its view."""
    return (
        path.replace("{session_id}", "s")
        .replace("{chunk_id}", "1")
        .replace("{name}", "n")
        .replace("{quarantine_id}", "1")
        .replace("{log_id}", "1")
    )


def view_class(path: str) -> Any:
    return resolve(concrete(path)).func.view_class


def permission_leaves(view: Any, method: str) -> list[BasePermission]:
    """The permission objects the view checks for `method`, with &, | and ~ unfolded."""
    instance = view()
    instance.request = SimpleNamespace(method=method)
    instance.args, instance.kwargs = (), {}

    def walk(perm: Any) -> Iterator[BasePermission]:
        if isinstance(perm, AND | OR):
            yield from walk(perm.op1)
            yield from walk(perm.op2)
        elif isinstance(perm, NOT):
            yield from walk(perm.op1)
        else:
            yield perm

    return [leaf for perm in instance.get_permissions() for leaf in walk(perm)]


def gated_by_model_perms(view: Any, method: str) -> bool:
    return any(isinstance(leaf, HasModelPerms) for leaf in permission_leaves(view, method))


SCHEMA_OPERATIONS = schema_operations(SchemaGenerator().get_schema(request=None, public=True))
OPERATOR_OPERATIONS = [
    (method, path)
    for method, path in SCHEMA_OPERATIONS
    if gated_by_model_perms(view_class(path), method) and required_perms(view_class(path), method)
]
# Every operator permission: the operator role of the suite and whatever a route declares.
ALL_PERMS = sorted(
    {f"{app}.{codename}" for app, codename in OPERATOR_PERMS}
    | {perm for method, path in OPERATOR_OPERATIONS for perm in required_perms(view_class(path), method)}
)


# ------------------------------------------------------------------------------ examples


@dataclass
class World:
    agent: Agent
    chunk_id: int  # agent A's pending, private fact


@dataclass(frozen=True)
class Call:
    url: str
    params: dict[str, Any] | None = None  # GET query
    body: dict[str, Any] | None = None  # JSON body


Example = Callable[[World], Call]


def quarantined(w: World) -> int:
    """A quarantine of the world's session, for the lift route."""
    result = session_quarantine(session_id=SESSION, agent_id=w.agent.pk, actor="user:0", path="test")
    assert result.quarantine_id is not None
    return result.quarantine_id


# One request per operator operation that succeeds for a user holding the permissions it needs.
EXAMPLES: dict[tuple[str, str], Example] = {
    ("GET", "/api/knowledge/chunks/"): lambda w: Call("/api/knowledge/chunks/"),
    ("GET", "/api/knowledge/chunks/{chunk_id}/"): lambda w: Call(f"/api/knowledge/chunks/{w.chunk_id}/"),
    ("PUT", "/api/knowledge/chunks/{chunk_id}/"): lambda w: Call(
        f"/api/knowledge/chunks/{w.chunk_id}/", body={"content": "The kestrel pool holds eighty connections"}
    ),
    ("POST", "/api/knowledge/chunks/{chunk_id}/promote/"): lambda w: Call(
        f"/api/knowledge/chunks/{w.chunk_id}/promote/"
    ),
    ("POST", "/api/knowledge/chunks/{chunk_id}/erase/"): lambda w: Call(
        f"/api/knowledge/chunks/{w.chunk_id}/erase/", body={"reason": "erasure request"}
    ),
    ("POST", "/api/knowledge/chunks/bulk-delete/"): lambda w: Call(
        "/api/knowledge/chunks/bulk-delete/", body={"ids": [w.chunk_id]}
    ),
    ("POST", "/api/knowledge/chunks/bulk-restore/"): lambda w: Call(
        "/api/knowledge/chunks/bulk-restore/", body={"ids": [w.chunk_id]}
    ),
    ("POST", "/api/memory/chunks/{chunk_id}/review/"): lambda w: Call(
        f"/api/memory/chunks/{w.chunk_id}/review/", body={"state": "confirmed"}
    ),
    ("GET", "/api/memory/injections/"): lambda w: Call("/api/memory/injections/"),
    ("GET", "/api/memory/injections/{log_id}/replay/"): lambda w: Call(
        f"/api/memory/injections/{injection_log_record(agent_id=w.agent.pk, session_id=SESSION).pk}/replay/"
    ),
    ("GET", "/api/memory/chunks/{chunk_id}/influence/"): lambda w: Call(
        f"/api/memory/chunks/{w.chunk_id}/influence/"
    ),
    ("POST", "/api/sessions/{session_id}/quarantine/"): lambda w: Call(
        f"/api/sessions/{SESSION}/quarantine/", body={"agent": w.agent.pk}
    ),
    ("POST", "/api/quarantines/{quarantine_id}/lift/"): lambda w: Call(
        f"/api/quarantines/{quarantined(w)}/lift/"
    ),
    ("GET", "/api/prompts/preview/"): lambda w: Call(
        "/api/prompts/preview/", params={"agent": w.agent.pk, "session": SESSION, "query": "kestrel"}
    ),
    ("GET", "/api/sessions/"): lambda w: Call("/api/sessions/"),
    ("GET", "/api/sessions/{session_id}/"): lambda w: Call(
        f"/api/sessions/{SESSION}/", params={"agent": w.agent.pk}
    ),
    ("GET", "/api/sessions/{session_id}/summary/"): lambda w: Call(
        f"/api/sessions/{SESSION}/summary/", params={"agent": w.agent.pk}
    ),
    ("GET", "/api/skills/"): lambda w: Call("/api/skills/"),
    ("POST", "/api/skills/"): lambda w: Call(
        "/api/skills/", body={"name": "rollback-steps", "content": "1. stop 2. revert"}
    ),
    ("GET", "/api/skills/{name}/"): lambda w: Call(f"/api/skills/{SKILL}/"),
    ("PUT", "/api/skills/{name}/"): lambda w: Call(f"/api/skills/{SKILL}/", body={"content": "1. check"}),
}


@pytest.fixture
def world(db: Any) -> World:
    agent = AgentFactory(name="perm-agent")
    session, _ = session_register(agent=agent, session_id=SESSION)
    session_turn_append(
        session=session,
        messages=[
            MessageInput(role="user", content="How big is the kestrel pool?"),
            MessageInput(role="assistant", content="Sixty connections."),
        ],
        terminal=True,  # writes the summary the summary route reads
    )
    chunk = add_chunk(
        ChunkDraft(
            content="The kestrel pool holds sixty connections",
            source_type="memory_ingest",
            source=SESSION,
            agent_id=agent.pk,
        ),
        actor=f"agent:{agent.pk}",
    )
    assert chunk is not None
    skill_create(name=SKILL, description="before a deploy", content="1. run the tests")
    return World(agent=agent, chunk_id=chunk.pk)


def staff_holding(perms: list[str] | tuple[str, ...]) -> APIClient:
    user = UserFactory(username="matrix-staff", is_staff=True)
    for perm in perms:
        app_label, codename = perm.split(".")
        user.user_permissions.add(
            Permission.objects.get(content_type__app_label=app_label, codename=codename)
        )
    client = APIClient()
    client.force_login(user)
    return client


def send(client: APIClient, method: str, call: Call) -> Any:
    if method == "GET":
        return client.get(call.url, call.params or {})
    return client.generic(method, call.url, data=_json(call.body), content_type="application/json")


def _json(body: dict[str, Any] | None) -> str:
    import json

    return json.dumps(body) if body is not None else ""


# ------------------------------------------------------------------------------ the schema's shape


def test_the_served_schema_documents_the_operations_this_matrix_walks(staff_client):
    resp = staff_client.get("/api/schema/", {"format": "json"})
    assert resp.status_code == 200
    assert schema_operations(resp.json()) == SCHEMA_OPERATIONS
    assert len(OPERATOR_OPERATIONS) >= 10  # the generator found the operator routes


def test_every_operator_operation_has_an_example():
    missing = sorted(set(OPERATOR_OPERATIONS) - set(EXAMPLES))
    assert not missing, f"add a request to EXAMPLES for each new operator operation: {missing}"
    assert not sorted(set(EXAMPLES) - set(OPERATOR_OPERATIONS)), "EXAMPLES names an operation no longer gated"


@pytest.mark.parametrize(
    ("method", "path"), SCHEMA_OPERATIONS, ids=[f"{m} {p}" for m, p in SCHEMA_OPERATIONS]
)
def test_every_operation_is_agent_callable_or_declares_its_permissions(method, path):
    view = view_class(path)
    leaves = permission_leaves(view, method)
    unchecked = [
        type(leaf).__name__ for leaf in leaves if not isinstance(leaf, (IsAgent, HasModelPerms))
    ]  # IsOperator, IsAuthenticated, AllowAny: staff in without a model permission
    assert not unchecked, f"{method} {path} lets staff in through {unchecked}"
    agent_callable = any(isinstance(leaf, (IsAgent, AgentReadsOrOperatorPerms)) for leaf in leaves)
    declared = required_perms(view, method)
    if any(isinstance(leaf, HasModelPerms) for leaf in leaves):
        assert declared, f"{method} {path} is an operator route declaring no permission"
    assert agent_callable or declared


@pytest.mark.parametrize(
    ("method", "path"), SCHEMA_OPERATIONS, ids=[f"{m} {p}" for m, p in SCHEMA_OPERATIONS]
)
def test_staff_without_permissions_is_refused_everywhere(world, method, path):
    example = EXAMPLES.get((method, path))
    call = example(world) if example else Call(concrete(path).replace("/s/", f"/{SESSION}/"), body={})
    resp = send(staff_holding([]), method, call)
    assert resp.status_code == 403, (method, path, resp.content)


# ------------------------------------------------------------------------------ the matrix

MISSING_CASES = [
    (method, path, perm)
    for method, path in OPERATOR_OPERATIONS
    for perm in required_perms(view_class(path), method)
]


@pytest.mark.parametrize(
    ("method", "path", "missing"), MISSING_CASES, ids=[f"{m} {p} without {x}" for m, p, x in MISSING_CASES]
)
def test_staff_lacking_one_required_permission_gets_403(world, method, path, missing):
    call = EXAMPLES[(method, path)](world)
    resp = send(staff_holding([perm for perm in ALL_PERMS if perm != missing]), method, call)
    assert resp.status_code == 403, (method, path, missing, resp.content)
    if not isinstance(permission_leaves(view_class(path), method)[0], IsAgent):
        assert missing in resp.json()["detail"]  # (DRF's `|` keeps only the default message)


@pytest.mark.parametrize(
    ("method", "path"), OPERATOR_OPERATIONS, ids=[f"{m} {p}" for m, p in OPERATOR_OPERATIONS]
)
def test_staff_holding_exactly_the_required_permissions_succeeds(world, method, path):
    call = EXAMPLES[(method, path)](world)
    resp = send(staff_holding(required_perms(view_class(path), method)), method, call)
    assert 200 <= resp.status_code < 300, (method, path, resp.content)
