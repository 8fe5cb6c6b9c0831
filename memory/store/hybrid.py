"""Hybrid recall: keyword ids (FTS5) and vector ids fused by Reciprocal Rank Fusion.

RRF (Cormack et al. 2009): a row's score is the sum over the rankings it appears in of
1 / (RRF_K + rank), rank counted from 1. Rows found by both lists rise; a list's own order
is kept among rows only it found. RRF_K = 60, the paper's constant: it damps the difference
between rank 1 and rank 2 so neither list dominates. Ties (same score) go to the row with the
better single rank, then to the earlier list (keyword first), then the lower id.

`hybrid_chunk_ids` asks each side for max(k, 5) candidates, both filtered by the same queryset.
When none is a conversation turn and the query names no date, they are fused by RRF as they are
(a plain store pays one rowid lookup more than before). Otherwise it asks each side again for
structure.pool_size(k) candidates (3k, at least 20) and hands both rankings to
memory.store.structure.rerank: RRF,
then the date boost and, for conversation turns, small-talk damping and the neighbouring-turn
window. The pool is deeper than k because the window and the damping reorder it: on the tuning
conversations of memory/evals/conversations a pool of max(3k, 20) beat max(2k, 10) and
max(5k, 50) (rrf_fuse alone, without those steps, was best with a pool of k: deeper keyword
lists mostly add one-term matches). When the embedding backend is down (or its breaker open)
it returns structure.keyword_ids: the keyword ranking through the same steps.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING

from django.db.models import QuerySet

from memory.store import embeddings, structure, vectors
from memory.store.models import Chunk
from memory.store.search import search_chunk_ids

if TYPE_CHECKING:
    import numpy as np

logger = logging.getLogger(__name__)

RRF_K = 60


def rrf_fuse(rankings: Sequence[Sequence[int]], *, limit: int | None = None, rrf_k: int = RRF_K) -> list[int]:
    """Ids of all rankings ordered by reciprocal-rank-fusion score, best first (see module doc)."""
    scores: dict[int, float] = {}
    best: dict[int, tuple[int, int]] = {}  # id -> (best rank, list index of that rank)
    for list_index, ranking in enumerate(rankings):
        seen: set[int] = set()
        for rank, item in enumerate(ranking, start=1):
            if item in seen:
                continue  # a list repeating an id counts it once, at its best rank
            seen.add(item)
            scores[item] = scores.get(item, 0.0) + 1.0 / (rrf_k + rank)
            if item not in best or (rank, list_index) < best[item]:
                best[item] = (rank, list_index)
    ordered = sorted(scores, key=lambda item: (-scores[item], best[item], item))
    return ordered if limit is None else ordered[: max(limit, 0)]


def hybrid_chunk_ids(query: str, *, k: int, queryset: QuerySet[Chunk], model: str | None = None) -> list[int]:
    """Ids of the best `k` rows of `queryset`: keyword and vector hits fused; keyword-only on outage."""
    if k <= 0 or not query.strip():
        return []
    model = model or embeddings.active_model()
    try:
        query_vector = embeddings.embed_query(query, model=model)
    except embeddings.EmbeddingError as exc:
        logger.debug("hybrid search fell back to keyword-only: %s", exc)
        return structure.keyword_ids(query, k=k, queryset=queryset)
    return fused_ids(query, query_vector, k=k, queryset=queryset, model=model)


def fused_ids(
    query: str, query_vector: np.ndarray, *, k: int, queryset: QuerySet[Chunk], model: str
) -> list[int]:
    """The keyword ranking of `query` and the vector ranking of `query_vector` through
    memory.store.structure.rerank (RRF, dates, turns), best `k`."""
    if k <= 0:
        return []
    depth = max(k, structure.PLAIN_DEPTH)
    keyword = search_chunk_ids(query, k=depth, queryset=queryset)
    semantic = vectors.nearest_ids(query_vector, k=depth, model=model, queryset=queryset)
    if not structure.any_turn_or_date(query, [*keyword, *semantic]):
        return rrf_fuse([keyword, semantic], limit=k)  # a plain store: nothing to reorder
    depth = structure.pool_size(k)
    keyword = search_chunk_ids(query, k=depth, queryset=queryset)
    semantic = vectors.nearest_ids(query_vector, k=depth, model=model, queryset=queryset)
    return structure.rerank(query, [keyword, semantic], k=k, queryset=queryset)
