"""memory.store.vectors: the vector table, its triggers, and the in-process index's freshness."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest
from django.db import connection, transaction

from memory.store import vectors
from memory.store.models import Chunk
from memory.store.vectors import (
    chunk_ids_without_vector,
    count_without_vector,
    nearest_ids,
    stored_vectors,
    vector_count,
    vectors_delete,
    vectors_store,
)
from tests.factories import ChunkFactory
from tests.memory.store.vector_stub import clean_embedding_state  # noqa: F401 - fixture

pytestmark = pytest.mark.usefixtures("clean_embedding_state")

M = "test-model"
DIM = 16


def unit(seed: int, dim: int = DIM) -> np.ndarray:
    v = np.random.default_rng(seed).standard_normal(dim).astype(np.float32)
    return v / np.linalg.norm(v)


def epoch() -> bytes:
    with connection.cursor() as cursor:
        cursor.execute("SELECT epoch FROM memory_chunk_vector_state WHERE id = 1")
        return bytes(cursor.fetchone()[0])


def with_vectors(n: int, *, start_seed: int = 0, **fields: Any) -> list[Chunk]:
    chunks = [ChunkFactory(**fields) for _ in range(n)]
    vectors_store(((c.pk, unit(start_seed + i)) for i, c in enumerate(chunks)), model=M)
    return chunks


# -- storage


def test_store_round_trips_float32(db: Any) -> None:
    chunk = ChunkFactory()
    vector = unit(1)

    assert vectors_store([(chunk.pk, vector)], model=M) == 1

    assert np.array_equal(stored_vectors([chunk.pk], model=M)[chunk.pk], vector)
    assert stored_vectors([chunk.pk], model="another-model") == {}
    assert vector_count(model=M) == 1


def test_store_skips_chunks_that_do_not_exist(db: Any) -> None:
    chunk = ChunkFactory()

    written = vectors_store([(chunk.pk, unit(1)), (chunk.pk + 1000, unit(2))], model=M)

    assert written == 1
    assert vector_count() == 1


def test_storing_the_same_vector_again_changes_nothing(db: Any) -> None:
    chunk = ChunkFactory()
    vectors_store([(chunk.pk, unit(1))], model=M)
    before = epoch()

    assert vectors_store([(chunk.pk, unit(1))], model=M) == 0

    assert epoch() == before


def test_a_new_model_rewrites_the_row_and_changes_the_epoch(db: Any) -> None:
    chunk = ChunkFactory()
    vectors_store([(chunk.pk, unit(1))], model=M)
    before = epoch()

    assert vectors_store([(chunk.pk, unit(2, dim=8))], model="new-model") == 1

    assert epoch() != before
    assert vector_count() == 1
    assert stored_vectors([chunk.pk], model="new-model")[chunk.pk].shape == (8,)


def test_missing_lists_chunks_without_a_vector_for_the_model(db: Any) -> None:
    a, b, c = ChunkFactory(), ChunkFactory(), ChunkFactory()
    vectors_store([(b.pk, unit(1))], model=M)
    vectors_store([(c.pk, unit(1))], model="other")

    assert chunk_ids_without_vector(model=M) == [a.pk, c.pk]
    assert chunk_ids_without_vector(model=M, after_id=a.pk) == [c.pk]
    assert chunk_ids_without_vector(model=M, limit=1) == [a.pk]
    assert count_without_vector(model=M) == 2


# -- vectors follow their chunk


def test_deleting_a_chunk_deletes_its_vector(db: Any) -> None:
    keep, gone = with_vectors(2)
    gone_id, before = gone.pk, epoch()

    gone.delete()

    assert stored_vectors([keep.pk, gone_id]).keys() == {keep.pk}
    assert epoch() != before


def test_bulk_and_raw_deletes_take_the_vectors_too(db: Any) -> None:
    chunks = with_vectors(4)
    Chunk.objects.filter(pk__in=[chunks[0].pk, chunks[1].pk]).delete()
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM memory_chunk WHERE id = %s", [chunks[2].pk])

    assert vector_count() == 1
    assert stored_vectors([c.pk for c in chunks]).keys() == {chunks[3].pk}


def test_editing_a_chunk_drops_its_stale_vector(db: Any) -> None:
    edited, untouched, relabelled = with_vectors(3)

    Chunk.objects.filter(pk=edited.pk).update(content="something else entirely")
    Chunk.objects.filter(pk=relabelled.pk).update(review_state="confirmed")

    assert stored_vectors([edited.pk, untouched.pk, relabelled.pk]).keys() == {untouched.pk, relabelled.pk}


def test_vectors_delete(db: Any) -> None:
    chunks = with_vectors(3)

    assert vectors_delete([chunks[0].pk, chunks[2].pk, 999_999]) == 2

    assert vector_count() == 1


# -- nearest neighbours


def test_nearest_is_exact_cosine_order(db: Any) -> None:
    chunks = with_vectors(30)
    matrix = np.stack([unit(i) for i in range(30)])
    query = unit(100)

    found = nearest_ids(query, k=5, model=M)

    expected = [chunks[i].pk for i in np.argsort(-(matrix @ query), kind="stable")[:5]]
    assert found == expected


def test_nearest_returns_the_query_own_vector_first(db: Any) -> None:
    chunks = with_vectors(10)

    assert nearest_ids(unit(7) * 3.0, k=1, model=M) == [chunks[7].pk]  # any length: cosine


def test_nearest_applies_the_queryset_and_looks_further_when_needed(db: Any) -> None:
    rejected = with_vectors(50, review_state="rejected")
    allowed = with_vectors(3, start_seed=1000, review_state="confirmed")
    query = np.mean([unit(i) for i in range(50)], axis=0)  # close to every rejected row

    found = nearest_ids(query, k=3, model=M, queryset=Chunk.objects.exclude(review_state="rejected"))

    assert sorted(found) == sorted(c.pk for c in allowed)
    assert nearest_ids(query, k=3, model=M)[0] in {c.pk for c in rejected}


def test_nearest_ignores_other_models_and_other_dimensions(db: Any) -> None:
    mine = with_vectors(2)
    other = ChunkFactory()
    vectors_store([(other.pk, unit(0))], model="other")

    assert set(nearest_ids(unit(0), k=10, model=M)) == {c.pk for c in mine}
    assert nearest_ids(unit(0, dim=8), k=10, model=M) == []
    assert nearest_ids(unit(0), k=10, model="no-vectors-yet") == []
    assert nearest_ids(unit(0), k=0, model=M) == []


# -- the in-process cache must notice other processes' writes


class _QmarkConnection:
    """A psycopg connection that takes the sqlite3-style `?` placeholders these tests write."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn

    def execute(self, sql: str, params: Sequence[object] = ()) -> None:
        self.conn.execute(sql.replace("?", "%s"), params)

    def __enter__(self) -> _QmarkConnection:
        return self

    def __exit__(self, *exc: object) -> None:
        self.conn.close()


def other_process() -> Any:
    """A second connection to the same database, as another worker would have (autocommit)."""
    if connection.vendor == "postgresql":
        import psycopg

        db = connection.settings_dict
        conn = psycopg.connect(
            dbname=db["NAME"], user=db["USER"], host=db["HOST"], port=db["PORT"] or 5432, autocommit=True
        )
        return _QmarkConnection(conn)
    return sqlite3.connect(connection.settings_dict["NAME"], isolation_level=None)


@pytest.mark.django_db(transaction=True)
def test_cache_notices_rows_added_by_another_process_and_only_loads_those(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    chunks = with_vectors(5)
    assert nearest_ids(unit(3), k=1, model=M) == [chunks[3].pk]
    loads: list[int] = []
    real_load = vectors._load
    monkeypatch.setattr(
        vectors,
        "_load",
        lambda alias, model, *, dim, after_id: (
            loads.append(after_id) or real_load(alias, model, dim=dim, after_id=after_id)
        ),
    )
    late = ChunkFactory()
    with other_process() as other:
        other.execute(
            "INSERT INTO memory_chunk_vector (chunk_id, model, dim, vector) VALUES (?, ?, ?, ?)",
            (late.pk, M, DIM, vectors.encode(unit(42))),
        )

    assert nearest_ids(unit(42), k=1, model=M) == [late.pk]
    assert nearest_ids(unit(3), k=1, model=M) == [chunks[3].pk]
    assert len(loads) == 1  # one delta load (id > last seen), then cache hits
    assert loads[0] > 0


@pytest.mark.django_db(transaction=True)
def test_cache_notices_rows_deleted_by_another_process() -> None:
    chunks = with_vectors(5)
    assert nearest_ids(unit(2), k=1, model=M) == [chunks[2].pk]

    with other_process() as other:
        other.execute("DELETE FROM memory_chunk WHERE id = ?", (chunks[2].pk,))

    assert chunks[2].pk not in nearest_ids(unit(2), k=5, model=M)
    assert len(nearest_ids(unit(2), k=10, model=M)) == 4


@pytest.mark.django_db(transaction=True)
def test_rolled_back_vectors_never_stick_in_the_cache() -> None:
    chunks = with_vectors(3)
    nearest_ids(unit(0), k=1, model=M)  # cache built from committed rows

    with transaction.atomic():
        ghost = ChunkFactory()
        vectors_store([(ghost.pk, unit(77))], model=M)
        assert nearest_ids(unit(77), k=1, model=M) == [ghost.pk]  # visible inside its transaction
        transaction.set_rollback(True)

    real = ChunkFactory()  # SQLite hands out the rolled-back ids again (PostgreSQL sequences do not)
    vectors_store([(real.pk, unit(88))], model=M)

    assert real.pk == ghost.pk or connection.vendor == "postgresql"
    committed = {c.pk: unit(i) for i, c in enumerate(chunks)} | {real.pk: unit(88)}
    for probe in (77, 88, 0):
        query = unit(probe)
        expected = sorted(committed, key=lambda pk: -float(committed[pk] @ query))
        assert nearest_ids(query, k=10, model=M) == expected


@pytest.mark.django_db(transaction=True)
def test_big_loads_run_in_the_background_and_stale_rows_never_surface(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tests.fixtures.worker import wait_until

    monkeypatch.setattr(vectors, "SYNC_LOAD_MAX_ROWS", 2)
    chunks = with_vectors(5)
    everything = Chunk.objects.all()

    assert nearest_ids(unit(1), k=1, model=M, queryset=everything) == []  # cold: keyword-only for now
    wait_until(lambda: nearest_ids(unit(1), k=1, model=M) == [chunks[1].pk], timeout=10, what="index load")

    gone = chunks[1].pk
    with other_process() as other:
        other.execute("DELETE FROM memory_chunk WHERE id = ?", (gone,))
    served = nearest_ids(unit(1), k=5, model=M, queryset=everything)  # the old index, filtered

    assert gone not in served
    assert len(served) == 4
    wait_until(lambda: len(nearest_ids(unit(1), k=10, model=M)) == 4, timeout=10, what="index reload")
