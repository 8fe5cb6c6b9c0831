"""Quarantine: reject a row together with what was derived from the same source, or a whole session.

What counts as derived from a row: the other rows its writer stored from the same source (the
facts harvested from one session summary share its `source` and agent), the later revisions
that superseded it, and the commons copies promoted from it. Each rejection goes through
memory.lifecycle.review.chunk_review, so every row gets its own audit event, with the cause.
A whole session's quarantine is a record (memory.store.models.Quarantine: who, when, why, and each
row's state before); lifting it restores those states, so an operator's confirmed always-on row
comes back confirmed, not pending.

A cascade is an offer, never a default: a person already vouched for confirmed rows and wrote
operator rows, so neither is ever offered; of the rest, only rows flagged for a reason the rejected
row was flagged for start ticked (a session's other writes are usually unrelated to one bad row).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Prefetch, QuerySet
from django.utils import timezone

from audit.services import QUARANTINE_LIFTED, QUARANTINED, audit_event_record
from memory.lifecycle.principals import is_operator_source
from memory.lifecycle.review import chunk_review
from memory.store.models import Chunk, Quarantine, QuarantineRow, ReviewState
from memory.store.trust import TrustTier
from protomem.errors import ApplicationError

SAME_SOURCE = "same_source"
SUPERSEDED_IT = "superseded_it"
PROMOTED_COPY = "promoted_copy"
CAUSE_TEXT = {
    SAME_SOURCE: "written from the same source",
    SUPERSEDED_IT: "a later revision of it",
    PROMOTED_COPY: "a commons copy promoted from it",
}
MAX_DERIVED = 500  # rows one quarantine lists; a larger session is quarantined as a session


@dataclass(frozen=True)
class Derived:
    chunk: Chunk
    cause: str  # SAME_SOURCE, SUPERSEDED_IT or PROMOTED_COPY
    # Flagged for a reason the rejected row was flagged for: the one case the offer starts ticked.
    same_reason: bool = False

    @property
    def cause_text(self) -> str:
        return CAUSE_TEXT[self.cause]


@dataclass(frozen=True)
class QuarantineResult:
    rejected: tuple[int, ...]  # rows this action moved to rejected
    already: int  # rows that were rejected before
    quarantine_id: int | None = None  # the session quarantine's record (None: it rejected nothing)


@dataclass(frozen=True)
class LiftResult:
    restored: tuple[int, ...]  # rows put back to their state before the quarantine
    changed_since: tuple[int, ...]  # rows reviewed again since the quarantine: left as they are
    already_lifted: bool = False


def flags(chunk: Chunk) -> frozenset[str]:
    """The inspection's reason codes on a row (held_reasons, comma-separated)."""
    return frozenset(code for code in (chunk.held_reasons or "").split(",") if code)


def cascade_eligible(chunk: Chunk) -> bool:
    """Whether a cascade may offer `chunk`: not rejected yet, not confirmed, not operator-written."""
    return (
        chunk.review_state not in (ReviewState.REJECTED, ReviewState.CONFIRMED)
        and chunk.trust_tier < TrustTier.OPERATOR
        and not is_operator_source(chunk.source)
    )


def derived_rows(chunk: Chunk) -> list[Derived]:
    """Rows derived from the same source as `chunk` that a reject may cascade to (not `chunk` itself).

    Only cascade_eligible rows; `same_reason` marks those sharing a flag with `chunk`.
    """
    found: dict[int, Derived] = {}
    current = chunk
    seen = {chunk.pk}
    while current.superseded_by_id and current.superseded_by_id not in seen:
        newer = Chunk.objects.filter(pk=current.superseded_by_id).first()
        if newer is None:
            break
        seen.add(newer.pk)
        found[newer.pk] = Derived(newer, SUPERSEDED_IT)
        current = newer
    for copy in Chunk.objects.filter(promoted_from__in=[chunk.pk, *found]):
        found.setdefault(copy.pk, Derived(copy, PROMOTED_COPY))
    if chunk.source and not is_operator_source(chunk.source):
        siblings = (
            Chunk.objects.filter(source=chunk.source, agent_id=chunk.agent_id)
            .exclude(pk=chunk.pk)
            .order_by("id")[:MAX_DERIVED]
        )
        for row in siblings:
            found.setdefault(row.pk, Derived(row, SAME_SOURCE))
    reasons = flags(chunk)
    return [
        Derived(d.chunk, d.cause, same_reason=bool(reasons & flags(d.chunk)))
        for d in found.values()
        if cascade_eligible(d.chunk)
    ]


def chunk_reject_with_derived(
    *, chunk_id: int, also_reject: Iterable[int], actor: str, path: str
) -> QuarantineResult:
    """Reject `chunk_id` and the chosen rows derived from it, in one transaction.

    `also_reject` must be among derived_rows(chunk) (ApplicationError otherwise: so a confirmed
    or operator-written row is never rejected by a cascade, whatever the caller sends); each
    derived row's audit event names the cause ("quarantine of #N: a later revision of it").
    Empty `also_reject` rejects the one row.
    """
    wanted = list(dict.fromkeys(int(i) for i in also_reject))
    with transaction.atomic():
        root = Chunk.objects.select_for_update().get(pk=chunk_id)
        derived = {d.chunk.pk: d for d in derived_rows(root)}
        stray = [i for i in wanted if i not in derived]
        if stray:
            raise ApplicationError(
                f"not offered with #{chunk_id} (not derived from it, or already rejected, confirmed or "
                f"operator-written): {', '.join(map(str, stray))}",
                extra={"field": "also_reject"},
            )
        rejected: list[int] = []
        already = 0
        if root.review_state == ReviewState.REJECTED:
            already += 1
        else:
            chunk_review(chunk_id=root.pk, state=ReviewState.REJECTED, actor=actor, path=path)
            rejected.append(root.pk)
        for pk in wanted:
            cause = f"quarantine of #{root.pk}: {derived[pk].cause_text}"
            chunk_review(chunk_id=pk, state=ReviewState.REJECTED, actor=actor, path=path, cause=cause)
            rejected.append(pk)
    return QuarantineResult(rejected=tuple(rejected), already=already)


def session_written(*, session_id: str, agent_id: int | None) -> QuerySet[Chunk]:
    """Every row a session wrote (current and history), newest first: `source` is its id."""
    return Chunk.objects.filter(source=session_id, agent_id=agent_id).order_by("-created_at", "-id")


def session_quarantine(
    *, session_id: str, agent_id: int | None, actor: str, path: str, reason: str = ""
) -> QuarantineResult:
    """Reject everything session `session_id` of `agent_id` wrote, in one transaction, recorded.

    The Quarantine record keeps each row's review state and delivery policy before; one
    QUARANTINED audit event names the record, and each rejected row's own REVIEWED event names it
    as the cause. Rejecting nothing (all already rejected, or no rows) records nothing, so running
    it twice leaves one record. Undo: quarantine_lift.
    """
    with transaction.atomic():
        rows = list(
            session_written(session_id=session_id, agent_id=agent_id)
            .select_for_update()
            .values_list("pk", "review_state", "delivery_policy")
        )
        to_reject = [pk for pk, state, _ in rows if state != ReviewState.REJECTED]
        if not to_reject:
            return QuarantineResult(rejected=(), already=len(rows))
        record = Quarantine.objects.create(
            actor=actor, path=path, reason=reason.strip(), session_id=session_id, agent_id=agent_id
        )
        QuarantineRow.objects.bulk_create(
            QuarantineRow(
                quarantine=record,
                chunk_id=pk,
                review_state_before=state,
                delivery_policy_before=policy,
                rejected=state != ReviewState.REJECTED,
            )
            for pk, state, policy in rows
        )
        cause = f"quarantine #{record.pk} of session {session_id}"
        for pk in to_reject:
            chunk_review(chunk_id=pk, state=ReviewState.REJECTED, actor=actor, path=path, cause=cause)
        audit_event_record(
            event=QUARANTINED,
            actor=actor,
            path=path,
            data={
                "quarantine": record.pk,
                "session_id": session_id,
                "agent_id": agent_id,
                "reason": record.reason,
                "rejected": to_reject,
            },
        )
    return QuarantineResult(
        rejected=tuple(to_reject), already=len(rows) - len(to_reject), quarantine_id=record.pk
    )


def quarantine_lift(*, quarantine_id: int, actor: str, path: str) -> LiftResult:
    """Put every row quarantine `quarantine_id` rejected back to its review state before it.

    A row reviewed again since (no longer rejected) is left alone and reported. A reject changes
    only the review state (a proposed revision's target comes back through chunk_review on
    re-confirm), so the state is what is restored; the delivery policy is recorded and untouched.
    One QUARANTINE_LIFTED event lists every row's restore (each row's REVIEWED event names the lift
    as its cause, for the row's own history). Lifting twice restores nothing the second time.
    """
    with transaction.atomic():
        claimed = Quarantine.objects.filter(pk=quarantine_id, lifted_at__isnull=True).update(
            lifted_at=timezone.now(), lifted_by=actor
        )
        if not claimed:
            Quarantine.objects.get(pk=quarantine_id)  # DoesNotExist for an unknown id
            return LiftResult(restored=(), changed_since=(), already_lifted=True)
        rows = list(QuarantineRow.objects.filter(quarantine_id=quarantine_id, rejected=True).order_by("id"))
        current = dict(
            Chunk.objects.filter(pk__in=[r.chunk_id for r in rows]).values_list("pk", "review_state")
        )
        cause = f"lift of quarantine #{quarantine_id}"
        restored: list[int] = []
        changed: list[int] = []
        for row in rows:
            if current.get(row.chunk_id, "") != ReviewState.REJECTED:
                changed.append(row.chunk_id)
                continue
            chunk_review(
                chunk_id=row.chunk_id, state=row.review_state_before, actor=actor, path=path, cause=cause
            )
            restored.append(row.chunk_id)
        audit_event_record(
            event=QUARANTINE_LIFTED,
            actor=actor,
            path=path,
            data={
                "quarantine": quarantine_id,
                "restored": [
                    {"chunk": r.chunk_id, "to": r.review_state_before} for r in rows if r.chunk_id in restored
                ],
                "changed_since": changed,
            },
        )
    return LiftResult(restored=tuple(restored), changed_since=tuple(changed))


def session_quarantines(*, session_id: str, agent_id: int | None) -> QuerySet[Quarantine]:
    """A session's quarantines, newest first, with their rows."""
    return Quarantine.objects.filter(session_id=session_id, agent_id=agent_id).prefetch_related(
        Prefetch("rows", queryset=QuarantineRow.objects.order_by("id"))
    )
