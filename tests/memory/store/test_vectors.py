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
    has_vector,
    nearest_ids,
    stored_vectors,
    vector_count,
    vectors_delete,
    vectors_store,
)
from tests.factories import ChunkFactory
from tests.memory.store.vector_stub import clean_embedding_state  # noqa: F401 - fixture

pytestmark = pytest.mark.usefixtures("clean_embedding_state", "in_process_index")


@pytest.fixture
def in_process_index(settings: Any) -> None:
    """These tests are about the in-process index: on PostgreSQL it serves when pgvector is off
    (tests/memory/store/test_pgvector_index.py covers the pgvector path)."""
    settings.PROTOMEM_PGVECTOR = False

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


def test_has_vector_answers_per_model_and_after_deletes(db: Any) -> None:
    assert not has_vector(model=M)
    chunk = ChunkFactory()
    vectors_store([(chunk.pk, unit(1))], model=M)

    assert has_vector(model=M)
    assert not has_vector(model="another-model")
    vectors_delete([chunk.pk])
    assert not has_vector(model=M)


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


# -- the index keeps each namespace's columns together


def scanned_columns(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many columns each vector product of the calls that follow multiplies."""
    seen: list[int] = []
    real = vectors._ranked

    def spy(segments: list[vectors.Segment], query: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        seen.append(sum(len(segment.ids) for segment in segments))
        return real(segments, query)

    monkeypatch.setattr(vectors, "_ranked", spy)
    return seen


def test_a_search_in_one_namespace_reads_only_its_columns_and_finds_the_same_rows(
    db: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(vectors, "REGROUP_MIN", 4)  # grouped after the first load, and again below
    chunks = [ChunkFactory(namespace=("a", "b", "c")[i % 3]) for i in range(30)]
    vectors_store(((c.pk, unit(i)) for i, c in enumerate(chunks)), model=M)
    query = unit(100)
    nearest_ids(query, k=1, model=M)  # loads and groups the index
    late = [ChunkFactory(namespace=ns) for ns in ("b", "c", "b")]  # appended after the grouped columns
    vectors_store(((c.pk, unit(200 + i)) for i, c in enumerate(late)), model=M)
    in_b = [c for c in [*chunks, *late] if c.namespace == "b"]
    scores = {c.pk: float(stored_vectors([c.pk], model=M)[c.pk] @ query) for c in in_b}
    seen = scanned_columns(monkeypatch)

    found = nearest_ids(query, k=5, model=M, queryset=Chunk.objects.filter(namespace="b"))
    by_filter = nearest_ids(query, k=5, model=M, queryset=Chunk.objects.filter(domain__in=["fact", "b"]))

    assert found == sorted(scores, key=lambda pk: -scores[pk])[:5]
    assert seen[0] == len(in_b) == 12  # the namespace's columns only, the late rows too
    assert seen[1] == 33  # no namespace in the filter: every column
    assert set(found) <= {c.pk for c in in_b}
    assert len(by_filter) == 5
    assert nearest_ids(query, k=5, model=M, queryset=Chunk.objects.filter(namespace="nowhere")) == []


def test_index_regroups_once_the_appended_columns_are_many(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(vectors, "REGROUP_MIN", 4)
    index = vectors.VectorIndex(dim=2, epoch=None)
    a, b = vectors.namespace_code("regroup-a"), vectors.namespace_code("regroup-b")

    def segment(ids: list[int], codes: list[int]) -> vectors.Segment:
        columns = np.ones((2, len(ids)), dtype=np.float32) * np.asarray(ids, dtype=np.float32)
        return vectors.Segment(np.asarray(ids), columns, np.asarray(codes, dtype=np.int32))

    index.extend(segment([1, 2, 3, 4, 5, 6], [a, b, a, b, a, b]), max_row_id=6)
    grouped = index.segment()
    index.extend(segment([7, 8], [b, a]), max_row_id=8)
    tail = index.segment()

    assert grouped.grouped == 6
    assert grouped.ids.tolist() == [1, 3, 5, 2, 4, 6]  # stable within each namespace
    assert grouped.columns[0].tolist() == [1, 3, 5, 2, 4, 6]  # columns moved with their ids
    assert tail.grouped == 6  # 2 appended: not regrouped yet
    assert tail.ids.tolist() == [1, 3, 5, 2, 4, 6, 7, 8]
    assert [part.ids.tolist() for part in tail.within([b])] == [[2, 4, 6], [7]]
    assert grouped.ids.tolist() == [1, 3, 5, 2, 4, 6]  # a reader's segment never changes under it


@pytest.mark.django_db(transaction=True)
def test_a_row_moved_to_another_namespace_is_found_in_its_new_one() -> None:
    chunks = with_vectors(4, namespace="old")
    query = unit(2)
    assert nearest_ids(query, k=1, model=M, queryset=Chunk.objects.filter(namespace="old")) == [chunks[2].pk]
    before = epoch()

    with other_process() as other:  # a raw UPDATE, as no service does (edits are revisions)
        other.execute("UPDATE memory_chunk SET namespace = ? WHERE id = ?", ("new", chunks[2].pk))

    assert epoch() != before
    old, new = Chunk.objects.filter(namespace="old"), Chunk.objects.filter(namespace="new")
    assert nearest_ids(query, k=1, model=M, queryset=new) == [chunks[2].pk]
    assert chunks[2].pk not in nearest_ids(query, k=4, model=M, queryset=old)


def test_moving_a_row_without_a_vector_leaves_the_epoch_alone(db: Any) -> None:
    chunk = ChunkFactory(namespace="old")
    with_vectors(1)
    before = epoch()

    Chunk.objects.filter(pk=chunk.pk).update(namespace="new")

    assert epoch() == before
