"""Bulk loader for the PostgreSQL benches: chunks and their vectors through COPY, then each
index built once.

    from bench import pg_bulk
    pg_bulk.load_chunks(1_000_000)            # search_bench.drafts text, the same rows add_chunks stores
    pg_bulk.load_vectors(vector_blocks, ...)  # binary COPY: the BLOB and the pgvector column together
    pg_bulk.build_vector_index()              # one HNSW build over the loaded rows

Why not add_chunks: it writes 1M rows at ~1k rows/s here (multi-row INSERTs, an audit event
per row, the GIN index updated row by row with fastupdate off). This keeps what makes a row
realistic (search_bench.drafts' text and mix, and writes.py's own stamps and inspection for each
draft) and changes only how rows reach the table: the secondary indexes of memory_chunk are
dropped, rows arrive by COPY (the generated tsvector column is computed by the server as they
land), and the indexes are re-created once from their own definitions. No hot-write audit
events are written (no search reads them).

Vectors go in one binary COPY stream per block: the float32 BLOB (what the other readers use)
and pgvector's binary `vector` (int16 dim, int16 0, big-endian float4s) built with numpy, so no
vector is ever formatted as text.
"""

from __future__ import annotations

import random
import struct
import sys
import time
from collections.abc import Iterable
from typing import Any

import numpy as np

# An index build in memory: 1M x 384-dim HNSW needs ~2 GB, the GIN on 1M rows less.
BUILD_MEMORY = "6GB"
PARALLEL_WORKERS = 1  # plus the leader: the machine has two cores
COPY_BLOCK = 20_000
_HEADER = b"PGCOPY\n\xff\r\n\x00" + struct.pack("!ii", 0, 0)
_TRAILER = struct.pack("!h", -1)


def _say(text: str) -> None:
    print("    " + text, file=sys.stderr, flush=True)


def _build_settings(cursor: Any) -> None:
    cursor.execute("SELECT set_config('maintenance_work_mem', %s, false)", [BUILD_MEMORY])
    cursor.execute(
        "SELECT set_config('max_parallel_maintenance_workers', %s, false)", [str(PARALLEL_WORKERS)]
    )


def _secondary_indexes(cursor: Any, table: str) -> list[tuple[str, str]]:
    """(name, CREATE INDEX statement) of `table`'s indexes that no constraint owns."""
    cursor.execute(
        "SELECT i.indexname, i.indexdef FROM pg_indexes AS i WHERE i.tablename = %s AND NOT EXISTS "
        "(SELECT 1 FROM pg_constraint AS c WHERE c.conname = i.indexname)",
        [table],
    )
    return [(name, definition) for name, definition in cursor.fetchall()]


def load_chunks(rows: int, *, seed: int, invalidated_every: int = 50) -> dict[str, Any]:
    """Replace memory_chunk with `rows` rows of bench/search.py's synthetic mix; every
    `invalidated_every`-th row superseded. Timings in seconds."""
    from django.db import connection
    from django.utils import timezone

    from bench import common
    from bench import search as search_bench
    from memory.lifecycle import writes

    rng = random.Random(seed)
    vocab = common.vocabulary(search_bench.VOCAB_SIZE)
    now = timezone.now()
    columns, plan = writes._bulk_columns()
    names = [attname for attname, _how, _f in plan]
    invalidated_at, reason = names.index("invalidated_at"), names.index("invalidation_reason")
    with connection.cursor() as cursor:
        cursor.execute("TRUNCATE memory_chunk CASCADE")
        indexes = _secondary_indexes(cursor, "memory_chunk")
        for name, _definition in indexes:
            cursor.execute(f'DROP INDEX IF EXISTS "{name}"')
    start, stored, prep_s = time.perf_counter(), 0, 0.0
    raw = connection.connection  # the psycopg 3 connection under Django's
    while stored < rows:
        count = min(search_bench.SLAB, rows - stored)
        t = time.perf_counter()
        batch = []
        for draft in search_bench.drafts(rng, vocab, count, now):
            values = writes._prepared_values(draft)
            if values is None:
                continue
            row = list(writes._db_row(plan, values, connection))
            stored += 1
            if stored % invalidated_every == 0:
                row[invalidated_at], row[reason] = now, "superseded_by:0"
            batch.append(row)
        prep_s += time.perf_counter() - t
        with raw.cursor() as cursor, cursor.copy(
            f"COPY memory_chunk ({', '.join(columns)}) FROM STDIN"
        ) as copy:
            for row in batch:
                copy.write_row(row)
        _say(f"chunks {stored:,}/{rows:,} ({time.perf_counter() - start:.0f} s)")
    copy_s = time.perf_counter() - start
    start = time.perf_counter()
    with connection.cursor() as cursor:
        _build_settings(cursor)
        for name, definition in indexes:
            _say(f"index {name}")
            cursor.execute(definition)
        cursor.execute("VACUUM ANALYZE memory_chunk")
    return {"chunks": stored, "chunk_prep_s": prep_s, "chunk_copy_s": copy_s - prep_s,
            "chunk_index_s": time.perf_counter() - start}


def _binary_block(ids: np.ndarray, model: bytes, matrix: np.ndarray) -> bytes:
    """One binary COPY payload of (chunk_id, model, dim, vector BLOB, embedding) rows."""
    count, dim = matrix.shape
    blob = matrix.astype("<f4")
    record = np.dtype([
        ("nfields", ">i2"),
        ("id_len", ">i4"), ("id", ">i8"),
        ("model_len", ">i4"), ("model", f"S{len(model)}"),
        ("dim_len", ">i4"), ("dim", ">i4"),
        ("blob_len", ">i4"), ("blob", "<f4", (dim,)),
        ("vec_len", ">i4"), ("vec_dim", ">i2"), ("vec_unused", ">i2"), ("vec", ">f4", (dim,)),
    ])
    out = np.empty(count, dtype=record)
    out["nfields"] = 5
    out["id_len"], out["id"] = 8, ids
    out["model_len"], out["model"] = len(model), model
    out["dim_len"], out["dim"] = 4, dim
    out["blob_len"], out["blob"] = 4 * dim, blob
    out["vec_len"], out["vec_dim"], out["vec_unused"], out["vec"] = 4 + 4 * dim, dim, 0, matrix
    return _HEADER + out.tobytes() + _TRAILER


def load_vectors(blocks: Iterable[tuple[np.ndarray, np.ndarray]], *, model: str) -> dict[str, Any]:
    """Replace memory_chunk_vector with (ids, unit-vector matrix) blocks, the pgvector column
    present and its HNSW indexes absent (build_vector_index builds them once, afterwards)."""
    from django.db import connection

    from memory.store import pgvector_index

    with connection.cursor() as cursor:  # first: enable() would backfill the old rows (--reuse-chunks)
        cursor.execute("TRUNCATE memory_chunk_vector")
    pgvector_index.disable()  # drops the column and its indexes: rows land without graph inserts
    pgvector_index.enable(build_indexes=False)  # the column back, empty table: nothing to backfill
    raw = connection.connection
    start, done = time.perf_counter(), 0
    for ids, matrix in blocks:
        payload = _binary_block(ids, model.encode(), matrix)
        with raw.cursor() as cursor, cursor.copy(
            "COPY memory_chunk_vector (chunk_id, model, dim, vector, embedding) "
            "FROM STDIN WITH (FORMAT binary)"
        ) as copy:
            copy.write(payload)
        done += len(ids)
        if done % 100_000 < len(ids):
            _say(f"vectors {done:,} ({time.perf_counter() - start:.0f} s)")
    return {"vectors": done, "vector_copy_s": time.perf_counter() - start}


def build_vector_index() -> dict[str, Any]:
    """The HNSW index of each dimension, built once, in memory, then VACUUM ANALYZE."""
    from django.conf import settings
    from django.db import connection

    from memory.store import pgvector_index

    settings.PROTOMEM_PGVECTOR_BUILD_MEMORY = BUILD_MEMORY
    start = time.perf_counter()
    with connection.cursor() as cursor:
        _build_settings(cursor)
    dims = pgvector_index.build_all_indexes(progress=_say)
    build_s = time.perf_counter() - start
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE memory_chunk_vector")
    return {"hnsw_dims": list(dims), "hnsw_build_s": build_s}
