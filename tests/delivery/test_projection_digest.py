"""The prior-sessions digest inside the projection, with real sessions and summaries."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta

import pytest

from audit.models import InjectionLog
from delivery.projection import ENVELOPE, ProjectionOptions, compose_projected_context
from protomem.config import ModelInfo
from sessions_app.digest import HEADER, digest_entries
from sessions_app.services import MessageInput, session_register, session_turn_append
from tests.factories import ChunkFactory

pytestmark = pytest.mark.django_db(databases=["default", "injections"])

T0 = datetime(2026, 7, 1, 9, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def _config(settings):
    cfg = settings.PROTOMEM
    settings.PROTOMEM = dataclasses.replace(
        cfg,
        context=dataclasses.replace(cfg.context, budget_pct=8, prior_sessions="newest"),
        memory=dataclasses.replace(cfg.memory, max_sessions=10, max_tokens=2000),
        middleware=dataclasses.replace(cfg.middleware, knowledge=True),
        models={"big": ModelInfo(128_000)},
        default_model="big",
    )


def converse(agent, session_id, first_message, *, minutes, incognito=False, terminal=True):
    session, _ = session_register(agent=agent, session_id=session_id, incognito=incognito)
    session_turn_append(
        session=session,
        messages=[
            MessageInput(role="user", content=first_message),
            MessageInput(role="assistant", content="ok"),
        ],
        terminal=terminal,
        now=T0 + timedelta(minutes=minutes),
    )
    return session


@pytest.fixture
def history(agent):
    converse(agent, "s-old", "how do we rotate the audit keys", minutes=0)
    converse(agent, "s-mid", "plan the kestrel migration", minutes=10)
    converse(agent, "s-new", "fix the flaky login test", minutes=20)
    converse(agent, "s-secret", "incognito talk about kestrel", minutes=25, incognito=True)
    return converse(agent, "s-active", "what did we decide yesterday", minutes=30)


def test_digest_lists_other_sessions_newest_first_never_the_active_one(agent, history):
    ctx = compose_projected_context(agent=agent, session_id="s-active", query="anything")
    assert ctx.digest_session_ids == ("s-new", "s-mid", "s-old")
    digest = ctx.section("digest")
    assert digest.label == "Prior sessions"
    lines = digest.text.splitlines()
    assert lines[0] == HEADER.splitlines()[0]
    expected = digest_entries(agent=agent, active_session_id="s-active")
    assert lines[-3:] == [f"- {e.line}" for e in expected]
    assert lines[-3] == "- s-new · 2026-07-01 09:20 UTC · chat · fix the flaky login test · 2 messages"
    # first part of the envelope
    assert ctx.text.startswith(ENVELOPE.header + "\n" + HEADER)
    assert [s.section for s in ctx.sources] == ["digest"] * 3


def test_goal_driven_and_policy_off_suppress_the_digest(agent, history, settings):
    assert (
        compose_projected_context(agent=agent, session_id="s-active", goal_driven=True).digest_session_ids
        == ()
    )
    settings.PROTOMEM = dataclasses.replace(
        settings.PROTOMEM, context=dataclasses.replace(settings.PROTOMEM.context, prior_sessions="off")
    )
    assert compose_projected_context(agent=agent, session_id="s-active").digest_session_ids == ()


def test_relevant_policy_puts_the_matching_session_first(agent, history, settings):
    settings.PROTOMEM = dataclasses.replace(
        settings.PROTOMEM, context=dataclasses.replace(settings.PROTOMEM.context, prior_sessions="relevant")
    )
    ctx = compose_projected_context(agent=agent, session_id="s-active", query="kestrel migration")
    assert ctx.digest_session_ids[0] == "s-mid"
    assert "s-secret" not in ctx.digest_session_ids


def test_incognito_turn_gets_no_digest(agent, history):
    ctx = compose_projected_context(agent=agent, session_id="s-active", incognito=True)
    assert ctx.digest_session_ids == ()
    assert HEADER.splitlines()[0] not in ctx.text


def test_digest_sheds_from_the_end_and_the_log_has_only_kept_sessions(agent, history, agent_client):
    # given: a big RAG hit and a ceiling that leaves room for part of the digest
    ChunkFactory(content="kestrel " + "k" * 500)
    full = compose_projected_context(agent=agent, session_id="s-active", query="kestrel")
    assert len(full.rag_ids) == 1
    digest_chars = len(full.section("digest").text)
    last_line = len(full.section("digest").text.splitlines()[-1]) + 1
    rag_chars = len(full.section("rag").text) + 2
    ceiling = len(full.text) - rag_chars - last_line

    class Exact(ProjectionOptions):
        def ceiling(self, model):
            return ceiling

    opts = ProjectionOptions.from_settings()
    opts = Exact(**{f.name: getattr(opts, f.name) for f in dataclasses.fields(opts)})

    # when
    ctx = compose_projected_context(agent=agent, session_id="s-active", query="kestrel", options=opts)

    # then: RAG went first, then the oldest digest entry
    assert ctx.rag_ids == ()
    assert ctx.digest_session_ids == ("s-new", "s-mid")
    assert len(ctx.section("digest").text) == digest_chars - last_line
    assert {o.key: o.items_dropped for o in ctx.budget.overflow} == {"rag": 1, "digest": 1}


def test_context_call_logs_the_digest_sessions(agent_client):
    agent = agent_client.agent
    converse(agent, "s-1", "first topic", minutes=0)
    converse(agent, "s-2", "second topic", minutes=5)
    session_register(agent=agent, session_id="s-now")
    body = agent_client.post("/api/sessions/s-now/context/", {"query": ""}).json()
    assert body["injected"]["digest_session_ids"] == ["s-2", "s-1"]
    (log,) = InjectionLog.objects.all()
    assert log.digest_session_ids == ["s-2", "s-1"]
    assert (log.hot_ids, log.rag_ids) == ([], [])
