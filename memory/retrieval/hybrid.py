"""Hybrid recall: keyword ids (FTS5) and vector ids fused by Reciprocal Rank Fusion.

RRF (Cormack et al. 2009): a row's score is the sum over the rankings it appears in of
1 / (RRF_K + rank), rank counted from 1. Rows found by both lists rise; a list's own order
is kept among rows only it found. RRF_K = 60, the paper's constant: it damps the difference
between rank 1 and rank 2 so neither list dominates. Ties (same score) go to the row with the
better single rank, then to the earlier list (keyword first), then the lower id.

`hybrid_chunk_ids` asks each side for structure.pool_size(k) candidates (3k, at least 20), both
filtered by the same queryset; the keyword side asks for its top max(k, 5) first, without the
search plan's any-term (OR) step, and for the pool only when that top or the vector side's holds
a turn or the query a date (first_keyword_rows: a 20-row pool, and the OR step, scored rows on
plain stores that fusion never read or could not rank: statements per plain-store hybrid query
6 -> 5 on SQLite, 5 -> 4 on PostgreSQL). When none of the
top max(k, 5) of either is a conversation turn
and the query names no date, those tops are fused by RRF (a plain store), with the
same list weights as rerank (structure.WEIGHTS: keyword 1, vector 1.5; on memory/evals/recall.jsonl
hybrid recall@5 0.909 -> 0.931 and MRR 0.747 -> 0.805 against equal weights), each keyword hit
keeping the cube of the share of the query's terms it says (structure.plain_keyword_shares:
MRR 0.797 -> 0.838 there), a term more than 80% of the candidates say not counted as said
("user" in a store of "The user ..." facts: memory/evals/recall_facts.jsonl MRR 0.917 -> 0.932).
Otherwise
both whole rankings go to memory.retrieval.structure.rerank: weighted RRF, then the date boost
and, for conversation turns, small-talk and repeat damping and the neighbouring-turn window.
There the vector ranking is read structure.VECTOR_DEPTH (100) deep for the pool's rows only
(structure.ranks_within): a keyword hit the vector side ranks 40th keeps that share instead of
none, and no row joins the pool for it. Its rows to structure.Weights.tail_depth (60) that are
not in the pool compete for the ranks past the top 5 only (rerank_scored's `tail`).
The pool is deeper than k because the window and the damping reorder it: on the tuning
conversations of memory/evals/conversations a pool of max(3k, 20) beat max(2k, 10) and
max(5k, 50) (rrf_fuse alone, without those steps, was best with a pool of k: deeper keyword
lists mostly add one-term matches). When the embedding backend is down (or its breaker open)
it returns structure.keyword_ids: the keyword ranking through the same steps.
When the caller loads the rows (memory.retrieval.retrieve), the keyword and vector statements
read every column of the rows they rank (`loaded`), so the rows returned need no statement of
their own: a plain-store hybrid query on PostgreSQL sends 2 statements instead of 3.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.db.models import QuerySet

from memory.embedding import embeddings
from memory.retrieval import structure
from memory.store import pgvector_ahead, vectors
from memory.store.models import Chunk
from memory.store.row_filter import RowFilter

if TYPE_CHECKING:
    import numpy as np

logger = logging.getLogger(__name__)

RRF_K = structure.WEIGHTS.rrf_k


def rrf_fuse(rankings: Sequence[Sequence[int]], **options: Any) -> list[int]:
    """The ids of rrf_scored (same keyword options), best first."""
    return [row_id for row_id, _ in rrf_scored(rankings, **options)]


def rrf_scored(
    rankings: Sequence[Sequence[int]],
    *,
    limit: int | None = None,
    weights: structure.Weights = structure.EQUAL_LISTS,
) -> list[tuple[int, float]]:
    """(id, score) of all rankings ordered by their (weighted) RRF score, best first: the one
    fusion, structure.fuse (rerank's too), with RRF's tie order: the better single rank, then the
    earlier list, then the lower id (module doc)."""
    return _ordered(structure.fuse(rankings, weights), rankings, limit)


def _ordered(
    scores: dict[int, float], rankings: Sequence[Sequence[int]], limit: int | None
) -> list[tuple[int, float]]:
    """(id, score) of `scores`, best first, ties broken as rrf_scored's (module doc)."""
    best: dict[int, tuple[int, int]] = {}  # id -> (best rank, list index of that rank)
    for list_index, ranking in enumerate(rankings):
        for rank, item in enumerate(ranking, start=1):
            if item not in best or (rank, list_index) < best[item]:
                best[item] = (rank, list_index)
    ordered = sorted(scores, key=lambda item: (-scores[item], best[item], item))
    return [(item, scores[item]) for item in (ordered if limit is None else ordered[: max(limit, 0)])]


@dataclass(frozen=True)
class StartedEmbedding:
    """A query embedding under way (start_embedding): the text guessed and its future vector."""

    guess: str
    vector: Future[np.ndarray]


def start_embedding(query: str, *, model: str | None = None) -> StartedEmbedding:
    """Start embedding `query` on another core, from a guess at its vector text (the speakers
    met in earlier searches dropped; hybrid_chunk_ids checks it). A caller that still has work
    to do before searching (building its filters, say) starts it first."""
    guess = structure.vector_query(query, structure.heard_speakers())
    return StartedEmbedding(
        guess, embeddings.embed_query_soon(guess, model=model or embeddings.active_model())
    )


def hybrid_chunk_ids(query: str, **options: Any) -> list[int]:
    """The ids of hybrid_scored (same keyword options), best first."""
    scored, _ = hybrid_scored(query, **options)
    return [row_id for row_id, _ in scored]


def hybrid_scored(
    query: str,
    *,
    k: int,
    queryset: QuerySet[Chunk],
    model: str | None = None,
    started: StartedEmbedding | None = None,
    loaded: structure.Loaded | None = None,
) -> tuple[list[tuple[int, float]], bool]:
    """(id, score) of the best `k` rows of `queryset`: keyword and vector hits fused, and whether
    the vector side answered (False: keyword-only, on an outage).

    The speakers of the conversation turns the keyword side finds are dropped from the text the
    vector side embeds (structure.vector_query). So as not to wait for them, the embedding starts
    first, on another core, from a guess (the speakers met in earlier searches) while the keyword
    search runs; if the keyword hits show the guess wrong (a new speaker: the first question
    about a conversation, ~1% of them), the right text is embedded then. The vector used is
    always the right text's: the guess only decides when it is computed. `started`: the same
    step begun earlier by the caller (start_embedding, with the same model). `loaded`: where the
    keyword and vector statements keep every column of the rows they read (structure.rows_read),
    so that the caller's rows need no statement of their own."""
    if k <= 0 or not query.strip():
        return [], True
    model = model or embeddings.active_model()
    started = started or start_embedding(query, model=model)
    ahead = vector_rows_ahead(started, k=k, model=model, queryset=queryset, loaded=loaded)
    held, whole = first_keyword_rows(query, k=k, queryset=queryset, loaded=loaded)
    names = structure.speakers(held.values())
    structure.remember_speakers(names)
    text = structure.vector_query(query, names)
    sessions: structure.Sessions = {}
    try:
        if text == started.guess:
            if not started.vector.done():
                # The keyword side finished first: read the sessions of its turns, which the
                # window mostly needs, on this core while the other one finishes the embedding.
                sessions = structure.read_sessions(structure.turn_sources(held.values()), RowFilter(queryset))
            query_vector = started.vector.result()
        else:
            query_vector = embeddings.embed_query(text, model=model)
    except embeddings.EmbeddingError as exc:
        logger.debug("hybrid search fell back to keyword-only: %s", exc)
        return structure.keyword_scored(query, k=k, queryset=queryset, held=held if whole else None), False

    def requery(pool: dict[int, structure.Row]) -> np.ndarray | None:
        """The vector of the text the whole pool's speakers call for, if not `text`'s (the top
        read first skipped the any-term step, so it may have missed turns and their speakers)."""
        names = structure.speakers(pool.values())
        structure.remember_speakers(names)
        better = structure.vector_query(query, names)
        if better == text:
            return None
        try:
            return embeddings.embed_query(better, model=model)
        except embeddings.EmbeddingError as exc:
            logger.debug("hybrid search kept the first query vector: %s", exc)
            return None

    return fused_scored(
        query,
        query_vector,
        k=k,
        queryset=queryset,
        model=model,
        held=held,
        whole=whole,
        sessions=sessions,
        requery=None if whole else requery,
        ahead=ahead if text == started.guess else None,
        loaded=loaded,
    ), True


def vector_rows_ahead(
    started: StartedEmbedding,
    *,
    k: int,
    model: str,
    queryset: QuerySet[Chunk],
    loaded: structure.Loaded | None = None,
) -> Future[list[tuple[Any, ...]] | None] | None:
    """fused_scored's first vector search (pool_size(k) rows, structure.read_fields) of the guessed text's
    vector, started now on a connection of its own so that PostgreSQL runs it beside the keyword
    search (memory.store.pgvector_ahead); None where it cannot (SQLite, inside a transaction).
    Only pgvector's approximate search gets here, whose first search is always the pool."""
    return pgvector_ahead.nearest_rows_ahead(
        started.vector,
        k=structure.pool_size(k),
        model=model,
        queryset=queryset,
        fields=structure.read_fields(loaded),
    )


def first_keyword_rows(
    query: str, *, k: int, queryset: QuerySet[Chunk], loaded: structure.Loaded | None = None
) -> tuple[dict[int, structure.Row], bool]:
    """The keyword side's rows, best first, and whether they are the whole pool the structure
    steps rerank (structure.pool_size(k)): else only the top max(k, PLAIN_DEPTH) of the rows
    holding two of the query's terms at least (all of one or two), when none of those is a
    conversation turn and the query names no date (a plain store, where fusion reads only that
    top; fused_scored asks for the pool when the vector side finds a turn).

    A pool of 20 rows is rarely filled by the search plan's AND and pair steps, so asking for it
    on a plain store forced the OR step (every row holding any term scored) for rows fusion never
    read; asking for the top first costs a conversation store one more (small) search. The top
    skips the OR step too: a row saying one of the query's terms keeps (1/2)^3 of its keyword
    share at most (plain_keyword_shares), below any row of the vector side's top, so it only
    counts when the vector side finds fewer than k rows (fused_scored then asks for it).
    `loaded`: structure.rows_read."""
    depth, pool = max(k, structure.PLAIN_DEPTH), structure.pool_size(k)
    if structure.any_turn_or_date(query, ()):  # a date: the boost reads the whole pool
        return structure.search_rows(query, k=pool, queryset=queryset, loaded=loaded), True
    top = structure.search_rows(query, k=depth, queryset=queryset, any_term=False, loaded=loaded)
    if not structure.any_turn_or_date(query, top.values()):
        return top, False
    return structure.search_rows(query, k=pool, queryset=queryset, loaded=loaded), True


def fused_ids(query: str, query_vector: np.ndarray, **options: Any) -> list[int]:
    """The ids of fused_scored (same keyword options), best first."""
    return [row_id for row_id, _ in fused_scored(query, query_vector, **options)]


def fused_scored(
    query: str,
    query_vector: np.ndarray,
    *,
    k: int,
    queryset: QuerySet[Chunk],
    model: str,
    held: dict[int, structure.Row] | None = None,
    whole: bool = True,
    sessions: structure.Sessions | None = None,
    requery: Callable[[dict[int, structure.Row]], np.ndarray | None] | None = None,
    ahead: Future[list[tuple[Any, ...]] | None] | None = None,
    loaded: structure.Loaded | None = None,
) -> list[tuple[int, float]]:
    """(id, score) of the keyword ranking of `query` and the vector ranking of `query_vector` through
    memory.retrieval.structure.rerank (RRF, dates, turns), best `k`. `held`: the keyword search's
    rows, best first (first_keyword_rows), if the caller has them, and `whole` whether they are
    the whole pool (else only the top, read again when the structure steps need the pool);
    every ranked row is read once, for the turn check and for rerank. `sessions`: turns of
    sessions the caller already read (structure.read_sessions), not read again. `requery`: given
    the whole pool when it is read here, the vector of the text it calls for if that is not the
    text `query_vector` embeds (hybrid_scored: the speakers its turns name), else None. `ahead`:
    the vector side's first search of `query_vector` already under way (vector_rows_ahead), read
    with structure.read_fields(`loaded`). `loaded`: structure.rows_read (the keyword and vector
    statements read every column, kept there, for the caller's rows)."""
    if k <= 0:
        return []
    pool = structure.pool_size(k)
    if held is None:
        held, whole = first_keyword_rows(query, k=k, queryset=queryset, loaded=loaded)
    depth = max(k, structure.PLAIN_DEPTH)
    # The exact scan's first `depth` rows are the first of its `pool`: read the top alone first
    # (a plain store reads no more; 15 rows of content fewer a query) and the pool only if needed.
    exact = vectors.exact_scan(model, queryset)
    first = min(depth, pool) if exact else pool
    found = ahead.result() if ahead is not None else None
    fields = structure.read_fields(loaded)
    if found is None:
        found = vectors.nearest_rows(query_vector, k=first, model=model, queryset=queryset, fields=fields)
    semantic = [row[0] for row in found]
    requeried = False
    keyword_top, semantic_top = list(held)[:depth], semantic[:depth]
    rows = {**structure.rows_read(found, loaded), **held}
    if not structure.any_turn_or_date(query, (rows[i] for i in (*keyword_top, *semantic_top))):
        # a plain store: the tops fused with rerank's list weights, each keyword hit keeping the
        # share of the query it says (structure.plain_keyword_shares)
        if not whole and len(semantic_top) < k:  # too few vector rows: one-term matches count
            held = structure.search_rows(query, k=depth, queryset=queryset, loaded=loaded)
            rows.update(held)
            keyword_top = list(held)[:depth]
        scores = structure.fuse([keyword_top, semantic_top], structure.WEIGHTS)
        structure.plain_keyword_shares(query, keyword_top, rows, scores, structure.WEIGHTS)
        return _ordered(scores, [keyword_top, semantic_top], k)
    if not whole:  # the vector side found turns the keyword top did not: the whole pool
        held = structure.search_rows(query, k=pool, queryset=queryset, loaded=loaded)
        rows.update(held)
        better = requery(held) if requery is not None else None
        if better is not None:  # its turns name other speakers: the vector side of their text
            query_vector = better
            requeried = exact  # exact: the one deep scan below is the new vector's pool too
            if not exact:
                found = vectors.nearest_rows(
                    query_vector, k=first, model=model, queryset=queryset, fields=fields
                )
                semantic = [row[0] for row in found]
                new = structure.rows_read(found, loaded)
                rows.update((i, row) for i, row in new.items() if i not in held)
    deep = semantic  # exact, and the top held every row the vector side can find
    if not exact:  # an approximate search's candidates depend on k: the deep ranking is its own search
        deep = vectors.nearest_ids(query_vector, k=structure.VECTOR_DEPTH, model=model, queryset=queryset)
    elif requeried or len(found) == first:
        # The exact scan's order is total, so the pool and the deep ranking are heads of one
        # ranking: one scan for both (rerank reads the pool's rows not read yet, in one statement).
        deep = vectors.nearest_ids(
            query_vector, k=max(structure.VECTOR_DEPTH, pool), model=model, queryset=queryset
        )
        semantic = deep[:pool]
    pooled = {*held, *semantic}
    tail = structure.vector_tail(deep, pooled)  # past the head only (structure.Weights.tail_depth)
    ranked = structure.ranks_within(deep, pooled.union(tail)) if len(deep) > len(semantic) else semantic
    return structure.rerank_scored(
        query, [list(held), ranked], k=k, queryset=queryset, loaded=rows, sessions=sessions, tail=tail
    )
