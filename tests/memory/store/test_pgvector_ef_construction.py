"""Migration 0020: the pgvector HNSW indexes are rebuilt with pgvector_index.HNSW_EF_CONSTRUCTION
(a better graph for the same search time) and back with 128 on reverse; the searches they serve
return the same rows. PostgreSQL only."""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from django.db import connection

from memory.store import pgvector_index
from memory.store.vectors import nearest_ids, vectors_store
from tests.factories import ChunkFactory
from tests.memory.store.test_pgvector_index import M, exact, fresh_pgvector, unit  # noqa: F401 - fixture
from tests.memory.store.vector_stub import clean_embedding_state  # noqa: F401 - fixture

pytestmark = [pytest.mark.postgres_only, pytest.mark.usefixtures("clean_embedding_state", "fresh_pgvector")]

MIGRATION = importlib.import_module("memory.migrations.0020_pgvector_ef_construction")


class _Editor:
    """What the migration's functions read of a schema editor."""

    connection = connection


def options() -> dict[str, list[str]]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT relname, coalesce(reloptions, '{}') FROM pg_class WHERE relkind = 'i' "
            "AND relname LIKE 'memory_chunk_halfvec_hnsw_%%'"
        )
        return {name: sorted(opts) for name, opts in cursor.fetchall()}


def test_indexes_are_built_with_the_module_setting_and_the_migration_moves_them_both_ways(db: Any) -> None:
    chunks = [ChunkFactory() for _ in range(30)]
    stored = {c.pk: unit(i) for i, c in enumerate(chunks[:20])}
    vectors_store(stored.items(), model=M)
    vectors_store(((c.pk, unit(i, 8)) for i, c in enumerate(chunks[20:])), model=M)  # a second dim
    new = f"ef_construction={pgvector_index.HNSW_EF_CONSTRUCTION}"
    assert pgvector_index.HNSW_EF_CONSTRUCTION != MIGRATION.PREVIOUS
    assert options() == {
        "memory_chunk_halfvec_hnsw_32": [new, "m=16"],
        "memory_chunk_halfvec_hnsw_8": [new, "m=16"],
    }

    MIGRATION.reverse(None, _Editor())
    assert {opts[0] for opts in options().values()} == {"ef_construction=128"}
    assert nearest_ids(unit(3), k=20, model=M) == exact(unit(3), stored, 20)
    assert pgvector_index.status().indexed_dims == (8, 32)

    MIGRATION.forward(None, _Editor())
    assert {opts[0] for opts in options().values()} == {new}
    assert nearest_ids(unit(3), k=20, model=M) == exact(unit(3), stored, 20)
    assert pgvector_index.status().indexed_dims == (8, 32)


def test_indexes_already_built_with_the_setting_are_left_alone(db: Any) -> None:
    chunk = ChunkFactory()
    vectors_store([(chunk.pk, unit(1))], model=M)
    with connection.cursor() as cursor:
        cursor.execute("SELECT oid FROM pg_class WHERE relname = 'memory_chunk_halfvec_hnsw_32'")
        before = cursor.fetchone()[0]
        MIGRATION.forward(None, _Editor())
        cursor.execute("SELECT oid FROM pg_class WHERE relname = 'memory_chunk_halfvec_hnsw_32'")
        assert cursor.fetchone()[0] == before  # not dropped and rebuilt
