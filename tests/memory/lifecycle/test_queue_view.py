"""Reads behind the review queue's view: groups with their members, a group's spread, facets."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from memory.lifecycle.queue_view import group_spread, held_for, queue_agents, queue_groups, queue_sessions
from memory.store.models import Chunk
from tests.factories import AgentFactory, ChunkFactory

pytestmark = pytest.mark.django_db


def test_queue_groups_keeps_each_groups_members_in_risk_order() -> None:
    now = timezone.now()
    a = ChunkFactory(content="Use the staging DB", created_at=now)
    b = ChunkFactory(content="use the  staging db", created_at=now - timedelta(minutes=1))
    alone = ChunkFactory(content="Deploys on Tuesdays", created_at=now - timedelta(minutes=2))
    shown, members = queue_groups(Chunk.objects.all())
    assert sorted(shown.values_list("pk", flat=True)) == sorted([a.pk, alone.pk])
    assert members == {a.pk: [a.pk, b.pk]}


def test_queue_groups_of_distinct_rows_is_the_queryset_itself() -> None:
    ChunkFactory(content="one")
    ChunkFactory(content="two")
    shown, members = queue_groups(Chunk.objects.all())
    assert (shown.count(), members) == (2, {})


def test_group_spread_names_distinct_agents_and_sessions() -> None:
    ada, bob = AgentFactory(name="ada"), AgentFactory(name="bob")
    now = timezone.now()
    rows = [
        ChunkFactory(agent=ada, source="s-1", created_at=now - timedelta(minutes=3)),
        ChunkFactory(agent=ada, source="s-2", created_at=now - timedelta(minutes=2)),
        ChunkFactory(agent=bob, source="s-2", created_at=now - timedelta(minutes=1)),
        ChunkFactory(agent=None, source="", created_at=now),
    ]
    spread = group_spread([r.pk for r in reversed(rows)])
    assert [r.pk for r in spread.rows] == [r.pk for r in rows]  # oldest first
    assert spread.agents == ("ada", "bob", "(no agent)")
    assert spread.sessions == ("s-1", "s-2", "(no source)")
    assert spread.text == "4 rows · 3 agents · 3 sessions"


def test_held_for_matches_whole_codes_only() -> None:
    rows = {
        codes: ChunkFactory(held_reasons=codes)
        for codes in ("url", "instruction,url", "url,secret", "a,url,b", "urls", "")
    }
    found = set(Chunk.objects.filter(held_for("url")).values_list("held_reasons", flat=True))
    assert found == {"url", "instruction,url", "url,secret", "a,url,b"}
    assert len(rows) == 6


def test_facets_count_pending_current_rows_only() -> None:
    ada, bob = AgentFactory(name="ada"), AgentFactory(name="bob")
    ChunkFactory(agent=ada, source="s-1")
    ChunkFactory(agent=ada, source="s-1")
    ChunkFactory(agent=bob, source="s-2")
    ChunkFactory(agent=bob, source="s-2", review_state="confirmed")
    ChunkFactory(agent=bob, source="https://example.org/doc")
    ChunkFactory(agent=None, source="user:7")
    assert queue_agents() == [(ada.pk, "ada", 2), (bob.pk, "bob", 2)]
    assert queue_sessions() == [("s-1", 2), ("s-2", 1)]
