"""Delivery API: per-turn context (agents), prompt preview (operators), skills."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime

import pytest

from audit.models import InjectionLog, InjectionLogItem
from memory.store.models import Skill
from protomem.config import ModelInfo
from tests.conftest import grant
from tests.factories import AgentFactory, ChunkFactory, SessionFactory

pytestmark = pytest.mark.django_db(databases=["default", "injections"])

JULY = datetime(2026, 7, 1, tzinfo=UTC)


@pytest.fixture(autouse=True)
def _config(settings):
    cfg = settings.PROTOMEM
    settings.PROTOMEM = dataclasses.replace(
        cfg,
        knowledge=dataclasses.replace(cfg.knowledge, top_k=5, inject_namespaces=(), inject_min_trust=1),
        context=dataclasses.replace(cfg.context, budget_pct=8, prior_sessions="off"),
        middleware=dataclasses.replace(cfg.middleware, knowledge=True),
        models={"big": ModelInfo(128_000), "small": ModelInfo(32_000)},
        default_model="big",
    )


def url(session_id):
    return f"/api/sessions/{session_id}/context/"


def store():
    hot = ChunkFactory(
        content="Always cite the ticket.",
        heading="",
        delivery_policy="always",
        source_type="operator",
        review_state="confirmed",
        created_at=JULY,
    )
    hits = [
        ChunkFactory(content=f"kestrel note {i} " + "k" * 3500, heading="", created_at=JULY) for i in range(5)
    ]
    ChunkFactory(content="kestrel on demand", delivery_policy="on_demand")
    Skill.objects.create(name="triage", description="Sort bugs")
    return hot, hits


# ------------------------------------------------------------------------------ context


def test_context_returns_projection_and_logs_exactly_the_delivered_ids(agent_client):
    # given
    hot, hits = store()
    session = SessionFactory(agent=agent_client.agent, session_id="thread-1")

    # when: the small model's 16k budget sheds the lowest-ranked hit
    resp = agent_client.post(
        url("thread-1"), {"query": "kestrel note", "model": "small", "working_state": "ws"}
    )

    # then
    assert resp.status_code == 200, resp.content
    body = resp.json()
    assert body["injected"]["hot_ids"] == [hot.pk]
    assert len(body["injected"]["rag_ids"]) == 4
    assert body["injected"]["skill_names"] == ["triage"]
    assert body["budget"]["ceiling"] == 16_000
    assert body["budget"]["overflow"][0]["key"] == "rag"
    assert body["budget"]["overflow"][0]["items_dropped"] == 1
    assert body["budget"]["truncated"]["rag"] is True
    assert body["text"].startswith("<injected_memory>")
    assert body["text"].endswith("<working_state>\nws\n</working_state>")
    assert [s["key"] for s in body["sections"]] == ["hot", "rag", "skills", "working_state"]
    assert body["approx_tokens"] == len(body["text"]) // 4
    shed = {h.pk for h in hits} - set(body["injected"]["rag_ids"])
    assert len(shed) == 1

    (log,) = InjectionLog.objects.all()
    assert body["injection_id"] == log.pk
    assert (log.agent_id, log.session_id) == (agent_client.agent.pk, session.session_id)
    assert log.hot_ids == [hot.pk]
    assert log.rag_ids == body["injected"]["rag_ids"]
    assert log.digest_session_ids == []
    assert log.approx_tokens == body["approx_tokens"]
    items = set(InjectionLogItem.objects.values_list("section", "chunk_id"))
    assert items == {("hot", hot.pk), *(("rag", i) for i in log.rag_ids)}
    assert not any(chunk_id in shed for _, chunk_id in items)


def test_each_call_appends_one_row(agent_client):
    store()
    SessionFactory(agent=agent_client.agent, session_id="t")
    for _ in range(3):
        assert agent_client.post(url("t"), {"query": "kestrel"}).status_code == 200
    assert InjectionLog.objects.count() == 3


def test_no_memory_injected_means_no_log_row(agent_client):
    Skill.objects.create(name="triage", description="Sort bugs")
    SessionFactory(agent=agent_client.agent, session_id="t")
    body = agent_client.post(url("t"), {"query": "nothing stored"}).json()
    assert body["memory_injected"] is False
    assert body["injection_id"] is None
    assert body["injected"]["skill_names"] == ["triage"]
    assert InjectionLog.objects.count() == 0


@pytest.mark.parametrize("how", ["body", "session"])
def test_incognito_reads_no_memory_and_logs_nothing(agent_client, how):
    store()
    SessionFactory(agent=agent_client.agent, session_id="t", incognito=(how == "session"))
    body = agent_client.post(url("t"), {"query": "kestrel", "incognito": how == "body"}).json()
    assert body["incognito"] is True
    assert body["injected"] == {
        "digest_session_ids": [],
        "hot_ids": [],
        "rag_ids": [],
        "skill_names": ["triage"],
    }
    assert "<injected_memory>" not in body["text"]
    assert "<available_skills>" in body["text"]
    assert InjectionLog.objects.count() == 0


def test_knowledge_off_injects_no_memory(agent_client, settings):
    store()
    settings.PROTOMEM = dataclasses.replace(
        settings.PROTOMEM, middleware=dataclasses.replace(settings.PROTOMEM.middleware, knowledge=False)
    )
    SessionFactory(agent=agent_client.agent, session_id="t")
    body = agent_client.post(url("t"), {"query": "kestrel"}).json()
    assert body["knowledge_enabled"] is False
    assert body["injected"]["hot_ids"] == body["injected"]["rag_ids"] == []
    assert InjectionLog.objects.count() == 0


def test_agent_namespace_pin_scopes_delivery(agent_client):
    agent = agent_client.agent
    agent.namespace = "proj"
    agent.save()
    mine = ChunkFactory(content="heron in proj", namespace="proj")
    ChunkFactory(content="heron elsewhere", namespace="other")
    SessionFactory(agent=agent, session_id="t")
    body = agent_client.post(url("t"), {"query": "heron"}).json()
    assert body["injected"]["rag_ids"] == [mine.pk]


def test_someone_elses_or_missing_session_is_404(agent_client, other_agent):
    store()
    SessionFactory(agent=other_agent, session_id="theirs")
    assert agent_client.post(url("theirs"), {"query": "kestrel"}).status_code == 404
    assert agent_client.post(url("missing"), {"query": "kestrel"}).status_code == 404
    assert InjectionLog.objects.count() == 0


def test_context_route_without_trailing_slash(agent_client):
    SessionFactory(agent=agent_client.agent, session_id="t")
    assert agent_client.post("/api/sessions/t/context", {}).status_code == 200


def test_context_is_for_agents_only(api_client, operator_client):
    assert api_client.post(url("t"), {}).status_code == 401
    assert operator_client.post(url("t"), {}).status_code == 403


def test_context_rejects_bad_input(agent_client):
    SessionFactory(agent=agent_client.agent, session_id="t")
    resp = agent_client.post(url("t"), {"goal_driven": "maybe"})
    assert resp.status_code == 400
    assert "goal_driven" in resp.json()
    assert InjectionLog.objects.count() == 0


# ------------------------------------------------------------------------------ preview


def test_preview_returns_the_same_projection_and_logs_nothing(agent_client, operator_client):
    store()
    SessionFactory(agent=agent_client.agent, session_id="t")
    params = {"query": "kestrel note", "model": "small", "working_state": "ws"}
    preview = operator_client.get("/api/prompts/preview", {**params, "session": "t"})
    assert preview.status_code == 200, preview.content
    assert InjectionLog.objects.count() == 0
    turn = agent_client.post(url("t"), params).json()
    body = preview.json()
    for key in ("text", "sections", "injected", "sources", "budget", "approx_tokens"):
        assert body[key] == turn[key], key
    assert body["budget"]["ceiling"] == 16_000
    assert body["budget"]["chars_used"] == len(body["text"])
    assert InjectionLog.objects.count() == 1  # only the real turn


def test_preview_as_agent_applies_its_namespace(operator_client):
    pinned = AgentFactory(namespace="proj")
    mine = ChunkFactory(content="heron in proj", namespace="proj")
    ChunkFactory(content="heron elsewhere", namespace="other")
    body = operator_client.get("/api/prompts/preview", {"query": "heron", "agent": pinned.pk}).json()
    assert body["injected"]["rag_ids"] == [mine.pk]
    unpinned = operator_client.get("/api/prompts/preview", {"query": "heron"}).json()
    assert len(unpinned["injected"]["rag_ids"]) == 2


def test_preview_honours_session_incognito(operator_client, agent):
    store()
    SessionFactory(agent=agent, session_id="secret", incognito=True)
    body = operator_client.get("/api/prompts/preview", {"query": "kestrel", "session": "secret"}).json()
    assert body["incognito"] is True
    assert body["injected"]["rag_ids"] == []


def test_preview_unknown_session_or_agent_is_404(operator_client, agent):
    assert operator_client.get("/api/prompts/preview", {"session": "nope"}).status_code == 404
    assert operator_client.get("/api/prompts/preview", {"agent": 99999}).status_code == 404


def test_preview_ambiguous_session_needs_agent(operator_client, agent, other_agent):
    SessionFactory(agent=agent, session_id="same")
    SessionFactory(agent=other_agent, session_id="same")
    assert operator_client.get("/api/prompts/preview", {"session": "same"}).status_code == 400
    resp = operator_client.get("/api/prompts/preview", {"session": "same", "agent": agent.pk})
    assert resp.status_code == 200


def test_preview_is_for_operators_who_may_view_the_store(agent_client, api_client, staff_client, staff_user):
    assert agent_client.get("/api/prompts/preview").status_code == 403
    assert api_client.get("/api/prompts/preview").status_code == 401
    assert staff_client.get("/api/prompts/preview/").status_code == 403
    grant(staff_user, ("memory", "view_chunk"))
    assert staff_client.get("/api/prompts/preview/").status_code == 200


# ------------------------------------------------------------------------------ skills


@pytest.fixture
def skills(db):
    return [
        Skill.objects.create(name="deploy", description="Ship a release", content="1. tag\n2. push"),
        Skill.objects.create(name="triage", description="Sort incoming bugs by severity"),
        Skill.objects.create(name="legacy", description="Old release ritual", enabled=False),
    ]


def names(resp):
    assert resp.status_code == 200, resp.content
    return [s["name"] for s in resp.json()["results"]]


def test_skill_list_and_search(agent_client, operator_client, skills):
    assert names(agent_client.get("/api/skills/")) == ["deploy", "triage"]
    assert names(agent_client.get("/api/skills/", {"query": "release"})) == ["deploy"]
    assert names(agent_client.get("/api/skills/", {"query": "bugs severity"})) == ["triage"]
    assert names(agent_client.get("/api/skills/", {"query": "release", "include_disabled": "1"})) == [
        "deploy"
    ]
    assert names(operator_client.get("/api/skills/", {"include_disabled": "1"})) == [
        "deploy",
        "legacy",
        "triage",
    ]
    found = names(operator_client.get("/api/skills/", {"query": "release", "include_disabled": "true"}))
    assert sorted(found) == ["deploy", "legacy"]  # bm25 order between the two


def test_skill_detail(agent_client, operator_client, skills):
    resp = agent_client.get("/api/skills/deploy/")
    assert resp.status_code == 200
    assert resp.json()["content"] == "1. tag\n2. push"
    assert agent_client.get("/api/skills/legacy/").status_code == 404
    assert operator_client.get("/api/skills/legacy/").status_code == 200


def test_operators_manage_skills(agent_client, operator_client, skills):
    created = operator_client.post("/api/skills/", {"name": "review", "description": "Review a diff"})
    assert created.status_code == 201, created.content
    assert Skill.objects.get(name="review").description == "Review a diff"
    assert operator_client.post("/api/skills/", {"name": "review"}).status_code == 409
    assert operator_client.post("/api/skills/", {"name": "two words"}).status_code == 400
    updated = operator_client.put("/api/skills/review/", {"enabled": False, "content": "look"})
    assert updated.status_code == 200
    skill = Skill.objects.get(name="review")
    assert (skill.enabled, skill.content, skill.description) == (False, "look", "Review a diff")
    # search sees the edit (the FTS triggers keep the index in sync)
    assert names(operator_client.get("/api/skills/", {"query": "look", "include_disabled": "1"})) == [
        "review"
    ]
    assert agent_client.post("/api/skills/", {"name": "x"}).status_code == 403
    assert agent_client.put("/api/skills/deploy/", {"enabled": False}).status_code == 403
    assert Skill.objects.filter(name="x").count() == 0


def test_skills_need_auth(api_client):
    assert api_client.get("/api/skills/").status_code == 401
