"""compose_projected_context keeps per-turn work that does not change between turns (the
always-on part's items and sources, the RAG filter) and delivers exactly what it delivered
when it rebuilt them every turn; an edited always-on row is delivered edited on the next turn."""

from __future__ import annotations

from typing import Any, NamedTuple

import pytest

from delivery import projection
from memory.lifecycle import selectors
from memory.lifecycle.queryset_cache import ConfigKeyedQuerysets
from memory.store.models import Chunk, Skill
from tests.factories import AgentFactory, ChunkFactory

pytestmark = pytest.mark.django_db


class _Uncached(NamedTuple):
    """A HotEntry look-alike of another type: compose renders it the old way, every turn."""

    pk: int
    heading: str
    content: str
    source: str
    source_type: str
    created_at: Any
    scope: Any
    trust_label: str


class _UncachedSkill(NamedTuple):
    pk: int
    name: str
    description: str


def _store() -> Any:
    agent = AgentFactory(name="cache-agent")
    for i in range(12):
        ChunkFactory(
            agent=None,
            scope="host",
            content=f"always rule {i}: deploys need a ticket (caf\u00e9 \u2460)",
            delivery_policy="always",
            source_type="operator",
            review_state="confirmed",
        )
    for i in range(8):
        ChunkFactory(
            agent=agent, content=f"the deploy script {i} lives in ops/deploy{i}.sh", review_state="confirmed"
        )
    ChunkFactory(agent=AgentFactory(name="someone-else"), content="the deploy secret of another agent")
    Skill.objects.create(name="triage", description="Sort incoming\nbugs by severity")
    return agent


def _compose(agent: Any) -> Any:
    return projection.compose_projected_context(
        agent=agent, session_id="s1", query="deploy script", model="", working_state="- ship it"
    )


def test_cached_turns_equal_turns_rendered_afresh(monkeypatch) -> None:
    agent = _store()
    projection._hot_items_cached.cache_clear()
    projection._hot_sources.cache_clear()
    projection._skill_items_cached.cache_clear()

    cached = [_compose(agent) for _ in range(3)]
    real_hot_entries = selectors.hot_entries
    monkeypatch.setattr(
        projection, "hot_entries", lambda **kw: [_Uncached(*e) for e in real_hot_entries(**kw)]
    )
    monkeypatch.setattr(projection, "_RAG_QUERYSETS", ConfigKeyedQuerysets())
    real_skill_index = projection.skill_index
    monkeypatch.setattr(projection, "skill_index", lambda: [_UncachedSkill(*s) for s in real_skill_index()])
    afresh = _compose(agent)

    assert projection._hot_items_cached.cache_info().hits >= 2
    assert projection._hot_sources.cache_info().hits >= 2
    assert projection._skill_items_cached.cache_info().hits >= 2
    assert len(afresh.hot_ids) == 12
    assert len(afresh.rag_ids) == 5
    for turn in cached:
        assert turn == afresh
    assert "another agent" not in afresh.text


def test_an_edited_always_on_row_is_delivered_edited_next_turn() -> None:
    agent = _store()
    before = _compose(agent)
    row = Chunk.objects.filter(delivery_policy="always").order_by("id").first()
    Chunk.objects.filter(pk=row.pk).update(content="always rule: deploys need TWO tickets")

    after = _compose(agent)

    assert "TWO tickets" in after.text
    assert "TWO tickets" not in before.text
    assert after.hot_ids == before.hot_ids


def test_the_rag_filter_is_per_agent() -> None:
    agent = _store()
    other = Chunk.objects.get(content__contains="another agent").agent

    mine = _compose(agent)
    theirs = _compose(other)

    assert "another agent" not in mine.text
    assert "another agent" in theirs.text
    assert projection._rag_queryset(agent.pk, None, 1) is projection._rag_queryset(agent.pk, None, 1)
    assert projection._rag_queryset(agent.pk, None, 1) is not projection._rag_queryset(other.pk, None, 1)
