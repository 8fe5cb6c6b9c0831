"""Which rows may be returned at all (visible) and which may enter a prompt (deliverable).

Plain filters on memory_chunk's own columns, so the search layer can compile them into its
statements; the scope and trust rules on top of them live in memory.lifecycle.selectors.
"""

from __future__ import annotations

from datetime import datetime

from django.db.models import Q, QuerySet
from django.utils import timezone

from memory.store.models import Chunk, ReviewState
from protomem.config import get_config

HOLD_RISKY, HOLD_ALL_PENDING, HOLD_OFF = "risky", "all_pending", "off"


def visible(queryset: QuerySet[Chunk] | None = None, *, include_superseded: bool = False) -> QuerySet[Chunk]:
    """Rows retrieval may return: not invalidated (unless history is asked for)."""
    qs = Chunk.objects.all() if queryset is None else queryset
    return qs if include_superseded else qs.filter(invalidated_at__isnull=True)


def held_q(policy: str) -> Q | None:
    """Rows that wait for a reviewer under knowledge.hold `policy`; None: nothing is held.

    risky (default): pending rows the write inspection found a holding reason in (or that
    propose a revision of someone else's row); all_pending: every pending row; off: the spec's
    deliver-while-pending. A confirmed row is never held; a rejected one never delivers anyway.
    """
    if policy == HOLD_OFF:
        return None
    pending = Q(review_state=ReviewState.PENDING)
    return pending if policy == HOLD_ALL_PENDING else pending & Q(held_reasons__gt="")


def current_hold() -> str:
    return get_config().knowledge.hold


def hold_reasons(chunk: Chunk, policy: str | None = None) -> tuple[str, ...]:
    """Why `chunk` is held from delivery now (held_q's rule for one row); () when it is not."""
    policy = policy or current_hold()
    if policy == HOLD_OFF or chunk.review_state != ReviewState.PENDING:
        return ()
    reasons = tuple(code for code in (chunk.held_reasons or "").split(",") if code)
    if policy == HOLD_ALL_PENDING:
        return reasons or ("pending_review",)
    return reasons


def deliverable(
    queryset: QuerySet[Chunk] | None = None,
    *,
    now: datetime | None = None,
    include_superseded: bool = False,
    hold: str | None = None,
) -> QuerySet[Chunk]:
    """Rows that may enter a prompt: not invalidated, not rejected, not expired, not held."""
    now = now or timezone.now()
    rows = (
        visible(queryset, include_superseded=include_superseded)
        .exclude(review_state=ReviewState.REJECTED)
        .filter(Q(expires_at__isnull=True) | Q(expires_at__gt=now))
    )
    held = held_q(hold or current_hold())
    return rows if held is None else rows.exclude(held)
