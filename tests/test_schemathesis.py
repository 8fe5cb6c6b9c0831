"""Schemathesis against /api/schema/: no operation answers 5xx, as an agent or as an operator.

Loaded through the WSGI app (no server), seeded and derandomized so CI runs the same cases
every time. Each role fuzzes the operations it may call (the other role's are a 403 at the
permission check, covered in test_isolation). Path parameters mostly point at seeded rows so
bodies reach the services; about a quarter keep the generated value (unknown ids, 404).

schemathesis.pytest.from_fixture is not used: on pytest 9 it fails (it sets Node._nodeid).
"""

from __future__ import annotations

import os
import zlib
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.conf import settings as django_settings
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from hypothesis.configuration import set_hypothesis_home_dir
from schemathesis.checks import not_a_server_error

from memory.lifecycle.ingest import memory_ingest
from memory.store.models import Skill
from protomem.wsgi import application
from sessions_app.models import OperatorAPIKey
from sessions_app.services import MessageInput, session_register, session_turn_append
from tests.conftest import agent_client_for

pytestmark = pytest.mark.django_db(databases=["default", "injections"])

# Per operation and role, on top of schemathesis' deterministic coverage cases. CI uses the
# defaults; PROTOMEM_FUZZ_EXAMPLES / PROTOMEM_FUZZ_SEED dig deeper locally.
EXAMPLES = int(os.environ.get("PROTOMEM_FUZZ_EXAMPLES", 50))
SEED = int(os.environ.get("PROTOMEM_FUZZ_SEED", 20260701))

# Hypothesis keeps caches beside the code by default; keep them in this run's temp dir.
set_hypothesis_home_dir(str(django_settings.TEST_RUN_DIR / "hypothesis"))

AGENT_OPERATIONS = frozenset(
    {
        "GET /api/sessions/",
        "POST /api/sessions/",
        "GET /api/sessions/search/",
        "GET /api/sessions/{session_id}/",
        "DELETE /api/sessions/{session_id}/",
        "GET /api/sessions/{session_id}/messages/",
        "POST /api/sessions/{session_id}/messages/",
        "GET /api/sessions/{session_id}/summary/",
        "POST /api/sessions/{session_id}/context/",
        "POST /api/sessions/{session_id}/memory/ingest/",
        "POST /api/sessions/{session_id}/knowledge/ingest/",
        "GET /api/memory/recall/",
        "POST /api/memory/recall/",
        "GET /api/memory/list/",
        "GET /api/skills/",
        "GET /api/skills/{name}/",
    }
)
OPERATOR_OPERATIONS = frozenset(
    {
        "GET /api/sessions/",
        "GET /api/sessions/{session_id}/",
        "GET /api/sessions/{session_id}/summary/",
        "GET /api/knowledge/chunks/",
        "GET /api/knowledge/chunks/{chunk_id}/",
        "PUT /api/knowledge/chunks/{chunk_id}/",
        "POST /api/knowledge/chunks/{chunk_id}/promote/",
        "POST /api/knowledge/chunks/{chunk_id}/erase/",
        "POST /api/knowledge/chunks/bulk-delete/",
        "POST /api/knowledge/chunks/bulk-restore/",
        "POST /api/memory/chunks/{chunk_id}/review/",
        "GET /api/memory/chunks/{chunk_id}/influence/",
        "POST /api/sessions/{session_id}/quarantine/",
        "POST /api/quarantines/{quarantine_id}/lift/",
        "GET /api/memory/injections/",
        "GET /api/memory/injections/{log_id}/replay/",
        "GET /api/prompts/preview/",
        "GET /api/skills/",
        "POST /api/skills/",
        "GET /api/skills/{name}/",
        "PUT /api/skills/{name}/",
    }
)

config = schemathesis.Config.from_dict(
    {
        "seed": SEED,
        "generation": {"max-examples": EXAMPLES, "deterministic": True, "database": "none"},
    }
)
schema = schemathesis.openapi.from_wsgi("/api/schema/", application, config=config)
hypothesis_settings = settings(
    max_examples=EXAMPLES,
    derandomize=True,
    database=None,
    deadline=None,
    print_blob=False,
    suppress_health_check=list(HealthCheck),
)


def error_is_json(ctx: Any, response: Any, case: Any) -> bool | None:
    """A refusal says what was wrong in the API's JSON envelope, never an HTML error page."""
    if response.status_code >= 400:
        content_type = response.headers.get("content-type", [""])[0]
        assert content_type.startswith("application/json"), (
            f"{response.status_code} with {content_type!r}: {response.text[:200]}"
        )
    return None


CHECKS = [not_a_server_error, error_is_json]


@pytest.fixture(autouse=True)
def _keep_test_connection() -> Iterator[None]:
    # Django's test client does this too: request_finished would close the connection that
    # holds the test's transaction.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def world(agent: Any) -> dict[str, Any]:
    """Rows the fuzzed path parameters point at: a talked-in session with a summary, memory, a skill."""
    session, _ = session_register(agent=agent, session_id="fuzz-thread")
    session_turn_append(
        session=session,
        messages=[
            MessageInput(role="user", content="how do we deploy the gecko service?"),
            MessageInput(role="assistant", content="Tuesday, after the freeze lifts."),
        ],
        terminal=True,
    )
    session_register(agent=agent, session_id="fuzz-retire")
    outcome = memory_ingest(agent=agent, session=session, content="The gecko deploys on Tuesdays.")
    Skill.objects.create(name="deploy", description="how to deploy", content="1. freeze 2. ship")
    agent_key = agent_client_for(agent)._credentials["HTTP_AUTHORIZATION"]
    return {"agent": agent, "agent_key": agent_key, "chunk_id": outcome.chunk.pk}


def _keep_generated(value: Any) -> bool:
    return zlib.crc32(repr(value).encode()) % 4 == 0


def aim(case: Any, world: dict[str, Any]) -> None:
    """Point most generated path ids (and ?agent=) at the seeded rows; keep the rest as generated."""
    path = case.path_parameters or {}
    targets = {
        # retiring is one-way: DELETE gets its own session, so the others stay open for writes
        "session_id": "fuzz-retire" if case.method.upper() == "DELETE" else "fuzz-thread",
        "chunk_id": world["chunk_id"],
        "name": "deploy",
    }
    for name, target in targets.items():
        if name in path and not _keep_generated(path[name]):
            path[name] = target
    query = case.query
    if isinstance(query, dict) and "agent" in query and not _keep_generated(query["agent"]):
        query["agent"] = world["agent"].pk


@pytest.fixture
def operator_key(reviewer: Any) -> str:
    _, raw = OperatorAPIKey.objects.create_key(name="fuzz-ops", user=reviewer)
    return f"Api-Key {raw}"


@schema.include(name=list(AGENT_OPERATIONS)).parametrize()
@hypothesis_settings
def test_agent_endpoints_never_answer_5xx(case: Any, world: dict[str, Any]) -> None:
    aim(case, world)
    case.call_and_validate(headers={"Authorization": world["agent_key"]}, checks=CHECKS)


@schema.include(name=list(OPERATOR_OPERATIONS)).parametrize()
@hypothesis_settings
def test_operator_endpoints_never_answer_5xx(case: Any, world: dict[str, Any], operator_key: str) -> None:
    aim(case, world)
    case.call_and_validate(headers={"Authorization": operator_key}, checks=CHECKS)


def test_every_operation_is_fuzzed_by_some_role() -> None:
    # given the served schema; then no operation is left out of both role lists (nor listed stale)
    served = {operation.ok().label for operation in schema.get_all_operations()}
    assert served == AGENT_OPERATIONS | OPERATOR_OPERATIONS
