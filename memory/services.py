"""Writes. `add_chunk` is the one door into the store; lifecycle services build on it."""

from __future__ import annotations

import contextlib
import functools
import hashlib
import logging
from collections.abc import Iterable
from dataclasses import dataclass, field, fields
from datetime import datetime
from typing import Any, cast

from django.db import DEFAULT_DB_ALIAS, IntegrityError, connection, connections, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field
from django.utils import timezone

from audit.services import PROMOTED, REVIEWED, REVISED, audit_event_record, hot_written_record
from memory import text_index
from memory.embedding_services import chunk_embed_enqueue
from memory.guardrail import is_only_reasoning, strip_reasoning
from memory.models import Chunk, ChunkScope, DeliveryPolicy, MemoryKind, ReviewState
from memory.scope import COMMONS, row_scope, write_scope
from memory.stamps import creation_stamps
from protomem.config import get_config
from protomem.errors import ApplicationError, ConflictError, ForbiddenError

logger = logging.getLogger(__name__)

SUPERSEDED_PREFIX = "superseded_by:"
OPERATOR_EDIT_SOURCE_TYPE = "operator"
# Rows per bulk transaction: fewer commits write fewer index pages twice (10k ~ 1 s of write lock).
BULK_BATCH = 10_000
BULK_PAGE_CACHE_KIB = 65_536  # SQLite page cache while add_chunks runs (memory.fts.page_cache)


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
    # "private" / "commons"; None = memory.scope.write_scope(agent_id, knowledge.scope).
    scope: str | None = None


def content_digest(text: str) -> str:
    return hashlib.sha256(" ".join(text.split()).lower().encode()).hexdigest()


def _check_choice(name: str, value: str | None, choices: type) -> None:
    if value is not None and value not in choices.values:
        raise ApplicationError(f"{name} must be one of {', '.join(choices.values)}", extra={"field": name})


_DRAFT_FIELDS = tuple(f.name for f in fields(ChunkDraft))
_CHOICE_FIELDS = (
    ("memory_kind", MemoryKind),
    ("review_state", ReviewState),
    ("delivery_policy", DeliveryPolicy),
    ("scope", ChunkScope),
)
_CHOICE_VALUES = {name: frozenset(choices.values) for name, choices in _CHOICE_FIELDS}


def _prepared_values(draft: ChunkDraft) -> dict[str, Any] | None:
    """Guardrail + stamps + validation as Chunk field values; None when only reasoning was sent."""
    for name, choices in _CHOICE_FIELDS:
        value = getattr(draft, name)
        if value is not None and value not in _CHOICE_VALUES[name]:
            _check_choice(name, value, choices)  # raises with the allowed values listed
    raw = draft.content or ""
    content = strip_reasoning(raw)
    if is_only_reasoning(raw, content):
        return None
    if not content.strip():
        raise ApplicationError("content must not be empty", extra={"field": "content"})
    stamps = creation_stamps(
        domain=draft.domain,
        source_type=draft.source_type,
        memory_kind=draft.memory_kind,
        delivery_policy=draft.delivery_policy,
        review_state=draft.review_state,
    )
    # A shallow copy: dataclasses.asdict deep-copies every value, a third of bulk-mode time.
    values = {name: getattr(draft, name) for name in _DRAFT_FIELDS}
    values.update(
        content=content,
        heading=strip_reasoning(draft.heading or ""),
        memory_kind=stamps.memory_kind,
        delivery_policy=stamps.delivery_policy,
        review_state=stamps.review_state,
        created_at=draft.created_at or timezone.now(),
        scope=draft.scope or write_scope(agent=draft.agent_id),
    )
    return values


def _prepare(draft: ChunkDraft) -> Chunk | None:
    """Guardrail + stamps + validation; None when nothing but reasoning was sent."""
    values = _prepared_values(draft)
    return None if values is None else Chunk(**values)


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
        chunk_embed_enqueue(chunk_ids=[chunk.pk])  # on commit, only when knowledge.embeddings is on
    return chunk


_TEXT_TYPES = frozenset({"CharField", "TextField"})
_AS_IS, _PREP, _NOW, _DATETIME = 0, 1, 2, 3


@functools.cache
def _bulk_columns() -> tuple[tuple[str, ...], tuple[tuple[str, int, Field[Any, Any]], ...]]:
    """Quoted columns of an INSERT into memory_chunk (all but the id), and how to fill each."""
    concrete = [f for f in Chunk._meta.concrete_fields if not f.primary_key]
    plan = []
    for f in concrete:
        if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False):
            how = _NOW
        elif f.get_internal_type() in _TEXT_TYPES:
            how = _AS_IS  # a str goes as is; anything else still gets the field's own prep
        elif f.get_internal_type() == "DateTimeField":
            how = _DATETIME  # an aware datetime is adapted directly; anything else: the field's prep
        else:
            how = _PREP
        plan.append((f.attname, how, f))
    return tuple(connection.ops.quote_name(f.column) for f in concrete), tuple(plan)


def _db_row(
    plan: tuple[tuple[str, int, Field[Any, Any]], ...], values: dict[str, Any], conn: BaseDatabaseWrapper
) -> tuple[Any, ...]:
    """One INSERT row: what bulk_create would send, without its per-row SQL compilation."""
    row = []
    for attname, how, f in plan:
        if how == _NOW:
            value = f.get_db_prep_save(timezone.now(), conn)
        else:
            value = values[attname] if attname in values else f.get_default()
            if value is None or (how == _AS_IS and type(value) is str):
                pass
            elif how == _DATETIME and isinstance(value, datetime) and value.utcoffset() is not None:
                value = conn.ops.adapt_datetimefield_value(value)
            else:
                value = f.get_db_prep_save(value, conn)
        row.append(value)
    return tuple(row)


def add_chunks(
    drafts: Iterable[ChunkDraft], *, actor: str = "system", path: str = "", batch_size: int = BULK_BATCH
) -> int:
    """Bulk mode: add_chunk's guardrail, stamps and hot-write audit, in batches; returns rows stored.

    Each batch is one transaction of multi-row INSERTs (memory.fts.insert_rows says why not
    bulk_create). Reasoning-only drafts are skipped; an invalid draft raises before its batch.
    """
    columns, plan = _bulk_columns()
    fast = connection.features.can_return_rows_from_bulk_insert  # RETURNING: SQLite >= 3.35
    stored = 0
    batch: list[dict[str, Any]] = []

    def flush() -> None:
        nonlocal stored
        with transaction.atomic():
            if fast:
                conn = connections[DEFAULT_DB_ALIAS]
                rows = [_db_row(plan, values, conn) for values in batch]
                inserted = text_index.sql().insert_rows(columns, rows, returning=("id", "delivery_policy"))
            else:  # SQLite < 3.35: no RETURNING, so one row at a time to learn every id
                inserted = []
                for chunk in (Chunk(**values) for values in batch):
                    chunk.save(force_insert=True)
                    inserted.append((chunk.pk, chunk.delivery_policy))
            for chunk_id, policy in inserted:
                if policy == DeliveryPolicy.ALWAYS:
                    hot_written_record(chunk_id=cast(int, chunk_id), actor=actor, path=path)
            chunk_embed_enqueue(chunk_ids=[cast(int, chunk_id) for chunk_id, _ in inserted])
        stored += len(batch)
        batch.clear()

    with text_index.sql().page_cache(BULK_PAGE_CACHE_KIB) if fast else contextlib.nullcontext():
        for draft in drafts:
            values = _prepared_values(draft)
            if values is not None:
                batch.append(values)
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
        scope=row_scope(old),
    )
    new = add_chunk(draft, actor=actor, path=path)
    if new is None:
        raise ApplicationError("content is only reasoning; nothing to store", extra={"field": "content"})
    try:
        if not chunk_supersede(old_id=old.pk, new_id=new.pk):
            logger.warning("chunk %s was superseded concurrently; #%s stands beside it", old.pk, new.pk)
    except Exception:
        logger.exception("revision #%s landed but #%s was not invalidated", new.pk, old.pk)
    audit_event_record(
        event=REVISED, actor=actor, path=path, chunk_id=new.pk, data={"revises": old.pk}
    )
    return new


def refuse_gated_always_write(draft: ChunkDraft) -> None:
    """ForbiddenError if the hot-write gate refuses this agent draft; checked before any read or write.

    The same rule add_chunk(agent_write=True) applies, for paths that decide before inserting
    (fact dedup, multi-chunk ingests): domain "hot" or delivery_policy "always".
    """
    stamps = creation_stamps(
        domain=draft.domain, source_type=draft.source_type, delivery_policy=draft.delivery_policy
    )
    _refuse_gated_always(Chunk(delivery_policy=stamps.delivery_policy))


def chunk_promote(*, chunk_id: int, actor: str, path: str = "api") -> Chunk:
    """Operator: copy a private row into the commons, confirmed by construction; idempotent.

    The copy keeps content, heading, kind, subject, policy, expiry and namespace and records
    promoted_from = the original, which stays as it is. Promoting twice returns the first copy;
    a commons row (or a superseded one) cannot be promoted (ApplicationError).
    """
    original = Chunk.objects.get(pk=chunk_id)
    if row_scope(original) == COMMONS:
        raise ApplicationError("chunk is already in the commons", extra={"field": "scope"})
    existing = Chunk.objects.filter(promoted_from=original.pk).order_by("id").first()
    if existing is not None:
        return existing
    if original.invalidated_at is not None:
        raise ApplicationError(
            "chunk is superseded or deleted; promote its newest revision",
            extra={"superseded_by": original.superseded_by_id},
        )
    copy = Chunk(
        domain=original.domain,
        finding_type=original.finding_type,
        namespace=original.namespace,
        source=original.source,
        source_type=original.source_type,
        agent_id=original.agent_id,
        memory_kind=original.memory_kind,
        subject=original.subject,
        review_state=ReviewState.CONFIRMED,
        expires_at=original.expires_at,
        delivery_policy=original.delivery_policy,
        heading=original.heading,
        content=original.content,
        scope=COMMONS,
        promoted_from=original.pk,
    )
    try:
        with transaction.atomic():
            copy.save(force_insert=True)
            if copy.delivery_policy == DeliveryPolicy.ALWAYS:
                hot_written_record(chunk_id=copy.pk, actor=actor, path=path)
            audit_event_record(
                event=PROMOTED, actor=actor, path=path, chunk_id=copy.pk, data={"promoted_from": original.pk}
            )
            chunk_embed_enqueue(chunk_ids=[copy.pk])
    except IntegrityError:  # a concurrent promotion landed first (chunk_promoted_once)
        return Chunk.objects.get(promoted_from=original.pk)
    logger.info("chunk %s promoted to the commons as #%s by %s", original.pk, copy.pk, actor)
    return copy
