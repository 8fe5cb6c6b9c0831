"""Vector rows no search can use (orphans, wrong lengths, stale dimensions), for `protomem check`.

The vector table's triggers and epoch row are checked here too; memory.store.integrity reports
and repairs, this module only knows the SQL.
"""

from __future__ import annotations

import os

# One BLAS thread: a vector query is one memory-bound gemv, and OpenBLAS's idle pool threads
# spin on the other core afterwards, slowing the SQLite work beside them (bench/hybrid.py on
# 2 cores: keyword p50 2.8 ms with one thread, 10.6 ms with the default pool). Only takes
# effect if numpy was not imported before; OPENBLAS_NUM_THREADS in the environment wins.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from django.db import DEFAULT_DB_ALIAS, connections

from memory.store.vectors import (
    STATE_TABLE,
    VECTOR_TABLE,
    _cursor,
    reset_cache,
)

VECTOR_TRIGGERS = (
    "memory_chunk_vector_ad",
    "memory_chunk_vector_au",
    "memory_chunk_vector_chunk_ad",
    "memory_chunk_vector_chunk_au",
    "memory_chunk_vector_chunk_moved",  # migration 0014
)
_ORPHAN = "NOT EXISTS (SELECT 1 FROM memory_chunk AS c WHERE c.id = memory_chunk_vector.chunk_id)"
_BAD_LENGTH = "length(memory_chunk_vector.vector) <> memory_chunk_vector.dim * 4"
# A model's search index only loads its newest dimension (_latest_dim), so rows of an older
# dimension are invisible, and the backfill never replaces them (the chunk "has" a vector).
# "Newest" counts usable rows only: that is the newest row once the others are dropped.
_OLD_DIM = (
    "memory_chunk_vector.dim <> (SELECT n.dim FROM memory_chunk_vector AS n "
    "WHERE n.model = memory_chunk_vector.model AND length(n.vector) = n.dim * 4 "
    "AND EXISTS (SELECT 1 FROM memory_chunk AS c WHERE c.id = n.chunk_id) "
    "ORDER BY n.id DESC LIMIT 1)"
)
_HEALTH = (
    f"SELECT count(*), coalesce(sum(CASE WHEN {_ORPHAN} THEN 1 ELSE 0 END), 0), "  # noqa: S608 - constants
    f"coalesce(sum(CASE WHEN {_BAD_LENGTH} THEN 1 ELSE 0 END), 0), "
    f"coalesce(sum(CASE WHEN {_OLD_DIM} THEN 1 ELSE 0 END), 0), "
    "count(DISTINCT model) FROM memory_chunk_vector"
)


# Migration 0011's (and 0014's) trigger names on PostgreSQL (one epoch trigger on the vector table there).
PG_VECTOR_TRIGGERS = (
    "memory_chunk_vector_changed",
    "memory_chunk_vector_chunk_ad",
    "memory_chunk_vector_chunk_au",
    "memory_chunk_vector_chunk_moved",  # migration 0014
)
_TRIGGER_NAMES = {
    "sqlite": "SELECT name FROM sqlite_master WHERE type = 'trigger' AND name IN ({})",
    "postgresql": "SELECT tgname FROM pg_trigger WHERE NOT tgisinternal AND tgname IN ({})",
}


def vector_triggers_missing(*, alias: str = DEFAULT_DB_ALIAS) -> list[str]:
    """The vector bookkeeping triggers absent on this database (SQLite or PostgreSQL names)."""
    vendor = connections[alias].vendor
    if vendor not in _TRIGGER_NAMES:
        return []
    names = VECTOR_TRIGGERS if vendor == "sqlite" else PG_VECTOR_TRIGGERS
    with _cursor(alias) as cursor:
        cursor.execute(_TRIGGER_NAMES[vendor].format(", ".join(["%s"] * len(names))), list(names))
        present = {row[0] for row in cursor.fetchall()}
    return [name for name in names if name not in present]


def vector_tables_exist(*, alias: str = DEFAULT_DB_ALIAS) -> dict[str, bool]:
    """Whether the vector table and its state table exist on this database."""
    names = set(connections[alias].introspection.table_names())
    return {VECTOR_TABLE: VECTOR_TABLE in names, STATE_TABLE: STATE_TABLE in names}


def vector_health() -> dict[str, int]:
    """Counts of vector rows: all, orphan (chunk gone), bad length (BLOB != dim floats), old
    dimension (not the model's newest usable one), and distinct models. One statement."""
    with _cursor() as cursor:
        cursor.execute(_HEALTH)
        total, orphans, bad_length, old_dim, models = cursor.fetchone()
    return {
        "vectors": int(total),
        "orphans": int(orphans),
        "bad_length": int(bad_length),
        "old_dim": int(old_dim),
        "models": int(models),
    }


def vector_state_rows() -> int:
    """1 when the epoch row every process probes is there, else 0 (deletes would go unnoticed)."""
    with _cursor() as cursor:
        cursor.execute("SELECT count(*) FROM memory_chunk_vector_state WHERE id = 1")
        return int(cursor.fetchone()[0])


def vectors_delete_unusable() -> int:
    """Drop orphan, malformed and old-dimension vector rows (the backfill recomputes live ones).
    Rows removed; the state trigger bumps the epoch, so every process reloads its index."""
    with _cursor() as cursor:
        cursor.execute(
            f"DELETE FROM memory_chunk_vector WHERE {_ORPHAN} OR {_BAD_LENGTH} OR {_OLD_DIM}"  # noqa: S608 - constants
        )
        removed = max(cursor.rowcount, 0)
    reset_cache()
    return removed
