"""Erasure (the right to erasure): an operator removes what a row says, everywhere the store keeps it.

Reject and the restorable delete keep the text; `chunk_erase` does not. It replaces the content,
heading and subject of the row, of every row of its revision chain (older revisions, newer ones,
pending proposals) and of its commons copies with ERASED_CONTENT, rejects them (an erased row
never delivers), drops their vectors, and records one audit event per row: who erased it, through
which path and why (the operator's reason, never the content). The text indexes follow the
content column (FTS5 triggers, the generated tsvector column). The rows themselves stay, so the
audit trail, the revision links and the injection log still resolve.

Running it twice erases nothing new: a row already erased is skipped and gets no second event.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from django.db import transaction

from audit.services import audit_event_record
from memory.lifecycle.revision_chain import revision_chain
from memory.store.models import Chunk, ReviewState
from memory.store.vectors import vectors_delete
from protomem.errors import ApplicationError

logger = logging.getLogger(__name__)

ERASED = "memory.erased"
ERASED_CONTENT = "[erased]"
REASON_MAX_CHARS = 500


@dataclass(frozen=True)
class Erasure:
    erased: tuple[int, ...]  # rows whose content was erased now, the asked-for row first
    already: tuple[int, ...]  # rows of the chain that were erased before


def erasure_targets(chunk: Chunk) -> list[int]:
    """`chunk` and every row that holds (a copy of a version of) its text: its revision chain
    and the commons copies of any of them; `chunk` first."""
    ids = [chunk.pk, *(step.chunk.pk for step in revision_chain(chunk) if step.chunk.pk != chunk.pk)]
    copies = Chunk.objects.filter(promoted_from__in=ids).exclude(pk__in=ids).order_by("id")
    return list(dict.fromkeys([*ids, *copies.values_list("pk", flat=True)]))


def chunk_erase(*, chunk_id: int, reason: str, actor: str, path: str) -> Erasure:
    """Erase the text of `chunk_id` and of its revisions and copies; audited with `reason`. Idempotent.

    Raises Chunk.DoesNotExist for an unknown row and ApplicationError for a blank reason.
    """
    reason = " ".join((reason or "").split())
    if not reason:
        raise ApplicationError("a reason is required to erase a row", extra={"field": "reason"})
    if len(reason) > REASON_MAX_CHARS:
        raise ApplicationError(f"reason: at most {REASON_MAX_CHARS} characters", extra={"field": "reason"})
    with transaction.atomic():
        chunk = Chunk.objects.get(pk=chunk_id)
        targets = erasure_targets(chunk)
        erased, already = [], []
        for target in targets:
            # CAS on the text: a row erased concurrently (or before) is neither erased nor audited twice
            updated = (
                Chunk.objects.filter(pk=target)
                .exclude(content=ERASED_CONTENT, heading="", subject__isnull=True)
                .update(
                    content=ERASED_CONTENT,
                    heading="",
                    subject=None,
                    review_state=ReviewState.REJECTED,
                )
            )
            if not updated:
                already.append(target)
                continue
            erased.append(target)
            data = {"reason": reason, "requested_for": chunk.pk}
            audit_event_record(event=ERASED, actor=actor, path=path, chunk_id=target, data=data)
        if erased:
            vectors_delete(erased)
    logger.info("chunk %s erased (%d rows) by %s", chunk_id, len(erased), actor)
    return Erasure(erased=tuple(erased), already=tuple(already))
