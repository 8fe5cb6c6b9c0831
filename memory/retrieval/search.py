"""Keyword search over chunks: FTS5 with bm25, or LIKE when FTS5 is missing.

Query plan (FTS5), for the terms of a query (memory.store.text_index.fts5.terms_of):

1. rows with every term (a AND b AND c), bm25 order;
2. to fill up to k: rows with at least two terms ((a AND b) OR (a AND c) OR (b AND c));
3. only then rows with any term (a OR b OR c).

A later step never outranks an earlier one; within a step rows keep bm25 order. Rows already
returned by an earlier step are not repeated.

Why not one `MATCH 'a OR b OR c' ORDER BY bm25`: an OR query has to score every row holding
any term before it can rank them (at 1M chunks of a 5,000-word vocabulary, ~18k rows, each
with a docsize lookup): ~50-60 ms p50 on this 2-core machine. The AND and pair steps only
score rows holding two or more terms (tens to hundreds), and on a large store they almost
always fill k, so step 3 is rarely reached; on a small store it is cheap. Measured by
bench/search.py at 1M rows: ~7 ms p50, ~10 ms p99 when not preempted. What remains is mostly
bm25's IDF pass, which reads each phrase's whole doclist once per statement (the pair
expression has 2x as many phrases as terms); FTS5's 'optimize' (one segment) cuts it ~40%.

The tradeoff, on purpose: the order differs from pure bm25-over-OR. A row with all terms
outranks a row with two even if bm25 would score the two-term row higher (say it repeats a
rare term five times or is very short), and a two-term row outranks every one-term row. We
prefer coverage of the query over term-frequency weight; tests/memory/retrieval/test_search.py pins it.

Filters (deliverable(), namespaces, trust floor: whatever the caller's queryset says) are
applied in the same statement as the MATCH step, by joining the step's ranked result to the
chunk table (see memory.store.text_index.fts5). Each step first considers the best 4k matches, then 40k, then
all, until k rows pass the filters or the step runs out of matches. Querysets that are not a
plain single-table filter (joins, annotations, slices) fall back to filtering ids through the
ORM, with the same order. chunk_search() without a queryset uses deliverable()'s WHERE
compiled once per process (search_deliverable), so the hot path builds no queryset at all:
service time is within ~5% of the same SQL run on a bare sqlite3 connection.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence
from datetime import datetime
from typing import Any, cast

from django.db.models import Case, IntegerField, Q, QuerySet, Value, When

from memory.store import text_index
from memory.store.deliverable import deliverable, deliverable_sql
from memory.store.models import Chunk
from memory.store.row_filter import (
    RowFilter,
    chunk_columns,
    chunks_of,
    columns_of,
    compiled_filter,
    converted,
)
from memory.store.text_index import fts5

IN_BATCH = 500  # ids per `pk IN (...)` filter query, well under SQLite's variable limit
WIDEN = (4, 40, None)  # matches considered per step, as multiples of k (None: all)


def search_backend_name() -> str:
    """The chunk store's search backend: 'fts5', 'tsvector' or 'like' (text_index.CHUNKS)."""
    return text_index.CHUNKS.backend()


def _ranked_backend() -> bool:
    """Whether searches run through a ranked text index (FTS5 or tsvector), not LIKE."""
    return text_index.CHUNKS.ranked()


def reset_backend_cache() -> None:
    """Forget the cached index probes (after creating or dropping the FTS table)."""
    text_index.CHUNKS.reset()
    text_index.SKILLS.reset()


def plan(terms: list[str], *, any_term: bool = True) -> list[Any]:
    """Index expressions to try in order (see module docstring), for this database's index;
    without the any-term step (3.) when `any_term` is False (two terms at least, or the one)."""
    steps = text_index.chunk_plan(terms)
    return steps if any_term or len(terms) < 2 else steps[:-1]


def _least_terms(terms: list[str], any_term: bool) -> int:
    """How many of the terms a row must hold: one, or two (all, if fewer) without the any-term step."""
    return 1 if any_term else min(2, len(terms))


# -- the one-statement path: filters compiled from the queryset into the MATCH step


def _fts_ranked(
    terms: list[str],
    k: int,
    compiled: tuple[str, list[Any]],
    columns: Sequence[str],
    *,
    any_term: bool = True,
) -> list[tuple[object, ...]]:
    """The plan's rows (`columns`, id first), best first, at most k, in one statement per try."""
    where, where_params = compiled
    rows: dict[object, tuple[object, ...]] = {}
    for expression in plan(terms, any_term=any_term):
        for factor in WIDEN:
            considered = None if factor is None else k * factor
            found, looked_at = text_index.sql().ranked_rows(
                expression,
                columns=columns,
                where=where,
                where_params=where_params,
                considered=considered,
                take=k + len(rows),
            )
            for row in found:
                if len(rows) >= k:
                    break
                rows.setdefault(row[0], row)
            if len(rows) >= k or considered is None or looked_at < considered:
                break
        if len(rows) >= k:
            break
    return list(rows.values())


def _fts_rows(
    terms: list[str], k: int, queryset: QuerySet[Chunk], compiled: tuple[str, list[Any]]
) -> list[Chunk]:
    return chunks_of(_fts_ranked(terms, k, compiled, chunk_columns()), queryset.model)


# -- the general path: rank ids with MATCH alone, filter them through the ORM


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


def _fts_ids(terms: list[str], k: int, queryset: QuerySet[Chunk], *, any_term: bool = True) -> list[int]:
    out: dict[int, None] = {}
    for expression in plan(terms, any_term=any_term):
        for factor in WIDEN:
            limit = None if factor is None else k * factor
            ids = text_index.sql().match_ids(expression, limit=limit)
            _keep_allowed(ids, queryset, k, out)
            if len(out) >= k or limit is None or len(ids) < limit:
                break
        if len(out) >= k:
            break
    return list(out)[:k]


def _like_ids(terms: list[str], k: int, queryset: QuerySet[Chunk], *, any_term: bool = True) -> list[int]:
    """Rows containing more of the terms first, then newest; heading or content, any case."""
    matches = [Q(content__icontains=t) | Q(heading__icontains=t) for t in terms]
    any_match = functools.reduce(lambda a, b: a | b, matches)
    score = sum(
        (Case(When(m, then=Value(1)), default=Value(0), output_field=IntegerField()) for m in matches),
        Value(0),
    )
    rows = (
        queryset.filter(any_match)
        .annotate(term_hits=score)
        .filter(term_hits__gte=_least_terms(terms, any_term))
        .order_by("-term_hits", "-created_at", "-id")
        .values_list("pk", flat=True)[:k]
    )
    return list(rows)


def _in_order(queryset: QuerySet[Chunk], ids: Sequence[int]) -> list[Chunk]:
    by_id = queryset.model._default_manager.using(queryset.db).in_bulk(list(ids))
    return [by_id[i] for i in ids if i in by_id]


def search_chunks(query: str, *, k: int, queryset: QuerySet[Chunk]) -> list[Chunk]:
    """The best `k` rows of `queryset` for a free-text query, best first; empty query, no hits."""
    terms = fts5.terms_of(query)
    if not terms or k <= 0:
        return []
    if _ranked_backend():
        compiled = compiled_filter(queryset)
        if compiled is not None:
            return _fts_rows(terms, k, queryset, compiled)
        return _in_order(queryset, _fts_ids(terms, k, queryset))
    return _in_order(queryset, _like_ids(terms, k, queryset))


def search_deliverable(
    query: str, *, k: int, include_superseded: bool = False, now: datetime | None = None
) -> list[Chunk]:
    """search_chunks over deliverable() (what chunk_search does with no queryset)."""
    terms = fts5.terms_of(query)
    if not terms or k <= 0:
        return []
    if not _ranked_backend():
        return search_chunks(query, k=k, queryset=deliverable(now=now, include_superseded=include_superseded))
    compiled = deliverable_sql(include_superseded=include_superseded, now=now)
    return _fts_rows(terms, k, Chunk.objects.all(), compiled)


def search_chunk_rows(
    query: str, *, k: int, queryset: QuerySet[Chunk], fields: Sequence[str] = ("id",), any_term: bool = True
) -> list[tuple[Any, ...]]:
    """`fields` (id first) of the best `k` rows of `queryset` for a free-text query, best first.

    On the one-statement path the fields are read by the ranking statement itself, so a caller
    that needs more than ids (structure.search_rows) spends no second statement on them.
    `any_term` False: rows holding two of the terms at least (all of one or two), without the
    plan's any-term step, which on a large store scores every row holding any term."""
    terms = fts5.terms_of(query)
    if not terms or k <= 0:
        return []
    if _ranked_backend():
        compiled = compiled_filter(queryset)
        if compiled is not None:
            return converted(_fts_ranked(terms, k, compiled, columns_of(fields), any_term=any_term), fields)
        ids = _fts_ids(terms, k, queryset, any_term=any_term)
    else:
        ids = _like_ids(terms, k, queryset, any_term=any_term)
    if tuple(fields) == ("id",):
        return [(chunk_id,) for chunk_id in ids]
    found = {row[0]: row for row in RowFilter(queryset).rows(ids, fields)}
    return [found[i] for i in ids if i in found]


def search_chunk_ids(query: str, *, k: int, queryset: QuerySet[Chunk]) -> list[int]:
    """Ids of the best `k` rows of `queryset` for a free-text query; empty query, no hits."""
    return [cast(int, row[0]) for row in search_chunk_rows(query, k=k, queryset=queryset)]
