from __future__ import annotations

from typing import Any

from django.db import transaction

from audit.models import AuditEvent
from audit.signals import hot_written

HOT_WRITTEN = "memory.hot_written"
REVIEWED = "memory.reviewed"


def audit_event_record(
    *, event: str, actor: str, path: str = "", chunk_id: int | None = None, data: dict[str, Any] | None = None
) -> AuditEvent:
    """Append one audit event (inside the caller's transaction)."""
    return AuditEvent.objects.create(event=event, actor=actor, path=path, chunk_id=chunk_id, data=data or {})


def hot_written_record(*, chunk_id: int, actor: str, path: str) -> AuditEvent:
    """Persist memory.hot_written and send the signal once the write commits."""
    event = audit_event_record(event=HOT_WRITTEN, actor=actor, path=path, chunk_id=chunk_id)
    transaction.on_commit(
        lambda: hot_written.send(sender=AuditEvent, chunk_id=chunk_id, actor=actor, path=path)
    )
    return event
