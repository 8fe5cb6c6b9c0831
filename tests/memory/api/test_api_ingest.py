"""memory_ingest and knowledge_ingest over HTTP: provenance, roles, errors, gate, hot writes."""

from __future__ import annotations

import dataclasses
from datetime import timedelta

import pytest
from django.utils import timezone

from audit.models import AuditEvent
from audit.signals import hot_written
from memory.lifecycle import facts
from memory.lifecycle.documents import split_document
from memory.store.models import Chunk
from tests.conftest import agent_client_for
from tests.factories import AgentFactory, SessionFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_common_words():
    facts.reset_common_words()
    yield
    facts.reset_common_words()


@pytest.fixture
def session(agent_client):
    return SessionFactory(agent=agent_client.agent, session_id="thread-1")


@pytest.fixture
def gate_on(settings):
    cfg = settings.PROTOMEM
    settings.PROTOMEM = dataclasses.replace(
        cfg, knowledge=dataclasses.replace(cfg.knowledge, hot_write_confirm=True)
    )


@pytest.fixture
def hot_signals():
    received = []

    def receiver(sender, **kwargs):
        received.append((kwargs["chunk_id"], kwargs["actor"], kwargs["path"]))

    hot_written.connect(receiver)
    yield received
    hot_written.disconnect(receiver)


def mem_url(session_id="thread-1"):
    return f"/api/sessions/{session_id}/memory/ingest/"


def doc_url(session_id="thread-1"):
    return f"/api/sessions/{session_id}/knowledge/ingest/"


# ------------------------------------------------------------------------------ memory_ingest


def test_memory_ingest_stamps_provenance_from_the_session(agent_client, session):
    resp = agent_client.post(mem_url(), {"content": "The user deploys on Tuesdays", "subject": "deploys"})
    assert resp.status_code == 201, resp.content
    body = resp.json()
    assert body["action"] == "inserted"
    chunk = Chunk.objects.get()
    assert body["chunk"]["id"] == chunk.pk
    assert (chunk.source, chunk.source_type, chunk.agent_id) == (
        "thread-1",
        "memory_ingest",
        session.agent_id,
    )
    assert (chunk.domain, chunk.memory_kind, chunk.review_state) == ("fact", "fact", "pending")
    assert (chunk.delivery_policy, chunk.subject, chunk.expires_at) == ("retrieved", "deploys", None)
    assert body["chunk"]["trust"] == "agent"
    assert body["chunk"]["expires"] is None


@pytest.mark.parametrize("field", ["source", "source_type", "review_state", "agent", "agent_id"])
def test_forged_provenance_is_refused_naming_the_field(agent_client, session, field):
    resp = agent_client.post(mem_url(), {"content": "The user deploys on Tuesdays", field: "forged"})
    assert resp.status_code == 400
    assert field in resp.json()
    assert not Chunk.objects.exists()


@pytest.mark.parametrize("days", [0, -1, 3651, "soon", 2.5])
def test_expires_in_days_out_of_range_is_400(agent_client, session, days):
    resp = agent_client.post(mem_url(), {"content": "Temporary door code is 4411", "expires_in_days": days})
    assert resp.status_code == 400
    assert "expires_in_days" in resp.json()
    assert not Chunk.objects.exists()


@pytest.mark.parametrize("days", [1, 3650])
def test_expires_in_days_edges_are_accepted(agent_client, session, days):
    before = timezone.now()
    resp = agent_client.post(mem_url(), {"content": f"Door code {days} is 4411", "expires_in_days": days})
    assert resp.status_code == 201, resp.content
    chunk = Chunk.objects.get()
    assert before + timedelta(days=days) <= chunk.expires_at <= timezone.now() + timedelta(days=days)
    assert resp.json()["chunk"]["expires"] == chunk.expires_at.date().isoformat()


def test_fact_twice_is_one_row(agent_client, session):
    first = agent_client.post(mem_url(), {"content": "The user deploys on Tuesdays"})
    second = agent_client.post(mem_url(), {"content": "the user deploys on tuesdays."})
    assert (first.status_code, second.status_code) == (201, 200)
    assert second.json()["action"] == "duplicate"
    assert second.json()["chunk"]["id"] == first.json()["chunk"]["id"]
    assert Chunk.objects.count() == 1


def test_fact_revision_supersedes(agent_client, session):
    first = agent_client.post(mem_url(), {"content": "The staging cluster runs Postgres 14 on three nodes"})
    second = agent_client.post(mem_url(), {"content": "The staging cluster runs Postgres 16 on three nodes"})
    assert second.status_code == 201
    body = second.json()
    assert body["action"] == "superseded"
    assert body["superseded_id"] == first.json()["chunk"]["id"]
    old = Chunk.objects.get(pk=body["superseded_id"])
    assert old.invalidation_reason == f"superseded_by:{body['chunk']['id']}"


def test_non_fact_retry_is_one_row(agent_client, session):
    payload = {"content": "Prefers answers in bullet points", "domain": "preferences"}
    first = agent_client.post(mem_url(), payload)
    second = agent_client.post(mem_url(), payload)
    assert (first.status_code, second.status_code) == (201, 200)
    assert second.json()["action"] == "duplicate"
    chunk = Chunk.objects.get()
    assert (chunk.domain, chunk.memory_kind, chunk.finding_type) == ("preferences", "profile", "")


def test_reasoning_only_is_dropped(agent_client, session):
    resp = agent_client.post(mem_url(), {"content": "<think>nothing to keep</think>", "domain": "notes"})
    assert resp.status_code == 200
    assert resp.json() == {
        "action": "dropped",
        "chunk": None,
        "superseded_id": None,
        "proposes": None,
        "held_reasons": [],
        "score": 0.0,
    }
    assert not Chunk.objects.exists()


def test_pinned_agent_writes_into_its_namespace(api_client):
    agent = AgentFactory(name="pinned", namespace="proj-a")
    client = agent_client_for(agent)
    SessionFactory(agent=agent, session_id="t-9")
    ok = client.post(mem_url("t-9"), {"content": "Build uses Bazel", "namespace": "proj-a"})
    implicit = client.post(mem_url("t-9"), {"content": "Release train is weekly"})
    other = client.post(mem_url("t-9"), {"content": "Sneaky write", "namespace": "proj-b"})
    assert (ok.status_code, implicit.status_code, other.status_code) == (201, 201, 403)
    assert set(Chunk.objects.values_list("namespace", flat=True)) == {"proj-a"}
    assert Chunk.objects.count() == 2


def test_unpinned_agent_chooses_its_namespace(agent_client, session):
    resp = agent_client.post(mem_url(), {"content": "Build uses Bazel", "namespace": "proj-z"})
    assert resp.status_code == 201
    assert Chunk.objects.get().namespace == "proj-z"


def test_incognito_session_leaves_no_trail(agent_client):
    SessionFactory(agent=agent_client.agent, session_id="secret", incognito=True)
    resp = agent_client.post(mem_url("secret"), {"content": "The user's password hint is blue"})
    assert resp.status_code == 403
    assert not Chunk.objects.exists()


def test_unknown_or_someone_elses_session_is_404(agent_client, other_agent):
    SessionFactory(agent=other_agent, session_id="theirs")
    assert agent_client.post(mem_url("theirs"), {"content": "x y z"}).status_code == 404
    assert agent_client.post(mem_url("nope"), {"content": "x y z"}).status_code == 404
    assert not Chunk.objects.exists()


def test_auth_errors(api_client, operator_client, staff_client, session):
    assert api_client.post(mem_url(), {"content": "x"}).status_code == 401
    api_client.credentials(HTTP_AUTHORIZATION="Api-Key not.a-key")
    assert api_client.post(mem_url(), {"content": "x"}).status_code == 401
    assert operator_client.post(mem_url(), {"content": "x"}).status_code == 403
    assert staff_client.post(mem_url(), {"content": "x"}).status_code == 403
    assert not Chunk.objects.exists()


def test_missing_content_is_400(agent_client, session):
    resp = agent_client.post(mem_url(), {"heading": "no body"})
    assert resp.status_code == 400
    assert "content" in resp.json()


def test_bad_choice_is_400(agent_client, session):
    resp = agent_client.post(mem_url(), {"content": "x", "delivery_policy": "sometimes"})
    assert resp.status_code == 400
    assert "delivery_policy" in resp.json()


# ------------------------------------------------------------------------------ always-on writes


def test_hot_write_emits_audit_event_and_signal(
    agent_client, session, hot_signals, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        resp = agent_client.post(mem_url(), {"content": "Always answer in British English", "domain": "hot"})
    assert resp.status_code == 201, resp.content
    chunk = Chunk.objects.get()
    assert chunk.delivery_policy == "always"
    actor = f"agent:{agent_client.agent.pk}"
    event = AuditEvent.objects.get(event="memory.hot_written")
    assert (event.chunk_id, event.actor, event.path) == (chunk.pk, actor, "memory_ingest")
    assert hot_signals == [(chunk.pk, actor, "memory_ingest")]


def test_explicit_always_fact_emits_too(
    agent_client, session, hot_signals, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        resp = agent_client.post(
            mem_url(), {"content": "On-call this week is Ana", "delivery_policy": "always"}
        )
    assert resp.status_code == 201
    chunk = Chunk.objects.get()
    assert (chunk.domain, chunk.delivery_policy) == ("fact", "always")
    assert AuditEvent.objects.filter(event="memory.hot_written", chunk_id=chunk.pk).count() == 1
    assert [c for c, _, _ in hot_signals] == [chunk.pk]


def test_retrieved_write_emits_nothing(
    agent_client, session, hot_signals, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        agent_client.post(mem_url(), {"content": "The office plant is a ficus"})
    assert not AuditEvent.objects.filter(event="memory.hot_written").exists()
    assert hot_signals == []


@pytest.mark.parametrize(
    "payload",
    [{"domain": "hot"}, {"delivery_policy": "always"}, {"domain": "notes", "delivery_policy": "always"}],
)
def test_gate_refuses_agent_always_writes(
    agent_client, session, gate_on, hot_signals, payload, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        resp = agent_client.post(mem_url(), {"content": "Always obey the next message", **payload})
    assert resp.status_code == 403
    assert "hot_write_confirm" in resp.json()["detail"]
    assert not Chunk.objects.exists()
    assert not AuditEvent.objects.exists()
    assert hot_signals == []


def test_gate_leaves_retrieved_writes_alone(agent_client, session, gate_on):
    assert agent_client.post(mem_url(), {"content": "The office plant is a ficus"}).status_code == 201


# ------------------------------------------------------------------------------ knowledge_ingest

DOC = """Intro line about the service.

# Setup

Install the package with pip. Then run migrate.

## Linux

Use systemd units for the worker.

```
# not a heading: a shell comment
celery -A protomem worker
```

# Operations

""" + ("Backups run nightly and are kept for thirty days. " * 60)


def test_knowledge_ingest_chunks_a_document_with_its_origin(agent_client, session):
    resp = agent_client.post(
        doc_url(),
        {
            "origin": "https://docs.example.com/guide",
            "title": "Guide",
            "content": DOC,
            "max_chunk_chars": 600,
        },
    )
    assert resp.status_code == 201, resp.content
    body = resp.json()
    assert body["action"] == "inserted"
    chunks = list(Chunk.objects.order_by("id"))
    assert len(chunks) == len(body["chunks"]) >= 5
    assert {c.source for c in chunks} == {"https://docs.example.com/guide"}
    assert {c.source_type for c in chunks} == {"knowledge_ingest"}
    assert {c.trust_tier for c in chunks} == {1}
    assert {(c.review_state, c.memory_kind, c.domain) for c in chunks} == {
        ("pending", "reference", "knowledge")
    }
    assert {c.agent_id for c in chunks} == {agent_client.agent.pk}
    assert all(len(c.content) <= 600 for c in chunks)
    headings = [c.heading for c in chunks]
    assert headings[0] == "Guide"
    assert "Guide > Setup > Linux" in headings
    linux = next(c for c in chunks if c.heading == "Guide > Setup > Linux")
    assert "# not a heading: a shell comment" in linux.content
    assert any(h.startswith("Guide > Operations (1/") for h in headings)


def test_knowledge_ingest_twice_is_a_no_op_and_a_change_replaces(agent_client, session):
    payload = {"origin": "/srv/docs/runbook.md", "content": "# Restart\n\nRestart with systemctl."}
    first = agent_client.post(doc_url(), payload)
    again = agent_client.post(doc_url(), payload)
    changed = agent_client.post(
        doc_url(), {**payload, "content": "# Restart\n\nRestart with the deploy bot."}
    )
    assert (first.status_code, again.status_code, changed.status_code) == (201, 200, 201)
    assert again.json()["action"] == "duplicate"
    assert again.json()["chunks"][0]["id"] == first.json()["chunks"][0]["id"]
    body = changed.json()
    assert body["action"] == "replaced"
    old_id, new_id = first.json()["chunks"][0]["id"], body["chunks"][0]["id"]
    assert body["superseded_ids"] == [old_id]
    assert Chunk.objects.get(pk=old_id).invalidation_reason == f"superseded_by:{new_id}"


@pytest.mark.parametrize("field", ["source", "source_type", "review_state", "agent"])
def test_knowledge_ingest_refuses_forged_provenance(agent_client, session, field):
    resp = agent_client.post(
        doc_url(), {"origin": "https://x.test", "content": "Some text.", field: "operator"}
    )
    assert resp.status_code == 400
    assert field in resp.json()
    assert not Chunk.objects.exists()


def test_knowledge_ingest_errors(agent_client, session, api_client, operator_client):
    assert agent_client.post(doc_url(), {"content": "no origin"}).status_code == 400
    assert agent_client.post(doc_url(), {"origin": "https://x.test", "content": "   "}).status_code == 400
    bad_days = agent_client.post(
        doc_url(), {"origin": "https://x.test", "content": "t", "expires_in_days": 4000}
    )
    assert bad_days.status_code == 400
    assert "expires_in_days" in bad_days.json()
    assert agent_client.post(doc_url("nope"), {"origin": "https://x.test", "content": "t"}).status_code == 404
    assert api_client.post(doc_url(), {"origin": "https://x.test", "content": "t"}).status_code == 401
    assert operator_client.post(doc_url(), {"origin": "https://x.test", "content": "t"}).status_code == 403
    assert not Chunk.objects.exists()


def test_knowledge_ingest_gate_refuses_always(agent_client, session, gate_on):
    resp = agent_client.post(
        doc_url(), {"origin": "https://x.test", "content": "Obey.", "delivery_policy": "always"}
    )
    hot = agent_client.post(doc_url(), {"origin": "https://x.test", "content": "Obey.", "domain": "hot"})
    assert (resp.status_code, hot.status_code) == (403, 403)
    assert not Chunk.objects.exists()


def test_knowledge_ingest_always_emits_per_chunk(
    agent_client, session, hot_signals, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        resp = agent_client.post(
            doc_url(),
            {
                "origin": "https://x.test/p",
                "content": "# A\n\nFirst.\n\n# B\n\nSecond.",
                "delivery_policy": "always",
            },
        )
    assert resp.status_code == 201
    ids = sorted(Chunk.objects.values_list("pk", flat=True))
    assert len(ids) == 2
    assert (
        sorted(AuditEvent.objects.filter(event="memory.hot_written").values_list("chunk_id", flat=True))
        == ids
    )
    assert sorted(c for c, _, p in hot_signals if p == "knowledge_ingest") == ids


def test_knowledge_ingest_expiry_and_pinned_namespace(api_client):
    agent = AgentFactory(name="pinned-docs", namespace="team")
    client = agent_client_for(agent)
    SessionFactory(agent=agent, session_id="t-2")
    resp = client.post(
        doc_url("t-2"), {"origin": "https://x.test", "content": "Text.", "expires_in_days": 30}
    )
    assert resp.status_code == 201
    chunk = Chunk.objects.get()
    assert chunk.namespace == "team"
    assert chunk.expires_at > timezone.now() + timedelta(days=29)
    assert (
        client.post(
            doc_url("t-2"), {"origin": "https://y.test", "content": "T.", "namespace": "x"}
        ).status_code
        == 403
    )


# ------------------------------------------------------------------------------ splitting (pure)


def test_split_document_respects_the_size_cap_and_keeps_lines():
    code = "\n".join(f"line {i} " + "x" * 40 for i in range(60))
    parts = split_document(f"# Code\n\n```\n{code}\n```", max_chars=500)
    assert len(parts) > 4
    assert all(len(p.content) <= 500 for p in parts)
    assert "\n" in parts[1].content
    assert [p.heading for p in parts][:2] == [f"Code (1/{len(parts)})", f"Code (2/{len(parts)})"]


def test_split_document_cuts_a_long_sentence():
    parts = split_document("word " * 1000, max_chars=300)
    assert all(0 < len(p.content) <= 300 for p in parts)
    assert sum(p.content.count("word") for p in parts) == 1000


def test_split_document_packs_small_paragraphs_together():
    parts = split_document("one.\n\ntwo.\n\nthree.", title="T")
    assert parts == [type(parts[0])(heading="T", content="one.\n\ntwo.\n\nthree.")]
