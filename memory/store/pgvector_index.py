"""Chunk vectors in PostgreSQL with pgvector: the one module with the pgvector SQL.

Storage: a nullable `embedding vector` column on memory_chunk_vector (migration 0017), written
beside the float32 BLOB by the same upsert, so the rows the other readers use (stored_vectors,
vector_count, the missing-vector sweep) and the delete triggers of migration 0011 stay as they
are. The column is untyped (`vector`, any dimension): each dimension in use gets its own partial
HNSW index over the half-precision cast `(embedding::halfvec(N))` WHERE dim = N (cosine;
migration 0018), so a model with 384 dimensions and one with 1536 can live in one table, each
searched through its own graph. Half precision halves the index (100k x 384: 195 -> 112 MB, more
of it in shared buffers) and about halves the walk's server time; the index is walked for
RERANK x k rows and the best k kept by their float32 distance, so near-ties are ordered as an
exact search would (bench/pgvector.py). The dimension is always an int formatted into the SQL (it
is part of the index's expression and predicate, which a bound parameter could not match);
every value is a parameter.

Queries: one statement joins the vector rows to memory_chunk with the caller's WHERE exactly as
the keyword search compiles it (row_filter.compiled_filter, or the queryset as a subquery when
it needs more), ordered by cosine distance, LIMIT k: web workers hold no vectors. Inside it,
`hnsw.ef_search` (candidates per search) and pgvector 0.8's `hnsw.iterative_scan` (keep walking
the graph while the filters reject rows) are set with SET LOCAL, so a filter that rejects most of
the nearest rows still gets k rows back. relaxed_order may hand rows back slightly out of
order; they are sorted by distance here. The walk gives up after hnsw.max_scan_tuples (20,000)
visited rows: a filter that passes fewer rows than that in the whole store (an agent's private
rows, a small namespace) can come back short, and then the rows that pass are ranked exactly
in a second statement (they are few, by the same token).

Recall (bench/pgvector.py, 100k x 384 dims, m=16, ef_construction=128 then, index built once after
the bulk load; top-10 agreement with exact cosine, 200 queries, two builds): vectors clustered
like real sentence embeddings (200 topics) 0.982-0.987 at ef_search 40 (pgvector's default),
0.995-1.000 at 100 (one query in 200 can miss its topic entirely), 1.000 at 200 and 400, the same
when filtered by deliverable(); the vector step costs ~4 ms either way. Standard normal
("uniform random") vectors: 0.069 / 0.137 / 0.252 / 0.416 at 40 / 100 / 200 / 400. That is the
earlier 0.20 at 100k: in 384 random dimensions every cosine is ~0 +- 0.05, the true top 10 are
barely nearer than the other 99,990 and a graph has nothing to walk along; no HNSW setting
short of visiting most of the graph fixes it, and real embeddings are not like that.
At 1M (the same 200 centres, so 5,000 near-equidistant vectors per topic: within a topic the
top 10 are as hard to tell apart as in random data; one build, 200 queries): 0.710 / 0.881 /
0.948 / 0.980 at ef_search 40 / 100 / 200 / 400, the same filtered by deliverable(); hence 400
at 1M, and less on smaller tables (ef_for_rows(): a smaller graph needs a shorter walk).
Its cost, server time of the vector step p50 (p99): 1.1 (2.8) / 4.8 (9.3) / 8.0 (17.1) ms at
40 / 200 / 400; the whole step as hybrid calls it 10.8 ms at 200 and 11.5 ms at 400 (p50).
A graph built with ef_construction 256 (HNSW_EF_CONSTRUCTION, since 2026-12-07) reaches 0.994 at
ef_search 400 on that set (0.980 with 128, same vectors and queries) for the same time per search.
The walk's cost is the elements it visits (~1.3 us each, all in shared buffers: ~4,200 index
buffers a search at ef 400), not their arithmetic, so a smaller element (binary quantisation)
would save little per step and lose agreement.

Without the extension (or with settings.PROTOMEM_PGVECTOR = False) `active()` is False and
memory.store.vectors keeps its in-process path; `manage.py protomem pgvector-enable` (enable())
adds the column later, backfills it from the BLOBs and builds the indexes after the bulk load.
"""

from __future__ import annotations

import functools
import logging
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections, transaction
from django.db.models import QuerySet

from memory.store import background, row_filter
from memory.store.models import Chunk

logger = logging.getLogger(__name__)

SETTING = "PROTOMEM_PGVECTOR"  # False: keep the in-process path even where pgvector is installed
EF_SEARCH_SETTING = "PROTOMEM_PGVECTOR_EF_SEARCH"
EF_SEARCH = 400  # candidates per HNSW search at 1M rows (pgvector's default is 40); at least 2 k
# Without the setting, ef_search follows the table's size: EF_AT_100K at 100k rows, growing as
# rows**0.301 to EF_SEARCH at 1M (0.974-0.980 on the synthetic clustered set) and capped there;
# at least EF_SEARCH_MIN. 200, not 100, at 100k: real questions against real texts embedded with
# the local model (bench/pgvector.py --vectors real) reach their neighbourhood less easily than
# the synthetic set: top-10 agreement 0.974-0.975 at ef 100, 0.990-0.992 at 200 (100k rows), and
# 0.972 / 0.995 at 100 / 200 on 150k (the synthetic set: 0.999 at ef 100 on 100k). The size is
# pg_class.reltuples (kept by ANALYZE / autovacuum), re-read
# every EF_SIZE_TTL seconds.
EF_SEARCH_MIN = 40
EF_AT_100K = 200
EF_SIZE_TTL = 60.0
EF_SEARCH_ROWS_UNKNOWN = 1_000_000  # never analysed: assume a large table (the safe side)
HNSW_M = 16
# Candidates per insertion while the graph is built (migration 0020). 256, not 128: at 1M clustered
# vectors (bench/pgvector.py's set; the same vectors in two graphs, 300 queries alternating)
# top-10 agreement at ef_search 300 / 400 went 0.974 / 0.980 -> 0.985 / 0.994 at the same server
# time per search (200 other queries: 0.973 / 0.978 -> 0.993 / 0.996, no query missing its topic);
# the build takes about twice as long (1M: 14 min at load 2-5 -> 33 min at load 5-7), and one
# vector write at 1M (an UPDATE of the embedding, rolled back) 12.0 -> 14.0 ms p50.
HNSW_EF_CONSTRUCTION = 256
RERANK = 2  # rows walked by the half-precision index per row returned (at most ef_search: _ef_search)
MAX_INDEXED_DIM = 4000  # pgvector's HNSW limit for `halfvec`; larger dims are searched exactly
BACKFILL_BATCH = 2000
BUILD_MEMORY_SETTING = "PROTOMEM_PGVECTOR_BUILD_MEMORY"
# maintenance_work_mem for an index build: a graph that fits is built in memory, fast (1M x 384
# dims needs ~2 GB); one that does not spills to disk and builds several times slower.
BUILD_MEMORY = "1GB"
INSTALL_HINT = (
    "install pgvector on the database server (Debian/Ubuntu: `apt install postgresql-{version}-pgvector`, "
    "from the distribution or PGDG; others: https://github.com/pgvector/pgvector#installation), run "
    "`CREATE EXTENSION vector;` in this database as a superuser, then `manage.py protomem pgvector-enable`"
)

_HAS_COLUMN = (
    "SELECT EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = to_regclass('memory_chunk_vector') "
    "AND attname = 'embedding' AND NOT attisdropped)"
)
_EXTENSION = "SELECT extversion FROM pg_extension WHERE extname = 'vector'"
_AVAILABLE = "SELECT default_version FROM pg_available_extensions WHERE name = 'vector'"
_CREATE_EXTENSION = "CREATE EXTENSION IF NOT EXISTS vector"
_ADD_COLUMN = "ALTER TABLE memory_chunk_vector ADD COLUMN IF NOT EXISTS embedding vector"
# A row holds the float32 BLOB and the pgvector column, ~1.5 KB each at 384 dims: over
# PostgreSQL's ~2 KB row limit, so one goes to the TOAST table, and by default it was the
# embedding. Every search reads the embedding of each row it walks (the exact rerank), and a
# TOASTed value costs a TOAST index probe and page more (300k rows: 2,240 pages a search, 1,900
# without them). The embedding stays in the row (MAIN) and the BLOB, which searches never read
# on this path, goes out of line (EXTERNAL: random floats do not compress). Applies to rows
# written from then on.
_INLINE_EMBEDDING = (
    "ALTER TABLE memory_chunk_vector ALTER COLUMN embedding SET STORAGE MAIN, "
    "ALTER COLUMN vector SET STORAGE EXTERNAL"
)
_DROP_COLUMN = "ALTER TABLE memory_chunk_vector DROP COLUMN IF EXISTS embedding"
_DIMS = "SELECT DISTINCT dim FROM memory_chunk_vector ORDER BY dim"
_INDEXED_DIMS = (
    "SELECT indexname FROM pg_indexes WHERE tablename = 'memory_chunk_vector' "
    "AND indexname LIKE 'memory_chunk_halfvec_hnsw_%%'"
)
# What the HNSW graphs take on disk against PostgreSQL's own page cache: a search reads ~2,000
# index pages at 300k rows, and a page outside shared_buffers is copied in from the OS cache
# (300k, 128 MB: ~1,100 of ~1,900 pages read in a new query's search, ~50 with 1 GB; server
# time 1.1-2x as long in interleaved runs on the loaded test host).
_INDEX_BYTES = (
    "SELECT coalesce(sum(pg_relation_size(c.oid)), 0) FROM pg_class AS c "
    "WHERE c.relkind = 'i' AND c.relname LIKE 'memory_chunk_halfvec_hnsw_%%'"
)
_SHARED_BUFFERS = "SELECT pg_size_bytes(current_setting('shared_buffers'))"
_PENDING = (
    "SELECT id, vector FROM memory_chunk_vector WHERE embedding IS NULL AND id > %s ORDER BY id LIMIT %s"
)
_COUNT_PENDING = "SELECT count(*) FROM memory_chunk_vector WHERE embedding IS NULL"
_FILL = (
    "UPDATE memory_chunk_vector AS v SET embedding = f.embedding::vector "
    "FROM unnest(%s::bigint[], %s::text[]) AS f(id, embedding) WHERE v.id = f.id"
)
_UPSERT = (
    "INSERT INTO memory_chunk_vector (chunk_id, model, dim, vector, embedding) "
    "SELECT %s, %s, %s, %s, %s::vector WHERE EXISTS (SELECT 1 FROM memory_chunk WHERE id = %s) "
    "ON CONFLICT (chunk_id) DO UPDATE SET model = excluded.model, dim = excluded.dim, "
    "vector = excluded.vector, embedding = excluded.embedding, created_at = CURRENT_TIMESTAMP "
    "WHERE memory_chunk_vector.model IS DISTINCT FROM excluded.model "
    "OR memory_chunk_vector.vector IS DISTINCT FROM excluded.vector "
    "OR memory_chunk_vector.embedding IS NULL"
)
_SEARCH_SETTINGS = (
    "SELECT set_config('hnsw.ef_search', %s, true), set_config('hnsw.iterative_scan', 'relaxed_order', true)"
)
# The same in front of the search statement itself (_ranked); ef is an int.
_SEARCH_PREFIX = "SET LOCAL hnsw.ef_search = {ef}; SET LOCAL hnsw.iterative_scan = relaxed_order; "


class PgvectorUnavailable(Exception):
    """The vector extension is not installed on the server, or this role may not create it."""


def _index_name(dim: int) -> str:
    return f"memory_chunk_halfvec_hnsw_{int(dim)}"


def _create_index_sql(dim: int) -> str:
    dim = int(dim)
    return (
        f"CREATE INDEX IF NOT EXISTS {_index_name(dim)} ON memory_chunk_vector "
        f"USING hnsw ((embedding::halfvec({dim})) halfvec_cosine_ops) "
        f"WITH (m = {HNSW_M}, ef_construction = {HNSW_EF_CONSTRUCTION}) WHERE dim = {dim}"
    )


@functools.lru_cache(maxsize=8)
def _text_format(dim: int) -> str:
    return "[" + ",".join(["%.9g"] * dim) + "]"


def as_text(vector: np.ndarray | Sequence[float]) -> str:
    """A vector as pgvector's text input, '[x,y,...]': nine significant digits, which read back
    as the same float32 values (repr of their doubles took 3x as long and 1.6x the bytes)."""
    values = np.asarray(vector, dtype=np.float32).ravel()
    return _text_format(len(values)) % tuple(values.tolist())


# -- is it there


_columns: dict[tuple[str, str], bool] = {}
_indexed: dict[tuple[str, str], set[int]] = {}
_lock = threading.Lock()


def _key(alias: str) -> tuple[str, str]:
    return alias, str(connections[alias].settings_dict.get("NAME"))


def reset_cache() -> None:
    """Forget what was learnt about each database (tests; after pgvector-enable elsewhere)."""
    with _lock:
        _columns.clear()
        _indexed.clear()
        _sizes.clear()


def has_column(alias: str = DEFAULT_DB_ALIAS) -> bool:
    """Whether this database keeps vectors in the pgvector column (PostgreSQL, enabled)."""
    connection = connections[alias]
    if connection.vendor != "postgresql":
        return False
    key = _key(alias)
    known = _columns.get(key)
    if known is None:
        with connection.cursor() as cursor:
            cursor.execute(_HAS_COLUMN)
            known = bool(cursor.fetchone()[0])
        if known or not background.in_transaction(alias):  # an absent column may yet appear: look again later
            _columns[key] = known
    return known


def active(alias: str = DEFAULT_DB_ALIAS) -> bool:
    """Whether searches run in PostgreSQL through pgvector (else memory.store.vectors' own path)."""
    return bool(getattr(settings, SETTING, True)) and has_column(alias)


@dataclass(frozen=True)
class Status:
    vendor: str
    available: str | None  # the version the server could install, None if not installed there
    installed: str | None  # the version created in this database
    column: bool
    enabled_setting: bool
    pending: int  # vector rows without an embedding yet (backfill needed)
    indexed_dims: tuple[int, ...]
    server_version: int
    index_bytes: int = 0  # the HNSW indexes' size on disk
    shared_buffers_bytes: int = 0  # PostgreSQL's page cache

    @property
    def index_outgrows_cache(self) -> bool:
        """Whether the graphs no longer fit in shared_buffers (each search then copies most of
        its pages in from the OS cache, slower than its cached cost)."""
        return self.index_bytes > self.shared_buffers_bytes > 0


def status(alias: str = DEFAULT_DB_ALIAS) -> Status:
    """What the database has of pgvector (for doctor and the enable command)."""
    connection = connections[alias]
    setting = bool(getattr(settings, SETTING, True))
    if connection.vendor != "postgresql":
        return Status(connection.vendor, None, None, False, setting, 0, (), 0)
    with connection.cursor() as cursor:
        cursor.execute(_AVAILABLE)
        row = cursor.fetchone()
        available = row[0] if row else None
        cursor.execute(_EXTENSION)
        row = cursor.fetchone()
        installed = row[0] if row else None
        cursor.execute(_HAS_COLUMN)
        column = bool(cursor.fetchone()[0])
        pending = index_bytes = 0
        dims: tuple[int, ...] = ()
        if column:
            cursor.execute(_COUNT_PENDING)
            pending = int(cursor.fetchone()[0])
            cursor.execute(_INDEXED_DIMS)
            dims = tuple(sorted(int(name.rsplit("_", 1)[1]) for (name,) in cursor.fetchall()))
            cursor.execute(_INDEX_BYTES)
            index_bytes = int(cursor.fetchone()[0])
        cursor.execute(_SHARED_BUFFERS)
        shared_buffers = int(cursor.fetchone()[0])
    return Status(
        "postgresql",
        available,
        installed,
        column,
        setting,
        pending,
        dims,
        connection.pg_version // 10000,
        index_bytes,
        shared_buffers,
    )


def install_hint(alias: str = DEFAULT_DB_ALIAS) -> str:
    version = connections[alias].pg_version // 10000 if connections[alias].vendor == "postgresql" else "NN"
    return INSTALL_HINT.format(version=version)


# -- enabling


@dataclass(frozen=True)
class Enabled:
    version: str
    backfilled: int
    indexed_dims: tuple[int, ...]


Progress = Callable[[str], None] | None


def enable(
    *, alias: str = DEFAULT_DB_ALIAS, build_indexes: bool = True, progress: Progress = None
) -> Enabled:
    """Create the extension (if this role may), add the column, backfill it from the stored
    BLOBs, then build one HNSW index per dimension (after the bulk load: building the graph
    once is much faster, and no better, than growing it row by row). Idempotent.

    Raises PgvectorUnavailable, with what to install, when the extension cannot be created;
    the database is then left as it was."""
    say = progress or (lambda _text: None)
    connection = connections[alias]
    if connection.vendor != "postgresql":
        raise PgvectorUnavailable("pgvector is for PostgreSQL; this database is " + connection.vendor)
    with connection.cursor() as cursor:
        cursor.execute(_EXTENSION)
        row = cursor.fetchone()
        if row is None:
            try:
                # A savepoint: the failure must not end the caller's transaction.
                with transaction.atomic(using=alias):
                    cursor.execute(_CREATE_EXTENSION)
            except DatabaseError as exc:
                raise PgvectorUnavailable(
                    f"could not create the vector extension ({str(exc).strip()}): {install_hint(alias)}"
                ) from exc
            cursor.execute(_EXTENSION)
            row = cursor.fetchone()
        version = row[0]
        cursor.execute(_ADD_COLUMN)
        cursor.execute(_INLINE_EMBEDDING)
    with _lock:
        _columns.pop(_key(alias), None)
        _indexed.pop(_key(alias), None)
    backfilled = backfill(alias=alias, progress=say)
    dims: tuple[int, ...] = ()
    if build_indexes:
        dims = build_all_indexes(alias=alias, progress=say)
    return Enabled(version, backfilled, dims)


def keep_embedding_inline(*, alias: str = DEFAULT_DB_ALIAS) -> bool:
    """Store the embedding in the row and the BLOB out of line, for rows written from now on
    (see _INLINE_EMBEDDING); False where there is no pgvector column."""
    if connections[alias].vendor != "postgresql" or not has_column(alias):
        return False
    with connections[alias].cursor() as cursor:
        cursor.execute(_INLINE_EMBEDDING)
    return True


def backfill(*, alias: str = DEFAULT_DB_ALIAS, progress: Progress = None) -> int:
    """Fill `embedding` from the BLOB for every row that lacks it; rows filled."""
    say = progress or (lambda _text: None)
    done, last = 0, 0
    with connections[alias].cursor() as cursor:
        while True:
            cursor.execute(_PENDING, [last, BACKFILL_BATCH])
            rows = cursor.fetchall()
            if not rows:
                return done
            ids = [row[0] for row in rows]
            texts = [as_text(np.frombuffer(bytes(row[1]), dtype="<f4")) for row in rows]
            cursor.execute(_FILL, [ids, texts])
            done += len(rows)
            last = ids[-1]
            if done % (BACKFILL_BATCH * 25) == 0:
                say(f"backfilled {done} vectors")


def build_all_indexes(*, alias: str = DEFAULT_DB_ALIAS, progress: Progress = None) -> tuple[int, ...]:
    """One HNSW index per stored dimension (up to MAX_INDEXED_DIM); the dims indexed."""
    say = progress or (lambda _text: None)
    with connections[alias].cursor() as cursor:
        cursor.execute(_DIMS)
        dims = [int(row[0]) for row in cursor.fetchall()]
    built = []
    for dim in dims:
        if dim > MAX_INDEXED_DIM:
            say(f"{dim}-dim vectors are searched exactly (HNSW on `halfvec` stops at {MAX_INDEXED_DIM})")
            continue
        say(f"building the HNSW index for {dim}-dim vectors")
        _build_index(alias, dim)
        built.append(dim)
    return tuple(built)


def _build_index(alias: str, dim: int) -> None:
    connection = connections[alias]
    with transaction.atomic(using=alias), connection.cursor() as cursor:
        memory = str(getattr(settings, BUILD_MEMORY_SETTING, BUILD_MEMORY))
        cursor.execute("SELECT set_config('maintenance_work_mem', %s, true)", [memory])
        cursor.execute(_create_index_sql(dim))
    key = _key(alias)  # remembered once it is committed (a rolled-back index never existed)
    transaction.on_commit(lambda: _indexed.setdefault(key, set()).add(dim), using=alias)


def _ensure_index(alias: str, dim: int) -> None:
    """A new dimension gets its (empty) index on first write, so its later rows join a graph."""
    if dim > MAX_INDEXED_DIM:
        return
    key = _key(alias)
    known = _indexed.get(key)
    if known is None:
        with connections[alias].cursor() as cursor:
            cursor.execute(_INDEXED_DIMS)
            known = {int(name.rsplit("_", 1)[1]) for (name,) in cursor.fetchall()}
        _indexed[key] = known
    if dim not in known:
        _build_index(alias, dim)


def disable(*, alias: str = DEFAULT_DB_ALIAS) -> None:
    """Drop the column and its indexes (the extension stays: other schemas may use it)."""
    with connections[alias].cursor() as cursor:
        cursor.execute(_DROP_COLUMN)  # its indexes go with it
    with _lock:
        _columns.pop(_key(alias), None)
        _indexed.pop(_key(alias), None)


# -- writes


def store(params: Sequence[tuple[int, str, int, bytes, int]], *, alias: str = DEFAULT_DB_ALIAS) -> int:
    """memory.store.vectors' upsert rows (chunk id, model, dim, BLOB, chunk id), written with
    their embedding too. Rows written."""
    rows = []
    for chunk_id, model, dim, blob, check_id in params:
        rows.append((chunk_id, model, dim, blob, as_text(np.frombuffer(blob, dtype="<f4")), check_id))
    for dim in {row[2] for row in rows}:
        _ensure_index(alias, dim)
    with connections[alias].cursor() as cursor:
        cursor.executemany(_UPSERT, rows)
        return max(cursor.rowcount, 0)


# -- reads


_sizes: dict[tuple[str, str], tuple[float, int]] = {}  # (alias, db) -> (read at, rows)
_RELTUPLES = "SELECT reltuples::bigint FROM pg_class WHERE oid = to_regclass('memory_chunk_vector')"


def ef_for_rows(rows: int) -> int:
    """hnsw.ef_search for a table of `rows` vectors (see EF_SEARCH)."""
    return max(EF_SEARCH_MIN, min(EF_SEARCH, round(EF_AT_100K * (max(rows, 1) / 100_000) ** 0.301)))


def _table_rows(alias: str) -> int:
    key, now = _key(alias), time.monotonic()
    known = _sizes.get(key)
    if known is not None and now - known[0] < EF_SIZE_TTL:
        return known[1]
    with connections[alias].cursor() as cursor:
        cursor.execute(_RELTUPLES)
        row = cursor.fetchone()
    rows = int(row[0]) if row and row[0] is not None and row[0] >= 0 else 0  # -1: never analysed
    rows = rows or EF_SEARCH_ROWS_UNKNOWN
    _sizes[key] = (now, rows)
    return rows


def _ef_search(k: int, alias: str) -> int:
    fixed = getattr(settings, EF_SEARCH_SETTING, None)
    ef = int(fixed) if fixed is not None else ef_for_rows(_table_rows(alias))
    return max(ef, RERANK * k)


def _query_text(query: np.ndarray) -> tuple[int, str] | None:
    values = np.asarray(query, dtype=np.float32).ravel()
    if not len(values) or not np.any(values):
        return None  # cosine to a zero vector is undefined
    return len(values), as_text(values)


def _one_trip(cursor: Any) -> bool:
    """Whether this cursor sends several statements in one message: psycopg 3's client-side
    binding (Django's default) uses the simple query protocol, which allows it."""
    try:
        from psycopg import ClientCursor
    except ImportError:  # psycopg2
        return False
    return isinstance(cursor.cursor, ClientCursor)


def _pipelined(cursor: Any) -> bool:
    """Whether this cursor can queue statements in psycopg 3's pipeline mode (server-side
    binding, DATABASE_SERVER_SIDE_BINDING): the extended protocol refuses several statements in
    one message, but statements queued before one Sync run as one implicit transaction."""
    try:
        from psycopg import Cursor, Pipeline
    except ImportError:  # psycopg2
        return False
    return isinstance(cursor.cursor, Cursor) and Pipeline.is_supported()


def _ranked(sql: str, params: list[Any], k: int, alias: str) -> list[tuple[Any, ...]]:
    """Rows of `sql` (whose last column is the distance), closest first, with SET LOCAL search
    settings (a transaction of its own when the caller has none).

    One round trip where the driver allows: "SET LOCAL ...; SET LOCAL ...; SELECT ..." in one
    simple-protocol message runs as one implicit transaction, so the settings hold for the
    SELECT and end with it. With server-side binding the same is set_config(..., true) and the
    SELECT queued in one pipeline: one Sync, one implicit transaction, one round trip.
    Otherwise (psycopg2) BEGIN, the settings, the SELECT and COMMIT are four round trips, which
    on a busy two-core host cost more than the search itself (1M rows: see bench/pgvector.py)."""
    ef = _ef_search(k, alias)
    connection = connections[alias]
    with connection.cursor() as cursor:
        if _one_trip(cursor):
            cursor.execute(_SEARCH_PREFIX.format(ef=int(ef)) + sql, params)
            while cursor.description is None and cursor.nextset():
                pass  # past the SETs' empty results
            rows = cursor.fetchall()
        elif _pipelined(cursor):
            # Errors surface when the pipeline syncs, outside cursor.execute: wrapped as
            # Django's, as an execute's would be. The rows are read after the Sync.
            with connection.wrap_database_errors, connection.connection.pipeline():
                cursor.execute(_SEARCH_SETTINGS, [str(ef)])
                cursor.execute(sql, params)
            rows = cursor.fetchall()
        else:
            with transaction.atomic(using=alias, savepoint=False):
                cursor.execute(_SEARCH_SETTINGS, [str(ef)])
                cursor.execute(sql, params)
                rows = cursor.fetchall()
    rows.sort(key=lambda row: (row[-1], row[0]))  # relaxed_order: nearly sorted; make it exact
    return [tuple(row[:-1]) for row in rows]


def _exact(dim: int) -> str:
    """The cosine distance of full float32 precision, by which the rows found are ordered."""
    return f"v.embedding::vector({int(dim)}) <=> %s::vector({int(dim)})"


def _walked(dim: int) -> str:
    """The half-precision distance the HNSW index walks by (its expression, so it is used);
    beyond MAX_INDEXED_DIM, with no index, the exact one."""
    if dim > MAX_INDEXED_DIM:
        return _exact(dim)
    return f"v.embedding::halfvec({int(dim)}) <=> %s::halfvec({int(dim)})"


def _reranked(base: str, params: list[Any], dim: int, text: str, k: int) -> tuple[str, list[Any]]:
    """`base` (whose last column is the exact distance) walked by the index for RERANK x k rows,
    the best k of them by the exact distance: half precision blurs near-ties (two rows 0.001
    apart may swap), which the over-fetch leaves to the float32 values."""
    walk = f"{base} ORDER BY {_walked(dim)} LIMIT %s"
    sql = f"SELECT * FROM ({walk}) AS walked ORDER BY distance LIMIT %s"  # noqa: S608 - our SQL
    return sql, [*params, text, RERANK * int(k), int(k)]


def nearest_ids(query: np.ndarray, *, k: int, model: str, alias: str = DEFAULT_DB_ALIAS) -> list[int]:
    """Ids of the `k` chunks whose `model` vectors are closest (cosine) to `query`, unfiltered."""
    prepared = _query_text(query)
    if k <= 0 or prepared is None:
        return []
    dim, text = prepared
    base = (
        f"SELECT v.chunk_id, {_exact(dim)} AS distance FROM memory_chunk_vector AS v "  # noqa: S608 - dim is an int
        f"WHERE v.dim = {dim} AND v.model = %s"
    )
    sql, params = _reranked(base, [text, model], dim, text, k)
    return [row[0] for row in _ranked(sql, params, k, alias)]


def nearest_rows(
    query: np.ndarray,
    *,
    k: int,
    model: str,
    queryset: QuerySet[Chunk],
    fields: Sequence[str] = ("id",),
) -> list[tuple[Any, ...]]:
    """`fields` (id first) of the `k` rows of `queryset` whose `model` vectors are closest to
    `query`, closest first: the caller's filters run in the same statement as the HNSW search."""
    prepared = _query_text(query)
    if k <= 0 or prepared is None:
        return []
    dim, text = prepared
    alias = queryset.db
    qn = connections[alias].ops.quote_name
    table = qn(row_filter.TABLE)
    compiled = row_filter.compiled_filter(queryset)
    if compiled is not None:
        where, where_params = compiled
        where = where or "1 = 1"
    else:  # joins, annotations...: the queryset itself as the filter
        inner, inner_params = queryset.order_by().values("id").query.sql_with_params()
        where, where_params = f"{table}.{qn('id')} IN ({inner})", list(inner_params)
    columns = ", ".join(row_filter.columns_of(fields))
    base = (
        f"SELECT {columns}, {_exact(dim)} AS distance FROM memory_chunk_vector AS v "  # noqa: S608 - names and an int
        f"JOIN {table} ON {table}.{qn('id')} = v.chunk_id "
        f"WHERE v.dim = {dim} AND v.model = %s AND ({where})"
    )
    params = [text, model, *where_params]
    sql, walk_params = _reranked(base, params, dim, text, k)
    rows = _ranked(sql, walk_params, k, alias)
    if len(rows) < k:
        # Fewer than k: either fewer rows pass the filter, or the graph walk stopped
        # (hnsw.max_scan_tuples) before k passed it, which only a very selective filter causes.
        # Either way the rows that pass are few: rank them all, exactly (a MATERIALIZED CTE is
        # planned on its own, so the outer ORDER BY cannot send it back through the index).
        exact = f"WITH f AS MATERIALIZED ({base}) SELECT * FROM f ORDER BY distance LIMIT %s"  # noqa: S608 - our SQL
        rows = _ranked(exact, [*params, int(k)], k, alias)
    return row_filter.converted(rows, fields)
