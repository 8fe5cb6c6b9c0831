"""Operator verdicts on stored rows: review (confirm / reject / reopen), edit, promotion.

Each is an assertion by an operator, audited with its actor and path; none deletes a row.
"""

from __future__ import annotations

import logging

from django.db import IntegrityError, transaction

from audit.services import (
    PROMOTED,
    PROPOSAL_ACCEPTED,
    PROPOSAL_WITHDRAWN,
    REVIEWED,
    REVISED,
    audit_event_record,
    hot_written_record,
)
from memory.lifecycle.scope import COMMONS, row_scope, write_scope
from memory.lifecycle.writes import (
    OPERATOR_EDIT_SOURCE_TYPE,
    SUPERSEDED_PREFIX,
    ChunkDraft,
    add_chunk,
    check_choice,
    chunk_supersede,
)
from memory.store.embedding_index import chunk_embed_enqueue
from memory.store.models import Chunk, DeliveryPolicy, ReviewState
from protomem.errors import ApplicationError, ConflictError

logger = logging.getLogger(__name__)


def chunk_review(
    *, chunk_id: int, state: str | None, actor: str, path: str = "api", cause: str | None = None
) -> Chunk:
    """Set the operator's verdict (confirmed / rejected / pending; None only to restore an
    unstamped row). Idempotent; never deletes.

    `cause` (why this row shares a verdict taken on another one: a quarantine, a duplicate
    group) is recorded in the audit event.

    Confirming a proposed revision (Chunk.proposes_id) supersedes the row it proposes to replace,
    with the reviewer as the actor; taking that verdict back (reopen or reject) restores it.
    """
    check_choice("state", state, ReviewState)
    with transaction.atomic():
        chunk = Chunk.objects.get(pk=chunk_id)
        old = chunk.review_state
        if old == state:
            return chunk
        updated = Chunk.objects.filter(pk=chunk_id, review_state=old).update(review_state=state)
        if updated != 1:
            raise ConflictError("chunk was reviewed concurrently; reload and retry")
        data = {"from": old, "to": state, **({"cause": cause} if cause else {})}
        audit_event_record(event=REVIEWED, actor=actor, path=path, chunk_id=chunk_id, data=data)
        chunk.review_state = state
        if chunk.proposes_id is not None:
            _apply_proposal(chunk, accepted=state == ReviewState.CONFIRMED, actor=actor, path=path)
    logger.info("chunk %s reviewed %s -> %s by %s", chunk_id, old, state, actor)
    return chunk


def _apply_proposal(chunk: Chunk, *, accepted: bool, actor: str, path: str) -> None:
    """Supersede (accepted) or restore (taken back) the row a proposed revision names; audited.

    An accepted revision takes the original's place: its scope too, so a host or commons fact
    an agent's proposal replaced stays readable by every agent that read it (the agent stays
    recorded as the author). Taken back, the revision returns to its writer's own scope.
    """
    target_id = chunk.proposes_id
    if accepted:
        target = Chunk.objects.filter(pk=target_id).first()
        done = target is not None and chunk_supersede(old_id=target.pk, new_id=chunk.pk)
        scope = row_scope(target) if done and target is not None else chunk.scope
        event = PROPOSAL_ACCEPTED
    else:
        done = bool(
            Chunk.objects.filter(pk=target_id, invalidation_reason=f"{SUPERSEDED_PREFIX}{chunk.pk}").update(
                invalidated_at=None, invalidation_reason=""
            )
        )
        scope = write_scope(agent=chunk.agent_id)
        event = PROPOSAL_WITHDRAWN
    if done:
        if scope != chunk.scope:
            Chunk.objects.filter(pk=chunk.pk).update(scope=scope)
            chunk.scope = scope
        audit_event_record(
            event=event,
            actor=actor,
            path=path,
            chunk_id=chunk.pk,
            data={"proposes": target_id, "scope": scope},
        )


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
    audit_event_record(event=REVISED, actor=actor, path=path, chunk_id=new.pk, data={"revises": old.pk})
    return new


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
