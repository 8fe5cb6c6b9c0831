"""Operator surfaces over HTTP: review verdicts, operator edit, store browse, bulk delete/restore."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.utils import timezone

from audit.models import AuditEvent
from audit.signals import hot_written
from memory.lifecycle.retention import BULK_DELETE_MARKER
from memory.store.deliverable import deliverable
from memory.store.models import Chunk
from tests.conftest import grant
from tests.factories import ChunkFactory

pytestmark = pytest.mark.django_db

EXPIRES = datetime(2027, 1, 31, tzinfo=UTC)


def review_url(chunk_id, slash=""):
    return f"/api/memory/chunks/{chunk_id}/review{slash}"


def edit_url(chunk_id, slash=""):
    return f"/api/knowledge/chunks/{chunk_id}{slash}"


# ------------------------------------------------------------------------------ review


@pytest.mark.parametrize("slash", ["", "/"])
def test_review_sets_each_verdict_and_audits(operator_client, reviewer, slash):
    chunk = ChunkFactory(review_state="pending")
    for state in ("confirmed", "rejected", "pending"):
        resp = operator_client.post(review_url(chunk.pk, slash), {"state": state})
        assert resp.status_code == 200, resp.content
        assert resp.json()["review_state"] == state
        chunk.refresh_from_db()
        assert chunk.review_state == state
    trail = list(AuditEvent.objects.filter(event="memory.reviewed", chunk_id=chunk.pk).order_by("id"))
    assert [(e.data["from"], e.data["to"]) for e in trail] == [
        ("pending", "confirmed"),
        ("confirmed", "rejected"),
        ("rejected", "pending"),
    ]
    assert {e.actor for e in trail} == {f"user:{reviewer.pk}"}


def test_rejecting_keeps_the_row_but_stops_delivery(operator_client, agent_client):
    chunk = ChunkFactory(content="The gecko vet is on Elm street")
    assert operator_client.post(review_url(chunk.pk), {"state": "rejected"}).status_code == 200
    assert Chunk.objects.filter(pk=chunk.pk, content="The gecko vet is on Elm street").exists()
    assert not deliverable().filter(pk=chunk.pk).exists()
    assert agent_client.get("/api/memory/recall/", {"query": "gecko vet"}).json()["results"] == []


@pytest.mark.parametrize("body", [{"state": "approved"}, {"state": ""}, {}, {"state": None}])
def test_review_refuses_other_states(operator_client, body):
    chunk = ChunkFactory(review_state="pending")
    resp = operator_client.post(review_url(chunk.pk), body, format="json")
    assert resp.status_code == 400
    assert "state" in resp.json()
    chunk.refresh_from_db()
    assert chunk.review_state == "pending"
    assert not AuditEvent.objects.exists()


def test_review_roles(api_client, agent_client, staff_client, operator_client):
    chunk = ChunkFactory(review_state="pending")
    assert api_client.post(review_url(chunk.pk), {"state": "confirmed"}).status_code == 401
    assert agent_client.post(review_url(chunk.pk), {"state": "confirmed"}).status_code == 403
    assert (
        staff_client.post(review_url(chunk.pk), {"state": "confirmed"}).status_code == 403
    )  # no review perm
    assert operator_client.post(review_url(999_999), {"state": "confirmed"}).status_code == 404
    chunk.refresh_from_db()
    assert chunk.review_state == "pending"


# ------------------------------------------------------------------------------ operator edit


@pytest.mark.parametrize("slash", ["", "/"])
def test_edit_makes_a_confirmed_revision_keeping_the_rows_type(operator_client, reviewer, slash):
    old = ChunkFactory(
        content="Standup is at 9:30",
        heading="Standup",
        domain="preferences",
        memory_kind="profile",
        subject="standup",
        delivery_policy="on_demand",
        namespace="team",
        expires_at=EXPIRES,
        review_state="pending",
        source="thread-3",
    )
    resp = operator_client.put(edit_url(old.pk, slash), {"content": "Standup is at 10:00"})
    assert resp.status_code == 200, resp.content
    body = resp.json()
    new = Chunk.objects.get(pk=body["chunk"]["id"])
    assert body["supersedes"] == old.pk
    assert new.content == "Standup is at 10:00"
    assert (new.heading, new.domain, new.memory_kind, new.subject) == (
        "Standup",
        "preferences",
        "profile",
        "standup",
    )
    assert (new.delivery_policy, new.namespace, new.expires_at) == ("on_demand", "team", EXPIRES)
    assert (new.review_state, new.source_type) == ("confirmed", "operator")
    old.refresh_from_db()
    assert old.invalidation_reason == f"superseded_by:{new.pk}"


def test_edit_of_a_rejected_row_stays_rejected(operator_client):
    old = ChunkFactory(review_state="rejected")
    resp = operator_client.put(edit_url(old.pk), {"content": "Still wrong, but edited", "heading": "New"})
    assert resp.status_code == 200
    assert resp.json()["chunk"]["review_state"] == "rejected"
    assert resp.json()["chunk"]["heading"] == "New"


def test_edit_of_a_superseded_row_is_409(operator_client):
    old = ChunkFactory(invalidated_at=timezone.now(), invalidation_reason="superseded_by:42")
    resp = operator_client.put(edit_url(old.pk), {"content": "edit"})
    assert resp.status_code == 409
    assert resp.json()["superseded_by"] == 42
    assert Chunk.objects.count() == 1


def test_edit_of_a_hot_row_emits_hot_written(operator_client, reviewer, django_capture_on_commit_callbacks):
    received = []

    def receiver(sender, **kwargs):
        received.append((kwargs["chunk_id"], kwargs["actor"], kwargs["path"]))

    old = ChunkFactory(
        domain="hot", delivery_policy="always", review_state="confirmed", source_type="operator"
    )
    hot_written.connect(receiver)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            resp = operator_client.put(edit_url(old.pk), {"content": "Always cite the ticket number"})
    finally:
        hot_written.disconnect(receiver)
    assert resp.status_code == 200
    new_id = resp.json()["chunk"]["id"]
    actor = f"user:{reviewer.pk}"
    event = AuditEvent.objects.get(event="memory.hot_written")
    assert (event.chunk_id, event.actor, event.path) == (new_id, actor, "operator_edit")
    assert received == [(new_id, actor, "operator_edit")]


def test_edit_roles_and_errors(api_client, agent_client, staff_client, staff_user, operator_client):
    old = ChunkFactory()
    assert api_client.put(edit_url(old.pk), {"content": "x"}).status_code == 401
    assert agent_client.put(edit_url(old.pk), {"content": "x"}).status_code == 403
    assert operator_client.put(edit_url(999_999), {"content": "x"}).status_code == 404
    assert operator_client.put(edit_url(old.pk), {}).status_code == 400
    # an edit is a confirmed revision, so a verdict: change_chunk alone is not enough
    grant(staff_user, ("memory", "change_chunk"))
    refused = staff_client.put(edit_url(old.pk), {"content": "Edited by staff"})
    assert refused.status_code == 403
    assert refused.json()["detail"] == "Needs the permission(s): memory.review_chunk."
    assert Chunk.objects.count() == 1
    grant(staff_user, ("memory", "review_chunk"))
    assert staff_client.put(edit_url(old.pk), {"content": "Edited by staff"}).status_code == 200
    assert Chunk.objects.count() == 2


# ------------------------------------------------------------------------------ store browse


def test_store_list_filters_and_history(operator_client):
    live = ChunkFactory(source="thread-1", source_type="memory_ingest")
    old = ChunkFactory(
        source="thread-1", invalidated_at=timezone.now(), invalidation_reason=f"superseded_by:{live.pk}"
    )
    deleted = ChunkFactory(
        source="doc", invalidated_at=timezone.now(), invalidation_reason=BULK_DELETE_MARKER
    )

    def got(**params):
        resp = operator_client.get("/api/knowledge/chunks/", params)
        assert resp.status_code == 200, resp.content
        return {r["id"] for r in resp.json()["results"]}

    assert got() == {live.pk, old.pk, deleted.pk}
    assert got(invalidated="false") == {live.pk}
    assert got(superseded="true") == {old.pk}
    assert got(deleted="true") == {deleted.pk}
    assert got(source="thread-1") == {live.pk, old.pk}
    assert got(ids=f"{live.pk},{deleted.pk}") == {live.pk, deleted.pk}
    item = operator_client.get("/api/knowledge/chunks/", {"superseded": "true"}).json()["results"][0]
    assert item["superseded_by"] == live.pk


def test_store_detail_and_roles(operator_client, staff_client, staff_user, agent_client, api_client):
    chunk = ChunkFactory(content="Detail me")
    assert staff_client.get(edit_url(chunk.pk)).status_code == 403  # staff without view_chunk
    grant(staff_user, ("memory", "view_chunk"))
    resp = staff_client.get(edit_url(chunk.pk))
    assert resp.status_code == 200
    assert resp.json()["content"] == "Detail me"
    assert operator_client.get(edit_url(999_999)).status_code == 404
    assert agent_client.get("/api/knowledge/chunks/").status_code == 403
    assert agent_client.get(edit_url(chunk.pk)).status_code == 403
    assert api_client.get("/api/knowledge/chunks/").status_code == 401


# ------------------------------------------------------------------------------ bulk delete


def test_bulk_delete_by_ids_marks_and_leaves_superseded_rows(operator_client, agent_client, reviewer):
    live = ChunkFactory(content="Wombat census tally")
    superseded = ChunkFactory(invalidated_at=timezone.now(), invalidation_reason=f"superseded_by:{live.pk}")
    resp = operator_client.post("/api/knowledge/chunks/bulk-delete", {"ids": [live.pk, superseded.pk]})
    assert resp.status_code == 200, resp.content
    body = resp.json()
    assert (body["marked"], body["ids"]) == (1, [live.pk])
    live.refresh_from_db()
    superseded.refresh_from_db()
    assert live.invalidation_reason == BULK_DELETE_MARKER
    assert superseded.invalidation_reason == f"superseded_by:{live.pk}"
    assert AuditEvent.objects.get(event="memory.bulk_deleted").actor == f"user:{reviewer.pk}"
    assert agent_client.get("/api/memory/recall/", {"query": "wombat census"}).json()["results"] == []
    again = operator_client.post("/api/knowledge/chunks/bulk-delete/", {"ids": [live.pk]})
    assert again.json()["marked"] == 0


def test_bulk_delete_by_filter(operator_client):
    doomed = [ChunkFactory(source="thread-9", domain="fact"), ChunkFactory(source="thread-9", domain="fact")]
    kept = ChunkFactory(source="thread-9", domain="notes")
    resp = operator_client.post(
        "/api/knowledge/chunks/bulk-delete",
        {"filter": {"source": "thread-9", "domain": "fact"}},
        format="json",
    )
    assert resp.status_code == 200
    assert sorted(resp.json()["ids"]) == sorted(c.pk for c in doomed)
    kept.refresh_from_db()
    assert kept.invalidated_at is None


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"ids": []},
        {"filter": {}},
        {"filter": {"colour": "red"}},
        {"filter": {"source": ""}},
        {"ids": ["x"]},
    ],
)
def test_bulk_delete_refuses_vague_requests(operator_client, body):
    ChunkFactory()
    resp = operator_client.post("/api/knowledge/chunks/bulk-delete", body, format="json")
    assert resp.status_code == 400
    assert not Chunk.objects.filter(invalidated_at__isnull=False).exists()


def test_bulk_delete_bad_filter_value_is_400(operator_client):
    ChunkFactory()
    resp = operator_client.post(
        "/api/knowledge/chunks/bulk-delete", {"filter": {"review_state": "maybe"}}, format="json"
    )
    assert resp.status_code == 400
    assert "filter" in resp.json()


def test_bulk_delete_roles(agent_client, api_client):
    chunk = ChunkFactory()
    assert agent_client.post("/api/knowledge/chunks/bulk-delete", {"ids": [chunk.pk]}).status_code == 403
    assert api_client.post("/api/knowledge/chunks/bulk-delete", {"ids": [chunk.pk]}).status_code == 401
    chunk.refresh_from_db()
    assert chunk.invalidated_at is None


def test_bulk_restore(operator_client, agent_client):
    chunk = ChunkFactory()
    operator_client.post("/api/knowledge/chunks/bulk-delete", {"ids": [chunk.pk]})
    resp = operator_client.post("/api/knowledge/chunks/bulk-restore", {"ids": [chunk.pk]})
    assert resp.status_code == 200
    assert resp.json() == {"restored": 1, "ids": [chunk.pk]}
    chunk.refresh_from_db()
    assert chunk.invalidated_at is None
    assert agent_client.post("/api/knowledge/chunks/bulk-restore", {"ids": [chunk.pk]}).status_code == 403


def test_bulk_delete_reports_the_grace(operator_client, settings):
    settings.PROTOMEM_BULK_DELETE_GRACE_DAYS = 2
    chunk = ChunkFactory()
    body = operator_client.post("/api/knowledge/chunks/bulk-delete", {"ids": [chunk.pk]}).json()
    reap_after = datetime.fromisoformat(body["reap_after"].replace("Z", "+00:00"))
    assert timezone.now() + timedelta(days=1, hours=23) < reap_after <= timezone.now() + timedelta(days=2)
