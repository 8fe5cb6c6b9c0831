"""Writes. `add_chunk` is the one door into the store; lifecycle services build on it."""

from __future__ import annotations

import contextlib
import functools
import hashlib
import itertools
import logging
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, fields
from datetime import datetime
from typing import Any, cast

from django.db import DEFAULT_DB_ALIAS, connection, connections, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field
from django.utils import timezone

from audit.services import CREDENTIAL_REDACTED, audit_event_record, hot_written_record
from memory.lifecycle.authority import PROPOSED_REVISION
from memory.lifecycle.guardrail import is_only_reasoning, strip_reasoning
from memory.lifecycle.inspection import (
    HOLDING_CODES,
    LEAKED_CREDENTIAL,
    Inspection,
    Reason,
    WriteToInspect,
    inspect_write,
    inspect_writes,
)
from memory.lifecycle.redaction import redact_secrets
from memory.lifecycle.rendering import without_invisible
from memory.lifecycle.scope import write_scope
from memory.lifecycle.stamps import creation_stamps
from memory.store import text_index
from memory.store.embedding_index import chunk_embed_enqueue
from memory.store.models import Chunk, ChunkScope, DeliveryPolicy, MemoryKind, ReviewState
from memory.store.trust import TrustTier, trust_tier
from protomem.config import get_config
from protomem.errors import ApplicationError, ForbiddenError

logger = logging.getLogger(__name__)

SUPERSEDED_PREFIX = "superseded_by:"
OPERATOR_EDIT_SOURCE_TYPE = "operator"
# Rows per bulk transaction: fewer commits write fewer index pages twice (10k ~ 1 s of write lock).
BULK_BATCH = 10_000
BULK_PAGE_CACHE_KIB = 65_536  # SQLite page cache while add_chunks runs (text_index.fts5.page_cache)


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
    # "private" / "commons" / "host"; None = lifecycle.scope.write_scope(agent_id, knowledge.scope).
    scope: str | None = None
    # A proposed revision of this row (lifecycle.authority): stored pending and held until reviewed.
    proposes_id: int | None = None


def content_digest(text: str) -> str:
    return hashlib.sha256(" ".join(text.split()).lower().encode()).hexdigest()


def check_choice(name: str, value: str | None, choices: type) -> None:
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
    """Guardrail + stamps + validation + the write inspection as Chunk field values; None when
    only reasoning was sent."""
    values = _stamped_values(draft)
    if values is not None:
        _inspect(values, draft)
    return values


def prepared_values_many(drafts: Sequence[ChunkDraft]) -> list[dict[str, Any] | None]:
    """_prepared_values() of each draft, in order, with the inspection of the whole batch in one
    call (inspection.inspect_writes: its classifier layer scores the batch at once); raises on the
    first invalid draft, before anything is inspected."""
    stamped = [_stamped_values(draft) for draft in drafts]
    todo = [
        (values, draft)
        for values, draft in zip(stamped, drafts, strict=True)
        if values is not None and trust_tier(draft.source_type) != TrustTier.OPERATOR
    ]
    found = inspect_writes([_inspection_input(values, draft) for values, draft in todo])
    for (values, draft), inspection in zip(todo, found, strict=True):
        _apply_inspection(values, draft, inspection)
    return stamped


def _stamped_values(draft: ChunkDraft) -> dict[str, Any] | None:
    """Guardrail + stamps + validation as Chunk field values (not inspected yet); None when only
    reasoning was sent."""
    for name, choices in _CHOICE_FIELDS:
        value = getattr(draft, name)
        if value is not None and value not in _CHOICE_VALUES[name]:
            check_choice(name, value, choices)  # raises with the allowed values listed
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


def _inspect(values: dict[str, Any], draft: ChunkDraft) -> None:
    """The write inspection (lifecycle.inspection) of an agent- or document-written row, in place.

    Sets its risk; a holding reason (or a proposed revision) stores it pending and held from
    delivery until a reviewer confirms it (knowledge.hold); a secret is redacted before the row
    is stored, so the original never lands in the store or the log. Operator rows are their
    author's verdict: not inspected.
    """
    if trust_tier(draft.source_type) == TrustTier.OPERATOR:
        return
    _apply_inspection(values, draft, inspect_write(**_inspection_input(values, draft)))


def _inspection_input(values: dict[str, Any], draft: ChunkDraft) -> WriteToInspect:
    return {
        "content": values["content"],
        "heading": values["heading"],
        "delivery_policy": values["delivery_policy"],
        "source_type": draft.source_type,
        "domain": draft.domain,
        "supersedes_operator_row": draft.proposes_id is not None,
    }


_REASON_FIELDS = tuple(f.name for f in fields(Reason))


def _apply_inspection(values: dict[str, Any], draft: ChunkDraft, found: Inspection) -> None:
    """_inspect's effect of an inspection on the row's values (risk, hold, redaction), in place."""
    values["risk"] = found.risk
    codes = [reason.code for reason in found.reasons if reason.code in HOLDING_CODES]
    # Why (Chunk.held_detail): every reason as found, whatever fields Reason carries (a shallow
    # copy of its str fields: dataclasses.asdict deep-copies each, a cost on every held row).
    detail = [{name: getattr(reason, name) for name in _REASON_FIELDS} for reason in found.reasons]
    if draft.proposes_id is not None:
        codes.append(PROPOSED_REVISION)
        detail.append({"code": PROPOSED_REVISION, "text": "would replace a row it may not supersede",
                       "snippet": "", "chunk_id": draft.proposes_id})  # fmt: skip
    if detail:
        values["held_detail"] = detail
    if not codes:
        return
    if LEAKED_CREDENTIAL in codes:
        values["content"] = redact_secrets(without_invisible(values["content"])).text
        values["heading"] = redact_secrets(without_invisible(values["heading"])).text
        for item in detail:  # a matched span must not carry the credential past the redaction
            item["snippet"] = redact_secrets(without_invisible(str(item.get("snippet") or ""))).text
    values.update(review_state=ReviewState.PENDING, held_reasons=",".join(dict.fromkeys(codes)))


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
        record_write_events(chunk.pk, chunk.delivery_policy, chunk.held_reasons, actor=actor, path=path)
        chunk_embed_enqueue(chunk_ids=[chunk.pk])  # on commit, only when knowledge.embeddings is on
    return chunk


def record_write_events(
    chunk_id: int, delivery_policy: str | None, held_reasons: str | None, *, actor: str, path: str
) -> None:
    """The audit events of a new row, in the insert's transaction: memory.hot_written for an
    always-on row, memory.secret_redacted for one whose credentials were redacted before storage."""
    if delivery_policy == DeliveryPolicy.ALWAYS:
        hot_written_record(chunk_id=chunk_id, actor=actor, path=path)
    if held_reasons and LEAKED_CREDENTIAL in held_reasons.split(","):
        audit_event_record(event=CREDENTIAL_REDACTED, actor=actor, path=path, chunk_id=chunk_id)


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

    Each batch is one transaction of multi-row INSERTs (memory.store.text_index.fts5.insert_rows says why not
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
                inserted = text_index.sql().insert_rows(
                    columns, rows, returning=("id", "delivery_policy", "held_reasons")
                )
            else:  # SQLite < 3.35: no RETURNING, so one row at a time to learn every id
                inserted = []
                for chunk in (Chunk(**values) for values in batch):
                    chunk.save(force_insert=True)
                    inserted.append((chunk.pk, chunk.delivery_policy, chunk.held_reasons))
            for chunk_id, policy, held in inserted:
                record_write_events(cast(int, chunk_id), policy, held, actor=actor, path=path)
            chunk_embed_enqueue(chunk_ids=[cast(int, row[0]) for row in inserted])
        stored += len(batch)
        batch.clear()

    with text_index.sql().page_cache(BULK_PAGE_CACHE_KIB) if fast else contextlib.nullcontext():
        for part in _chunked(drafts, batch_size):
            batch.extend(values for values in prepared_values_many(part) if values is not None)
            if batch:
                flush()
    return stored


def _chunked(drafts: Iterable[ChunkDraft], size: int) -> Iterator[list[ChunkDraft]]:
    it = iter(drafts)
    while chunk := list(itertools.islice(it, size)):
        yield chunk


def chunk_supersede(*, old_id: int, new_id: int, now: datetime | None = None) -> bool:
    """Stamp `old_id` invalidated by `new_id`; False if it was already invalidated (CAS)."""
    updated = Chunk.objects.filter(pk=old_id, invalidated_at__isnull=True).update(
        invalidated_at=now or timezone.now(), invalidation_reason=f"{SUPERSEDED_PREFIX}{new_id}"
    )
    return updated == 1


def refuse_gated_always_write(draft: ChunkDraft) -> None:
    """ForbiddenError if the hot-write gate refuses this agent draft; checked before any read or write.

    The same rule add_chunk(agent_write=True) applies, for paths that decide before inserting
    (fact dedup, multi-chunk ingests): domain "hot" or delivery_policy "always".
    """
    stamps = creation_stamps(
        domain=draft.domain, source_type=draft.source_type, delivery_policy=draft.delivery_policy
    )
    _refuse_gated_always(Chunk(delivery_policy=stamps.delivery_policy))
