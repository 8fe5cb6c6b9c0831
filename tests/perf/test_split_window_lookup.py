"""The split-instruction check reads a session's earlier writes through SQL compiled once
(protomem.compiled_lookup, a datetime among its values) and finds what the ORM finds."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import DEFAULT_DB_ALIAS
from django.utils import timezone

from memory.lifecycle import split_writes
from memory.store.models import Chunk
from tests.factories import AgentFactory, ChunkFactory

pytestmark = pytest.mark.django_db


def test_the_compiled_window_equals_the_orm_window() -> None:
    agent, other = AgentFactory(), AgentFactory()
    now = timezone.now()
    rows = []
    for minutes, review_state, owner, source in (
        (30, "pending", agent, "s1"),  # before the window
        (10, "pending", agent, "s1"),
        (9, "confirmed", agent, "s1"),  # settled by a reviewer
        (8, "pending", other, "s1"),  # another agent
        (7, "pending", agent, "s2"),  # another session
        (6, "pending", agent, "s1"),
        (5, "pending", agent, "s1"),
        (4, "pending", agent, "s1"),
    ):
        row = ChunkFactory(agent=owner, source=source, source_type="memory", review_state=review_state)
        Chunk.objects.filter(pk=row.pk).update(created_at=now - timedelta(minutes=minutes))
        rows.append(row)
    latest = ChunkFactory(agent=agent, source="s1", source_type="memory")
    since = now - timedelta(minutes=split_writes.WINDOW_MINUTES)
    args = ("s1", "memory", agent.pk, since, latest.pk)

    assert split_writes._EARLIER._compile(DEFAULT_DB_ALIAS) is not None  # the compiled path, not the ORM's
    compiled = split_writes._EARLIER.rows(*args)
    orm = [tuple(r) for r in split_writes._earlier_writes(*args)]

    assert compiled == orm
    assert [r[0] for r in compiled] == [rows[7].pk, rows[6].pk, rows[5].pk]
    assert [r[0] for r in split_writes._EARLIER.rows("s1", "memory", agent.pk, now, latest.pk)] == []
