"""memory_recall keeps the filter it searches (scope, bulk-delete, namespace) per agent and
namespace, and recalls exactly what it recalled when it built the filter on every call."""

from __future__ import annotations

from typing import Any

import pytest

from memory.lifecycle import queryset_cache, recall
from tests.factories import AgentFactory, ChunkFactory

pytestmark = pytest.mark.django_db


def _store() -> tuple[Any, Any]:
    mine, other = AgentFactory(name="recall-mine"), AgentFactory(name="recall-other")
    for i in range(6):
        ChunkFactory(
            agent=mine, content=f"the deploy script {i} lives in ops/deploy{i}.sh", review_state="confirmed"
        )
    ChunkFactory(agent=mine, namespace="ops", content="the deploy runbook for ops", review_state="confirmed")
    ChunkFactory(agent=other, content="the deploy secret of another agent", review_state="confirmed")
    ChunkFactory(agent=None, scope="host", content="host rule: every deploy needs a ticket")
    return mine, other


def _ids(agent: Any, namespace: str | None = None) -> list[int]:
    return [
        h.chunk.pk for h in recall.memory_recall(agent=agent, query="deploy", top_k=20, namespace=namespace)
    ]


def test_cached_filters_recall_what_fresh_filters_recall(monkeypatch) -> None:
    mine, other = _store()
    cached = [(_ids(mine), _ids(mine, "ops"), _ids(other)) for _ in range(3)]
    monkeypatch.setattr(recall, "_RECALL_QUERYSETS", queryset_cache.ConfigKeyedQuerysets())
    afresh = (_ids(mine), _ids(mine, "ops"), _ids(other))

    assert all(turn == afresh for turn in cached)
    assert len(afresh[0]) == 8  # six own rows, the ops row and the host row; not the other agent's
    assert len(afresh[1]) == 1
    assert len(afresh[2]) == 2  # its own secret and the host row


def test_the_filter_is_kept_per_agent_and_namespace() -> None:
    mine, other = _store()
    assert recall._recall_queryset(mine.pk, None) is recall._recall_queryset(mine.pk, None)
    assert recall._recall_queryset(mine.pk, None) is not recall._recall_queryset(other.pk, None)
    assert recall._recall_queryset(mine.pk, "ops") is not recall._recall_queryset(mine.pk, None)
    assert "another agent" not in " ".join(h.line for h in recall.memory_recall(agent=mine, query="secret"))


def test_a_reloaded_config_builds_the_filter_afresh(monkeypatch) -> None:
    mine, _ = _store()
    before = recall._recall_queryset(mine.pk, None)
    monkeypatch.setattr(queryset_cache, "get_config", lambda: object())  # a new config object

    assert recall._recall_queryset(mine.pk, None) is not before
