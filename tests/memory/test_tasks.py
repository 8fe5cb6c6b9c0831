"""memory.tasks: names, wiring, transient-only retries, and the sweep on a real worker."""

from __future__ import annotations

from datetime import timedelta

import pytest
from celery.exceptions import Retry
from django.conf import settings
from django.db import OperationalError
from django.utils import timezone

from audit.models import AuditEvent
from memory import tasks
from memory.lifecycle import retention
from memory.store.models import Chunk
from protomem.celery import app
from tests.factories import ChunkFactory
from tests.fixtures.worker import wait_until


def test_beat_schedule_names_are_registered_tasks():
    for name in ("memory.chunks_expire_sweep", "memory.chunks_reap_deleted"):
        assert settings.CELERY_BEAT_SCHEDULE[name]["task"] == name
        assert name in app.tasks
    assert tasks.chunks_expire_sweep_task.name == "memory.chunks_expire_sweep"
    assert tasks.chunks_reap_deleted_task.name == "memory.chunks_reap_deleted"
    assert tasks.chunks_expire_sweep_task.acks_late is True
    assert tasks.chunks_reap_deleted_task.acks_late is True


@pytest.mark.parametrize(
    ("exc", "transient"),
    [
        (OperationalError("database is locked"), True),
        (OperationalError("Database table is locked: memory_chunk"), True),
        (OperationalError("no such table: memory_chunk"), False),
        (ValueError("database is locked"), False),
    ],
)
def test_only_lock_contention_is_transient(exc, transient):
    assert tasks.is_transient(exc) is transient


@pytest.mark.django_db
def test_sweep_task_runs_the_service():
    row = ChunkFactory(expires_at=timezone.now() - timedelta(hours=1))
    assert tasks.chunks_expire_sweep_task.apply().get() == 1
    assert tasks.chunks_expire_sweep_task.apply().get() == 0
    assert AuditEvent.objects.filter(event=retention.EXPIRED, chunk_id=row.pk).count() == 1


@pytest.mark.django_db
def test_reap_task_runs_the_service():
    ChunkFactory(
        invalidated_at=timezone.now() - timedelta(days=30), invalidation_reason=retention.BULK_DELETE_MARKER
    )
    assert tasks.chunks_reap_deleted_task.apply().get() == 1
    assert not Chunk.objects.exists()


def test_locked_database_is_retried(monkeypatch):
    calls = []

    def locked(**kwargs):
        calls.append(kwargs)
        raise OperationalError("database is locked")

    monkeypatch.setattr(retention, "chunks_expire_sweep", locked)
    with pytest.raises(Retry) as retry:
        tasks.chunks_expire_sweep_task.apply()
    assert isinstance(retry.value.exc, OperationalError)
    assert retry.value.when == 1  # first retry after 1 s, doubling up to RETRY_BACKOFF_MAX_S
    assert len(calls) == 1


def test_other_database_errors_fail_without_retry(monkeypatch, settings):
    settings.CELERY_TASK_EAGER_PROPAGATES = False
    calls = []

    def broken(**kwargs):
        calls.append(kwargs)
        raise OperationalError("no such table: memory_chunk")

    monkeypatch.setattr(retention, "chunks_reap_deleted", broken)
    result = tasks.chunks_reap_deleted_task.apply(throw=False)
    assert result.state == "FAILURE"
    assert isinstance(result.result, OperationalError)
    assert len(calls) == 1


def test_sweep_and_reap_end_to_end_on_a_real_worker(live_worker):
    # given: lapsed rows, a future one, an old bulk-deleted row and an old superseded row
    now = timezone.now()
    lapsed = [ChunkFactory(expires_at=now - timedelta(minutes=5 + i)) for i in range(3)]
    ChunkFactory(expires_at=now + timedelta(days=3))
    deleted = ChunkFactory(
        invalidated_at=now - timedelta(days=30), invalidation_reason=retention.BULK_DELETE_MARKER
    )
    superseded = ChunkFactory(
        invalidated_at=now - timedelta(days=30), invalidation_reason=f"superseded_by:{deleted.pk}"
    )
    ids = [c.pk for c in lapsed]

    # when: the beat tasks are enqueued to the worker
    tasks.chunks_expire_sweep_task.delay()
    tasks.chunks_reap_deleted_task.delay()

    # then: each lapse is recorded, the bulk-deleted row reaped, the superseded row kept
    wait_until(
        lambda: AuditEvent.objects.filter(event=retention.EXPIRED, chunk_id__in=ids).count() == len(ids),
        timeout=60,
        what="the worker to record the lapses",
    )
    wait_until(lambda: not Chunk.objects.filter(pk=deleted.pk).exists(), timeout=60, what="the reap")
    assert Chunk.objects.filter(pk=superseded.pk).exists()
    assert all(Chunk.objects.get(pk=i).lapse_recorded_at is not None for i in ids)

    # when: the sweep runs again (redelivery, the next beat), then once more for a new lapse
    tasks.chunks_expire_sweep_task.delay()
    marker = ChunkFactory(expires_at=timezone.now() - timedelta(seconds=1))
    tasks.chunks_expire_sweep_task.delay()

    # then: the worker (one process, in order) got past both runs; nothing was recorded twice
    wait_until(
        lambda: AuditEvent.objects.filter(event=retention.EXPIRED, chunk_id=marker.pk).exists(),
        timeout=60,
        what="the second sweep",
    )
    for chunk_id in ids:
        assert AuditEvent.objects.filter(event=retention.EXPIRED, chunk_id=chunk_id).count() == 1
    assert AuditEvent.objects.filter(event=retention.REAPED, chunk_id=deleted.pk).count() == 1
