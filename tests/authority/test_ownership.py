"""Ownership never widens (issue 19, item 2).

An agent that owns memory cannot be deleted (ORM and admin); deactivating it revokes its keys
and its private rows stay its own; a private row without an agent is read by no agent;
migration 0013 marks operator-written agent-less rows "host" and leaves the orphans of deleted
agents private, and its reverse puts them back.
"""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from django.apps import apps as django_apps
from django.db.models import ProtectedError
from django.test import Client

from audit.models import AuditEvent
from audit.services import AGENT_DEACTIVATED
from memory.store.models import Chunk
from sessions_app.models import Agent, AgentAPIKey
from tests.authority.conftest import configure, context, recall_ids, register
from tests.factories import ChunkFactory

pytestmark = pytest.mark.django_db(databases=["default", "injections"])

SID = "ownership-thread"
SECRET = "The otter vault combination is kept in the blue ledger"
QUERY = "otter vault combination ledger"
MIGRATION = importlib.import_module("memory.migrations.0013_chunk_authority_and_review_risk")


@pytest.fixture(autouse=True)
def _config(settings: Any) -> None:
    configure(settings, hold="off", scope="scoped")


@pytest.fixture
def owned(agent_client: Any) -> Chunk:
    """Agent A's private fact and always-on note, written over HTTP."""
    register(agent_client, SID)
    resp = agent_client.post(f"/api/sessions/{SID}/memory/ingest/", {"content": SECRET}, format="json")
    assert resp.status_code == 201, resp.content
    resp2 = agent_client.post(
        f"/api/sessions/{SID}/memory/ingest/",
        {"content": "Always greet the otter keeper first", "domain": "note", "delivery_policy": "always"},
        format="json",
    )
    assert resp2.status_code == 201, resp2.content
    return Chunk.objects.get(pk=resp.json()["chunk"]["id"])


@pytest.fixture
def superuser_web(superuser: Any) -> Client:
    client = Client()
    client.force_login(superuser)
    return client


def invisible_to(client: Any, *chunk_ids: int, text: str = "otter") -> None:
    """None of `chunk_ids` reaches this agent: recall, memory_list or the next turn's prompt."""
    assert not set(chunk_ids) & set(recall_ids(client, QUERY))
    listed = client.get("/api/memory/list/", {"page_size": 200})
    assert listed.status_code == 200, listed.content
    assert not set(chunk_ids) & {row["id"] for row in listed.json()["results"]}
    register(client, SID)
    body = context(client, SID, QUERY)
    assert not set(chunk_ids) & set(body["injected"]["rag_ids"] + body["injected"]["hot_ids"])
    assert not text or text not in body["text"]


# ------------------------------------------------------------------------------ delete is refused


def test_deleting_an_agent_that_owns_memory_is_refused_by_the_orm(agent, owned):
    with pytest.raises(ProtectedError):
        agent.delete()
    assert Agent.objects.filter(pk=agent.pk).exists()
    owned.refresh_from_db()
    assert owned.agent_id == agent.pk


def test_the_admin_delete_page_lists_the_protected_rows_and_offers_no_delete(superuser_web, agent, owned):
    url = f"/admin/sessions_app/agent/{agent.pk}/delete/"
    page = superuser_web.get(url)
    assert page.status_code == 200
    html = page.content.decode()
    assert "protected related objects" in html
    for chunk in Chunk.objects.filter(agent=agent):
        assert f"/admin/memory/chunk/{chunk.pk}/change/" in html
    assert 'type="submit"' not in html.split('id="content"', 1)[1]  # no "Yes, I'm sure"
    # and a forged confirmation deletes nothing
    superuser_web.post(url, {"post": "yes"})
    assert Agent.objects.filter(pk=agent.pk).exists()
    assert Chunk.objects.filter(agent=agent).count() == 2


def test_deactivating_revokes_the_keys_and_keeps_the_memory_private(
    superuser_web, superuser, agent, agent_client, other_agent_client, owned
):
    # given agent A's private memory, which agent B never reads
    invisible_to(other_agent_client, owned.pk)
    # when an operator deactivates A in the admin
    resp = superuser_web.post(
        "/admin/sessions_app/agent/", {"action": "deactivate_selected", "_selected_action": [agent.pk]}
    )
    assert resp.status_code == 302
    # then A's keys are revoked (401), the change is audited, and its rows are still its own
    agent.refresh_from_db()
    assert agent.is_active is False
    assert not AgentAPIKey.objects.filter(agent=agent, revoked=False).exists()
    assert agent_client.get("/api/memory/list/").status_code == 401
    event = AuditEvent.objects.get(event=AGENT_DEACTIVATED)
    assert (event.actor, event.data["agent"]) == (f"user:{superuser.pk}", agent.pk)
    assert Chunk.objects.filter(agent=agent, invalidated_at__isnull=True).count() == 2
    invisible_to(other_agent_client, *Chunk.objects.filter(agent=agent).values_list("pk", flat=True))


# ------------------------------------------------------------------------------ agent-less private rows


@pytest.mark.parametrize("scope", ["private", None])
def test_a_private_row_without_an_agent_is_read_by_no_agent(
    settings, scope, agent_client, other_agent_client
):
    orphan = ChunkFactory(content=SECRET, agent=None, scope=scope, review_state="confirmed")
    always = ChunkFactory(
        content="Always mention the otter vault", agent=None, scope=scope, delivery_policy="always"
    )
    for mode in ("scoped", "shared", "layered"):
        configure(settings, hold="off", scope=mode)
        for client in (agent_client, other_agent_client):
            invisible_to(client, orphan.pk, always.pk)


# ------------------------------------------------------------------------------ migration 0013


def test_migration_0013_marks_operator_rows_host_and_leaves_orphans_unreadable(agent_client, agent):
    # given rows as they were before 0013: agent-less operator / system rows (scope NULL or
    # private, read by every agent then), and an agent's rows whose agent was deleted (SET_NULL)
    operator_rows = [
        ChunkFactory(content="Otter vault audits run on Mondays", source_type=st, agent=None, scope=sc)
        for st, sc in (("operator", None), ("console", "private"), ("admin", None), ("seed", None))
    ]
    orphans = [
        ChunkFactory(content=f"{SECRET} ({st})", source_type=st, agent=agent, scope=sc)
        for st, sc in (("memory_ingest", None), ("extracted", "private"), ("knowledge_ingest", None))
    ]
    Chunk.objects.filter(pk__in=[c.pk for c in orphans]).update(agent=None)
    Chunk.objects.filter(pk__in=[c.pk for c in operator_rows]).update(scope=None)
    kept = ChunkFactory(content="Agent A's own otter vault note", agent=agent, scope=None)
    commons = ChunkFactory(content="Commons otter vault rule", agent=None, scope="commons")
    # when 0013's data step runs
    MIGRATION.mark_host_rows(django_apps, None)
    # then the operator rows are host rows, still read by every agent
    scopes = dict(Chunk.objects.values_list("pk", "scope"))
    assert {scopes[c.pk] for c in operator_rows} == {"host"}
    hits = recall_ids(agent_client, "otter vault audits mondays")
    assert {c.pk for c in operator_rows} <= set(hits)
    # and the orphans stay private with no owner: read by no agent
    assert {scopes[c.pk] for c in orphans} <= {None, "private"}
    assert (scopes[kept.pk], scopes[commons.pk]) == (None, "commons")
    invisible_to(agent_client, *(c.pk for c in orphans), text="blue ledger")
    # and its reverse makes the host rows private again
    MIGRATION.unmark_host_rows(django_apps, None)
    scopes = dict(Chunk.objects.values_list("pk", "scope"))
    assert {scopes[c.pk] for c in operator_rows} == {"private"}
    assert scopes[commons.pk] == "commons"
