"""The hot endpoints' output serializers are built once per process and answer byte for byte
what a per-request serializer answers; errors keep their format."""

from __future__ import annotations

import json
from typing import Any

import pytest

from delivery.api import views as delivery_views
from delivery.api.serializers import ProjectedContextOutput
from delivery.projection import compose_projected_context
from memory.api import views as memory_views
from memory.api.serializers import ChunkOutput, RecallHitOutput
from memory.lifecycle import recall
from memory.store.models import Chunk
from sessions_app.services import session_register

pytestmark = pytest.mark.django_db(databases=["default", "injections"])

RECALL = "/api/memory/recall/"


def _ingest(client: Any, content: str) -> Any:
    return client.post("/api/sessions/s1/memory/ingest/", {"content": content}, format="json")


def test_recall_and_ingest_answers_equal_the_per_request_serializers(agent_client: Any) -> None:
    session_register(agent=agent_client.agent, session_id="s1")
    first = _ingest(agent_client, "the deploy script lives in ops/deploy.sh")
    second = _ingest(agent_client, "deploy windows are Tuesday mornings (UTC)")
    assert (first.status_code, second.status_code) == (201, 201)
    chunk = Chunk.objects.get(pk=first.json()["chunk"]["id"])
    assert (
        first.content
        == json.dumps(
            {
                "action": "inserted",
                "chunk": ChunkOutput(chunk).data,
                "superseded_id": None,
                "proposes": None,
                "held_reasons": [],
                "score": first.json()["score"],
            },
            separators=(",", ":"),
        ).encode()
    )

    answers = [agent_client.get(RECALL, {"query": "deploy", "top_k": 5}) for _ in range(2)]

    hits = recall.memory_recall(agent=agent_client.agent, query="deploy", top_k=5, namespace="")
    for hit in hits:
        hit.chunk.tag, hit.chunk.line = hit.tag, hit.line
    expected = RecallHitOutput([h.chunk for h in hits], many=True).data
    assert len(expected) == 2
    for answer in answers:
        assert answer.status_code == 200
        assert answer.json()["results"] == json.loads(json.dumps(expected))
    assert memory_views._recall_hits_output() is memory_views._recall_hits_output()


def test_context_answer_equals_the_per_request_serializer(agent_client: Any) -> None:
    session_register(agent=agent_client.agent, session_id="s1")
    _ingest(agent_client, "the deploy script lives in ops/deploy.sh")
    body = {"query": "deploy", "model": "", "working_state": "- ship it"}

    answer = agent_client.post("/api/sessions/s1/context/", body, format="json")

    assert answer.status_code == 200, answer.content
    got = answer.json()
    context = compose_projected_context(
        agent=agent_client.agent, session_id="s1", query="deploy", model="", working_state="- ship it"
    )
    expected = json.loads(json.dumps(ProjectedContextOutput(context).data))
    assert got.pop("injection_id") is not None
    assert got == expected
    assert "ops/deploy.sh" in got["text"]
    assert delivery_views._context_output() is delivery_views._context_output()


def test_bad_input_keeps_the_error_envelope(agent_client: Any) -> None:
    bad = agent_client.get(RECALL, {"query": "deploy", "top_k": 0})
    unknown = agent_client.post("/api/sessions/nope/memory/ingest/", {"content": "x"}, format="json")
    no_session = agent_client.post("/api/sessions/nope/context/", {"query": "x"}, format="json")

    assert bad.status_code == 400
    assert bad.json() == {"top_k": ["Ensure this value is greater than or equal to 1."]}
    assert (unknown.status_code, unknown.json()) == (404, {"detail": "Not found."})
    assert no_session.status_code == 404
    assert set(no_session.json()) == {"detail"}
