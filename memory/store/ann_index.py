"""The ANN index of chunk vectors on SQLite: one shared, memory-mapped usearch file per model.

Why usearch (2.26.6): its `Index.view()` memory-maps a saved HNSW graph with its vectors, so
every web and worker process on the host shares one copy through the page cache and a new
process answers at once (no load, no per-process matrix); hnswlib can only load a whole copy
into each process, and faiss' HNSW has no memory-mapped read either. Measured figures are in
bench/ann.py's output and the commit that chose it.

Layout, beside the SQLite file (`<db>.ann/`), per model (`<slug>` = the model name made safe
plus a hash of it):
- `<slug>.<generation>.usearch`: the base, every vector of the model with row id <= the base's
  `max_row_id`, built in one go (build()) and never changed afterwards;
- `<slug>.json`: the pointer to the current base and what it holds (written to a temporary
  file and renamed over the old one, so a reader sees either the old base or the new one);
- `<slug>.changed`: an append-only log of chunk ids (int64) whose vector was rewritten or
  deleted after being put in a base (after_write()): a base hit on such an id is dropped and the
  id's current vector, if any, is searched exactly with the delta;
- `<slug>.lock`: held (flock) by the one process building.

Search = the base's approximate neighbours (int8 in the file, rescored exactly from the table's
float32 vectors) + an exact scan of the delta (rows with id above
the base's `max_row_id`, and the changed ids), merged by cosine. A caller's queryset is applied
to the ranked candidates by row_filter.RowFilter (the same check as the exact path), widening
the candidates twice (OVERFETCH) and falling back to an exact scan of the rows that pass the
filter when it is too selective for that, or when it pins namespaces holding few rows
(SMALL_FILTER_ROWS). No process loads every vector: the base is mapped, the delta is small, and
a process drops the file's pages from its page tables once it holds more than a budget of them
(resident_budget(): 128 MB unless set), so a worker's VmRSS stays bounded on a large store.

The writer (vectors_store / vectors_delete, called by the embedding task) logs rewritten ids
and starts a background rebuild when the store has crossed knowledge.vector_ann_min_rows
without a base, or when the delta has grown past REBUILD_DELTA_MIN and REBUILD_DELTA_SHARE of
the base. The only SQL touching the vector table outside memory.store.vectors lives here.
"""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import hashlib
import json
import logging
import os
import re
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.db.models import QuerySet

from memory.store import background, row_filter
from memory.store.models import Chunk
from protomem.config import get_config

logger = logging.getLogger(__name__)

# The base holds int8 vectors and ranks by them; its hits are then rescored exactly from the
# float32 vectors in the table (rescored()), so the scores are the exact path's cosines. At 1M
# rows f32 made a 1.6 GB file whose pages a worker maps and touches (~1.7 kB per vector visited),
# i8 a 0.5 GB one, built with 2.6x less CPU; own top-10 agreement drops from 0.995 to 0.90, and
# back to 0.999 when its top 20 are rescored (bench/ann.py --compare-builds 50000).
DTYPE = "i8"
RESCORE_MIN = 20  # base hits read back and rescored at least (nearest_ids asks for 2k)
CONNECTIVITY = 16
# Build-time beam: usearch's default 128. At 20k rows 64 gave the same agreement for half the
# CPU, but the 1M graph it built plateaued (search beam 256 -> 0.853 top-10 agreement, 2048 ->
# 0.90); built with 128 the same store reaches 0.978 at beam 256 for 1.22x the build CPU (1368
# against 1125 CPU s; bench/ann.py --rows 1000000 --rebuild-index, clustered vectors).
EXPANSION_ADD = 128
# Search-time beam (a search asking for more candidates widens it to their count). 1M x 384
# int8 built with EXPANSION_ADD 64 (bench/ann.py --tune, top 10 over deliverable() against
# exact): 64 -> 0.56 agreement at p50 2.6 ms, 128 -> 0.74 / 3.3 ms, 256 -> 0.83 / 5.5 ms.
# 1M rows built with 128 (bench/ann.py --tune, 100 queries, top 10 over deliverable()): development
# split 0.978 at 256 (p50 3.75 ms), 0.981 at 384 (5.08 ms), 0.984 at 512; rescoring 40 instead of
# 20 hits adds <= 0.001: the graph walk, not the int8 ranking, loses the rest. Held-out split:
# 0.988 at 256 and at 384.
EXPANSION_SEARCH = 384
# Candidates checked against the caller's filter, as multiples of k: an HNSW search costs about
# its candidate count (100k x 384 here: ~17 ms for 400 against ~2 ms for 40), and the usual filter
# (deliverable rows, ~93% of them) passes k of the first 2k; a namespace among many needs more.
OVERFETCH = (2, 20, 200)
SMALL_FILTER_ROWS = 2000  # namespaces pinned by the filter holding at most this many rows: exact
BUILD_BATCH = 20_000
REBUILD_DELTA_MIN = 10_000
REBUILD_DELTA_SHARE = 0.05
AUTO_BUILD = True  # writers start background builds (tests switch it off and call build())
IN_BATCH = 500
# Bytes of the mapped base a process may keep in its page tables between releases. A search
# touches scattered pages of the file and the kernel maps ~16 pages around each fault (MADV_RANDOM
# does not stop it), so without a release a worker's VmRSS grows by the whole file within ~100
# queries (1M rows: 508 of its 687 MB). Those pages are the page cache, shared by every process
# mapping the file (and charged to the cgroup whether mapped or not): PSS and private memory are a
# worker's own cost, but hosts police VmRSS. Releasing (MADV_DONTNEED on the read-only shared
# mapping) drops them from this process's page tables; they stay cached, so a re-touch is a minor
# fault, but each release and the faults after it cost time in proportion to the pages a query
# touches (100k rows, ~38 MB a query: releasing after every search made it 4x slower on a loaded
# 2-core VM, the zap alone ~45 ms; larger budgets only save the pages re-touched before a release),
# so the default budget only bites on large files: a store whose file fits it never releases.
# MADV_COLD does not unmap the pages (VmRSS unchanged: measured).
# settings.PROTOMEM_ANN_RESIDENT_BUDGET overrides it (bytes; None: never release); RESIDENT_BUDGET
# overrides both (benches, tests).
DEFAULT_RESIDENT_BUDGET = 128 * 2**20
RESIDENT_BUDGET: int | None = None
RESIDENT_BUDGET_SETTING = "PROTOMEM_ANN_RESIDENT_BUDGET"
_MADV_DONTNEED = 4
_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096

_ROWS = (
    "SELECT chunk_id, vector FROM memory_chunk_vector "
    "WHERE model = %s AND dim = %s AND id > %s AND id <= %s ORDER BY id"
)
_DELTA_ROWS = (
    "SELECT id, chunk_id, vector FROM memory_chunk_vector "
    "WHERE model = %s AND dim = %s AND id > %s ORDER BY id"
)
_MAX_ID = "SELECT max(id) FROM memory_chunk_vector"
_EPOCH = "SELECT epoch FROM memory_chunk_vector_state WHERE id = 1"
_LATEST_DIM = "SELECT dim FROM memory_chunk_vector WHERE model = %s ORDER BY id DESC LIMIT 1"
_COUNT = "SELECT count(*) FROM memory_chunk_vector WHERE model = %s"
_COUNT_AFTER = "SELECT count(*) FROM memory_chunk_vector WHERE model = %s AND id > %s"
_SMALL_NAMESPACES = "SELECT count(*) FROM (SELECT 1 FROM memory_chunk WHERE namespace IN ({marks}) LIMIT %s)"
# By chunk id through its UNIQUE index: the unary + keeps SQLite's planner off the (model, id)
# index, which it picked for `model = ? AND chunk_id IN (...)` and then walked every row of the
# model (40 ids at 20k rows: 251 ms against 0.4 ms).
_BY_CHUNK = (
    "SELECT chunk_id, vector FROM memory_chunk_vector "
    "WHERE chunk_id IN ({marks}) AND +model = %s AND +dim = %s"
)
_BY_ROW_ID = (
    "SELECT chunk_id, vector FROM memory_chunk_vector WHERE id IN ({marks}) AND +model = %s AND +dim = %s"
)
_FILTERED = (
    'SELECT v.chunk_id, v.vector FROM "memory_chunk" JOIN memory_chunk_vector AS v '
    'ON v.chunk_id = "memory_chunk"."id" WHERE v.model = %s AND v.dim = %s AND ({where})'
)


# -- files


def index_dir(alias: str = DEFAULT_DB_ALIAS) -> Path | None:
    """`<db>.ann/` for an SQLite database in a file; None otherwise (PostgreSQL, in-memory)."""
    connection = connections[alias]
    if connection.vendor != "sqlite":
        return None
    name = str(connection.settings_dict.get("NAME") or "")
    if not name or name == ":memory:" or name.startswith("file:"):
        return None
    return Path(f"{name}.ann")


def _slug(model: str) -> str:
    safe = re.sub(r"[^A-Za-z0-9_.-]+", "_", model)[:48]
    return f"{safe}-{hashlib.sha256(model.encode()).hexdigest()[:10]}"


def _pointer(directory: Path, model: str) -> Path:
    return directory / f"{_slug(model)}.json"


def _changed_log(directory: Path, model: str) -> Path:
    return directory / f"{_slug(model)}.changed"


def _file_size(path: Path) -> int:
    try:
        return path.stat().st_size
    except FileNotFoundError:
        return 0


def _read_changed(path: Path, start: int, end: int) -> list[int]:
    start -= start % 8
    if end <= start:
        return []
    with open(path, "rb") as handle:
        handle.seek(start)
        data = handle.read(end - start)
    usable = len(data) - len(data) % 8
    return np.frombuffer(data[:usable], dtype="<i8").tolist()


def _decode_rows(blobs: Sequence[bytes], dim: int) -> np.ndarray:
    """(len(blobs), dim) float32 unit rows."""
    if not blobs:
        return np.empty((0, dim), dtype=np.float32)
    rows = np.frombuffer(b"".join(bytes(b) for b in blobs), dtype="<f4").astype(np.float32)
    rows = rows.reshape(len(blobs), dim)
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    rows /= np.where(norms > 0, norms, 1.0)
    return rows


# -- the base, as each process maps it


@dataclass
class Base:
    stamp: tuple[int, int, int]  # the pointer file's (inode, mtime, size) when read
    meta: dict[str, Any]
    # usearch.index.Index viewed (memory-mapped) from `path` without its key -> slot table: a search
    # needs none, and building it walks every node of the file when a process maps it (1M rows:
    # the whole node section faulted in and a hash table in anonymous memory)
    index: Any
    path: Path
    # one call at a time per base: concurrent calls on one index from several Python threads
    # (gunicorn --threads) are not something usearch's Python API promises; a search is ~1 ms
    lock: threading.Lock = field(default_factory=threading.Lock)
    # (address, length) of this process's mappings of `path`, found at the first release
    mapped: list[tuple[int, int]] | None = None
    shared_mark: int = 0  # this process's resident shared pages after its last release
    _keyed: Any = None

    def keyed(self) -> Any:
        """(Under self.lock.) The same file viewed with key lookups, for contains() and get()
        (writers, check()): a view without them answers False and None, not an error."""
        if self._keyed is None:
            keyed = _new_index(self.dim, str(self.meta.get("dtype", "f32")), key_lookups=True)
            keyed.view(str(self.path))
            self._keyed = keyed
        return self._keyed

    def searched(self) -> None:
        """After a search (under self.lock): release the mapped pages once they outgrow the
        budget (resident_budget(); /proc/self/statm's resident shared pages, read in a few
        microseconds)."""
        budget = resident_budget()
        if budget is None:
            return
        shared = _resident_shared_pages()
        if shared is None or (shared - self.shared_mark) * _PAGE <= budget:
            return
        if self.mapped is None:
            self.mapped = _mappings_of(self.path) if _libc_madvise_fn is not None else []
        for address, length in self.mapped:
            _madvise(address, length, _MADV_DONTNEED)
        self.shared_mark = _resident_shared_pages() or 0

    @property
    def dim(self) -> int:
        return int(self.meta["dim"])

    @property
    def max_row_id(self) -> int:
        return int(self.meta["max_row_id"])


_bases: dict[tuple[str, str], Base] = {}
_lock = threading.Lock()


def _libc_madvise() -> Any:
    try:
        function = ctypes.CDLL(None, use_errno=True).madvise
    except (OSError, AttributeError):
        return None
    function.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
    function.restype = ctypes.c_int
    return function


_libc_madvise_fn = _libc_madvise()


def _madvise(address: int, length: int, advice: int) -> None:
    if _libc_madvise_fn is not None:
        _libc_madvise_fn(address, length, advice)  # failure only leaves the pages mapped


def resident_budget() -> int | None:
    """Bytes of the mapped base a process keeps between releases; None: it never releases."""
    if RESIDENT_BUDGET is not None:
        return RESIDENT_BUDGET
    budget = getattr(settings, RESIDENT_BUDGET_SETTING, DEFAULT_RESIDENT_BUDGET)
    return None if budget is None else int(budget)


def _resident_shared_pages() -> int | None:
    try:
        with open("/proc/self/statm", "rb") as statm:
            return int(statm.read().split()[2])
    except (OSError, IndexError, ValueError):
        return None


def _mappings_of(path: Path) -> list[tuple[int, int]]:
    """(address, length) of this process's mappings of `path` (/proc/self/maps; Linux only)."""
    target = os.path.realpath(path)
    out = []
    with contextlib.suppress(OSError), open("/proc/self/maps") as maps:
        for line in maps:
            parts = line.split(maxsplit=5)
            if len(parts) == 6 and parts[5].rstrip("\n") == target:
                start, end = (int(x, 16) for x in parts[0].split("-"))
                out.append((start, end - start))
    return out


def _new_index(dim: int, dtype: str, *, key_lookups: bool = True) -> Any:
    # onnxruntime (the local embedding model, memory.store.int8_scan) crashes the process with
    # SIGSEGV while it is imported if usearch's native library was loaded before it (onnxruntime
    # 1.32, usearch 2.26.6; the other order is fine): load it first wherever it is installed.
    with contextlib.suppress(ImportError):
        import onnxruntime  # noqa: F401
    from usearch.index import Index

    return Index(
        ndim=dim,
        metric="cos",
        dtype=dtype,
        connectivity=CONNECTIVITY,
        expansion_add=EXPANSION_ADD,
        expansion_search=EXPANSION_SEARCH,
        enable_key_lookups=key_lookups,
    )


def current_base(model: str, *, alias: str = DEFAULT_DB_ALIAS) -> Base | None:
    """The model's current base, mapped (re-read when the pointer was swapped); None if none."""
    directory = index_dir(alias)
    if directory is None:
        return None
    pointer = _pointer(directory, model)
    try:
        st = pointer.stat()
    except FileNotFoundError:
        return None
    stamp = (st.st_ino, st.st_mtime_ns, st.st_size)
    key = (str(directory), model)
    cached = _bases.get(key)
    if cached is not None and cached.stamp == stamp:
        return cached
    with _lock:
        cached = _bases.get(key)
        if cached is not None and cached.stamp == stamp:
            return cached
        try:
            meta = json.loads(pointer.read_text())
            path = directory / meta["file"]
            index = _new_index(int(meta["dim"]), str(meta.get("dtype", "f32")), key_lookups=False)
            index.view(str(path))
        except (OSError, ValueError, KeyError, RuntimeError):
            logger.warning(
                "ANN index %s unreadable; exact search until it is rebuilt", pointer, exc_info=True
            )
            return None
        base = Base(stamp=stamp, meta=meta, index=index, path=path)
        base.shared_mark = _resident_shared_pages() or 0
        _bases[key] = base
        return base


def reset_cache() -> None:
    """Forget mapped bases and deltas (tests)."""
    with _lock:
        _bases.clear()
        _deltas.clear()


# -- the delta: rows newer than the base, and ids whose base vector is stale


@dataclass
class Delta:
    last_row_id: int
    changed_end: int
    vectors: dict[int, np.ndarray] = field(default_factory=dict)  # chunk id -> unit vector
    stale: set[int] = field(default_factory=set)  # base keys not to trust (rewritten, deleted)
    ids: np.ndarray = field(default_factory=lambda: np.empty(0, dtype=np.int64))
    rows: np.ndarray | None = None

    def freeze(self, dim: int) -> None:
        self.ids = np.fromiter(self.vectors.keys(), dtype=np.int64, count=len(self.vectors))
        self.rows = (
            np.stack(list(self.vectors.values())) if self.vectors else np.empty((0, dim), dtype=np.float32)
        )


_deltas: dict[tuple[str, str, str], Delta] = {}


def _delta(base: Base, model: str, alias: str) -> Delta:
    """The delta of `base` as this connection sees it (cached between calls outside transactions)."""
    directory = index_dir(alias) or Path()  # a base exists, so the directory does
    log = _changed_log(directory, model)
    key = (str(directory), model, str(base.meta["file"]))
    with connections[alias].cursor() as cursor:
        cursor.execute(_MAX_ID)
        max_id = int(cursor.fetchone()[0] or 0)
    changed_end = _file_size(log)
    transient = background.in_transaction(alias)
    cached = None if transient else _deltas.get(key)
    if cached is not None and cached.last_row_id >= max_id and cached.changed_end == changed_end:
        return cached
    if cached is None:
        delta = Delta(last_row_id=base.max_row_id, changed_end=int(base.meta["changed_from"]))
    else:  # extend a copy: readers may hold the cached one
        delta = Delta(cached.last_row_id, cached.changed_end, dict(cached.vectors), set(cached.stale))
    dim = base.dim
    with connections[alias].cursor() as cursor:
        if max_id > delta.last_row_id:
            cursor.execute(_DELTA_ROWS, [model, dim, delta.last_row_id])
            rows = cursor.fetchall()
            for (_, chunk_id, _), vector in zip(rows, _decode_rows([r[2] for r in rows], dim), strict=True):
                delta.vectors[int(chunk_id)] = vector
                delta.stale.add(int(chunk_id))
            delta.last_row_id = max(max_id, delta.last_row_id)
        changed = list(dict.fromkeys(_read_changed(log, delta.changed_end, changed_end)))
        for chunk_id in changed:
            delta.vectors.pop(chunk_id, None)
            delta.stale.add(chunk_id)
        found = _vectors_by_chunk(cursor, changed, model, dim)
        for (chunk_id, _), vector in zip(found, _decode_rows([r[1] for r in found], dim), strict=True):
            delta.vectors[int(chunk_id)] = vector
        delta.changed_end = max(delta.changed_end, changed_end - changed_end % 8)
    delta.freeze(dim)
    if not transient:
        _deltas[key] = delta
    return delta


# -- search


def active_base(model: str, *, alias: str = DEFAULT_DB_ALIAS) -> Base | None:
    """The base to search for `model`, or None: exact search (not SQLite, ANN off, no base yet,
    or a base smaller than knowledge.vector_ann_min_rows)."""
    threshold = get_config().knowledge.vector_ann_min_rows
    if threshold <= 0:
        return None
    base = current_base(model, alias=alias)
    if base is None or int(base.meta["count"]) < threshold:
        return None
    return base


def _unit(query: np.ndarray, dim: int) -> np.ndarray | None:
    query = np.asarray(query, dtype=np.float32).ravel()
    if query.shape[0] != dim:
        return None
    norm = float(np.linalg.norm(query))
    return query / norm if norm > 0 else None


def candidates(
    base: Base, delta: Delta, query: np.ndarray, count: int, *, model: str, alias: str = DEFAULT_DB_ALIAS
) -> np.ndarray:
    """Up to `count` chunk ids nearest `query` (a unit vector), best first by exact cosine:
    base (rescored from the table when quantized) and delta."""
    size = int(base.meta["count"])
    found = None
    quantized = str(base.meta.get("dtype", "f32")) != "f32"
    if size:
        fetch = max(count, RESCORE_MIN) if quantized else count
        with base.lock:
            found = base.index.search(query, min(fetch, size), threads=1)
            base.searched()
    ids = np.asarray(found.keys, dtype=np.int64) if found is not None else np.empty(0, dtype=np.int64)
    scores = (
        1.0 - np.asarray(found.distances, dtype=np.float32) if found is not None else np.empty(0, np.float32)
    )
    if delta.stale and len(ids):
        keep = ~np.isin(ids, np.fromiter(delta.stale, dtype=np.int64, count=len(delta.stale)))
        ids, scores = ids[keep], scores[keep]
    if quantized and len(ids):
        ids, scores = rescored(ids, query, model=model, dim=base.dim, alias=alias)
    if len(delta.ids) and delta.rows is not None:
        ids = np.concatenate([ids, delta.ids])
        scores = np.concatenate([scores, delta.rows @ query])
    if len(ids) > count:
        part = np.argpartition(-scores, count - 1)[:count]
        ids, scores = ids[part], scores[part]
    order = np.lexsort((ids, -scores))
    return ids[order]


def rescored(
    ids: np.ndarray, query: np.ndarray, *, model: str, dim: int, alias: str = DEFAULT_DB_ALIAS
) -> tuple[np.ndarray, np.ndarray]:
    """(ids, exact cosines to `query`) of those `ids` that still have a `model` vector: read
    from the table by chunk id (a row deleted since the base was built drops out here too)."""
    with connections[alias].cursor() as cursor:
        found = _vectors_by_chunk(cursor, ids.tolist(), model, dim)
    out = np.fromiter((r[0] for r in found), dtype=np.int64, count=len(found))
    return out, _decode_rows([r[1] for r in found], dim) @ query


def _vectors_by_chunk(cursor: Any, chunk_ids: list[int], model: str, dim: int) -> list[tuple[int, bytes]]:
    """(chunk id, stored vector) of those `chunk_ids` with a `model` vector of `dim`, IN_BATCH ids
    a statement (_BY_CHUNK)."""
    found: list[tuple[int, bytes]] = []
    for start in range(0, len(chunk_ids), IN_BATCH):
        batch = chunk_ids[start : start + IN_BATCH]
        cursor.execute(_BY_CHUNK.format(marks=", ".join(["%s"] * len(batch))), [*batch, model, dim])
        found += cursor.fetchall()
    return found


def nearest_ids(query: np.ndarray, *, k: int, model: str) -> list[int] | None:
    """The `k` chunk ids nearest `query` by the ANN index; None when it does not serve `model`."""
    base = active_base(model)
    if base is None:
        return None
    unit = _unit(query, base.dim)
    if unit is None or k <= 0:
        return None if unit is None else []
    delta = _delta(base, model, DEFAULT_DB_ALIAS)
    return candidates(base, delta, unit, 2 * k, model=model)[:k].tolist()


def nearest_rows(
    query: np.ndarray, *, k: int, model: str, queryset: QuerySet[Chunk], fields: Sequence[str]
) -> list[tuple[object, ...]] | None:
    """`fields` of the `k` rows of `queryset` nearest `query`, closest first; None when the ANN
    index does not serve `model` (the caller searches exactly)."""
    base = active_base(model)
    if base is None:
        return None
    unit = _unit(query, base.dim)
    if unit is None:
        return None  # the exact path warns about the dimension
    if k <= 0:
        return []
    passes = row_filter.RowFilter(queryset)
    namespaces = row_filter.required_values(queryset, "namespace")
    if namespaces is not None and _few_rows(namespaces):
        return _exact_filtered(unit, k=k, model=model, dim=base.dim, passes=passes, fields=fields)
    delta = _delta(base, model, DEFAULT_DB_ALIAS)
    total = int(base.meta["count"]) + len(delta.ids)
    kept: list[tuple[object, ...]] = []
    for factor in OVERFETCH:
        ranked = candidates(base, delta, unit, k * factor, model=model)
        # the whole widened list again: one statement, stopping at the k-th row that passes
        kept = passes.first_passing_rows(ranked.tolist(), k, fields)
        if len(kept) >= k or k * factor >= total:
            return kept
    return _exact_filtered(unit, k=k, model=model, dim=base.dim, passes=passes, fields=fields)


def _few_rows(namespaces: frozenset[str]) -> bool:
    if not namespaces:
        return True
    values = sorted(namespaces)
    with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
        cursor.execute(
            _SMALL_NAMESPACES.format(marks=", ".join(["%s"] * len(values))), [*values, SMALL_FILTER_ROWS + 1]
        )
        return int(cursor.fetchone()[0]) <= SMALL_FILTER_ROWS


def _exact_filtered(
    query: np.ndarray, *, k: int, model: str, dim: int, passes: row_filter.RowFilter, fields: Sequence[str]
) -> list[tuple[object, ...]]:
    """Exact: the vectors of the rows passing the filter, scored; for selective filters."""
    compiled = passes.compiled
    rows: list[tuple[int, bytes]] = []
    with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
        if compiled is not None:
            where, params = compiled
            cursor.execute(_FILTERED.format(where=where or "1 = 1"), [model, dim, *params])
            rows = cursor.fetchall()
        else:
            rows = _vectors_by_chunk(cursor, list(passes.queryset.values_list("id", flat=True)), model, dim)
    if not rows:
        return []
    ids = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
    scores = _decode_rows([r[1] for r in rows], dim) @ query
    order = np.lexsort((ids, -scores))[: k * 2]
    return passes.first_passing_rows(ids[order].tolist(), k, fields)


# -- writes


def after_write(chunk_ids: Sequence[int], *, model: str | None = None, alias: str = DEFAULT_DB_ALIAS) -> None:
    """After vectors of `chunk_ids` were stored (for `model`) or deleted (any model): log those
    a base holds as changed, and start a rebuild if one is due; once the write commits. A no-op
    off SQLite.

    After the commit, not before: a build that starts while the write is still open reads the
    old vector and notes the log's length first, so the entry must land after that length (or
    the build read the new vector anyway). Until the commit, only the writing connection sees
    the new vector, and its own searches may still score that row by its base vector."""
    directory = index_dir(alias)
    if directory is None or not chunk_ids:
        return
    ids = [int(i) for i in chunk_ids]
    transaction.on_commit(lambda: _log_changed(directory, ids, model, alias), using=alias, robust=True)


def _log_changed(directory: Path, chunk_ids: list[int], model: str | None, alias: str) -> None:
    models = [model] if model is not None else _models_with_base(directory)
    for name in models:
        base = current_base(name, alias=alias)
        if base is not None:
            keys = np.asarray(chunk_ids, dtype=np.uint64)
            with base.lock:
                held = keys[np.asarray(base.keyed().contains(keys), dtype=bool).reshape(-1)]
            if len(held):
                directory.mkdir(parents=True, exist_ok=True)
                fd = os.open(_changed_log(directory, name), os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
                try:
                    os.write(fd, held.astype("<i8").tobytes())  # one append: whole records only
                finally:
                    os.close(fd)
        if AUTO_BUILD and model is not None and rebuild_due(name, alias=alias):
            build_in_background(name, alias=alias)


def _models_with_base(directory: Path) -> list[str]:
    out = []
    for pointer in directory.glob("*.json") if directory.is_dir() else []:
        with contextlib.suppress(OSError, ValueError, KeyError):
            out.append(str(json.loads(pointer.read_text())["model"]))
    return out


def rebuild_due(model: str, *, alias: str = DEFAULT_DB_ALIAS) -> bool:
    """Whether a (re)build of `model`'s base is due: none yet and the store has reached the
    threshold, or the delta has outgrown REBUILD_DELTA_MIN and REBUILD_DELTA_SHARE of it."""
    threshold = get_config().knowledge.vector_ann_min_rows
    if threshold <= 0 or index_dir(alias) is None:
        return False
    base = current_base(model, alias=alias)
    with connections[alias].cursor() as cursor:
        if base is None:
            cursor.execute(_MAX_ID)  # ids only grow: fewer ids than the threshold, fewer rows too
            if int(cursor.fetchone()[0] or 0) < threshold:
                return False
            cursor.execute(_COUNT, [model])
            return int(cursor.fetchone()[0]) >= threshold
        cursor.execute(_COUNT_AFTER, [model, base.max_row_id])
        newer = int(cursor.fetchone()[0])
    changed = _file_size(_changed_log(index_dir(alias), model)) // 8 - int(base.meta["changed_from"]) // 8  # type: ignore[arg-type]
    grown = newer + changed
    return grown >= REBUILD_DELTA_MIN and grown >= REBUILD_DELTA_SHARE * int(base.meta["count"])


_builds = background.OncePerKey()


def build_in_background(model: str, *, alias: str = DEFAULT_DB_ALIAS) -> None:
    """build() on a thread of its own (its own connection: committed rows only), once at a time."""
    _builds.start(
        (alias, model),
        lambda: build(model, alias=alias),
        alias=alias,
        name=f"ann-build-{model}",
        failure=f"ANN index build for {model} failed; searches stay on the previous base",
    )


@contextlib.contextmanager
def _build_lock(path: Path) -> Iterator[bool]:
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            yield False
            return
        yield True
    finally:
        os.close(fd)


@dataclass(frozen=True)
class BuildReport:
    model: str
    vectors: int
    dim: int
    seconds: float
    cpu_seconds: float  # every thread of this process, so a busy machine shows as seconds >> cpu / cores
    file: str


def build(model: str, *, alias: str = DEFAULT_DB_ALIAS, threads: int = 0) -> BuildReport | None:
    """Build a new base of `model` from the table and swap it in; None if another process is
    building, or there is nothing to build (not SQLite, no vectors)."""
    directory = index_dir(alias)
    if directory is None:
        return None
    directory.mkdir(parents=True, exist_ok=True)
    slug = _slug(model)
    with _build_lock(directory / f"{slug}.lock") as mine:
        if not mine:
            return None
        started, cpu = time.perf_counter(), time.process_time()
        changed_from = _file_size(_changed_log(directory, model))  # changes from here on: the delta's
        changed_from -= changed_from % 8
        with connections[alias].cursor() as cursor:
            cursor.execute(_LATEST_DIM, [model])
            row = cursor.fetchone()
            cursor.execute(_MAX_ID)
            max_id = int(cursor.fetchone()[0] or 0)
            cursor.execute(_EPOCH)
            epoch = cursor.fetchone()
        if row is None:
            return None
        dim = int(row[0])
        index = _new_index(dim, DTYPE)
        count = 0
        with connections[alias].cursor() as cursor:
            cursor.execute(_ROWS, [model, dim, 0, max_id])
            while rows := cursor.fetchmany(BUILD_BATCH):
                keys = np.fromiter((r[0] for r in rows), dtype=np.uint64, count=len(rows))
                index.add(
                    keys, _decode_rows([r[1] for r in rows], dim), threads=threads or os.cpu_count() or 1
                )
                count += len(rows)
        generation = f"{slug}.{time.time_ns()}.usearch"
        temporary = directory / f".{generation}.tmp"
        index.save(str(temporary))
        os.replace(temporary, directory / generation)
        meta = {
            "model": model,
            "file": generation,
            "dim": dim,
            "count": count,
            "max_row_id": max_id,
            "changed_from": changed_from,
            "dtype": DTYPE,
            "connectivity": CONNECTIVITY,
            "epoch": bytes(epoch[0]).hex() if epoch and epoch[0] is not None else None,
            "built_at": time.time(),
        }
        pointer = _pointer(directory, model)
        temporary = directory / f".{pointer.name}.tmp"
        with open(temporary, "w") as handle:
            json.dump(meta, handle)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, pointer)  # the swap: readers map the new file on their next search
        for old in directory.glob(f"{slug}.*.usearch"):
            if old.name != generation:  # processes that mapped it keep their mapping
                with contextlib.suppress(OSError):
                    old.unlink()
        seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
        logger.info("ANN index for %s built: %d vectors, dim %d, %.1f s", model, count, dim, seconds)
        return BuildReport(
            model=model, vectors=count, dim=dim, seconds=seconds, cpu_seconds=cpu, file=generation
        )


# -- integrity


def check(model: str, *, alias: str = DEFAULT_DB_ALIAS, sample: int = 200) -> list[str]:
    """Problems with `model`'s base against the table (empty: it matches): the file maps, holds
    the count the pointer says, and a sample of the table's rows up to the base's max_row_id
    that were not changed since are in it with the same vector."""
    base = current_base(model, alias=alias)
    if base is None:
        return []
    problems = []
    if int(base.index.size) != int(base.meta["count"]):
        problems.append(
            f"{model}: base holds {base.index.size} vectors, its pointer says {base.meta['count']}"
        )
    delta = _delta(base, model, alias)
    # random row ids up to the base's last (ids have gaps: some miss), not ORDER BY random(),
    # which reads every vector of the table (1.5 GB at 1M rows)
    picks = np.random.default_rng().integers(1, max(base.max_row_id, 1) + 1, size=sample).tolist()
    with connections[alias].cursor() as cursor:
        cursor.execute(
            _BY_ROW_ID.format(marks=", ".join(["%s"] * len(picks))),
            [*picks, model, base.dim],
        )
        rows = [r for r in cursor.fetchall() if int(r[0]) not in delta.stale]
    if rows:
        keys = np.asarray([r[0] for r in rows], dtype=np.uint64)
        with base.lock:
            held = np.asarray(base.keyed().contains(keys), dtype=bool).reshape(-1)
        if not held.all():
            problems.append(
                f"{model}: {int((~held).sum())} of {len(rows)} sampled table rows missing from the base"
            )
        else:
            stored = _decode_rows([r[1] for r in rows], base.dim)
            with base.lock:
                got = np.asarray(base.keyed().get(keys, dtype=np.float32), dtype=np.float32)
            got = got.reshape(len(rows), base.dim)
            got /= np.maximum(np.linalg.norm(got, axis=1, keepdims=True), 1e-12)
            # f32 holds the table's vectors as they are; i8 / f16 round each component
            least = 0.9999 if base.meta.get("dtype") == "f32" else 0.99
            if float(np.min(np.sum(got * stored, axis=1))) < least:
                problems.append(f"{model}: the base's vectors differ from the table's")
    return problems
