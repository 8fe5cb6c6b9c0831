"""Quarantine: reject a row together with what was derived from the same source, or a whole session.

What counts as derived from a row: the other rows its writer stored from the same source (the
facts harvested from one session summary share its `source` and agent), the later revisions
that superseded it, and the commons copies promoted from it. Each rejection goes through
memory.lifecycle.review.chunk_review, so every row gets its own audit event, with the cause.
Undo is a reopen (the review route), which the audit records beside the rejection.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db import transaction
from django.db.models import QuerySet

from memory.lifecycle.principals import is_operator_source
from memory.lifecycle.review import chunk_review
from memory.store.models import Chunk, ReviewState
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

    @property
    def cause_text(self) -> str:
        return CAUSE_TEXT[self.cause]


@dataclass(frozen=True)
class QuarantineResult:
    rejected: tuple[int, ...]  # rows this action moved to rejected
    already: int  # rows that were rejected before


def derived_rows(chunk: Chunk) -> list[Derived]:
    """Rows derived from the same source as `chunk` that are not rejected yet (not `chunk` itself)."""
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
    return [d for d in found.values() if d.chunk.review_state != ReviewState.REJECTED]


def chunk_reject_with_derived(
    *, chunk_id: int, also_reject: Iterable[int], actor: str, path: str
) -> QuarantineResult:
    """Reject `chunk_id` and the chosen rows derived from it, in one transaction.

    `also_reject` must be among derived_rows(chunk) (ApplicationError otherwise); each derived
    row's audit event names the cause ("quarantine of #N: a later revision of it").
    """
    wanted = list(dict.fromkeys(int(i) for i in also_reject))
    with transaction.atomic():
        root = Chunk.objects.select_for_update().get(pk=chunk_id)
        derived = {d.chunk.pk: d for d in derived_rows(root)}
        stray = [i for i in wanted if i not in derived]
        if stray:
            raise ApplicationError(
                f"not derived from #{chunk_id} (or already rejected): {', '.join(map(str, stray))}",
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


def session_quarantine(*, session_id: str, agent_id: int | None, actor: str, path: str) -> QuarantineResult:
    """Reject everything session `session_id` of `agent_id` wrote, in one transaction.

    Undone row by row (or in bulk) by reopening; the audit keeps both verdicts.
    """
    cause = f"quarantine of session {session_id}"
    with transaction.atomic():
        rows = session_written(session_id=session_id, agent_id=agent_id).select_for_update()
        states = list(rows.values_list("pk", "review_state"))
        rejected = []
        for pk, state in states:
            if state == ReviewState.REJECTED:
                continue
            chunk_review(chunk_id=pk, state=ReviewState.REJECTED, actor=actor, path=path, cause=cause)
            rejected.append(pk)
    return QuarantineResult(rejected=tuple(rejected), already=len(states) - len(rejected))
