"""Writes. `add_chunk` is the one door into the store; lifecycle services build on it."""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from audit.services import REVIEWED, audit_event_record, hot_written_record
from memory.guardrail import is_only_reasoning, strip_reasoning
from memory.models import Chunk, DeliveryPolicy, MemoryKind, ReviewState
from memory.stamps import creation_stamps
from protomem.config import get_config
from protomem.errors import ApplicationError, ConflictError, ForbiddenError

logger = logging.getLogger(__name__)

SUPERSEDED_PREFIX = "superseded_by:"
OPERATOR_EDIT_SOURCE_TYPE = "operator"
BULK_BATCH = 2000


@dataclass
class ChunkDraft:
    """What a caller wants stored; blanks are filled by the creation stamps."""

    content: str
    heading: str = ""
    domain: str = "fact"
    finding_type: str = ""
    namespace: str = ""
    source: str = ""
    source_type: str = ""
    agent_id: int | None = None
    memory_kind: str | None = None
    subject: str | None = None
    review_state: str | None = None
    expires_at: datetime | None = None
    delivery_policy: str | None = None
    created_at: datetime | None = field(default=None)


def content_digest(text: str) -> str:
    return hashlib.sha256(" ".join(text.split()).lower().encode()).hexdigest()


def _check_choice(name: str, value: str | None, choices: type) -> None:
    if value is not None and value not in choices.values:
        raise ApplicationError(f"{name} must be one of {', '.join(choices.values)}", extra={"field": name})


def _prepare(draft: ChunkDraft) -> Chunk | None:
    """Guardrail + stamps + validation; None when nothing but reasoning was sent."""
    _check_choice("memory_kind", draft.memory_kind, MemoryKind)
    _check_choice("review_state", draft.review_state, ReviewState)
    _check_choice("delivery_policy", draft.delivery_policy, DeliveryPolicy)
    content = strip_reasoning(draft.content or "")
    if is_only_reasoning(draft.content or "", content):
        return None
    if not content.strip():
        raise ApplicationError("content must not be empty", extra={"field": "content"})
    heading = strip_reasoning(draft.heading or "")
    stamps = creation_stamps(
        domain=draft.domain,
        source_type=draft.source_type,
        memory_kind=draft.memory_kind,
        delivery_policy=draft.delivery_policy,
        review_state=draft.review_state,
    )
    values = asdict(draft)
    values.update(
        content=content,
        heading=heading,
        memory_kind=stamps.memory_kind,
        delivery_policy=stamps.delivery_policy,
        review_state=stamps.review_state,
        created_at=draft.created_at or timezone.now(),
    )
    return Chunk(**values)


def _refuse_gated_always(chunk: Chunk) -> None:
    if chunk.delivery_policy == DeliveryPolicy.ALWAYS and get_config().knowledge.hot_write_confirm:
        raise ForbiddenError(
            "always-on memory is operator-only here (knowledge.hot_write_confirm is on): "
            "write with another delivery_policy or ask an operator to pin it"
        )


def add_chunk(
    draft: ChunkDraft, *, actor: str = "system", path: str = "", agent_write: bool = False
) -> Chunk | None:
    """Store one chunk (stripped, stamped); None if it was only reasoning.

    `agent_write` marks the agent's own write paths, which the hot-write gate applies to.
    """
    chunk = _prepare(draft)
    if chunk is None:
        logger.info("dropped a reasoning-only write", extra={"actor": actor, "path": path})
        return None
    if agent_write:
        _refuse_gated_always(chunk)
    with transaction.atomic():
        chunk.save(force_insert=True)
        if chunk.delivery_policy == DeliveryPolicy.ALWAYS:
            hot_written_record(chunk_id=chunk.pk, actor=actor, path=path)
    return chunk


def add_chunks(
    drafts: Iterable[ChunkDraft], *, actor: str = "system", path: str = "", batch_size: int = BULK_BATCH
) -> int:
    """Bulk mode: same guardrail and stamps, inserted in batches; returns rows stored."""
    stored = 0
    batch: list[Chunk] = []

    def flush() -> None:
        nonlocal stored
        with transaction.atomic():
            created = Chunk.objects.bulk_create(batch)
            for chunk in created:
                if chunk.delivery_policy == DeliveryPolicy.ALWAYS:
                    hot_written_record(chunk_id=chunk.pk, actor=actor, path=path)
        stored += len(batch)
        batch.clear()

    for draft in drafts:
        chunk = _prepare(draft)
        if chunk is not None:
            batch.append(chunk)
        if len(batch) >= batch_size:
            flush()
    if batch:
        flush()
    return stored


def chunk_supersede(*, old_id: int, new_id: int, now: datetime | None = None) -> bool:
    """Stamp `old_id` invalidated by `new_id`; False if it was already invalidated (CAS)."""
    updated = Chunk.objects.filter(pk=old_id, invalidated_at__isnull=True).update(
        invalidated_at=now or timezone.now(), invalidation_reason=f"{SUPERSEDED_PREFIX}{new_id}"
    )
    return updated == 1


def chunk_review(*, chunk_id: int, state: str, actor: str, path: str = "api") -> Chunk:
    """Set the operator's verdict (confirmed / rejected / pending). Idempotent; never deletes."""
    _check_choice("state", state, ReviewState)
    with transaction.atomic():
        chunk = Chunk.objects.get(pk=chunk_id)
        old = chunk.review_state
        if old == state:
            return chunk
        updated = Chunk.objects.filter(pk=chunk_id, review_state=old).update(review_state=state)
        if updated != 1:
            raise ConflictError("chunk was reviewed concurrently; reload and retry")
        audit_event_record(
            event=REVIEWED, actor=actor, path=path, chunk_id=chunk_id, data={"from": old, "to": state}
        )
        chunk.review_state = state
    logger.info("chunk %s reviewed %s -> %s by %s", chunk_id, old, state, actor)
    return chunk


def chunk_revise(
    *, chunk_id: int, content: str, heading: str | None = None, actor: str, path: str = "api"
) -> Chunk:
    """Operator edit: a new confirmed revision keeping kind, subject, policy, expiry and scope.

    A rejected row's revision stays rejected (re-opening is the review route's job). The old
    row is superseded after the new one has landed, so a failed insert never loses it.
    """
    old = Chunk.objects.get(pk=chunk_id)
    if old.invalidated_at is not None:
        raise ConflictError(
            "chunk is already superseded; edit its newest revision",
            extra={"superseded_by": old.superseded_by_id},
        )
    draft = ChunkDraft(
        content=content,
        heading=old.heading if heading is None else heading,
        domain=old.domain,
        finding_type=old.finding_type,
        namespace=old.namespace,
        source=old.source,
        source_type=OPERATOR_EDIT_SOURCE_TYPE,
        agent_id=old.agent_id,
        memory_kind=old.memory_kind,
        subject=old.subject,
        review_state=ReviewState.REJECTED
        if old.review_state == ReviewState.REJECTED
        else ReviewState.CONFIRMED,
        expires_at=old.expires_at,
        delivery_policy=old.delivery_policy,
    )
    new = add_chunk(draft, actor=actor, path=path)
    if new is None:
        raise ApplicationError("content is only reasoning; nothing to store", extra={"field": "content"})
    try:
        if not chunk_supersede(old_id=old.pk, new_id=new.pk):
            logger.warning("chunk %s was superseded concurrently; #%s stands beside it", old.pk, new.pk)
    except Exception:
        logger.exception("revision #%s landed but #%s was not invalidated", new.pk, old.pk)
    return new
