"""After a write: expiry records, bulk delete and the grace reap (spec "Write lifecycle" 3-4).

- Expiry. A row past its expires_at stays in the table and leaves delivery at once
  (memory.store.deliverable.deliverable filters on the clock). `chunks_expire_sweep` only records the
  lapse: one "memory.expired" audit event per lapsed live row, exactly once (the row's
  lapse_recorded_at marker, set in the same transaction as the event).
- Bulk delete. `chunks_bulk_delete` marks live rows invalidated with their own reason,
  BULK_DELETE_MARKER (never a "superseded_by:" reason, never a row already invalidated), so
  they leave delivery and history at once; `chunks_bulk_restore` undoes it until the reap.
- Grace reap. `chunks_reap_deleted` hard-deletes rows carrying BULK_DELETE_MARKER whose grace
  has passed, and nothing else: superseded rows are an audit chain and are never reaped.

All three are safe to run twice and concurrently (compare-and-swap updates, one write
transaction per batch).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from audit.services import audit_event_record
from memory.store.models import Chunk
from protomem.errors import ApplicationError

logger = logging.getLogger(__name__)

BULK_DELETE_MARKER = "deleted:bulk"
EXPIRED = "memory.expired"
BULK_DELETED = "memory.bulk_deleted"
BULK_RESTORED = "memory.bulk_restored"
REAPED = "memory.reaped"
SYSTEM = "system"
DEFAULT_GRACE_DAYS = 7
BATCH = 500
MAX_BULK_IDS = 10_000


def bulk_delete_grace() -> timedelta:
    """How long a bulk-deleted row waits before the reap (settings.PROTOMEM_BULK_DELETE_GRACE_DAYS)."""
    return timedelta(days=float(getattr(settings, "PROTOMEM_BULK_DELETE_GRACE_DAYS", DEFAULT_GRACE_DAYS)))


def lapsed_unrecorded(*, now: datetime) -> QuerySet[Chunk]:
    """Live rows past their expiry whose lapse has not been recorded yet."""
    return Chunk.objects.filter(
        expires_at__isnull=False,
        expires_at__lte=now,
        lapse_recorded_at__isnull=True,
        invalidated_at__isnull=True,
    )


def chunks_expire_sweep(*, now: datetime | None = None, batch: int = BATCH) -> int:
    """Record each lapsed live row once (audit event "memory.expired"); returns rows recorded."""
    now = now or timezone.now()
    recorded = 0
    while True:
        with transaction.atomic():
            rows = list(
                lapsed_unrecorded(now=now)
                .order_by("expires_at", "id")
                .values_list("id", "expires_at")[:batch]
            )
            if not rows:
                break
            for chunk_id, expires_at in rows:
                # CAS per row: a concurrent sweep that got here first leaves nothing to record.
                if Chunk.objects.filter(pk=chunk_id, lapse_recorded_at__isnull=True).update(
                    lapse_recorded_at=now
                ):
                    audit_event_record(
                        event=EXPIRED,
                        actor=SYSTEM,
                        path="expiry_sweep",
                        chunk_id=chunk_id,
                        data={"expires_at": expires_at.isoformat()},
                    )
                    recorded += 1
        if len(rows) < batch:
            break
    if recorded:
        logger.info("expiry sweep recorded %s lapsed chunk(s)", recorded)
    return recorded


@dataclass(frozen=True)
class BulkDeleteResult:
    ids: tuple[int, ...]
    reap_after: datetime

    @property
    def marked(self) -> int:
        return len(self.ids)


def chunks_bulk_delete(
    *,
    ids: Iterable[int] | None = None,
    queryset: QuerySet[Chunk] | None = None,
    actor: str,
    path: str = "api",
) -> BulkDeleteResult:
    """Mark live rows (by id, or a queryset) bulk-deleted; they stop delivering now, reaped later.

    Rows already invalidated (superseded, or deleted before) are left as they are, so running it
    twice marks nothing the second time. One "memory.bulk_deleted" audit event per marked row.
    """
    if ids is None and queryset is None:
        raise ApplicationError("give ids or a filter", extra={"field": "ids"})
    target = Chunk.objects.all() if queryset is None else queryset
    if ids is not None:
        id_list = sorted({int(i) for i in ids})
        if len(id_list) > MAX_BULK_IDS:
            raise ApplicationError(f"at most {MAX_BULK_IDS} ids per call", extra={"field": "ids"})
        target = target.filter(pk__in=id_list)
    now = timezone.now()
    marked: list[int] = []
    candidates = list(target.filter(invalidated_at__isnull=True).order_by("id").values_list("id", flat=True))
    for start in range(0, len(candidates), BATCH):
        part = candidates[start : start + BATCH]
        with transaction.atomic():
            for chunk_id in part:
                if Chunk.objects.filter(pk=chunk_id, invalidated_at__isnull=True).update(
                    invalidated_at=now, invalidation_reason=BULK_DELETE_MARKER
                ):
                    audit_event_record(event=BULK_DELETED, actor=actor, path=path, chunk_id=chunk_id)
                    marked.append(chunk_id)
    logger.info("bulk delete by %s marked %s chunk(s)", actor, len(marked))
    return BulkDeleteResult(ids=tuple(marked), reap_after=now + bulk_delete_grace())


def chunks_bulk_restore(*, ids: Iterable[int], actor: str, path: str = "api") -> tuple[int, ...]:
    """Undo a bulk delete within its grace: rows still carrying the marker become live again."""
    id_list = sorted({int(i) for i in ids})
    if len(id_list) > MAX_BULK_IDS:
        raise ApplicationError(f"at most {MAX_BULK_IDS} ids per call", extra={"field": "ids"})
    restored: list[int] = []
    for start in range(0, len(id_list), BATCH):
        with transaction.atomic():
            for chunk_id in id_list[start : start + BATCH]:
                if Chunk.objects.filter(pk=chunk_id, invalidation_reason=BULK_DELETE_MARKER).update(
                    invalidated_at=None, invalidation_reason=""
                ):
                    audit_event_record(event=BULK_RESTORED, actor=actor, path=path, chunk_id=chunk_id)
                    restored.append(chunk_id)
    logger.info("bulk restore by %s restored %s chunk(s)", actor, len(restored))
    return tuple(restored)


def reapable(*, now: datetime) -> QuerySet[Chunk]:
    """Bulk-deleted rows whose grace period has passed (never superseded rows)."""
    return Chunk.objects.filter(
        invalidated_at__isnull=False,
        invalidation_reason=BULK_DELETE_MARKER,
        invalidated_at__lte=now - bulk_delete_grace(),
    )


def chunks_reap_deleted(*, now: datetime | None = None, batch: int = BATCH) -> int:
    """Hard-delete bulk-deleted rows past their grace (audit "memory.reaped" each); returns rows reaped."""
    now = now or timezone.now()
    reaped = 0
    while True:
        with transaction.atomic():
            ids = list(reapable(now=now).order_by("id").values_list("id", flat=True)[:batch])
            if not ids:
                break
            # The marker is part of the DELETE itself: a row restored meanwhile is not touched.
            deleted, _ = reapable(now=now).filter(pk__in=ids).delete()
            for chunk_id in ids:
                audit_event_record(event=REAPED, actor=SYSTEM, path="reap_sweep", chunk_id=chunk_id)
            reaped += deleted
        if len(ids) < batch:
            break
    if reaped:
        logger.info("reaped %s bulk-deleted chunk(s)", reaped)
    return reaped
