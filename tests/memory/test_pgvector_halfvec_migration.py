"""memory.0018_pgvector_halfvec: 0017's HNSW index over `vector` becomes one over `halfvec`; the
reverse builds 0017's again. Searches use whichever the code expects (the halfvec one)."""

from __future__ import annotations

import numpy as np
import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from memory.store import pgvector_index
from memory.store.models import Chunk
from memory.store.vectors import nearest_ids, vectors_store

pytestmark = [pytest.mark.postgres_only, pytest.mark.django_db(transaction=True)]

BEFORE = [("memory", "0017_pgvector")]
AFTER = [("memory", "0018_pgvector_halfvec")]


def migrate_to(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)


def hnsw_indexes() -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT indexname FROM pg_indexes WHERE tablename = 'memory_chunk_vector' "
            "AND indexname LIKE 'memory%%hnsw%%' ORDER BY indexname"
        )
        return [row[0] for row in cursor.fetchall()]


@pytest.fixture
def leaf():
    yield
    migrate_to(MigrationExecutor(connection).loader.graph.leaf_nodes())
    pgvector_index.reset_cache()


@pytest.mark.usefixtures("leaf")
def test_the_vector_index_becomes_a_halfvec_one_and_back():
    chunks = Chunk.objects.bulk_create(Chunk(content=f"row {i}") for i in range(20))
    rng = np.random.default_rng(5)
    vectors_store(((c.pk, rng.standard_normal(16).astype(np.float32)) for c in chunks), model="m")
    assert "memory_chunk_halfvec_hnsw_16" in hnsw_indexes()  # (earlier tests may leave other dims')

    migrate_to(BEFORE)  # only the dims with rows get 0017's index back
    assert hnsw_indexes() == ["memory_chunk_vector_hnsw_16"]

    migrate_to(AFTER)
    pgvector_index.reset_cache()
    assert hnsw_indexes() == ["memory_chunk_halfvec_hnsw_16"]
    assert pgvector_index.status().indexed_dims == (16,)
    assert len(nearest_ids(rng.standard_normal(16).astype(np.float32), k=5, model="m")) == 5
