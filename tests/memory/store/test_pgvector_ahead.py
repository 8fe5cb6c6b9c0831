"""memory.store.pgvector_ahead: the pgvector search run on a connection of its own, beside the
caller's keyword search; the same rows, the same filters, and never inside a transaction."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import Future
from typing import Any

import numpy as np
import pytest
from django.db import connection, transaction

from memory.lifecycle.selectors import chunk_search
from memory.store import pgvector_ahead, pgvector_index
from memory.store.embedding_index import chunks_embed
from memory.store.models import Chunk
from memory.store.vectors import nearest_rows, vectors_store
from tests.factories import ChunkFactory
from tests.memory.store.test_pgvector_index import M, _capture, _captured, exact, near, unit
from tests.memory.store.vector_stub import clean_embedding_state, hybrid_fixture  # noqa: F401 - fixtures

pytestmark = [pytest.mark.postgres_only, pytest.mark.usefixtures("clean_embedding_state")]


@pytest.fixture
def ahead_on(settings: Any) -> Iterator[None]:
    settings.PROTOMEM_PGVECTOR_AHEAD = True
    pgvector_index.reset_cache()
    yield
    pgvector_ahead.close_connections()  # before the test database is flushed or dropped
    pgvector_index.reset_cache()


def ready(vector: np.ndarray) -> Future[np.ndarray]:
    done: Future[np.ndarray] = Future()
    done.set_result(vector)
    return done


def store_near_and_far(query: np.ndarray) -> dict[int, np.ndarray]:
    """Near rows in namespace "b" (filtered out), far rows in "a"; the "a" vectors by id."""
    hidden = [ChunkFactory(namespace="b") for _ in range(30)]
    wanted = [ChunkFactory(namespace="a") for _ in range(30)]
    far = {c.pk: unit(900 + i) for i, c in enumerate(wanted)}
    vectors_store([(c.pk, near(query, i)) for i, c in enumerate(hidden)], model=M)
    vectors_store(far.items(), model=M)
    return far


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("ahead_on")
def test_the_search_ahead_runs_on_another_connection_and_returns_the_same_filtered_rows() -> None:
    query = unit(3)
    far = store_near_and_far(query)
    in_a = Chunk.objects.filter(namespace="a")
    _captured.clear()

    with connection.execute_wrapper(_capture):
        future = pgvector_ahead.nearest_rows_ahead(
            ready(query), k=10, model=M, queryset=in_a, fields=("id", "namespace")
        )
        assert future is not None
        got = future.result(timeout=30)
    direct = nearest_rows(query, k=10, model=M, queryset=in_a, fields=("id", "namespace"))

    assert _captured == []  # this connection sent no vector search: the pool thread's did
    assert got == direct
    assert [row[0] for row in got] == exact(query, far, 10)
    assert {row[1] for row in got} == {"a"}


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("ahead_on")
def test_no_search_ahead_inside_a_transaction_or_when_turned_off(settings: Any) -> None:
    query = unit(3)
    store_near_and_far(query)
    in_a = Chunk.objects.filter(namespace="a")

    with transaction.atomic():  # another connection would not see this transaction's rows
        assert pgvector_ahead.nearest_rows_ahead(ready(query), k=5, model=M, queryset=in_a) is None
    settings.PROTOMEM_PGVECTOR_AHEAD = False
    assert pgvector_ahead.nearest_rows_ahead(ready(query), k=5, model=M, queryset=in_a) is None
    settings.PROTOMEM_PGVECTOR_AHEAD = True
    assert pgvector_ahead.nearest_rows_ahead(ready(query), k=0, model=M, queryset=in_a) is None


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("ahead_on")
def test_a_vector_that_could_not_be_made_gives_no_rows_ahead() -> None:
    failed: Future[np.ndarray] = Future()
    failed.set_exception(RuntimeError("embedding backend down"))

    future = pgvector_ahead.nearest_rows_ahead(failed, k=5, model=M, queryset=Chunk.objects.all())

    assert future is not None
    assert future.result(timeout=30) is None


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("ahead_on")
def test_hybrid_search_takes_its_vector_rows_from_the_search_ahead(hybrid: Any, settings: Any) -> None:
    """Rows only the vector side finds (a paraphrase), through the same filters, and this
    connection sends no vector search of its own; the same hits with the search ahead off."""
    live = ChunkFactory(content="ship it on fridays", heading="").pk
    rejected = ChunkFactory(
        content="release pipeline workflow_dispatch", heading="", review_state="rejected"
    ).pk
    other_ns = ChunkFactory(content="release release release", heading="", namespace="other").pk
    chunks_embed(chunk_ids=[live, rejected, other_ns])
    _captured.clear()

    with connection.execute_wrapper(_capture):
        found = [c.pk for c in chunk_search("how do I ship a build?", k=10)]
    settings.PROTOMEM_PGVECTOR_AHEAD = False
    without = [c.pk for c in chunk_search("how do I ship a build?", k=10)]

    assert set(found) == {live, other_ns}
    assert found == without
    assert _captured == []
