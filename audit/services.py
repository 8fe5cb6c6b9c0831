from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction

from audit.models import AuditEvent, InjectionLog, InjectionLogItem, InjectionScope, InjectionSection
from audit.signals import hot_written
from protomem.routers import INJECTIONS_DB

HOT_WRITTEN = "memory.hot_written"
REVIEWED = "memory.reviewed"
REVISED = "memory.revised"
PROMOTED = "memory.promoted"


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


def injection_log_record(
    *,
    agent_id: int | None,
    session_id: str,
    digest_session_ids: Sequence[str] = (),
    hot_ids: Sequence[int] = (),
    rag_ids: Sequence[int] = (),
    approx_tokens: int = 0,
    scopes: Mapping[int, str] | None = None,
) -> InjectionLog:
    """Append one injection-log row (and its per-chunk items) for ids that entered a prompt.

    `scopes` maps a chunk id to "private" / "commons" (memory.scope); unlisted ids are private.
    """
    scope_of = {int(k): v for k, v in (scopes or {}).items()}
    hot = list(dict.fromkeys(int(i) for i in hot_ids))
    rag = list(dict.fromkeys(int(i) for i in rag_ids))
    with transaction.atomic(using=INJECTIONS_DB):
        log = InjectionLog.objects.create(
            agent_id=agent_id,
            session_id=session_id,
            digest_session_ids=list(dict.fromkeys(str(s) for s in digest_session_ids)),
            hot_ids=hot,
            rag_ids=rag,
            approx_tokens=max(int(approx_tokens), 0),
        )
        InjectionLogItem.objects.bulk_create(
            [
                InjectionLogItem(
                    log=log, chunk_id=i, section=section, scope=scope_of.get(i, InjectionScope.PRIVATE)
                )
                for section, ids in ((InjectionSection.HOT, hot), (InjectionSection.RAG, rag))
                for i in ids
            ]
        )
    return log
