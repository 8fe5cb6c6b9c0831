"""memory_recall and memory_list over HTTP: what the agent may read back, and how it reads."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta

import pytest
from django.utils import timezone

from memory.lifecycle.retention import BULK_DELETE_MARKER
from tests.conftest import agent_client_for
from tests.factories import AgentFactory, ChunkFactory

pytestmark = pytest.mark.django_db

JULY = datetime(2026, 7, 1, 12, tzinfo=UTC)
RECALL = "/api/memory/recall/"
LIST = "/api/memory/list/"


def ids(resp):
    return [r["id"] for r in resp.json()["results"]]


# ------------------------------------------------------------------------------ recall


def test_recall_returns_deliverable_hits_with_cited_lines(agent_client):
    hit = ChunkFactory(
        content="The quokka feeding is at noon", heading="", source="thread-7", created_at=JULY
    )
    on_demand = ChunkFactory(content="Quokka enclosure code is 1234", heading="", delivery_policy="on_demand")
    ChunkFactory(content="quokka rejected note", review_state="rejected")
    ChunkFactory(content="quokka lapsed note", expires_at=timezone.now() - timedelta(days=1))
    ChunkFactory(
        content="quokka old revision", invalidated_at=timezone.now(), invalidation_reason="superseded_by:1"
    )
    ChunkFactory(content="an unrelated wombat")

    resp = agent_client.get(RECALL, {"query": "quokka"})

    assert resp.status_code == 200, resp.content
    body = resp.json()
    assert sorted(ids(resp)) == sorted([hit.pk, on_demand.pk])
    assert body["count"] == 2
    first = next(r for r in body["results"] if r["id"] == hit.pk)
    assert first["tag"] == ""
    assert first["line"] == (
        f"- [#{hit.pk}] (stored 2026-07-01; trust: agent; src: thread-7) The quokka feeding is at noon"
    )
    assert first["line"] in body["text"].splitlines()


def test_recall_include_superseded_tags_history(agent_client):
    new = ChunkFactory(content="Release train leaves on Thursday", heading="")
    chained = ChunkFactory(
        content="Release train leaves on Tuesday",
        heading="",
        invalidated_at=timezone.now(),
        invalidation_reason=f"superseded_by:{new.pk}",
    )
    prechain = ChunkFactory(
        content="Release train leaves on Monday", heading="", invalidated_at=timezone.now()
    )
    deleted = ChunkFactory(
        content="Release train leaves on Friday",
        invalidated_at=timezone.now(),
        invalidation_reason=BULK_DELETE_MARKER,
    )

    default = agent_client.get(RECALL, {"query": "release train"})
    history = agent_client.get(RECALL, {"query": "release train", "include_superseded": "true"})

    assert ids(default) == [new.pk]
    results = {r["id"]: r for r in history.json()["results"]}
    assert set(results) == {new.pk, chained.pk, prechain.pk}
    assert deleted.pk not in results
    assert results[chained.pk]["tag"] == f"superseded by #{new.pk}"
    assert f") [superseded by #{new.pk}] " in results[chained.pk]["line"]
    assert results[prechain.pk]["tag"] == "superseded"
    assert ") [superseded] " in results[prechain.pk]["line"]
    assert results[new.pk]["tag"] == ""


def test_recall_is_not_scoped_by_inject_namespaces(agent_client, settings):
    cfg = settings.PROTOMEM
    settings.PROTOMEM = dataclasses.replace(
        cfg, knowledge=dataclasses.replace(cfg.knowledge, inject_namespaces=("only-this",))
    )
    row = ChunkFactory(content="Kiwi harvest is in May", namespace="elsewhere")
    assert ids(agent_client.get(RECALL, {"query": "kiwi harvest"})) == [row.pk]


def test_recall_namespace_param_filters_for_an_unpinned_agent(agent_client):
    a = ChunkFactory(content="Kiwi harvest alpha", namespace="a")
    ChunkFactory(content="Kiwi harvest beta", namespace="b")
    assert ids(agent_client.get(RECALL, {"query": "kiwi harvest", "namespace": "a"})) == [a.pk]


def test_pinned_agent_reads_only_its_namespace():
    agent = AgentFactory(name="pinned-reader", namespace="team")
    client = agent_client_for(agent)
    mine = ChunkFactory(content="Kiwi harvest for the team", namespace="team")
    ChunkFactory(content="Kiwi harvest for others", namespace="other")
    ChunkFactory(content="Kiwi harvest unscoped", namespace="")
    assert ids(client.get(RECALL, {"query": "kiwi harvest"})) == [mine.pk]
    assert client.get(RECALL, {"query": "kiwi", "namespace": "other"}).status_code == 403


def test_recall_top_k_and_validation(agent_client):
    for i in range(5):
        ChunkFactory(content=f"Mango shipment number {i}")
    assert len(ids(agent_client.get(RECALL, {"query": "mango shipment", "top_k": 2}))) == 2
    assert agent_client.get(RECALL, {}).status_code == 400
    assert "query" in agent_client.get(RECALL, {}).json()
    assert agent_client.get(RECALL, {"query": "mango", "top_k": 0}).status_code == 400
    assert agent_client.get(RECALL, {"query": "mango", "top_k": 51}).status_code == 400


def test_recall_roles(api_client, operator_client, staff_client):
    assert api_client.get(RECALL, {"query": "x"}).status_code == 401
    assert operator_client.get(RECALL, {"query": "x"}).status_code == 403
    assert staff_client.get(RECALL, {"query": "x"}).status_code == 403


# ------------------------------------------------------------------------------ list


def test_list_shows_live_rows_newest_first_with_lines(agent_client):
    older = ChunkFactory(content="Older note", heading="", created_at=JULY)
    expiring = ChunkFactory(
        content="Door code is 4411",
        heading="Office",
        created_at=JULY + timedelta(days=1),
        expires_at=datetime(2026, 8, 15, 9, tzinfo=UTC),
        namespace="hq",
    )
    ChunkFactory(content="gone", invalidated_at=timezone.now(), invalidation_reason="superseded_by:1")

    resp = agent_client.get(LIST)

    assert resp.status_code == 200
    body = resp.json()
    assert body["count"] == 2
    assert ids(resp) == [expiring.pk, older.pk]
    item = body["results"][0]
    assert item["expires"] == "2026-08-15"
    assert item["line"] == (
        f"- [#{expiring.pk}] (fact, pending, retrieved; stored 2026-07-02; trust: agent) "
        "Office: Door code is 4411 ns=hq expires=2026-08-15"
    )
    assert body["results"][1]["expires"] is None
    assert "expires=" not in body["results"][1]["line"]


def test_list_filters(agent_client, other_agent):
    pending = ChunkFactory(review_state="pending", domain="fact", subject="deploys", created_at=JULY)
    confirmed = ChunkFactory(
        review_state="confirmed",
        domain="preferences",
        memory_kind="profile",
        delivery_policy="always",
        namespace="n1",
    )
    lapsed = ChunkFactory(expires_at=timezone.now() - timedelta(hours=1), agent=agent_client.agent)
    ChunkFactory(agent=other_agent, created_at=JULY - timedelta(days=30))

    def got(**params):
        resp = agent_client.get(LIST, params)
        assert resp.status_code == 200, resp.content
        return set(ids(resp))

    assert pending.pk in got(review_state="pending")
    assert confirmed.pk not in got(review_state="pending")
    assert got(review_state="confirmed") == {confirmed.pk}
    assert got(memory_kind="profile") == {confirmed.pk}
    assert got(domain="preferences") == {confirmed.pk}
    assert got(namespace="n1") == {confirmed.pk}
    assert got(delivery_policy="always") == {confirmed.pk}
    assert got(subject="deploys") == {pending.pk}
    assert got(expired="true") == {lapsed.pk}
    assert lapsed.pk not in got(expired="false")
    assert got(mine="true") == {lapsed.pk}
    assert got(created_after="2026-06-30T00:00:00Z", created_before="2026-07-02T00:00:00Z") == {pending.pk}
    assert agent_client.get(LIST, {"review_state": "maybe"}).status_code == 400


def test_list_is_paginated(agent_client):
    for i in range(7):
        ChunkFactory(content=f"note {i}")
    page = agent_client.get(LIST, {"limit": 3, "offset": 3}).json()
    assert page["count"] == 7
    assert len(page["results"]) == 3
    assert "offset=6" in page["next"]
    assert "offset=0" in page["previous"] or "offset" not in page["previous"]


def test_pinned_agent_lists_only_its_namespace():
    agent = AgentFactory(name="pinned-lister", namespace="team")
    client = agent_client_for(agent)
    mine = ChunkFactory(namespace="team")
    ChunkFactory(namespace="other")
    assert ids(client.get(LIST)) == [mine.pk]


def test_list_roles(api_client, operator_client):
    assert api_client.get(LIST).status_code == 401
    assert operator_client.get(LIST).status_code == 403
