"""memory.retrieval.retrieve: one entry point, the same rows as the paths it wraps, with scores and why."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memory.lifecycle.selectors import chunk_search
from memory.lifecycle.writes import ChunkDraft, add_chunks
from memory.retrieval import retrieve as retrieve_module
from memory.retrieval import structure
from memory.retrieval.hybrid import rrf_fuse, rrf_scored
from memory.retrieval.retrieve import Options, retrieve, retrieve_ids
from memory.retrieval.search import search_chunk_ids
from memory.store.deliverable import deliverable
from memory.store.models import Chunk, ReviewState

pytestmark = pytest.mark.django_db

NAMESPACE = "retrieve-test"


def store(contents: list[str], *, day: str = "2026-11-02") -> list[int]:
    created = datetime.fromisoformat(day).replace(hour=12, tzinfo=UTC)
    add_chunks(ChunkDraft(content=c, namespace=NAMESPACE, created_at=created) for c in contents)
    return list(Chunk.objects.filter(namespace=NAMESPACE).order_by("pk").values_list("pk", flat=True))


def reader() -> object:
    return Chunk.objects.filter(namespace=NAMESPACE)


def test_keyword_is_chunk_search_with_rows_and_why() -> None:
    store([f"The billing service note number {i} about invoices." for i in range(8)])
    hits = retrieve("billing invoices", reader(), 5, Options(mode="keyword"))
    assert [h.chunk for h in hits] == chunk_search("billing invoices", k=5, queryset=reader())
    assert len(hits) == 5
    assert {h.why for h in hits} == {retrieve_module.KEYWORD}
    assert all(h.chunk is not None and h.chunk.pk == h.chunk_id for h in hits)


def test_ids_only_reads_no_row() -> None:
    store(["Deploys happen on Tuesdays.", "The cafeteria opens at nine."])
    hits = retrieve("deploys tuesdays", reader(), 3, Options(mode="keyword", load=False))
    assert [h.chunk for h in hits] == [None]
    ids = retrieve_ids("deploys tuesdays", reader(), 3, Options(mode="keyword"))
    assert [h.chunk_id for h in hits] == ids


def test_date_query_is_reranked_with_scores_best_first() -> None:
    old = store([f"Billing service deployed, step {i}." for i in range(6)], day="2026-10-01")
    recent = store(["Billing service deployed again to the new cluster."], day="2026-11-30")
    new_id = (set(recent) - set(old)).pop()
    hits = retrieve(
        "billing service deployed in November 2026", reader(), 3, Options(mode="keyword", load=False)
    )
    assert hits[0].chunk_id == new_id  # written in the named month: the date boost lifts it
    assert {h.why for h in hits} == {retrieve_module.KEYWORD_RERANKED}
    scores = [h.score for h in hits]
    assert all(s is not None for s in scores)
    assert scores == sorted(scores, reverse=True)


def test_text_mode_is_the_index_order_and_every_row_keeps_held_rows() -> None:
    ids = store(["Quarterly invoice review checklist.", "Invoice numbering rules.", "Lunch menu."])
    Chunk.objects.filter(pk=ids[1]).update(review_state=ReviewState.REJECTED)
    deliverable_ids = retrieve_ids("invoice", reader(), 10, Options(mode="text"))
    assert deliverable_ids == search_chunk_ids("invoice", k=10, queryset=deliverable(reader()))
    assert ids[1] not in deliverable_ids
    every = retrieve_ids("invoice", reader(), 10, Options(mode="text", every_row=True))
    assert set(every) == {ids[0], ids[1]}  # the admin's view: a rejected row is still found


def test_auto_without_vectors_is_keyword() -> None:
    store(["Releases ship on Tuesdays."])
    hits = retrieve("releases tuesdays", reader(), 5)
    assert [h.why for h in hits] == [retrieve_module.KEYWORD]


def test_nothing_asked_nothing_found() -> None:
    store(["Anything at all."])
    assert retrieve("anything", reader(), 0) == []
    with pytest.raises(ValueError, match="unknown retrieval mode"):
        retrieve("anything", reader(), 3, Options(mode="nonsense"))  # type: ignore[arg-type]


def test_one_fusion_rrf_scores_are_fuse_scores() -> None:
    rankings = [[1, 2, 3], [3, 4]]
    scored = rrf_scored(rankings, weights=structure.WEIGHTS)
    fused = structure.fuse(rankings, structure.WEIGHTS)
    assert dict(scored) == fused
    assert [i for i, _ in scored] == rrf_fuse(rankings, weights=structure.WEIGHTS)
    assert scored[0][0] == 3  # found by both lists
