"""Recall's one entry point: retrieve(query, reader, k, options) -> ranked rows with score and why.

Every reader of memory asks here: agent recall and the per-turn context (through
memory.lifecycle.selectors.chunk_search), MCP (through memory_recall), the admin's search box
and the evals. The paths it picks between (`Options.mode`):

  keyword  the text index (memory.retrieval.search), then memory.retrieval.structure's steps
           (dates, conversation turns) when a hit is a turn or the query names a date
  hybrid   keyword and vector rankings fused (memory.retrieval.hybrid); keyword on an outage
  auto     hybrid when knowledge.embeddings is on and the store holds vectors, else keyword
  text     the text index's order alone (the admin's search box; an eval's baseline)
  vector   the vector ranking alone (evals)

`reader`: the rows the caller may read (a Chunk queryset already scoped by memory.lifecycle),
or None for every row. Unless `Options.every_row`, only deliverable rows are ranked
(memory.store.deliverable: not rejected, expired or invalidated; history if asked).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Literal

from django.db import connection
from django.db.models import QuerySet

from memory.retrieval import structure
from memory.retrieval.search import search_chunk_ids, search_chunks, search_deliverable
from memory.store import row_filter
from memory.store.deliverable import deliverable
from memory.store.models import Chunk
from protomem.config import get_config

if TYPE_CHECKING:
    import numpy as np

    from memory.retrieval.hybrid import StartedEmbedding

Mode = Literal["auto", "keyword", "hybrid", "text", "vector"]

# why a row is in the list: the path that ranked it
KEYWORD = "keyword"  # the text index's order, no structure step applied
KEYWORD_RERANKED = "keyword, reranked"  # the text index, then dates / conversation turns
HYBRID = "keyword + vector"  # both rankings fused (weighted RRF), then dates / turns
KEYWORD_FALLBACK = "keyword (vector side unavailable)"
TEXT = "text index"
VECTOR = "vector"


@dataclass(frozen=True)
class Options:
    """How to retrieve (module doc). `model`: the embedding model (default the active one);
    `query_vector`: the query already embedded (an eval embeds its queries in one batch);
    `started`: an embedding begun earlier (memory.retrieval.hybrid.start_embedding); `load`:
    read the Chunk rows (False: ids and scores only)."""

    mode: Mode = "auto"
    include_superseded: bool = False
    every_row: bool = False
    model: str | None = None
    query_vector: np.ndarray | None = None
    started: StartedEmbedding | None = None
    load: bool = True


DEFAULT = Options()


@dataclass(frozen=True)
class Ranked:
    """One ranked row: its id, its score on the path that ranked it (None where that path keeps
    the text index's order without a score), why it is here (the path), and the row if loaded."""

    chunk_id: int
    score: float | None
    why: str
    chunk: Chunk | None = None


def retrieve(query: str, reader: QuerySet[Chunk] | None, k: int, options: Options = DEFAULT) -> list[Ranked]:
    """The best `k` rows of `reader` for `query`, best first (module doc)."""
    if k <= 0:
        return []
    mode = options.mode
    if mode == "auto":
        vectors_on = get_config().knowledge.embeddings and store_has_vectors(options.model)
        mode = "hybrid" if vectors_on else "keyword"
    if mode == "keyword":
        return _keyword(query, reader, k, options)
    if mode == "hybrid":
        return _hybrid(query, reader, k, options)
    base = _base(reader, options)
    if mode == "text":
        return _ranked([(i, None) for i in search_chunk_ids(query, k=k, queryset=base)], TEXT, options)
    if mode == "vector":
        return _ranked(_vector(query, base, k, options), VECTOR, options)
    raise ValueError(f"unknown retrieval mode {mode!r}")


def retrieve_ids(query: str, reader: QuerySet[Chunk] | None, k: int, options: Options = DEFAULT) -> list[int]:
    """retrieve()'s ids alone, best first (no row read)."""
    return [r.chunk_id for r in retrieve(query, reader, k, replace(options, load=False))]


def _base(reader: QuerySet[Chunk] | None, options: Options) -> QuerySet[Chunk]:
    if options.every_row:
        return reader if reader is not None else Chunk.objects.all()
    return deliverable(reader, include_superseded=options.include_superseded)


def _ranked(
    scored: list[tuple[int, float | None]],
    why: str,
    options: Options,
    loaded: structure.Loaded | None = None,
) -> list[Ranked]:
    """`scored` as Ranked rows, their chunks read (unless not options.load) or taken from
    `loaded`, the rows the ranking statements read already (structure.rows_read)."""
    if not options.load:
        return [Ranked(i, score, why) for i, score in scored]
    chunks = row_filter.chunks_in_order([i for i, _ in scored], loaded)
    score_of = dict(scored)
    return [Ranked(c.pk, score_of[c.pk], why, c) for c in chunks]


def _keyword(query: str, reader: QuerySet[Chunk] | None, k: int, options: Options) -> list[Ranked]:
    """The text index's top k; the structure steps from a deeper pool only when they would change
    something (a turn among the hits, a date in the query): a plain store keeps the top k as found."""
    if reader is None and not options.every_row:  # the common case: deliverable()'s SQL compiled once
        hits = search_deliverable(query, k=k, include_superseded=options.include_superseded)
        base = None
    else:
        base = _base(reader, options)
        hits = search_chunks(query, k=k, queryset=base)
    if not structure.wants_rerank(query, hits):
        return [Ranked(c.pk, None, KEYWORD, c if options.load else None) for c in hits]
    if base is None:
        base = _base(reader, options)
    scored = structure.keyword_scored(query, k=k, queryset=base)
    if not options.load:
        return [Ranked(i, score, KEYWORD_RERANKED) for i, score in scored]
    held = {c.pk: c for c in hits}
    missing = [i for i, _ in scored if i not in held]  # deeper in the pool, or turns the window added
    held.update((c.pk, c) for c in row_filter.chunks_in_order(missing))
    return [Ranked(i, score, KEYWORD_RERANKED, held[i]) for i, score in scored if i in held]


def _hybrid(query: str, reader: QuerySet[Chunk] | None, k: int, options: Options) -> list[Ranked]:
    from memory.embedding import embeddings
    from memory.retrieval.hybrid import fused_scored, hybrid_scored, start_embedding

    model = options.model or embeddings.active_model()
    loaded = _rows_kept(options)
    if options.query_vector is not None:
        base = _base(reader, options)
        scored = fused_scored(query, options.query_vector, k=k, queryset=base, model=model, loaded=loaded)
        return _ranked(list(scored), HYBRID, options, loaded)
    started = options.started
    if started is None and query.strip():  # on another core, while the filters are built
        started = start_embedding(query, model=model)
    base = _base(reader, options)
    scored, answered = hybrid_scored(query, k=k, queryset=base, model=model, started=started, loaded=loaded)
    return _ranked(list(scored), HYBRID if answered else KEYWORD_FALLBACK, options, loaded)


def _rows_kept(options: Options) -> structure.Loaded | None:
    """Where hybrid's keyword and vector statements keep the whole rows they read, when the
    rows are to be loaded: the rows returned then need no statement of their own (on
    PostgreSQL a round trip each search; bench/pgvector.py measures both ways)."""
    return {} if options.load else None


def _vector(query: str, base: QuerySet[Chunk], k: int, options: Options) -> list[tuple[int, float | None]]:
    from memory.embedding import embeddings
    from memory.store import vectors

    model = options.model or embeddings.active_model()
    query_vector = options.query_vector
    if query_vector is None:
        query_vector = embeddings.embed_query(query, model=model)
    return [(i, None) for i in vectors.nearest_ids(query_vector, k=k, model=model, queryset=base)]


def prepare_hybrid() -> None:
    """Load, once, what a process's first hybrid search otherwise loads on its way (a web worker
    calls this before it takes requests: protomem.warmup): on SQLite the ANN index's native
    library and mapped base, and the local model's query session (a fresh process's first hybrid
    search paid ~0.5 s for these at 100k rows). No database query; nothing when embeddings are off."""
    if not get_config().knowledge.embeddings:
        return
    from memory.embedding import embeddings
    from memory.store import ann_index

    model = embeddings.active_model()
    ann_index.current_base(model)
    embeddings.prepare_queries(model)


_HAS_VECTORS: set[tuple[str, str]] = set()  # (database, model) seen holding vectors in this process


def store_has_vectors(model: str | None = None) -> bool:
    """Whether the store holds any vector of `model` (default the active one).

    With none (embeddings on, no row embedded yet: a fresh instance, or a store whose embedding
    task has not run) the vector side of a search can find nothing, so embedding the query (~4 ms
    of the local model per search) is skipped and the search is keyword-only, as on an outage.
    Stores only gain vectors in normal use, so a yes is remembered for the process (a store
    emptied of vectors later costs only the old wasted embedding); a no is asked again each
    search (one probe of the (model, id) index).
    """
    from memory.embedding import embeddings
    from memory.store import vectors

    model = model or embeddings.active_model()
    key = (str(connection.settings_dict["NAME"]), model)
    if key in _HAS_VECTORS:
        return True
    if not vectors.has_vector(model=model):
        return False
    _HAS_VECTORS.add(key)
    return True
