"""Chunk vectors: the only module with vector SQL and the in-process nearest-neighbour index.

Storage (truth): memory_chunk_vector, an ordinary SQLite table (chunk_id, model, dim, float32
BLOB), created by migration 0009 with triggers that delete a chunk's vector with the chunk.

Index (cache): per process and model, one float32 matrix of unit vectors; a query is one
matrix-vector product plus argpartition (exact cosine, no recall loss). Measured on this
machine (bench/vector_storage.py, 384-dim): 100k rows ~10 ms per query (p99) with numpy
against ~ 85 ms for sqlite-vec's vec0 KNN; the sqlite-vec path would also need
pysqlite3-binary in place of Django's sqlite3 driver, since this Python cannot load extensions.
The matrix keeps each namespace's columns together (VectorIndex), and a search whose queryset
pins its namespaces (row_filter.required_values: `namespace=` / `namespace__in=`, as every
agent's recall does) multiplies only theirs: the caller's whole filter still runs on the hits.
From INT8_MIN_ROWS columns an int8 copy (memory.store.int8_scan, built on a thread) ranks a
whole-index search in a quarter of the bytes, rescoring its best candidates in float32 until
the answer is provably the float32 scan's (same ids, same order).

Freshness: every search first reads `(state.epoch, max(vector.id))`, two index lookups.
- Same epoch, same max id: the cached matrix is current.
- Same epoch, larger max id: rows were only added (ids are AUTOINCREMENT, so later rows always
  have larger ids); load `id > last` and append.
- Different epoch: some vector row was deleted or rewritten, or a chunk with a vector moved
  to another namespace (the state triggers change the epoch to a random value); reload everything.
Inside a transaction (atomic block) nothing is written to the cache, since what this
connection sees may yet be rolled back; the query then searches the cache plus a transient
delta (or a transient full load after a delete). Loads of more than SYNC_LOAD_MAX_ROWS rows
(a cold start: ~1-2 s at 100k here, ~35 s at 1M) run on a background thread, and searches
meanwhile use the previous index or, before the first one, keyword hits alone.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

# One BLAS thread: a vector query is one memory-bound gemv, and OpenBLAS's idle pool threads
# spin on the other core afterwards, slowing the SQLite work beside them (bench/hybrid.py on
# 2 cores: keyword p50 2.8 ms with one thread, 10.6 ms with the default pool). Only takes
# effect if numpy was not imported before; OPENBLAS_NUM_THREADS in the environment wins.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import QuerySet

from memory.store import ann_index, background, int8_scan, pgvector_index, row_filter
from memory.store.models import Chunk

logger = logging.getLogger(__name__)

VECTOR_TABLE = "memory_chunk_vector"
STATE_TABLE = "memory_chunk_vector_state"
CHUNK_TABLE = "memory_chunk"
# Candidates checked against the caller's filters, as multiples of k (None: all). One statement
# per step stops at k passing rows (RowFilter.first_passing_rows), so a wide first step costs a filter
# that passes most rows nothing, and spares a narrow one (a namespace among many) a second step.
WIDEN = (40, None)
# With the int8 scan (memory.store.int8_scan) a candidate list costs a float32 rescore of ~4x its
# length, so the first step asks for 2k: the same rows in the same order, a narrow filter pays
# one more statement.
WIDEN_INT8 = (2, 40, None)
# Columns from which the index keeps an int8 copy (built on a thread; float32 meanwhile). At 50k
# x 384 the hybrid query's vector side went from ~4 ms to ~1.5 ms (bench/recall_cost.py).
INT8_MIN_ROWS = 16_384
IN_BATCH = 500
FETCH = 5000
SYNC_LOAD_MAX_ROWS = 20_000  # larger loads (~0.3 s and up) go to a background thread
REGROUP_MIN = 1024  # columns appended before the index is regrouped by namespace, at least

_UPSERT = (
    "INSERT INTO memory_chunk_vector (chunk_id, model, dim, vector) "
    "SELECT %s, %s, %s, %s WHERE EXISTS (SELECT 1 FROM memory_chunk WHERE id = %s) "
    "ON CONFLICT (chunk_id) DO UPDATE SET model = excluded.model, dim = excluded.dim, "
    "vector = excluded.vector, created_at = CURRENT_TIMESTAMP "
    "WHERE memory_chunk_vector.model IS DISTINCT FROM excluded.model "
    "OR memory_chunk_vector.vector IS DISTINCT FROM excluded.vector"
)
_PROBE = (
    "SELECT (SELECT epoch FROM memory_chunk_vector_state WHERE id = 1), "
    "(SELECT max(id) FROM memory_chunk_vector)"
)
_LATEST_DIM = "SELECT dim FROM memory_chunk_vector WHERE model = %s ORDER BY id DESC LIMIT 1"
# With each vector, its chunk's namespace: the index groups its columns by namespace, so a
# search within one reads only that namespace's columns (a gone chunk reads NULL: none).
_LOAD = (
    "SELECT v.id, v.chunk_id, v.vector, c.namespace FROM memory_chunk_vector AS v "
    "LEFT JOIN memory_chunk AS c ON c.id = v.chunk_id "
    "WHERE v.model = %s AND v.dim = %s AND v.id > %s ORDER BY v.id"
)
_MISSING = (
    "SELECT c.id FROM memory_chunk AS c LEFT JOIN memory_chunk_vector AS v "
    "ON v.chunk_id = c.id AND v.model = %s WHERE v.id IS NULL AND c.id > %s ORDER BY c.id LIMIT %s"
)
_COUNT_MISSING = (
    "SELECT count(*) FROM memory_chunk AS c LEFT JOIN memory_chunk_vector AS v "
    "ON v.chunk_id = c.id AND v.model = %s WHERE v.id IS NULL"
)


def _cursor(alias: str = DEFAULT_DB_ALIAS):  # type: ignore[no-untyped-def]
    return connections[alias].cursor()


def encode(vector: np.ndarray) -> bytes:
    """A vector as the stored BLOB: little-endian float32."""
    return np.ascontiguousarray(vector, dtype="<f4").tobytes()


def decode(blob: bytes) -> np.ndarray:
    return np.frombuffer(blob, dtype="<f4")


# -- writes


def vectors_store(pairs: Iterable[tuple[int, np.ndarray]], *, model: str) -> int:
    """Upsert one vector per chunk (unchanged rows untouched; gone chunks skipped). Rows written."""
    params = []
    for chunk_id, vector in pairs:
        blob = encode(vector)
        params.append((int(chunk_id), model, len(blob) // 4, blob, int(chunk_id)))
    if not params:
        return 0
    if pgvector_index.has_column():  # PostgreSQL with pgvector: the embedding column too
        return pgvector_index.store(params)
    with _cursor() as cursor:
        cursor.executemany(_UPSERT, params)
        written = max(cursor.rowcount, 0)
    ann_index.after_write([p[0] for p in params], model=model)  # SQLite's ANN file: stale ids, rebuilds
    return written


def vectors_delete(chunk_ids: Sequence[int]) -> int:
    """Drop the vectors of these chunks (chunk deletes do this by trigger). Rows removed."""
    removed = 0
    with _cursor() as cursor:
        for start in range(0, len(chunk_ids), IN_BATCH):
            batch = [int(i) for i in chunk_ids[start : start + IN_BATCH]]
            marks = ", ".join(["%s"] * len(batch))
            cursor.execute(f"DELETE FROM memory_chunk_vector WHERE chunk_id IN ({marks})", batch)  # noqa: S608 - placeholders only
            removed += max(cursor.rowcount, 0)
    ann_index.after_write(chunk_ids)  # SQLite's ANN file: these ids' base vectors are gone
    return removed


# -- reads


def chunk_ids_without_vector(*, model: str, after_id: int = 0, limit: int = 1000) -> list[int]:
    """Ids of chunks with no vector for `model`, ascending, after `after_id` (keyset paging)."""
    with _cursor() as cursor:
        cursor.execute(_MISSING, [model, int(after_id), int(limit)])
        return [row[0] for row in cursor.fetchall()]


def count_without_vector(*, model: str) -> int:
    with _cursor() as cursor:
        cursor.execute(_COUNT_MISSING, [model])
        return int(cursor.fetchone()[0])


def stored_vectors(chunk_ids: Sequence[int], *, model: str | None = None) -> dict[int, np.ndarray]:
    """chunk id -> stored vector (of `model` if given) for the ids that have one."""
    out: dict[int, np.ndarray] = {}
    with _cursor() as cursor:
        for start in range(0, len(chunk_ids), IN_BATCH):
            batch = [int(i) for i in chunk_ids[start : start + IN_BATCH]]
            marks = ", ".join(["%s"] * len(batch))
            sql = f"SELECT chunk_id, model, vector FROM memory_chunk_vector WHERE chunk_id IN ({marks})"  # noqa: S608
            cursor.execute(sql, batch)
            for chunk_id, row_model, blob in cursor.fetchall():
                if model is None or row_model == model:
                    out[chunk_id] = decode(blob)
    return out


def vector_count(*, model: str | None = None) -> int:
    with _cursor() as cursor:
        if model is None:
            cursor.execute("SELECT count(*) FROM memory_chunk_vector")
        else:
            cursor.execute("SELECT count(*) FROM memory_chunk_vector WHERE model = %s", [model])
        return int(cursor.fetchone()[0])


def has_vector(*, model: str) -> bool:
    """Whether any vector of `model` is stored: one row of the (model, id) index, where a
    count reads them all (a fresh process's first hybrid search at 1M rows paid for that)."""
    with _cursor() as cursor:
        cursor.execute("SELECT 1 FROM memory_chunk_vector WHERE model = %s LIMIT 1", [model])
        return cursor.fetchone() is not None


# -- the in-process index


_namespace_codes: dict[str | None, int] = {}  # namespace -> small int, the same in every index
_codes_lock = threading.Lock()


def namespace_code(namespace: str | None) -> int:
    """The process-wide code of a namespace (assigned on first sight)."""
    code = _namespace_codes.get(namespace)
    if code is None:
        with _codes_lock:
            code = _namespace_codes.setdefault(namespace, len(_namespace_codes))
    return code


@dataclass(frozen=True, eq=False)
class Segment:
    """Chunk ids, their unit vectors column for column, and each column's namespace code.

    `spans`: for the first `grouped` columns, which are ordered by namespace, each namespace's
    [start, end); the columns after them are in arrival order."""

    ids: np.ndarray  # int64 chunk ids
    columns: np.ndarray  # (dim, len(ids)) float32: one vector per column, so q @ columns is one BLAS gemv
    namespaces: np.ndarray  # int32 namespace codes (namespace_code)
    spans: Mapping[int, tuple[int, int]] = field(default_factory=dict)
    grouped: int = 0
    quantized: int8_scan.Int8Columns | None = None  # the first quantized.size columns, as int8

    def within(self, codes: Collection[int]) -> list[Segment]:
        """The parts of this segment in any of the namespaces `codes`: one column slice per
        namespace (a view, no copy) and the matching columns after the grouped ones."""
        parts = []
        for code in codes:
            start, end = self.spans.get(code, (0, 0))
            if end > start:
                span = slice(start, end)
                parts.append(Segment(self.ids[span], self.columns[:, span], self.namespaces[span]))
        if len(self.ids) > self.grouped:
            at = self.grouped + np.flatnonzero(np.isin(self.namespaces[self.grouped :], list(codes)))
            if len(at):
                parts.append(Segment(self.ids[at], self.columns[:, at], self.namespaces[at]))
        return parts


class VectorIndex:
    """A growable column matrix of one model's vectors, tagged with the state it was read at.

    Stored transposed (dim x capacity) because `q @ M` over columns runs ~2x faster than
    `M @ q` over rows here (measured 20 vs 42 ms at 100k x 384, one thread). Columns are kept
    grouped by namespace (reordered after a load, and again once the rows appended since make
    up a quarter of them), so a search within a namespace multiplies one contiguous slice:
    ~9 us for 340 of 4,109 columns here, against ~90 us for all of them or for a gather.
    Readers hold an immutable Segment (`segment()`), replaced whole on every change.
    """

    def __init__(self, *, dim: int, epoch: bytes | None) -> None:
        self.dim = dim
        self.epoch = epoch
        self.max_row_id = 0
        self.layout = 0  # counts reorderings of the columns (an int8 copy is of one layout)
        self._quantized: int8_scan.Int8Columns | None = None
        self._ids = np.empty(0, dtype=np.int64)
        self._columns = np.empty((dim, 0), dtype=np.float32)
        self._namespaces = np.empty(0, dtype=np.int32)
        self._view = Segment(self._ids, self._columns, self._namespaces)

    @property
    def size(self) -> int:
        return len(self._view.ids)

    def extend(self, segment: Segment, *, max_row_id: int) -> None:
        size, count = self.size, len(segment.ids)
        if size + count > len(self._ids):
            # Headroom, so the writes after a load append in place instead of copying the matrix.
            self._reallocate(max(size + count, len(self._ids) * 5 // 4) * 9 // 8 + 1024)
        self._ids[size : size + count] = segment.ids
        self._columns[:, size : size + count] = segment.columns
        self._namespaces[size : size + count] = segment.namespaces
        view = self._view
        self._view = Segment(
            *self._arrays(size + count), spans=view.spans, grouped=view.grouped, quantized=self._quantized
        )
        self.max_row_id = max(self.max_row_id, max_row_id)
        if self.size - view.grouped > max(REGROUP_MIN, view.grouped // 4):
            self._regroup()

    def _arrays(self, size: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return self._ids[:size], self._columns[:, :size], self._namespaces[:size]

    def _reallocate(self, capacity: int, order: np.ndarray | None = None) -> None:
        """New arrays of `capacity` holding the current columns, in `order` if given (readers
        keep the old ones)."""
        size = self.size
        taken = slice(0, size) if order is None else order
        ids = np.empty(capacity, dtype=np.int64)
        columns = np.empty((self.dim, capacity), dtype=np.float32)
        namespaces = np.empty(capacity, dtype=np.int32)
        ids[:size] = self._ids[taken]
        namespaces[:size] = self._namespaces[taken]
        for row in range(0, self.dim, 64):  # a band of rows at a time: no second whole matrix
            columns[row : row + 64, :size] = self._columns[row : row + 64, taken]
        self._ids, self._columns, self._namespaces = ids, columns, namespaces

    def _regroup(self) -> None:
        size = self.size
        self._reallocate(len(self._ids), np.argsort(self._namespaces[:size], kind="stable"))
        codes, starts, counts = np.unique(self._namespaces[:size], return_index=True, return_counts=True)
        spans = {int(c): (int(s), int(s + n)) for c, s, n in zip(codes, starts, counts, strict=True)}
        self.layout += 1
        self._quantized = None
        self._view = Segment(*self._arrays(size), spans=MappingProxyType(spans), grouped=size)

    def segment(self) -> Segment:
        return self._view

    def wants_int8(self) -> bool:
        """Whether an int8 copy is due: a large index without one, or with one covering less
        than three quarters of its columns."""
        covered = self._quantized.size if self._quantized is not None else 0
        return self.size >= INT8_MIN_ROWS and covered * 4 < self.size * 3

    def attach_int8(self, quantized: int8_scan.Int8Columns, layout: int) -> None:
        """Use `quantized` (built from the columns as they were at `layout`) from now on."""
        if layout != self.layout or quantized.size > self.size:
            return  # the columns were reordered meanwhile: a later build will do
        self._quantized = quantized
        view = self._view
        self._view = Segment(view.ids, view.columns, view.namespaces, view.spans, view.grouped, quantized)


_cache: dict[tuple[str, str, str], VectorIndex] = {}
_reloads = background.OncePerKey()
_cache_lock = threading.Lock()
_warned: set[str] = set()


def reset_cache() -> None:
    """Forget every in-process index (tests; after restoring a database file)."""
    with _cache_lock:
        _cache.clear()


def _probe(alias: str) -> tuple[bytes | None, int]:
    with _cursor(alias) as cursor:
        cursor.execute(_PROBE)
        epoch, max_id = cursor.fetchone()
    return (bytes(epoch) if epoch is not None else None), int(max_id or 0)


def _latest_dim(alias: str, model: str) -> int | None:
    with _cursor(alias) as cursor:
        cursor.execute(_LATEST_DIM, [model])
        row = cursor.fetchone()
    return int(row[0]) if row else None


def _load(alias: str, model: str, *, dim: int, after_id: int) -> tuple[Segment, int]:
    """Rows of `model` with `dim` and id > after_id, normalised; and the largest row id read."""
    ids: list[int] = []
    blobs: list[bytes] = []
    namespaces: list[int] = []
    last = after_id
    with _cursor(alias) as cursor:
        cursor.execute(_LOAD, [model, dim, int(after_id)])
        while rows := cursor.fetchmany(FETCH):
            for row_id, chunk_id, blob, namespace in rows:
                ids.append(chunk_id)
                blobs.append(bytes(blob))
                namespaces.append(namespace_code(namespace))
                last = row_id
    rows = np.frombuffer(b"".join(blobs), dtype="<f4").astype(np.float32).reshape(len(blobs), dim)
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    rows /= np.where(norms > 0, norms, 1.0)
    segment = Segment(
        ids=np.asarray(ids, dtype=np.int64),
        columns=np.ascontiguousarray(rows.T),
        namespaces=np.asarray(namespaces, dtype=np.int32),
    )
    return segment, last


def _full_index(alias: str, model: str) -> VectorIndex | None:
    """Every vector of `model` (at its newest dimension), read now."""
    epoch, max_id = _probe(alias)
    dim = _latest_dim(alias, model)
    if dim is None:
        return None
    full, last = _load(alias, model, dim=dim, after_id=0)
    index = VectorIndex(dim=dim, epoch=epoch)
    index.extend(full, max_row_id=max(last, max_id))
    return index


def _background_reload(key: tuple[str, str, str]) -> None:
    """Rebuild one index on a thread of its own (its own connection, so committed rows only)."""
    alias, _, model = key

    def reload() -> None:
        index = _full_index(alias, model)
        if index is not None:
            with _cache_lock:
                _cache[key] = index
            logger.info("vector index for %s loaded: %d rows, dim %d", model, index.size, index.dim)

    _reloads.start(
        key,
        reload,
        alias=alias,
        name=f"vector-index-{model}",
        failure=f"vector index for {model} failed to load; vector hits stay off until it does",
    )


_int8_builds = background.OncePerKey()


def _int8_copy(index: VectorIndex) -> None:
    with _cache_lock:
        layout, segment = index.layout, index.segment()
    quantized = int8_scan.build(segment.columns)
    with _cache_lock:
        index.attach_int8(quantized, layout)


def _ensure_int8(key: tuple[str, str, str], index: VectorIndex, *, now: bool = False) -> None:
    """Build the index's int8 copy (memory.store.int8_scan) if due: on a thread, or `now`."""
    if not index.wants_int8() or not int8_scan.available():
        return
    if now:
        _int8_copy(index)
        return
    _int8_builds.start(
        (key, id(index)),
        lambda: _int8_copy(index),
        alias=key[0],
        name=f"vector-int8-{key[2]}",
        failure=f"int8 copy of the {key[2]} vectors failed; the float32 scan serves",
    )


def warm(model: str, *, alias: str = DEFAULT_DB_ALIAS) -> int:
    """Load the committed index for `model` now, whatever its size, and its int8 copy; rows loaded.

    A no-op (0) inside a transaction, where searches read exactly what it sees anyway.
    """
    if background.in_transaction(alias) or pgvector_index.active(alias):  # pgvector: nothing to hold
        return 0
    index = _full_index(alias, model)
    if index is None:
        return 0
    key = (alias, str(connections[alias].settings_dict.get("NAME")), model)
    with _cache_lock:
        _cache[key] = index
    _ensure_int8(key, index, now=True)
    return index.size


def snapshot(model: str, *, alias: str = DEFAULT_DB_ALIAS) -> list[Segment]:
    """The current vectors of `model` as segments (cached matrix first), refreshed as needed.

    Outside a transaction, a load of more than SYNC_LOAD_MAX_ROWS rows (cold start, or a reload
    after deletes) runs in the background; until it lands, the previous index serves (deleted
    rows in it are harmless: callers filter ids through the chunk table; an edited row may match
    on its old text until then) or, with none, there are no vector hits. Inside a transaction
    the answer is always exact for what that transaction sees.
    """
    epoch, max_id = _probe(alias)
    if max_id == 0:
        return []
    key = (alias, str(connections[alias].settings_dict.get("NAME")), model)
    transient = background.in_transaction(alias)
    with _cache_lock:
        index = _cache.get(key)
    current = [index.segment()] if index is not None else []
    if index is not None and index.epoch == epoch:
        if index.max_row_id >= max_id:
            _ensure_int8(key, index)
            return current
        if max_id - index.max_row_id <= SYNC_LOAD_MAX_ROWS:
            with _cache_lock:
                start = index.max_row_id
                delta, last = _load(alias, model, dim=index.dim, after_id=start)
                if transient:
                    return [*current, delta]
                if index.max_row_id == start:
                    index.extend(delta, max_row_id=max(last, max_id))
                return [index.segment()]
    if transient:  # exactly what this transaction sees, whatever it costs; never cached
        mine = _full_index(alias, model)
        return [mine.segment()] if mine is not None else []
    if max_id > SYNC_LOAD_MAX_ROWS:
        _background_reload(key)
        return current
    fresh = _full_index(alias, model)
    if fresh is None:
        return []
    with _cache_lock:
        _cache[key] = fresh
    return [fresh.segment()]


def _ranked(segments: list[Segment], query: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(chunk ids, cosine scores) over all segments, unsorted."""
    if len(segments) == 1:
        return segments[0].ids, query @ segments[0].columns
    ids = np.concatenate([s.ids for s in segments])
    scores = np.concatenate([query @ s.columns for s in segments])
    return ids, scores


def nearest_ids(
    query: np.ndarray, *, k: int, model: str, queryset: QuerySet[Chunk] | None = None
) -> list[int]:
    """Ids of the `k` chunks (of `queryset`, if given) whose `model` vectors are closest to `query`."""
    if queryset is None and pgvector_index.active():  # PostgreSQL: the HNSW index, in SQL
        return pgvector_index.nearest_ids(query, k=k, model=model)
    if queryset is not None:
        return [row[0] for row in nearest_rows(query, k=k, model=model, queryset=queryset)]
    if (found := ann_index.nearest_ids(query, k=k, model=model)) is not None:  # SQLite, large store
        return found
    if k <= 0:
        return []
    scan = _scored(query, model, None)
    return scan.ids[scan.top(k)].tolist()


def exact_scan(model: str, queryset: QuerySet[Chunk]) -> bool:
    """Whether nearest_rows(k=n) for `model` and `queryset` is the first n of nearest_rows(k=m)
    for every m > n: the in-process exact scan (a total order: cosine, then position), not
    pgvector's or the ANN file's approximate search, whose candidates depend on k."""
    return not pgvector_index.active(queryset.db) and ann_index.active_base(model) is None


def nearest_rows(
    query: np.ndarray, *, k: int, model: str, queryset: QuerySet[Chunk], fields: Sequence[str] = ("id",)
) -> list[tuple[object, ...]]:
    """`fields` (id first) of the `k` rows of `queryset` whose `model` vectors are closest to
    `query`, closest first: the filter and the read are one statement per step (WIDEN)."""
    if pgvector_index.active(queryset.db):  # PostgreSQL: the HNSW index, filtered in SQL
        return pgvector_index.nearest_rows(query, k=k, model=model, queryset=queryset, fields=fields)
    found = ann_index.nearest_rows(query, k=k, model=model, queryset=queryset, fields=fields)
    if found is not None:  # SQLite with a large store: the shared ANN file
        return found
    if k <= 0:
        return []
    scan = _scored(query, model, row_filter.required_values(queryset, "namespace"))
    ids = scan.ids
    total = len(ids)
    passes = row_filter.RowFilter(queryset)
    kept: list[tuple[object, ...]] = []
    seen = 0
    for factor in WIDEN if scan.scores is not None else WIDEN_INT8:
        count = total if factor is None else min(total, k * factor)
        candidates = ids[scan.top(count)[seen:]].tolist()
        seen = count
        kept += passes.first_passing_rows(candidates, k - len(kept), fields)
        if len(kept) >= k or count >= total:
            break
    return kept


@dataclass(frozen=True, eq=False)
class _Scan:
    """The vectors a query is ranked over: chunk ids and their cosines (`scores`), or, for a
    whole index with an int8 copy, the query and that segment, ranked on demand (`top`)."""

    ids: np.ndarray
    scores: np.ndarray | None
    query: np.ndarray | None = None
    segment: Segment | None = None

    def top(self, count: int) -> np.ndarray:
        """Positions of the `count` best cosines, best first, ties to the lower position: the
        same answer from either form (memory.store.int8_scan.exact_top)."""
        count = min(count, len(self.ids))
        if self.scores is not None:
            return int8_scan.top_positions(self.scores, count)
        if self.segment is None or self.segment.quantized is None or self.query is None:
            raise ValueError("a _Scan holds scores, or a query and a quantized segment")
        return int8_scan.exact_top(self.query, self.segment.columns, self.segment.quantized, count)


_NONE = _Scan(np.empty(0, dtype=np.int64), np.empty(0, dtype=np.float32))


def _scored(query: np.ndarray, model: str, namespaces: frozenset[str] | None) -> _Scan:
    """The vectors of `model` (in `namespaces` only, if given: the index keeps each namespace's
    columns together) with their cosines to `query`, computed or to compute (_Scan)."""
    segments = snapshot(model)
    if not segments:
        return _NONE
    dim = segments[0].columns.shape[0]
    query = np.asarray(query, dtype=np.float32).ravel()
    if query.shape[0] != dim:
        if model not in _warned:
            _warned.add(model)
            logger.warning(
                "query vector has %d dims, stored %s vectors %d: no vector hits", len(query), model, dim
            )
        return _NONE
    norm = float(np.linalg.norm(query))
    if norm == 0:
        return _NONE
    if namespaces is not None:
        codes = [_namespace_codes[n] for n in namespaces if n in _namespace_codes]  # else no vectors
        segments = [part for segment in segments for part in segment.within(codes)]
        if not segments:
            return _NONE
    if len(segments) == 1 and segments[0].quantized is not None:
        return _Scan(segments[0].ids, None, query / norm, segments[0])
    return _Scan(*_ranked(segments, query / norm))
