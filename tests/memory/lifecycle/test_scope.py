"""knowledge.scope (scoped / shared / layered) with two agent keys, and promotion to the commons."""

from __future__ import annotations

import dataclasses

import pytest

from audit.models import AuditEvent, InjectionLog, InjectionLogItem
from memory.lifecycle import facts, facts_bulk
from memory.lifecycle.review import chunk_promote, chunk_revise
from memory.lifecycle.scope import readable_by, write_scope
from memory.lifecycle.selectors import hot_set
from memory.lifecycle.writes import ChunkDraft, add_chunk
from memory.store.models import Chunk
from protomem.config import ModelInfo
from protomem.errors import ApplicationError
from tests.factories import ChunkFactory, SessionFactory

pytestmark = pytest.mark.django_db(databases=["default", "injections"])

RECALL = "/api/memory/recall/"
LIST = "/api/memory/list/"


def use_scope(settings, scope):
    cfg = settings.PROTOMEM
    settings.PROTOMEM = dataclasses.replace(
        cfg,
        knowledge=dataclasses.replace(
            cfg.knowledge, scope=scope, top_k=10, inject_namespaces=(), inject_min_trust=1
        ),
        context=dataclasses.replace(cfg.context, budget_pct=0, prior_sessions="off"),
        middleware=dataclasses.replace(cfg.middleware, knowledge=True),
        models={"big": ModelInfo(128_000)},
        default_model="big",
    )


@pytest.fixture(autouse=True)
def _fresh_common_words():
    facts.reset_common_words()
    yield
    facts.reset_common_words()


@pytest.fixture
def rows(agent, other_agent):
    """One row of each kind, all matching the query "osprey", plus one always-on row of each."""
    return {
        "a": ChunkFactory(content="osprey private to agent a", agent=agent, scope="private"),
        "b": ChunkFactory(content="osprey private to agent b", agent=other_agent, scope="private"),
        "host": ChunkFactory(content="osprey host row written by an operator", agent=None),
        "commons": ChunkFactory(content="osprey in the commons", agent=other_agent, scope="commons"),
        "hot_a": ChunkFactory(
            content="hot a", agent=agent, scope="private", delivery_policy="always", review_state="confirmed"
        ),
        "hot_b": ChunkFactory(
            content="hot b",
            agent=other_agent,
            scope="private",
            delivery_policy="always",
            review_state="confirmed",
        ),
        "hot_host": ChunkFactory(content="hot host", delivery_policy="always", review_state="confirmed"),
        "hot_commons": ChunkFactory(
            content="hot commons", scope="commons", delivery_policy="always", review_state="confirmed"
        ),
    }


# Who reads what (the rows fixture's keys), per scope, for agent a and agent b.
EXPECTED = {
    "scoped": ({"a", "host"}, {"b", "host"}),
    "shared": ({"commons", "host"}, {"commons", "host"}),
    "layered": ({"a", "host", "commons"}, {"b", "host", "commons"}),
}


def names(rows, ids):
    by_id = {c.pk: name for name, c in rows.items()}
    return {by_id[i] for i in ids if i in by_id}


def recall_ids(client):
    resp = client.get(RECALL, {"query": "osprey", "top_k": 20})
    assert resp.status_code == 200, resp.content
    return [r["id"] for r in resp.json()["results"]]


def list_ids(client):
    resp = client.get(LIST, {"limit": 100})
    assert resp.status_code == 200, resp.content
    return [r["id"] for r in resp.json()["results"]]


def context(client, session_id):
    resp = client.post(f"/api/sessions/{session_id}/context/", {"query": "osprey"})
    assert resp.status_code == 200, resp.content
    return resp.json()


# ------------------------------------------------------------------------------ reads


@pytest.mark.parametrize("scope", ["scoped", "shared", "layered"])
def test_recall_and_list_show_each_agent_only_what_its_scope_allows(
    settings, scope, rows, agent_client, other_agent_client
):
    use_scope(settings, scope)
    want_a, want_b = EXPECTED[scope]

    assert names(rows, recall_ids(agent_client)) == want_a
    assert names(rows, recall_ids(other_agent_client)) == want_b
    plain = {"a", "b", "host", "commons"}
    assert names(rows, list_ids(agent_client)) & plain == want_a
    assert names(rows, list_ids(other_agent_client)) & plain == want_b


@pytest.mark.parametrize("scope", ["scoped", "shared", "layered"])
def test_projection_holds_only_rows_the_scope_allows_and_logs_each_items_scope(
    settings, scope, rows, agent_client, other_agent_client
):
    use_scope(settings, scope)
    want_a, want_b = EXPECTED[scope]
    SessionFactory(agent=agent_client.agent, session_id="ta")
    SessionFactory(agent=other_agent_client.agent, session_id="tb")

    for client, session_id, want in ((agent_client, "ta", want_a), (other_agent_client, "tb", want_b)):
        body = context(client, session_id)
        rag = names(rows, body["injected"]["rag_ids"])
        hot = names(rows, body["injected"]["hot_ids"])
        assert rag == want
        assert hot == {f"hot_{n}" for n in want}
        log = InjectionLog.objects.get(pk=body["injection_id"])
        items = {(i.chunk_id, i.scope) for i in InjectionLogItem.objects.filter(log=log)}
        expected_items = {
            (rows[n].pk, "commons" if "commons" in n else "host" if "host" in n else "private")
            for n in [*want, *(f"hot_{n}" for n in want)]
        }
        assert items == expected_items
        by_source = {s["chunk_id"]: s["scope"] for s in body["sources"]}
        assert by_source == dict(expected_items)


def test_hot_set_without_an_agent_is_everything(settings, rows):
    use_scope(settings, "scoped")
    everything = {"hot_a", "hot_b", "hot_host", "hot_commons"}
    assert names(rows, [c.pk for c in hot_set()]) == everything
    assert names(rows, [c.pk for c in hot_set(agent=rows["a"].agent)]) == {"hot_a", "hot_host"}


def test_operator_store_list_sees_every_scope(settings, rows, operator_client):
    use_scope(settings, "scoped")
    resp = operator_client.get("/api/knowledge/chunks/", {"limit": 100})
    assert resp.status_code == 200, resp.content
    got = {r["id"]: r["scope"] for r in resp.json()["results"]}
    assert names(rows, got) == set(rows)
    assert got[rows["commons"].pk] == "commons"
    assert got[rows["host"].pk] == "host"  # written without an agent: for every agent, explicitly


def test_readable_by_none_is_the_whole_queryset(rows):
    assert readable_by(Chunk.objects.all(), agent=None).count() == len(rows)


# ------------------------------------------------------------------------------ writes


@pytest.mark.parametrize(
    ("scope", "expected"), [("scoped", "private"), ("shared", "commons"), ("layered", "private")]
)
def test_agent_writes_land_in_the_scope_the_config_says(
    settings, scope, expected, agent_client, other_agent_client
):
    use_scope(settings, scope)
    SessionFactory(agent=agent_client.agent, session_id="ta")
    resp = agent_client.post(
        "/api/sessions/ta/memory/ingest/", {"content": "The kestrel release train leaves on Thursdays"}
    )
    assert resp.status_code == 201, resp.content
    chunk = Chunk.objects.get(pk=resp.json()["chunk"]["id"])
    assert (chunk.scope, chunk.agent_id) == (expected, agent_client.agent.pk)
    assert resp.json()["chunk"]["scope"] == expected
    # the other agent reads it only where the commons carries it
    other_sees = chunk.pk in recall_ids_for(other_agent_client, "kestrel")
    assert other_sees is (expected == "commons")
    assert chunk.pk in recall_ids_for(agent_client, "kestrel") or expected == "commons"


def recall_ids_for(client, query):
    resp = client.get(RECALL, {"query": query})
    assert resp.status_code == 200, resp.content
    return [r["id"] for r in resp.json()["results"]]


def test_write_scope_rules(settings, agent):
    assert write_scope(agent=None, scope="shared") == "host"  # operators write host rows, marked so
    assert write_scope(agent=agent, scope="shared") == "commons"
    assert write_scope(agent=agent, scope="layered") == "private"
    assert write_scope(agent=agent.pk, scope="scoped") == "private"


def test_explicit_draft_scope_wins(settings, agent):
    use_scope(settings, "scoped")
    chunk = add_chunk(ChunkDraft(content="explicit commons", agent_id=agent.pk, scope="commons"))
    assert chunk.scope == "commons"
    with pytest.raises(ApplicationError):
        add_chunk(ChunkDraft(content="bad", scope="everyone"))


def test_scoped_knowledge_ingest_never_replaces_another_agents_document(
    settings, agent_client, other_agent_client
):
    use_scope(settings, "scoped")
    SessionFactory(agent=agent_client.agent, session_id="ta")
    SessionFactory(agent=other_agent_client.agent, session_id="tb")
    doc = {"origin": "https://example.test/runbook", "content": "Restart the heron service first."}
    first = agent_client.post("/api/sessions/ta/knowledge/ingest/", doc)
    assert first.status_code == 201, first.content
    second = other_agent_client.post(
        "/api/sessions/tb/knowledge/ingest/", {**doc, "content": "Restart the heron service last."}
    )
    assert second.status_code == 201, second.content
    assert second.json()["action"] == "inserted"
    assert Chunk.objects.filter(invalidated_at__isnull=True, source=doc["origin"]).count() == 2


# ------------------------------------------------------------------------------ layered dedup


def ingest_fact(client, session_id, content):
    resp = client.post(f"/api/sessions/{session_id}/memory/ingest/", {"content": content})
    assert resp.status_code in (200, 201), resp.content
    return resp.json()


COMMONS_FACT = "The staging cluster deploy window opens every Tuesday at nine in the morning"


def test_layered_commons_match_dedups_by_content(settings, agent_client):
    use_scope(settings, "layered")
    commons = ChunkFactory(content=COMMONS_FACT, scope="commons", review_state="confirmed")
    SessionFactory(agent=agent_client.agent, session_id="ta")
    body = ingest_fact(agent_client, "ta", COMMONS_FACT)
    assert body["action"] == "duplicate"
    assert body["chunk"]["id"] == commons.pk
    assert Chunk.objects.count() == 1


def test_layered_revision_of_a_commons_row_is_a_proposal_and_never_invalidates_it(settings, agent_client):
    use_scope(settings, "layered")
    commons = ChunkFactory(content=COMMONS_FACT, scope="commons", review_state="confirmed")
    SessionFactory(agent=agent_client.agent, session_id="ta")
    revised = "The staging cluster deploy window opens every Tuesday at ten in the morning now"
    body = ingest_fact(agent_client, "ta", revised)
    assert body["action"] == "held_for_review"
    assert (body["superseded_id"], body["proposes"]) == (None, commons.pk)
    assert body["held_reasons"] == ["proposed_revision"]
    new = Chunk.objects.get(pk=body["chunk"]["id"])
    assert (new.scope, new.agent_id, new.proposes_id) == ("private", agent_client.agent.pk, commons.pk)
    commons.refresh_from_db()
    assert commons.invalidated_at is None
    assert commons.invalidation_reason == ""


def test_layered_revision_of_a_private_row_still_supersedes_it(settings, agent_client):
    use_scope(settings, "layered")
    SessionFactory(agent=agent_client.agent, session_id="ta")
    first = ingest_fact(agent_client, "ta", COMMONS_FACT)
    body = ingest_fact(
        agent_client, "ta", "The staging cluster deploy window opens every Tuesday at ten in the morning now"
    )
    assert body["action"] == "superseded"
    assert body["superseded_id"] == first["chunk"]["id"]


def test_scoped_dedup_ignores_another_agents_private_fact(settings, agent_client, other_agent_client):
    use_scope(settings, "scoped")
    SessionFactory(agent=agent_client.agent, session_id="ta")
    SessionFactory(agent=other_agent_client.agent, session_id="tb")
    first = ingest_fact(agent_client, "ta", COMMONS_FACT)
    second = ingest_fact(other_agent_client, "tb", COMMONS_FACT)
    assert first["action"] == second["action"] == "inserted"
    assert second["chunk"]["id"] != first["chunk"]["id"]
    assert Chunk.objects.get(pk=first["chunk"]["id"]).invalidated_at is None


# ------------------------------------------------------------------------------ promotion


def promote_url(chunk_id):
    return f"/api/knowledge/chunks/{chunk_id}/promote"


def test_promotion_copies_into_the_commons_confirmed_and_is_idempotent(
    settings, operator_client, agent, reviewer
):
    use_scope(settings, "layered")
    original = ChunkFactory(
        content="osprey nests on the north mast",
        heading="osprey",
        agent=agent,
        scope="private",
        review_state="pending",
        memory_kind="note",
        subject="birds",
        namespace="yard",
        delivery_policy="retrieved",
    )
    resp = operator_client.post(promote_url(original.pk))
    assert resp.status_code == 201, resp.content
    body = resp.json()
    copy = Chunk.objects.get(pk=body["id"])
    assert (copy.scope, copy.review_state, copy.promoted_from) == ("commons", "confirmed", original.pk)
    assert (body["scope"], body["promoted_from"]) == ("commons", original.pk)
    for name in (
        "content",
        "heading",
        "memory_kind",
        "subject",
        "delivery_policy",
        "expires_at",
        "namespace",
    ):
        assert getattr(copy, name) == getattr(original, name), name
    original.refresh_from_db()
    assert (original.invalidated_at, original.review_state, original.scope) == (None, "pending", "private")
    event = AuditEvent.objects.get(event="memory.promoted")
    assert (event.chunk_id, event.data, event.actor) == (
        copy.pk,
        {"promoted_from": original.pk},
        f"user:{reviewer.pk}",
    )

    again = operator_client.post(promote_url(original.pk))
    assert again.status_code == 200, again.content
    assert again.json()["id"] == copy.pk
    assert Chunk.objects.filter(promoted_from=original.pk).count() == 1
    assert AuditEvent.objects.filter(event="memory.promoted").count() == 1
    assert chunk_promote(chunk_id=original.pk, actor="system").pk == copy.pk


def test_a_commons_row_cannot_be_promoted(operator_client):
    commons = ChunkFactory(scope="commons")
    resp = operator_client.post(promote_url(commons.pk))
    assert resp.status_code == 400
    assert "commons" in resp.json()["detail"]
    assert operator_client.post(promote_url(999_999)).status_code == 404


def test_promotion_is_for_operators_only(agent_client, api_client, staff_client, agent):
    row = ChunkFactory(agent=agent, scope="private")
    assert agent_client.post(promote_url(row.pk)).status_code == 403
    assert api_client.post(promote_url(row.pk)).status_code == 401
    assert staff_client.post(promote_url(row.pk)).status_code == 403  # staff without memory.review_chunk
    assert not Chunk.objects.filter(promoted_from=row.pk).exists()


def test_promoted_row_reaches_the_other_agent_on_layered(
    settings, operator_client, agent, other_agent_client
):
    use_scope(settings, "layered")
    row = ChunkFactory(content="osprey promoted knowledge", agent=agent, scope="private")
    assert row.pk not in recall_ids_for(other_agent_client, "osprey")
    copy_id = operator_client.post(promote_url(row.pk)).json()["id"]
    assert recall_ids_for(other_agent_client, "osprey") == [copy_id]


def test_operator_revision_keeps_the_scope(agent):
    commons = ChunkFactory(scope="commons", agent=agent, content="old commons text")
    new = chunk_revise(chunk_id=commons.pk, content="new commons text", actor="user:1")
    assert new.scope == "commons"


def test_admin_promote_action(admin_client, agent):
    rows = [ChunkFactory(agent=agent, scope="private") for _ in range(2)]
    commons = ChunkFactory(scope="commons")
    resp = admin_client.post(
        "/admin/memory/chunk/",
        {"action": "promote_to_commons", "_selected_action": [r.pk for r in rows] + [commons.pk]},
        follow=True,
    )
    assert resp.status_code == 200
    messages = [str(m) for m in resp.context["messages"]]
    assert any("2 promoted to the commons" in m and "1 not promotable" in m for m in messages), messages
    assert Chunk.objects.filter(scope="commons", promoted_from__in=[r.pk for r in rows]).count() == 2


def test_bulk_fact_ingest_for_an_agent_only_dedups_against_what_it_can_read(settings, agent, other_agent):
    # given agent a's private fact, on the default scoped store
    use_scope(settings, "scoped")
    text = "the staging cluster runs in the frankfurt region on weekdays"
    mine = facts.fact_ingest(
        draft=ChunkDraft(content=text, domain="fact", agent_id=agent.pk, source_type="memory_ingest"),
        actor="system",
        path="test",
    )
    # when agent b bulk-ingests the same fact
    [outcome] = facts_bulk.facts_ingest(
        [ChunkDraft(content=text, domain="fact", agent_id=other_agent.pk, source_type="extracted")],
        actor="system",
        path="test",
    )
    # then it is b's own new row, not a duplicate of a row b cannot see
    assert outcome.action == "inserted"
    assert outcome.chunk.pk != mine.chunk.pk
    assert outcome.chunk.agent_id == other_agent.pk
