"""Keyword search over chunks: FTS5 with bm25, or LIKE when FTS5 is missing.

Query plan (FTS5): rows with every term first; then, to fill up to k, rows with at least two
terms; only then rows with any term. On a large store the expensive any-term OR is rarely
reached (two-term matches are plentiful), and on a small one it is cheap. Within a step rows
keep bm25 order; a later step never outranks an earlier one.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator

from django.conf import settings
from django.db.models import Case, IntegerField, Q, QuerySet, Value, When

from memory import fts
from memory.models import Chunk

IN_BATCH = 500  # ids per `pk IN (...)` filter query, well under SQLite's variable limit


@functools.cache
def _fts_ready() -> bool:
    return fts.fts5_compiled() and fts.fts_table_exists()


def search_backend_name() -> str:
    """'fts5' or 'like'; PROTOMEM_SEARCH_BACKEND=like forces the fallback."""
    if getattr(settings, "PROTOMEM_SEARCH_BACKEND", "auto") == "like":
        return "like"
    return "fts5" if _fts_ready() else "like"


def reset_backend_cache() -> None:
    _fts_ready.cache_clear()


def plan(terms: list[str]) -> list[str]:
    """FTS5 expressions to try in order (see module docstring)."""
    if not terms:
        return []
    steps = [fts.all_terms(terms)]
    if len(terms) >= 3:
        steps.append(fts.any_pair(terms))
    if len(terms) >= 2:
        steps.append(fts.any_term(terms))
    return steps


def _batches(ids: list[int]) -> Iterator[list[int]]:
    for start in range(0, len(ids), IN_BATCH):
        yield ids[start : start + IN_BATCH]


def _keep_allowed(ids: list[int], queryset: QuerySet[Chunk], want: int, out: dict[int, None]) -> None:
    """Append ids that pass the queryset's filters, in rank order, until `want` are kept."""
    for batch in _batches([i for i in ids if i not in out]):
        allowed = set(queryset.filter(pk__in=batch).values_list("pk", flat=True))
        for chunk_id in batch:
            if chunk_id in allowed:
                out[chunk_id] = None
                if len(out) >= want:
                    return


def _fts_ids(terms: list[str], k: int, queryset: QuerySet[Chunk]) -> list[int]:
    out: dict[int, None] = {}
    for expression in plan(terms):
        # Oversample, then widen: filters (review, expiry, namespace) may drop ranked rows.
        for limit in (k * 4, k * 40, None):
            ids = fts.match_ids(expression, limit=limit)
            _keep_allowed(ids, queryset, k, out)
            if len(out) >= k or limit is None or len(ids) < limit:
                break
        if len(out) >= k:
            break
    return list(out)[:k]


def _like_ids(terms: list[str], k: int, queryset: QuerySet[Chunk]) -> list[int]:
    matches = [Q(content__icontains=t) | Q(heading__icontains=t) for t in terms]
    any_match = functools.reduce(lambda a, b: a | b, matches)
    score = sum(
        (Case(When(m, then=Value(1)), default=Value(0), output_field=IntegerField()) for m in matches),
        Value(0),
    )
    rows = (
        queryset.filter(any_match)
        .annotate(term_hits=score)
        .order_by("-term_hits", "-created_at", "-id")
        .values_list("pk", flat=True)[:k]
    )
    return list(rows)


def search_chunk_ids(query: str, *, k: int, queryset: QuerySet[Chunk]) -> list[int]:
    """Ids of the best `k` rows of `queryset` for a free-text query; empty query, no hits."""
    terms = fts.terms_of(query)
    if not terms or k <= 0:
        return []
    if search_backend_name() == "fts5":
        return _fts_ids(terms, k, queryset)
    return _like_ids(terms, k, queryset)
