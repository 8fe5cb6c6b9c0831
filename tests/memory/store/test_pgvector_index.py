"""memory.store.pgvector_index: vector search in PostgreSQL (pgvector HNSW), with the callers' filters.

PostgreSQL only: scripts/test-services.sh builds pgvector and creates it in template1, so the
test database starts with the extension and migration 0017 enables the column and the indexes.
"""

from __future__ import annotations

import dataclasses
from datetime import timedelta
from typing import Any

import numpy as np
import pytest
from django.db import connection
from django.utils import timezone

from memory.lifecycle.scope import readable_by
from memory.store import pgvector_index, vectors
from memory.store.deliverable import HOLD_RISKY, deliverable
from memory.store.models import Chunk
from memory.store.vectors import nearest_ids, nearest_rows, vectors_store
from protomem.cli import doctor_checks
from tests.factories import AgentFactory, ChunkFactory
from tests.memory.store.vector_stub import clean_embedding_state  # noqa: F401 - fixture

pytestmark = [pytest.mark.postgres_only, pytest.mark.usefixtures("clean_embedding_state", "fresh_pgvector")]

M = "test-model"
DIM = 32


@pytest.fixture
def fresh_pgvector() -> Any:
    pgvector_index.reset_cache()
    yield
    pgvector_index.reset_cache()


def unit(seed: int, dim: int = DIM) -> np.ndarray:
    v = np.random.default_rng(seed).standard_normal(dim).astype(np.float32)
    return v / np.linalg.norm(v)


def near(query: np.ndarray, seed: int, noise: float = 0.05) -> np.ndarray:
    """A vector close to `query` (cosine ~0.99)."""
    v = query + noise * np.random.default_rng(seed).standard_normal(len(query)).astype(np.float32)
    return v / np.linalg.norm(v)


def exact(query: np.ndarray, stored: dict[int, np.ndarray], k: int) -> list[int]:
    return sorted(stored, key=lambda pk: (-float(stored[pk] @ query), pk))[:k]


def plan_of(query: np.ndarray, queryset: Any, k: int) -> str:
    """The plan PostgreSQL picks for nearest_rows' statement (captured, then EXPLAINed)."""
    with connection.execute_wrapper(_capture):
        nearest_rows(query, k=k, model=M, queryset=queryset)
    sql, params = _captured[-1]
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN " + search_of(sql), params)
        return "\n".join(row[0] for row in cursor.fetchall())


_captured: list[tuple[str, Any]] = []


def search_of(sql: str) -> str:
    """The search statement without the SET LOCAL statements sent in front of it."""
    return sql.rsplit("; ", 1)[-1]


def _capture(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
    if "memory_chunk_vector AS v" in sql:
        _captured.append((sql, params))
    return execute(sql, params, many, context)


def test_the_test_database_has_pgvector_enabled(db: Any) -> None:
    state = pgvector_index.status()

    assert state.installed is not None
    assert state.column
    assert pgvector_index.active()


def test_sql_search_equals_exact_search_and_loads_no_vectors_into_the_process(db: Any) -> None:
    chunks = [ChunkFactory() for _ in range(300)]
    stored = {c.pk: unit(i) for i, c in enumerate(chunks)}
    vectors_store(stored.items(), model=M)

    for probe in range(20):
        query = unit(1000 + probe)
        assert nearest_ids(query, k=10, model=M) == exact(query, stored, 10)
        rows = nearest_rows(query, k=10, model=M, queryset=Chunk.objects.all(), fields=("id", "heading"))
        assert [row[0] for row in rows] == exact(query, stored, 10)
        assert rows[0][1] == Chunk.objects.get(pk=rows[0][0]).heading

    assert vectors._cache == {}  # the in-process index was never built


def test_the_hnsw_index_serves_the_search_and_the_other_models_and_dims_stay_apart(db: Any) -> None:
    chunks = [ChunkFactory() for _ in range(40)]
    vectors_store(((c.pk, unit(i)) for i, c in enumerate(chunks[:30])), model=M)
    vectors_store(((c.pk, unit(i)) for i, c in enumerate(chunks[30:35])), model="other-model")
    vectors_store(((c.pk, unit(i, 8)) for i, c in enumerate(chunks[35:])), model=M)  # another dim
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")  # a tiny table: make the planner show the index

    assert "memory_chunk_halfvec_hnsw_32" in plan_of(unit(0), Chunk.objects.all(), 5)
    mine = {c.pk: unit(i) for i, c in enumerate(chunks[:30])}
    assert nearest_ids(unit(0), k=40, model=M) == exact(unit(0), mine, 40)
    assert set(nearest_ids(unit(0, 8), k=40, model=M)) == {c.pk for c in chunks[35:]}
    assert len(nearest_ids(unit(0), k=40, model="other-model")) == 5
    assert pgvector_index.status().indexed_dims == (8, 32)


def test_filtered_search_skips_near_rows_that_are_held_expired_private_or_elsewhere(db: Any) -> None:
    """The only near neighbours of the query are rows the caller may not see: the search still
    returns k rows, exactly the nearest of those it may see, through the HNSW index (iterative scan)."""
    me, other = AgentFactory(), AgentFactory()
    query = unit(7)
    hidden = (
        [ChunkFactory(namespace="ns", review_state="pending", held_reasons="injection") for _ in range(15)]
        + [ChunkFactory(namespace="ns", expires_at=timezone.now() - timedelta(days=1)) for _ in range(15)]
        + [ChunkFactory(namespace="ns", agent=other, scope="private") for _ in range(15)]
        + [ChunkFactory(namespace="elsewhere") for _ in range(15)]
    )
    visible = [ChunkFactory(namespace="ns", agent=me, scope="private") for _ in range(10)] + [
        ChunkFactory(namespace="ns") for _ in range(30)
    ]
    far = {c.pk: unit(500 + i) for i, c in enumerate(visible)}
    vectors_store([(c.pk, near(query, i)) for i, c in enumerate(hidden)], model=M)
    vectors_store(far.items(), model=M)
    allowed = readable_by(deliverable(hold=HOLD_RISKY), agent=me, scope="scoped").filter(namespace="ns")

    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
    plan = plan_of(query, allowed, 10)
    got = [row[0] for row in nearest_rows(query, k=10, model=M, queryset=allowed)]
    unfiltered = nearest_ids(query, k=60, model=M)

    assert "memory_chunk_halfvec_hnsw_32" in plan
    assert got == exact(query, far, 10)
    assert set(unfiltered) == {c.pk for c in hidden}  # they are the nearest, and all were skipped


def test_a_small_ef_search_still_returns_k_rows_past_rejected_ones(db: Any, settings: Any) -> None:
    settings.PROTOMEM_PGVECTOR_EF_SEARCH = 1  # max(1, 2k): a handful of candidates per graph walk
    query = unit(3)
    rejected = [ChunkFactory(namespace="b") for _ in range(80)]
    wanted = [ChunkFactory(namespace="a") for _ in range(20)]
    far = {c.pk: unit(900 + i) for i, c in enumerate(wanted)}
    vectors_store([(c.pk, near(query, i)) for i, c in enumerate(rejected)], model=M)
    vectors_store(far.items(), model=M)
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")

    in_a = Chunk.objects.filter(namespace="a")
    _captured.clear()

    with connection.execute_wrapper(_capture):
        got = [row[0] for row in nearest_rows(query, k=5, model=M, queryset=in_a)]

    assert "memory_chunk_halfvec_hnsw_32" in plan_of(query, in_a, 5)
    assert len(got) == 5
    assert set(got) <= set(far)
    assert len(_captured) == 2  # the walk went on past the rejected rows (iterative scan): no exact rerun


@pytest.mark.django_db(transaction=True)
def test_the_search_settings_hold_for_the_search_alone(settings: Any) -> None:
    """In autocommit the settings go in front of the search, in one message (client-side binding)
    or one pipeline (server-side): they apply to it (iterative scan past 80 nearer rejected rows,
    without the exact rerun) and end with it."""
    settings.PROTOMEM_PGVECTOR_EF_SEARCH = 1
    query = unit(3)
    rejected = [ChunkFactory(namespace="b") for _ in range(80)]
    wanted = [ChunkFactory(namespace="a") for _ in range(20)]
    vectors_store([(c.pk, near(query, i)) for i, c in enumerate(rejected)], model=M)
    vectors_store(((c.pk, unit(900 + i)) for i, c in enumerate(wanted)), model=M)
    with connection.cursor() as cursor:
        cursor.execute("SHOW hnsw.ef_search")
        (before,) = cursor.fetchone()
        cursor.execute("SET enable_sort = off")  # a small table: make the planner walk the graph
    _captured.clear()

    sent: list[tuple[str, bool]] = []

    def _pipelined(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        sent.append((sql, bool(connection.connection.pgconn.pipeline_status)))
        return execute(sql, params, many, context)

    try:
        with connection.execute_wrapper(_capture), connection.execute_wrapper(_pipelined):
            got = nearest_rows(query, k=5, model=M, queryset=Chunk.objects.filter(namespace="a"))
    finally:
        with connection.cursor() as cursor:
            cursor.execute("RESET enable_sort")
    with connection.cursor() as cursor:
        cursor.execute("SHOW hnsw.ef_search")
        (after,) = cursor.fetchone()
        cursor.execute("SHOW hnsw.iterative_scan")
        (iterative,) = cursor.fetchone()

    assert len(got) == 5
    if connection.settings_dict["OPTIONS"].get("server_side_binding"):
        # set_config(..., true) and the search queued in one pipeline: one Sync, one trip
        trips = [("set_config" in sql, in_pipeline) for sql, in_pipeline in sent]
        assert trips == [(True, True), (False, True)]
    else:
        assert [sql.count("SET LOCAL") for sql, _params in _captured] == [2]  # one statement, one trip
    assert after == before != "10"
    assert iterative == "off"


def test_a_graph_walk_that_gives_up_falls_back_to_exact_search_over_the_filtered_rows(
    db: Any, settings: Any
) -> None:
    """hnsw.max_scan_tuples ends an iterative scan early (pgvector's default is 20,000 tuples:
    at 1M rows a filter passing under ~0.05% of them): the walk then hands back only what it
    visited, here none of the rows that pass. The search then ranks the rows that pass exactly,
    so a very selective filter still gets its k nearest."""
    settings.PROTOMEM_PGVECTOR_EF_SEARCH = 1  # max(1, 2k): the first walk keeps 10 candidates
    query = unit(5)
    # Enough rows around the query that one short walk cannot visit the whole graph.
    rejected = Chunk.objects.bulk_create(Chunk(content=f"crowd {i}", namespace="crowd") for i in range(1000))
    wanted = [ChunkFactory(namespace="rare") for _ in range(30)]
    far = {c.pk: unit(700 + i) for i, c in enumerate(wanted)}
    vectors_store([(c.pk, near(query, i)) for i, c in enumerate(rejected)], model=M)
    vectors_store(far.items(), model=M)
    rare = Chunk.objects.filter(namespace="rare")
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_sort = off")  # a small table: make the planner walk the graph
        cursor.execute("SET LOCAL hnsw.max_scan_tuples = 1")  # the walk stops after its first candidates
    _captured.clear()

    with connection.execute_wrapper(_capture):
        got = [row[0] for row in nearest_rows(query, k=5, model=M, queryset=rare)]
    (walk, walk_params), (ranked, _params) = _captured
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN " + search_of(walk), walk_params)
        walk_plan = "\n".join(row[0] for row in cursor.fetchall())
        cursor.execute("SELECT set_config('hnsw.ef_search', '10', true)")
        cursor.execute(search_of(walk), walk_params)
        walked = cursor.fetchall()

    assert "memory_chunk_halfvec_hnsw_32" in walk_plan
    assert len(walked) < 5  # the graph walk alone came back short
    assert search_of(ranked).startswith("WITH f AS MATERIALIZED")
    assert got == exact(query, far, 5)


def test_a_queryset_with_a_join_is_applied_as_a_subquery(db: Any) -> None:
    agent = AgentFactory(name="owner")
    mine = [ChunkFactory(agent=agent) for _ in range(5)]
    others = [ChunkFactory() for _ in range(5)]
    stored = {c.pk: unit(i) for i, c in enumerate(mine + others)}
    vectors_store(stored.items(), model=M)
    joined = Chunk.objects.filter(agent__name="owner")  # a join: row_filter cannot compile it

    got = [row[0] for row in nearest_rows(unit(2), k=10, model=M, queryset=joined)]

    assert got == exact(unit(2), {c.pk: stored[c.pk] for c in mine}, 10)


def test_deleted_and_edited_rows_leave_the_index(db: Any) -> None:
    chunks = [ChunkFactory() for _ in range(6)]
    vectors_store(((c.pk, unit(i)) for i, c in enumerate(chunks)), model=M)
    chunks[1].delete()
    chunks[2].content = "something else entirely"
    chunks[2].save()
    vectors.vectors_delete([chunks[3].pk])

    assert set(nearest_ids(unit(1), k=10, model=M)) == {chunks[i].pk for i in (0, 4, 5)}


def test_without_pgvector_the_process_path_serves_and_doctor_warns(
    db: Any, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    loads: list[str] = []
    real_load = vectors._load
    monkeypatch.setattr(
        vectors, "_load", lambda alias, model, **kw: loads.append(model) or real_load(alias, model, **kw)
    )
    chunks = [ChunkFactory() for _ in range(20)]
    stored = {c.pk: unit(i) for i, c in enumerate(chunks)}
    vectors_store(stored.items(), model=M)
    settings.PROTOMEM_PGVECTOR = False

    assert not pgvector_index.active()
    assert nearest_ids(unit(4), k=5, model=M) == exact(unit(4), stored, 5)
    assert loads == [M]  # today's in-process index answered
    [finding] = doctor_checks.vector_search()
    assert finding.level == doctor_checks.WARN
    assert "PROTOMEM_PGVECTOR" in finding.text


def test_disable_then_enable_backfills_from_the_stored_vectors(db: Any) -> None:
    chunks = [ChunkFactory() for _ in range(25)]
    stored = {c.pk: unit(i) for i, c in enumerate(chunks)}
    pgvector_index.disable()
    assert not pgvector_index.active()
    [finding] = doctor_checks.vector_search()
    assert finding.level == doctor_checks.WARN
    assert "postgresql-" in finding.text
    assert "pgvector-enable" in finding.text

    vectors_store(stored.items(), model=M)  # written while the column is gone: BLOBs only
    assert nearest_ids(unit(3), k=3, model=M) == exact(unit(3), stored, 3)  # today's path
    vectors.reset_cache()
    done = pgvector_index.enable()

    assert done.backfilled == 25
    assert done.indexed_dims == (DIM,)
    assert pgvector_index.active()
    assert nearest_ids(unit(3), k=10, model=M) == exact(unit(3), stored, 10)
    assert vectors._cache == {}
    assert doctor_checks.vector_search()[0].level == doctor_checks.OK


def test_rows_missing_their_embedding_are_reported_and_filled(db: Any) -> None:
    chunks = [ChunkFactory() for _ in range(4)]
    vectors_store(((c.pk, unit(i)) for i, c in enumerate(chunks)), model=M)
    with connection.cursor() as cursor:
        cursor.execute("UPDATE memory_chunk_vector SET embedding = NULL WHERE chunk_id = %s", [chunks[0].pk])

    assert pgvector_index.status().pending == 1
    assert doctor_checks.vector_search()[0].level == doctor_checks.WARN
    assert pgvector_index.backfill() == 1
    assert nearest_ids(unit(0), k=1, model=M) == [chunks[0].pk]


def test_a_zero_query_vector_finds_nothing(db: Any) -> None:
    chunk = ChunkFactory()
    vectors_store([(chunk.pk, unit(0))], model=M)

    assert nearest_ids(np.zeros(DIM, dtype=np.float32), k=3, model=M) == []


def test_ef_search_follows_the_table_size_unless_set(db: Any, settings: Any) -> None:
    """200 at 100k rows (real questions need it there), 400 at 1M and beyond, 40 for tiny tables;
    an unanalysed table counts as large; the setting overrides; never under 2 k."""
    assert pgvector_index.ef_for_rows(100_000) == pgvector_index.EF_AT_100K == 200
    assert pgvector_index.ef_for_rows(1_000_000) == pgvector_index.EF_SEARCH
    assert pgvector_index.ef_for_rows(50_000_000) == pgvector_index.EF_SEARCH
    assert pgvector_index.ef_for_rows(100) == pgvector_index.EF_SEARCH_MIN
    assert 200 < pgvector_index.ef_for_rows(300_000) < 400
    if hasattr(settings, pgvector_index.EF_SEARCH_SETTING):
        delattr(settings, pgvector_index.EF_SEARCH_SETTING)
    with connection.cursor() as cursor:
        cursor.execute("SELECT reltuples FROM pg_class WHERE oid = 'memory_chunk_vector'::regclass")
        unanalysed = cursor.fetchone()[0] <= 0
    if unanalysed:
        assert pgvector_index._ef_search(5, "default") == pgvector_index.EF_SEARCH
    chunks = [ChunkFactory() for _ in range(30)]
    vectors_store(((c.pk, unit(i)) for i, c in enumerate(chunks)), model=M)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE memory_chunk_vector")
    pgvector_index.reset_cache()
    assert pgvector_index._ef_search(5, "default") == pgvector_index.EF_SEARCH_MIN
    assert pgvector_index._ef_search(30, "default") == 60
    settings.PROTOMEM_PGVECTOR_EF_SEARCH = 250
    assert pgvector_index._ef_search(5, "default") == 250
    found = nearest_ids(unit(3), k=1, model=M)
    assert found == [chunks[3].pk]


def test_doctor_warns_when_the_hnsw_indexes_outgrow_shared_buffers(
    db: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    chunks = [ChunkFactory() for _ in range(5)]
    vectors_store(((c.pk, unit(i)) for i, c in enumerate(chunks)), model=M)
    state = pgvector_index.status()
    assert state.index_bytes > 0  # the graphs' pages, read from the catalogue
    assert state.shared_buffers_bytes >= 128 * 1024  # the server's setting, parsed to bytes
    assert not state.index_outgrows_cache
    [finding] = doctor_checks.vector_search()
    assert finding.level == doctor_checks.OK

    small = dataclasses.replace(state, shared_buffers_bytes=state.index_bytes - 1)
    monkeypatch.setattr(pgvector_index, "status", lambda alias="default": small)
    [finding] = doctor_checks.vector_search()
    assert finding.level == doctor_checks.WARN
    assert "shared_buffers" in finding.text


def test_the_embedding_stays_in_the_row_and_the_blob_goes_out_of_line(db: Any) -> None:
    """A search reads each walked row's embedding: out of line it costs TOAST pages more."""
    storage = (
        "SELECT attname, attstorage FROM pg_attribute WHERE attrelid = 'memory_chunk_vector'::regclass "
        "AND attname IN ('embedding', 'vector')"
    )
    with connection.cursor() as cursor:
        cursor.execute(storage)
        assert dict(cursor.fetchall()) == {"embedding": "m", "vector": "e"}
    pgvector_index.disable()
    pgvector_index.enable()  # the column added again keeps the layout
    with connection.cursor() as cursor:
        cursor.execute(storage)
        assert dict(cursor.fetchall()) == {"embedding": "m", "vector": "e"}
