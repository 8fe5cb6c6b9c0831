"""Expiry records, bulk delete, restore and the grace reap (memory.lifecycle.retention)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from audit.models import AuditEvent
from memory.lifecycle import retention
from memory.lifecycle.selectors import chunk_search
from memory.store import text_index
from memory.store.deliverable import deliverable
from memory.store.models import Chunk
from protomem.errors import ApplicationError
from tests.factories import ChunkFactory

pytestmark = pytest.mark.django_db


def events(name: str) -> list[tuple[int, str]]:
    return sorted(AuditEvent.objects.filter(event=name).values_list("chunk_id", "actor"))


# ------------------------------------------------------------------------------ expiry


def test_sweep_records_each_lapsed_live_row_once():
    # given
    now = timezone.now()
    lapsed = [ChunkFactory(expires_at=now - timedelta(hours=h)) for h in (1, 30)]
    ChunkFactory(expires_at=now + timedelta(days=1))  # not yet
    ChunkFactory(expires_at=None)
    ChunkFactory(
        expires_at=now - timedelta(days=2), invalidated_at=now, invalidation_reason="superseded_by:1"
    )

    # when
    first = retention.chunks_expire_sweep(now=now)
    second = retention.chunks_expire_sweep(now=now)

    # then
    assert (first, second) == (2, 0)
    assert events(retention.EXPIRED) == sorted((c.pk, "system") for c in lapsed)
    for chunk in lapsed:
        chunk.refresh_from_db()
        assert chunk.lapse_recorded_at == now
    event = AuditEvent.objects.get(event=retention.EXPIRED, chunk_id=lapsed[0].pk)
    assert event.path == "expiry_sweep"
    assert event.data == {"expires_at": lapsed[0].expires_at.isoformat()}


def test_lapsed_rows_stay_in_the_table_and_leave_delivery():
    now = timezone.now()
    row = ChunkFactory(expires_at=now - timedelta(minutes=1))
    retention.chunks_expire_sweep(now=now)
    assert Chunk.objects.filter(pk=row.pk).exists()
    assert not deliverable().filter(pk=row.pk).exists()


def test_sweep_works_in_batches():
    now = timezone.now()
    rows = [ChunkFactory(expires_at=now - timedelta(minutes=i + 1)) for i in range(5)]
    assert retention.chunks_expire_sweep(now=now, batch=2) == 5
    assert len(events(retention.EXPIRED)) == len(rows)


# ------------------------------------------------------------------------------ bulk delete


def test_bulk_delete_marks_live_rows_only_and_is_idempotent():
    live = [ChunkFactory(), ChunkFactory()]
    superseded = ChunkFactory(invalidated_at=timezone.now(), invalidation_reason="superseded_by:77")

    result = retention.chunks_bulk_delete(ids=[c.pk for c in [*live, superseded]], actor="user:5")
    again = retention.chunks_bulk_delete(ids=[c.pk for c in live], actor="user:5")

    assert result.ids == tuple(c.pk for c in live)
    assert result.reap_after > timezone.now() + timedelta(days=6)
    assert again.marked == 0
    for chunk in live:
        chunk.refresh_from_db()
        assert chunk.invalidation_reason == retention.BULK_DELETE_MARKER
        assert chunk.invalidated_at is not None
    superseded.refresh_from_db()
    assert superseded.invalidation_reason == "superseded_by:77"
    assert events(retention.BULK_DELETED) == sorted((c.pk, "user:5") for c in live)
    assert not deliverable(include_superseded=False).filter(pk__in=[c.pk for c in live]).exists()


def test_bulk_delete_by_queryset():
    doomed = ChunkFactory(source="thread-9")
    kept = ChunkFactory(source="thread-1")
    result = retention.chunks_bulk_delete(queryset=Chunk.objects.filter(source="thread-9"), actor="user:1")
    assert result.ids == (doomed.pk,)
    kept.refresh_from_db()
    assert kept.invalidated_at is None


def test_bulk_delete_needs_a_target():
    with pytest.raises(ApplicationError):
        retention.chunks_bulk_delete(actor="user:1")


def test_restore_undoes_only_bulk_deletes():
    row = ChunkFactory()
    superseded = ChunkFactory(invalidated_at=timezone.now(), invalidation_reason="superseded_by:3")
    retention.chunks_bulk_delete(ids=[row.pk], actor="user:1")
    restored = retention.chunks_bulk_restore(ids=[row.pk, superseded.pk], actor="user:1")
    assert restored == (row.pk,)
    row.refresh_from_db()
    assert (row.invalidated_at, row.invalidation_reason) == (None, "")
    superseded.refresh_from_db()
    assert superseded.invalidated_at is not None
    assert events(retention.BULK_RESTORED) == [(row.pk, "user:1")]


# ------------------------------------------------------------------------------ reap


def test_reap_deletes_only_marked_rows_past_their_grace(settings):
    settings.PROTOMEM_BULK_DELETE_GRACE_DAYS = 7
    now = timezone.now()
    old_deleted = ChunkFactory(
        invalidated_at=now - timedelta(days=8), invalidation_reason=retention.BULK_DELETE_MARKER
    )
    fresh_deleted = ChunkFactory(
        invalidated_at=now - timedelta(days=1), invalidation_reason=retention.BULK_DELETE_MARKER
    )
    old_superseded = ChunkFactory(
        invalidated_at=now - timedelta(days=400), invalidation_reason="superseded_by:5"
    )
    old_prechain = ChunkFactory(invalidated_at=now - timedelta(days=400), invalidation_reason="")
    live = ChunkFactory()

    assert retention.chunks_reap_deleted(now=now) == 1
    assert retention.chunks_reap_deleted(now=now) == 0

    remaining = set(Chunk.objects.values_list("pk", flat=True))
    assert remaining == {fresh_deleted.pk, old_superseded.pk, old_prechain.pk, live.pk}
    assert old_deleted.pk not in remaining
    assert events(retention.REAPED) == [(old_deleted.pk, "system")]


def test_reaped_rows_leave_the_fts_index():
    row = ChunkFactory(content="a quokka census for the archive")
    retention.chunks_bulk_delete(ids=[row.pk], actor="user:1")
    retention.chunks_reap_deleted(now=timezone.now() + timedelta(days=30))
    assert chunk_search("quokka", include_superseded=True) == []
    assert text_index.sql().integrity_check()
