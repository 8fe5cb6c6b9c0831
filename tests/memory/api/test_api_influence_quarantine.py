"""The review console over HTTP: a chunk's blast radius and a session's quarantine (issue 14)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from audit.models import AuditEvent
from audit.services import REVIEWED, injection_log_record
from memory.lifecycle.quarantine import chunk_reject_with_derived, derived_rows
from memory.lifecycle.review import chunk_promote
from memory.store.models import Chunk, Quarantine
from sessions_app.models import OperatorAPIKey
from tests.conftest import grant
from tests.factories import AgentFactory, ChunkFactory, SessionFactory, UserFactory

pytestmark = pytest.mark.django_db(databases=["default", "injections"])


def influence_url(chunk_id: int) -> str:
    return f"/api/memory/chunks/{chunk_id}/influence/"


def key_client(user: Any) -> APIClient:
    _, raw = OperatorAPIKey.objects.create_key(name=f"{user.username}-key", user=user)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Api-Key {raw}")
    return client


# ------------------------------------------------------------------------------ influence


def test_influence_counts_turns_sessions_agents_and_pages_newest_first(operator_client: APIClient) -> None:
    chunk = ChunkFactory(review_state="confirmed")
    other = ChunkFactory(review_state="confirmed")
    ada, bob = AgentFactory(name="ada"), AgentFactory(name="bob")
    logs = [
        injection_log_record(agent_id=ada.pk, session_id="s1", hot_ids=[chunk.pk]),
        injection_log_record(agent_id=ada.pk, session_id="s1", rag_ids=[chunk.pk, other.pk]),
        injection_log_record(agent_id=bob.pk, session_id="s2", rag_ids=[chunk.pk]),
        injection_log_record(agent_id=bob.pk, session_id="s3", rag_ids=[other.pk]),
    ]
    resp = operator_client.get(influence_url(chunk.pk), {"limit": 2})
    assert resp.status_code == 200, resp.content
    body = resp.json()
    summary = body["summary"]
    assert (summary["turns"], summary["hot_turns"], summary["rag_turns"]) == (3, 1, 2)
    assert (summary["sessions"], summary["agents"]) == (2, 2)
    assert sorted(summary["agent_ids"]) == sorted([ada.pk, bob.pk])
    assert summary["first_at"] is not None
    assert summary["last_at"] >= summary["first_at"]
    assert [r["log_id"] for r in body["results"]] == [logs[2].pk, logs[1].pk]
    assert body["results"][0]["session_id"] == "s2"
    nxt = operator_client.get(body["next"]).json()
    assert [r["log_id"] for r in nxt["results"]] == [logs[0].pk]
    assert nxt["results"][0]["section"] == "hot"


def test_influence_of_a_chunk_never_injected_is_zero(operator_client: APIClient) -> None:
    chunk = ChunkFactory()
    body = operator_client.get(influence_url(chunk.pk)).json()
    assert body["summary"]["turns"] == 0
    assert body["summary"]["first_at"] is None
    assert body["results"] == []


def test_influence_needs_the_injection_log_permission(db: Any) -> None:
    chunk = ChunkFactory()
    viewer = grant(UserFactory(username="viewer", is_staff=True), ("memory", "view_chunk"))
    assert key_client(viewer).get(influence_url(chunk.pk)).status_code == 403
    grant(viewer, ("audit", "view_injectionlog"))
    assert key_client(viewer).get(influence_url(chunk.pk)).status_code == 200


def test_influence_refuses_agents_and_unknown_chunks(
    operator_client: APIClient, agent_client: APIClient
) -> None:
    chunk = ChunkFactory()
    assert agent_client.get(influence_url(chunk.pk)).status_code == 403
    assert operator_client.get(influence_url(chunk.pk + 1000)).status_code == 404


# ------------------------------------------------------------------------------ quarantine


def quarantine_url(session_id: str) -> str:
    return f"/api/sessions/{session_id}/quarantine/"


def test_quarantine_rejects_everything_a_session_wrote_and_reopen_undoes_it(
    operator_client: APIClient, reviewer: Any
) -> None:
    session = SessionFactory(session_id="poisoned")
    other = SessionFactory(session_id="clean", agent=session.agent)
    wrote = [
        ChunkFactory(source="poisoned", agent=session.agent, review_state=state)
        for state in ("pending", "confirmed", "rejected")
    ]
    untouched = ChunkFactory(source=other.session_id, agent=session.agent, review_state="pending")
    resp = operator_client.post(quarantine_url("poisoned"), {}, format="json")
    assert resp.status_code == 200, resp.content
    body = resp.json()
    assert sorted(body["rejected"]) == sorted([wrote[0].pk, wrote[1].pk])
    assert body["already_rejected"] == 1
    assert set(Chunk.objects.filter(source="poisoned").values_list("review_state", flat=True)) == {"rejected"}
    assert Chunk.objects.get(pk=untouched.pk).review_state == "pending"
    events = AuditEvent.objects.filter(event=REVIEWED, chunk_id__in=body["rejected"])
    assert events.count() == 2
    assert {e.data["cause"] for e in events} == {f"quarantine #{body['quarantine_id']} of session poisoned"}
    assert {e.actor for e in events} == {f"user:{reviewer.pk}"}
    # Undo: reopen; the audit keeps both verdicts.
    for pk in body["rejected"]:
        assert (
            operator_client.post(f"/api/memory/chunks/{pk}/review/", {"state": "pending"}).status_code == 200
        )
    assert AuditEvent.objects.filter(event=REVIEWED, chunk_id=wrote[1].pk).count() == 2


def test_lift_over_the_api_restores_each_rows_state_before(operator_client: APIClient, reviewer: Any) -> None:
    session = SessionFactory(session_id="to-lift")
    hot = ChunkFactory(
        source="to-lift",
        agent=session.agent,
        source_type="operator",
        review_state="confirmed",
        delivery_policy="always",
    )
    pending = ChunkFactory(source="to-lift", agent=session.agent)
    body = operator_client.post(
        quarantine_url("to-lift"), {"reason": "prompt injection"}, format="json"
    ).json()
    assert Quarantine.objects.get(pk=body["quarantine_id"]).reason == "prompt injection"
    resp = operator_client.post(f"/api/quarantines/{body['quarantine_id']}/lift/")
    assert resp.status_code == 200, resp.content
    assert sorted(resp.json()["restored"]) == sorted([hot.pk, pending.pk])
    assert resp.json()["already_lifted"] is False
    assert [Chunk.objects.get(pk=c.pk).review_state for c in (hot, pending)] == ["confirmed", "pending"]
    again = operator_client.post(f"/api/quarantines/{body['quarantine_id']}/lift/").json()
    assert (again["already_lifted"], again["restored"]) == (True, [])
    assert operator_client.post("/api/quarantines/99999/lift/").status_code == 404


def test_lift_is_for_reviewers(
    operator_client: APIClient, staff_client: APIClient, agent_client: APIClient
) -> None:
    session = SessionFactory(session_id="held")
    row = ChunkFactory(source="held", agent=session.agent)
    quarantine_id = operator_client.post(quarantine_url("held"), {}, format="json").json()["quarantine_id"]
    assert agent_client.post(f"/api/quarantines/{quarantine_id}/lift/").status_code == 403
    assert staff_client.post(f"/api/quarantines/{quarantine_id}/lift/").status_code == 403
    assert Chunk.objects.get(pk=row.pk).review_state == "rejected"
    assert Quarantine.objects.get(pk=quarantine_id).lifted_at is None


def test_quarantine_is_for_reviewers_and_known_sessions(
    operator_client: APIClient, agent_client: APIClient, staff_client: APIClient
) -> None:
    session = SessionFactory(session_id="thread-q")
    row = ChunkFactory(source="thread-q", agent=session.agent)
    assert agent_client.post(quarantine_url("thread-q"), {}, format="json").status_code == 403
    assert staff_client.post(quarantine_url("thread-q"), {}, format="json").status_code == 403
    assert operator_client.post(quarantine_url("nope"), {}, format="json").status_code == 404
    assert Chunk.objects.get(pk=row.pk).review_state == "pending"


def test_quarantine_of_a_shared_session_id_needs_the_agent(operator_client: APIClient) -> None:
    one = SessionFactory(session_id="twin")
    two = SessionFactory(session_id="twin")
    mine = ChunkFactory(source="twin", agent=one.agent)
    theirs = ChunkFactory(source="twin", agent=two.agent)
    assert operator_client.post(quarantine_url("twin"), {}, format="json").status_code == 400
    resp = operator_client.post(quarantine_url("twin"), {"agent": one.agent.pk}, format="json")
    assert resp.json()["rejected"] == [mine.pk]
    assert Chunk.objects.get(pk=theirs.pk).review_state == "pending"


def test_reject_with_derived_lists_siblings_revisions_and_commons_copies(reviewer: Any) -> None:
    agent = AgentFactory()
    now = timezone.now()
    root = ChunkFactory(source="harvested", agent=agent, review_state="confirmed", created_at=now)
    sibling = ChunkFactory(source="harvested", agent=agent, created_at=now + timedelta(seconds=1))
    newer = ChunkFactory(source="later", agent=agent, review_state="pending")
    Chunk.objects.filter(pk=root.pk).update(
        invalidated_at=now, invalidation_reason=f"superseded_by:{newer.pk}"
    )
    copy = chunk_promote(chunk_id=newer.pk, actor="user:1")
    Chunk.objects.filter(pk=copy.pk).update(review_state="pending")  # confirmed copies are never offered
    root.refresh_from_db()
    causes = {d.chunk.pk: d.cause for d in derived_rows(root)}
    assert causes == {sibling.pk: "same_source", newer.pk: "superseded_it", copy.pk: "promoted_copy"}
    result = chunk_reject_with_derived(
        chunk_id=root.pk, also_reject=[newer.pk, copy.pk], actor=f"user:{reviewer.pk}", path="admin"
    )
    assert set(result.rejected) == {root.pk, newer.pk, copy.pk}
    assert Chunk.objects.get(pk=sibling.pk).review_state == "pending"  # not chosen: untouched
    cause = AuditEvent.objects.filter(event=REVIEWED, chunk_id=copy.pk).get().data["cause"]
    assert cause == f"quarantine of #{root.pk}: a commons copy promoted from it"
    assert "cause" not in AuditEvent.objects.filter(event=REVIEWED, chunk_id=root.pk).get().data
