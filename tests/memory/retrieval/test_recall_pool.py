"""Hybrid recall's keyword pool: a plain store reads only the top it fuses, a conversation store
the whole pool the structure steps rerank (memory.retrieval.hybrid.first_keyword_rows)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from memory.embedding import embeddings
from memory.lifecycle.writes import ChunkDraft, add_chunks
from memory.retrieval import hybrid as hybrid_module
from memory.retrieval import structure
from memory.retrieval.hybrid import hybrid_chunk_ids
from memory.retrieval.search import search_chunk_rows
from memory.store import text_index
from memory.store.deliverable import deliverable
from memory.store.embedding_index import chunks_embed
from memory.store.models import Chunk
from tests.memory.store.vector_stub import MODEL, clean_embedding_state, hybrid_fixture  # noqa: F401 - fixtures

pytestmark = [pytest.mark.usefixtures("clean_embedding_state"), pytest.mark.django_db]

NOTE_WORDS = ["billing", "service", "deploy", "ledger", "invoice", "queue", "retry", "cache"]


def store(namespace: str, *, domain: str, count: int = 30) -> list[int]:
    """`count` rows, each holding one or two of NOTE_WORDS (so the query's OR step has work)."""
    drafts = [
        ChunkDraft(
            content=f"{NOTE_WORDS[i % 8]} note {i} about {NOTE_WORDS[(i * 3) % 8]}"
            if domain != "turn"
            else f"Alice: {NOTE_WORDS[i % 8]} again, number {i}, {NOTE_WORDS[(i * 3) % 8]}",
            domain=domain,
            namespace=namespace,
            source=f"s{i // 10}" if domain == "turn" else "",
            created_at=datetime(2026, 1, 1 + i % 28, 12, tzinfo=UTC),
        )
        for i in range(count)
    ]
    add_chunks(drafts)
    ids = list(Chunk.objects.filter(namespace=namespace).values_list("pk", flat=True))
    chunks_embed(chunk_ids=ids, model=MODEL)
    return ids


@pytest.fixture
def keyword_searches(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, bool]]:
    """(k, any_term) of every keyword search the hybrid path runs (the real search still runs)."""
    asked: list[tuple[int, bool]] = []

    def counting(query: str, *, k: int, queryset: Any, **options: Any) -> list[tuple[Any, ...]]:
        asked.append((k, options.get("any_term", True)))
        return search_chunk_rows(query, k=k, queryset=queryset, **options)

    monkeypatch.setattr(structure, "search_chunk_rows", counting)
    return asked


def depths(searches: list[tuple[int, bool]]) -> list[int]:
    return [k for k, _ in searches]


def test_a_plain_store_reads_only_the_keyword_top_it_fuses(
    hybrid: Any, keyword_searches: list[tuple[int, bool]]
) -> None:
    store("notes", domain="note")
    queryset = deliverable(Chunk.objects.filter(namespace="notes"))

    found = hybrid_chunk_ids("billing deploy retry", k=5, queryset=queryset, model=MODEL)

    assert len(found) == 5
    assert depths(keyword_searches) == [max(5, structure.PLAIN_DEPTH)]  # not structure.pool_size(5) == 20


QUERY = "billing ledger cache"


def test_a_plain_store_skips_the_any_term_step(
    hybrid: Any, keyword_searches: list[tuple[int, bool]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The OR step scores every row holding any term; a one-term row cannot outrank the vector
    side's top on a plain store, so the hybrid path does not ask for it."""
    store("notes", domain="note")  # no row holds two of QUERY's words: only the OR step finds any
    queryset = deliverable(Chunk.objects.filter(namespace="notes"))
    index = text_index.sql()
    asked: list[Any] = []
    real = index.ranked_rows

    def ranked_rows(expression: Any, **options: Any) -> Any:
        asked.append(expression)
        return real(expression, **options)

    monkeypatch.setattr(index, "ranked_rows", ranked_rows)
    any_term = index.any_term(QUERY.split())

    found = hybrid_chunk_ids(QUERY, k=5, queryset=queryset, model=MODEL)

    assert len(found) == 5
    assert keyword_searches == [(max(5, structure.PLAIN_DEPTH), False)]
    assert asked
    assert any_term not in asked
    search_chunk_rows(QUERY, k=5, queryset=queryset)  # the keyword path still takes it
    assert asked[-1] == any_term


def test_too_few_vector_rows_let_one_term_matches_fill(hybrid: Any) -> None:
    """With fewer than k rows on the vector side (a store mostly not embedded yet) the rows
    holding one of the terms fill the top, as before the any-term step was skipped."""
    add_chunks(
        ChunkDraft(content=f"{word} note {i}", domain="note", namespace="few")
        for i, word in enumerate(["billing", "ledger", "retry", "cache", "invoice", "queue"])
    )
    ids = list(Chunk.objects.filter(namespace="few").order_by("pk").values_list("pk", flat=True))
    chunks_embed(chunk_ids=ids[:1], model=MODEL)  # one row has a vector
    queryset = deliverable(Chunk.objects.filter(namespace="few"))

    found = hybrid_chunk_ids("billing retry queue", k=5, queryset=queryset, model=MODEL)

    assert set(found) == {ids[0], ids[2], ids[5]}  # each holds one term


def test_a_plain_store_ranks_as_it_did_from_the_whole_pool(
    hybrid: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    store("notes", domain="note")
    queryset = deliverable(Chunk.objects.filter(namespace="notes"))
    query = "billing deploy retry"
    from_top = hybrid_chunk_ids(query, k=5, queryset=queryset, model=MODEL)

    def whole_pool(
        query: str, *, k: int, queryset: Any, loaded: structure.Loaded | None = None
    ) -> tuple[dict[int, structure.Row], bool]:
        return structure.search_rows(query, k=structure.pool_size(k), queryset=queryset, loaded=loaded), True

    monkeypatch.setattr(hybrid_module, "first_keyword_rows", whole_pool)
    assert hybrid_chunk_ids(query, k=5, queryset=queryset, model=MODEL) == from_top


def test_a_conversation_store_reads_the_whole_pool(
    hybrid: Any, keyword_searches: list[tuple[int, bool]]
) -> None:
    store("talk", domain="turn")
    queryset = deliverable(Chunk.objects.filter(namespace="talk"))

    found = hybrid_chunk_ids("billing deploy retry", k=5, queryset=queryset, model=MODEL)

    assert len(found) == 5
    assert depths(keyword_searches)[-1] == structure.pool_size(5)


def test_a_dated_question_on_a_plain_store_reads_the_whole_pool(
    hybrid: Any, keyword_searches: list[tuple[int, bool]]
) -> None:
    store("notes", domain="note")
    queryset = deliverable(Chunk.objects.filter(namespace="notes"))

    hybrid_chunk_ids("billing deployed in January 2026", k=5, queryset=queryset, model=MODEL)

    assert depths(keyword_searches) == [structure.pool_size(5)]  # a date range reorders the whole pool


def test_a_turn_found_only_by_the_any_term_step_still_names_its_speaker(
    hybrid: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The plain top skips the OR step, so it can miss turns whose speaker the question names;
    once the vector side shows turns, the whole pool is read and the vector side embeds the
    text without that speaker, as when the pool was read first (conversation stores unmoved)."""
    add_chunks(
        ChunkDraft(content=f"billing ledger invoice note {i}", domain="note", namespace="mixed")
        for i in range(3)
    )
    add_chunks(
        ChunkDraft(content=f"Zed: my canine friend number {i}", domain="turn", namespace="mixed", source="s0")
        for i in range(6)
    )
    ids = list(Chunk.objects.filter(namespace="mixed").values_list("pk", flat=True))
    chunks_embed(chunk_ids=ids, model=MODEL)
    queryset = deliverable(Chunk.objects.filter(namespace="mixed"))
    query = "what did Zed say about the dog billing ledger invoice"
    embedded: list[str] = []
    real = embeddings.embed_query

    def spying(text: str, **options: Any) -> Any:
        embedded.append(text)
        return real(text, **options)

    monkeypatch.setattr(embeddings, "embed_query", spying)
    found = hybrid_chunk_ids(query, k=5, queryset=queryset, model=MODEL)

    assert "what did say about the dog billing ledger invoice" in embedded  # the speaker dropped
    structure.forget_speakers()

    def whole_pool(
        query: str, *, k: int, queryset: Any, loaded: structure.Loaded | None = None
    ) -> tuple[dict[int, structure.Row], bool]:
        return structure.search_rows(query, k=structure.pool_size(k), queryset=queryset, loaded=loaded), True

    monkeypatch.setattr(hybrid_module, "first_keyword_rows", whole_pool)
    assert hybrid_chunk_ids(query, k=5, queryset=queryset, model=MODEL) == found
