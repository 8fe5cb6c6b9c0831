"""Vectors are written after a chunk lands (never blocking it) and backfilled by a task."""

from __future__ import annotations

import logging
import time
from typing import Any

import pytest

from memory import tasks
from memory.embedding import embeddings
from memory.lifecycle.writes import ChunkDraft, add_chunk, add_chunks
from memory.store import embedding_index, vectors
from memory.store.embedding_index import chunk_embed_enqueue, embeddings_backfill
from memory.store.models import Chunk
from memory.tasks import chunks_embed_task, embeddings_backfill_task
from protomem.celery import app
from tests.factories import ChunkFactory
from tests.fixtures.gateway import Reply
from tests.fixtures.worker import wait_until
from tests.memory.store.vector_stub import (  # noqa: F401 - fixtures
    MODEL,
    clean_embedding_state,
    embed_requests,
    embeddings_reply,
    hybrid_fixture,
    with_embeddings,
)

pytestmark = [pytest.mark.usefixtures("clean_embedding_state"), pytest.mark.django_db]


def test_tasks_are_registered_under_stable_names() -> None:
    assert embeddings_backfill_task.name == "memory.embeddings_backfill"
    assert chunks_embed_task.name == "memory.chunks_embed"
    assert {"memory.embeddings_backfill", "memory.chunks_embed"} <= set(app.tasks)


# -- on write


def test_add_chunk_embeds_after_commit(hybrid: Any, django_capture_on_commit_callbacks: Any) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        chunk = add_chunk(ChunkDraft(content="the release pipeline is manual", heading="Releases"))

    assert vectors.stored_vectors([chunk.pk], model=MODEL).keys() == {chunk.pk}
    assert embed_requests(hybrid)[-1]["body"]["input"] == ["Releases\nthe release pipeline is manual"]


def test_add_chunks_embeds_each_batch(hybrid: Any, django_capture_on_commit_callbacks: Any) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        stored = add_chunks([ChunkDraft(content=f"note {i}") for i in range(5)], batch_size=2)

    assert stored == 5
    assert vectors.vector_count(model=MODEL) == 5
    assert vectors.count_without_vector(model=MODEL) == 0


def test_a_down_gateway_never_blocks_or_fails_a_write(
    hybrid: Any, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    import dataclasses

    cfg = settings.PROTOMEM
    settings.PROTOMEM = dataclasses.replace(cfg, gateway=dataclasses.replace(cfg.gateway, timeout_s=0.2))
    hybrid.default = lambda path, body: Reply(status=500, body={"error": "down"})

    started = time.perf_counter()
    with django_capture_on_commit_callbacks(execute=True):
        chunk = add_chunk(ChunkDraft(content="written while the embedder is down"))

    assert Chunk.objects.filter(pk=chunk.pk).exists()
    assert time.perf_counter() - started < 1.0
    assert vectors.vector_count() == 0

    hybrid.default = embeddings_reply  # back up: the backfill catches up
    embeddings.reset()
    assert embeddings_backfill().embedded == 1
    assert vectors.stored_vectors([chunk.pk], model=MODEL).keys() == {chunk.pk}


def test_a_broker_outage_is_logged_not_raised(
    hybrid: Any,
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
    caplog: pytest.LogCaptureFixture,
) -> None:
    def broken_delay(*args: Any, **kwargs: Any) -> None:
        raise ConnectionError("broker down")

    monkeypatch.setattr(chunks_embed_task, "delay", broken_delay)

    with django_capture_on_commit_callbacks(execute=True):
        chunk = add_chunk(ChunkDraft(content="still stored"))

    assert Chunk.objects.filter(pk=chunk.pk).exists()
    logged = [r.exc_info[1] for r in caplog.records if r.exc_info]
    assert [str(e) for e in logged if isinstance(e, ConnectionError)] == ["broker down"]


def test_enqueue_is_a_no_op_when_embeddings_are_off(
    stub_gateway: Any, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    with_embeddings(settings, on=False)

    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        chunk_embed_enqueue(chunk_ids=[ChunkFactory().pk])

    assert callbacks == []
    assert stub_gateway.requests == []


def test_chunks_embed_skips_rows_that_already_have_a_vector(hybrid: Any) -> None:
    chunk = ChunkFactory()
    assert chunks_embed_task.delay([chunk.pk]).get() == 1
    calls = len(embed_requests(hybrid))

    assert chunks_embed_task.delay([chunk.pk]).get() == 0

    assert len(embed_requests(hybrid)) == calls


# -- backfill


def test_backfill_embeds_every_row_without_a_vector_with_progress(
    hybrid: Any, caplog: pytest.LogCaptureFixture
) -> None:
    chunks = [ChunkFactory(content=f"fact {i} about deploys") for i in range(7)]
    vectors.vectors_store([(chunks[0].pk, [1.0] + [0.0] * 63)], model=MODEL)  # already done
    caplog.set_level(logging.INFO, logger="memory.tasks")

    result = embeddings_backfill_task.delay(batch_size=3).get()

    assert result == {"embedded": 6, "remaining": 0, "error": ""}
    assert vectors.count_without_vector(model=MODEL) == 0
    sizes = [len(r["body"]["input"]) for r in embed_requests(hybrid)]
    assert sizes == [3, 3]
    progress = [r.getMessage() for r in caplog.records if "chunks embedded" in r.getMessage()]
    assert progress == [
        "embeddings backfill: 3/6 chunks embedded",
        "embeddings backfill: 6/6 chunks embedded",
    ]


def test_backfill_twice_embeds_nothing_the_second_time(hybrid: Any) -> None:
    for i in range(3):
        ChunkFactory(content=f"row {i}")
    embeddings_backfill_task.delay().get()
    calls = len(embed_requests(hybrid))

    assert embeddings_backfill_task.delay().get()["embedded"] == 0

    assert len(embed_requests(hybrid)) == calls


def test_backfill_stops_on_an_outage_instead_of_spinning(hybrid: Any) -> None:
    for i in range(10):
        ChunkFactory(content=f"row {i}")
    hybrid.default = lambda path, body: Reply(status=404, body={"error": "model not found"})

    result = embeddings_backfill_task.delay(batch_size=2).get()

    assert result["embedded"] == 0
    assert result["remaining"] == 10
    assert "HTTP 404" in result["error"]
    assert len(embed_requests(hybrid)) == 1


def test_backfill_is_a_no_op_while_embeddings_are_off_unless_forced(stub_gateway: Any, settings: Any) -> None:
    from tests.memory.store.vector_stub import embeddings_reply

    stub_gateway.default = embeddings_reply
    with_embeddings(settings, on=False)
    ChunkFactory()

    assert embeddings_backfill_task.delay().get()["embedded"] == 0
    assert stub_gateway.requests == []
    assert embeddings_backfill_task.delay(force=True).get()["embedded"] == 1


def test_backfill_on_the_real_worker(live_worker: Any, stub_gateway: Any) -> None:
    stub_gateway.default = embeddings_reply
    ids = [ChunkFactory(content=f"worker row {i}", heading="").pk for i in range(4)]
    worker_model = "qwen3-embedding"  # the worker's config names the suite's gateway model

    embeddings_backfill_task.delay(batch_size=3, force=True)

    wait_until(
        lambda: vectors.count_without_vector(model=worker_model) == 0,
        timeout=60,
        what="the worker's backfill",
    )
    assert vectors.stored_vectors(ids, model=worker_model).keys() == set(ids)
    inputs = [text for r in embed_requests(stub_gateway) for text in r["body"]["input"]]
    assert sorted(inputs) == [f"worker row {i}" for i in range(4)]


def test_a_long_backfill_hands_over_to_a_new_task(
    hybrid: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:

    monkeypatch.setattr(tasks, "BACKFILL_TIME_BUDGET_S", 0.0)  # one batch per task run
    for i in range(5):
        ChunkFactory(content=f"row {i}")
    caplog.set_level(logging.INFO, logger="memory.tasks")

    embeddings_backfill_task.delay(batch_size=2).get()

    assert vectors.count_without_vector(model=MODEL) == 0
    handovers = [r for r in caplog.records if "continuing in a new task" in r.getMessage()]
    assert [r.getMessage() for r in handovers] == [
        "embeddings backfill: 3 rows left, continuing in a new task",
        "embeddings backfill: 1 rows left, continuing in a new task",
    ]


def test_a_big_write_is_embedded_in_task_sized_groups(
    hybrid: Any, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:

    monkeypatch.setattr(embedding_index, "ENQUEUE_GROUP", 2)
    groups: list[list[int]] = []
    monkeypatch.setattr(chunks_embed_task, "delay", lambda ids: groups.append(ids))
    ids = [ChunkFactory().pk for _ in range(5)]

    with django_capture_on_commit_callbacks(execute=True):
        chunk_embed_enqueue(chunk_ids=ids)

    assert groups == [ids[0:2], ids[2:4], ids[4:5]]
