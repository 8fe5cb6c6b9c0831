"""Secrets and erasure through HTTP: a credential an agent stores is redacted whole and held at
risk 1, never delivered verbatim; an operator can erase a row and its revisions, audited with
the reason (not the content).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from audit.models import AuditEvent
from memory.lifecycle.erasure import ERASED, ERASED_CONTENT
from memory.store.models import Chunk
from sessions_app.services import session_register
from tests.admin.conftest import grant
from tests.factories import ChunkFactory, UserFactory
from tests.test_hold import delivered_ids, ingest, review, use_hold

pytestmark = pytest.mark.django_db(databases=["default", "injections"])

AWS_ID, AWS_SECRET = "AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
PAIR = f"Backup job credentials for the billing bucket: key id {AWS_ID}, secret {AWS_SECRET}"
WEBHOOK = (
    "Deploy alerts post to https://hooks.slack.com/services/T024BE7LD/B01ABCDEF12/aBcDeFgHiJkLmNoPqRsTuVwX"
)
REASON = "user's erasure request, ticket 4411"


@pytest.fixture(autouse=True)
def _sessions(agent: Any) -> None:
    session_register(agent=agent, session_id="writer")
    session_register(agent=agent, session_id="next-turn")


def context_text(client: Any, query: str) -> str:
    resp = client.post("/api/sessions/next-turn/context/", {"query": query}, format="json")
    assert resp.status_code == 200, resp.content
    return resp.json()["text"]


def test_an_aws_key_pair_is_redacted_whole_held_at_risk_one_and_never_delivered(
    settings, agent_client, operator_client
):
    use_hold(settings, "risky")
    body = ingest(agent_client, PAIR)
    chunk_id = body["chunk"]["id"]
    assert (body["action"], body["held_reasons"]) == ("held_for_review", ["secret"])
    assert (body["chunk"]["held"], body["chunk"]["risk"]) == (True, 1)
    stored = Chunk.objects.get(pk=chunk_id)
    assert (
        stored.content
        == "Backup job credentials for the billing bucket: key id [REDACTED], secret [REDACTED]"
    )
    # held: not delivered; confirmed by a reviewer: delivered, still without either half of the key
    assert delivered_ids(agent_client, "billing bucket credentials") == ([], [])
    review(operator_client, chunk_id, "confirmed")
    assert delivered_ids(agent_client, "billing bucket credentials") == ([chunk_id], [chunk_id])
    recall = agent_client.post("/api/memory/recall/", {"query": "billing bucket credentials"}, format="json")
    for text in (context_text(agent_client, "billing bucket credentials"), json.dumps(recall.json())):
        assert AWS_ID not in text
        assert AWS_SECRET not in text
        assert "K7MDENG" not in text


def test_a_slack_webhook_token_never_reaches_the_store(settings, agent_client):
    use_hold(settings, "off")  # even where pending rows deliver, the token does not
    body = ingest(agent_client, WEBHOOK)
    stored = Chunk.objects.get(pk=body["chunk"]["id"])
    assert (stored.risk, stored.held_reasons) == (1, "secret")
    text = context_text(agent_client, "deploy alerts")
    assert "https://hooks.slack.com/services/[REDACTED]" in text
    assert "aBcDeFgHiJkLmNoPqRsTuVwX" not in text
    assert "aBcDeFgHiJkLmNoPqRsTuVwX" not in stored.content


def test_an_operator_erases_a_row_and_its_revisions_with_an_audited_reason(
    settings, agent_client, operator_client, reviewer
):
    use_hold(settings, "risky")
    chunk_id = ingest(agent_client, PAIR)["chunk"]["id"]
    # an operator edit makes a revision: the chain now holds the text twice
    resp = operator_client.put(
        f"/api/knowledge/chunks/{chunk_id}/", {"content": "Billing bucket: key pair rotated."}, format="json"
    )
    revision_id = resp.json()["chunk"]["id"]

    resp = operator_client.post(f"/api/knowledge/chunks/{chunk_id}/erase/", {"reason": REASON}, format="json")

    assert resp.status_code == 200, resp.content
    assert resp.json() == {"erased": [chunk_id, revision_id], "already": []}
    rows = Chunk.objects.filter(pk__in=[chunk_id, revision_id]).order_by("id")
    assert [(r.content, r.heading, r.review_state) for r in rows] == [(ERASED_CONTENT, "", "rejected")] * 2
    events = AuditEvent.objects.filter(event=ERASED).order_by("chunk_id")
    assert [(e.chunk_id, e.actor, e.path, e.data) for e in events] == [
        (cid, f"user:{reviewer.pk}", "erase_api", {"reason": REASON, "requested_for": chunk_id})
        for cid in (chunk_id, revision_id)
    ]
    assert "rotated" not in json.dumps([e.data for e in AuditEvent.objects.all()])
    assert delivered_ids(agent_client, "billing bucket") == ([], [])
    # twice is once: nothing more is erased or audited
    again = operator_client.post(
        f"/api/knowledge/chunks/{revision_id}/erase/", {"reason": REASON}, format="json"
    )
    assert again.json() == {"erased": [], "already": [revision_id, chunk_id]}
    assert AuditEvent.objects.filter(event=ERASED).count() == 2


def test_erase_needs_a_reason_and_an_operator(agent_client, operator_client):
    row = ChunkFactory(content="The user lives at 12 Elm Street.", heading="", source_type="operator")
    url = f"/api/knowledge/chunks/{row.pk}/erase/"
    assert operator_client.post(url, {"reason": "   "}, format="json").status_code == 400
    assert agent_client.post(url, {"reason": REASON}, format="json").status_code == 403
    assert (
        operator_client.post(
            "/api/knowledge/chunks/999999/erase/", {"reason": REASON}, format="json"
        ).status_code
        == 404
    )
    row.refresh_from_db()
    assert row.content == "The user lives at 12 Elm Street."
    assert not AuditEvent.objects.filter(event=ERASED).exists()


def test_the_admin_action_asks_for_a_reason_then_erases():
    user = grant(
        UserFactory(username="eraser", is_staff=True),
        ("memory", "view_chunk"),
        ("memory", "change_chunk"),
        ("memory", "delete_chunk"),
        ("memory", "review_chunk"),
    )
    web = Client()
    web.force_login(user)
    row = ChunkFactory(content="The user lives at 12 Elm Street.", heading="Address", source_type="operator")
    store = reverse("admin:memory_chunk_changelist")
    selected = {"action": "erase_selected", "_selected_action": [str(row.pk)]}

    step = web.post(store, selected)

    assert step.status_code == 200
    assert b'name="reason"' in step.content
    row.refresh_from_db()
    assert row.content == "The user lives at 12 Elm Street."  # nothing erased before the reason
    # a blank reason shows the form again; a reason erases
    assert (
        b"This field is required" in web.post(store, {**selected, "erase_apply": "1", "reason": ""}).content
    )
    done = web.post(store, {**selected, "erase_apply": "1", "reason": REASON}, follow=True)
    assert done.status_code == 200
    row.refresh_from_db()
    assert (row.content, row.heading) == (ERASED_CONTENT, "")
    event = AuditEvent.objects.get(event=ERASED)
    assert (event.chunk_id, event.actor, event.path, event.data["reason"]) == (
        row.pk,
        f"user:{user.pk}",
        "admin",
        REASON,
    )


def test_the_erase_action_is_offered_only_with_delete_and_review(reviewer_web_without_delete):
    store = reverse("admin:memory_chunk_changelist")
    assert b"erase_selected" not in reviewer_web_without_delete.get(store).content


@pytest.fixture
def reviewer_web_without_delete(db: Any) -> Client:
    user = grant(
        UserFactory(username="no-delete", is_staff=True),
        ("memory", "view_chunk"),
        ("memory", "change_chunk"),
        ("memory", "review_chunk"),
    )
    web = Client()
    web.force_login(user)
    return web
