"""Context across writes, the service: judge a session's new write with its recent writes.

When an agent writes a row in a session, `session_split_hold(chunk)` reads the same session's
recent writes (at most WINDOW_WRITES earlier rows, none older than WINDOW_MINUTES) and asks
memory.lifecycle.inspection_split whether they end in an instruction split over writes; if so,
every part is held: pending, held reason `split_instruction`, risk 1.
"""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction

from memory.lifecycle.inspection_split import (
    SPLIT_INSTRUCTION,
    WINDOW_WRITES,
    Part,
    SplitVerdict,
    split_verdict,
)
from memory.store.models import Chunk, ReviewState

WINDOW_MINUTES = 15


def _with_code(held_reasons: str | None) -> str:
    codes = [c for c in (held_reasons or "").split(",") if c]
    return ",".join(dict.fromkeys([*codes, SPLIT_INSTRUCTION]))


def session_split_hold(chunk: Chunk) -> SplitVerdict | None:
    """Judge `chunk` (just written by an agent in a session) with the session's recent writes;
    hold every part of a split instruction (pending, `split_instruction`, risk 1). Rows a reviewer
    already confirmed or rejected are left as they are. Returns the verdict (None: nothing held).
    """
    if not chunk.source or chunk.agent_id is None:
        return None
    since = chunk.created_at - timedelta(minutes=WINDOW_MINUTES)
    earlier = list(
        Chunk.objects.filter(
            source=chunk.source,
            source_type=chunk.source_type,
            agent_id=chunk.agent_id,
            created_at__gte=since,
            id__lt=chunk.pk,
            invalidated_at__isnull=True,
        )
        .exclude(review_state__in=(ReviewState.CONFIRMED, ReviewState.REJECTED))
        .order_by("-id")[:WINDOW_WRITES]
    )
    rows = [*reversed(earlier), chunk]
    verdict = split_verdict([Part(r.content, r.heading, r.domain) for r in rows])
    if verdict is None:
        return None
    with transaction.atomic():
        for index in verdict.parts:
            row = rows[index]
            row.review_state = ReviewState.PENDING
            row.held_reasons = _with_code(row.held_reasons)
            row.risk = 1
            Chunk.objects.filter(pk=row.pk).update(
                review_state=row.review_state, held_reasons=row.held_reasons, risk=1
            )
    return verdict
