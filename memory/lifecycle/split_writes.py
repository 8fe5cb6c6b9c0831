"""Context across writes, the service: judge a session's new write with its recent writes.

When an agent writes a row in a session, `session_split_hold(chunk)` reads the same session's
recent writes (at most WINDOW_WRITES earlier rows, none older than WINDOW_MINUTES) and asks
memory.lifecycle.inspection_split whether they end in an instruction split over writes; if so,
every part is held: pending, held reason `split_instruction`, risk 1.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import QuerySet

from memory.lifecycle.inspection_split import (
    SPLIT_INSTRUCTION,
    WINDOW_WRITES,
    Part,
    SplitVerdict,
    split_verdict,
)
from memory.store.models import Chunk, ReviewState
from protomem.compiled_lookup import DATETIME_MARKER, INT_MARKER, MARKER, CompiledLookup

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
    earlier = _EARLIER.rows(chunk.source, chunk.source_type, chunk.agent_id, since, chunk.pk)
    rows = [*reversed(earlier), (chunk.pk, chunk.content, chunk.heading, chunk.domain, chunk.held_reasons)]
    verdict = split_verdict([Part(content, heading, domain) for _, content, heading, domain, _ in rows])
    if verdict is None:
        return None
    with transaction.atomic():
        for index in verdict.parts:
            pk, held_reasons = rows[index][0], _with_code(rows[index][4])
            if pk == chunk.pk:  # the caller's row object shows the hold too
                chunk.review_state, chunk.held_reasons, chunk.risk = ReviewState.PENDING, held_reasons, 1
            Chunk.objects.filter(pk=pk).update(
                review_state=ReviewState.PENDING, held_reasons=held_reasons, risk=1
            )
    return verdict


def _earlier_writes(
    source: str, source_type: str, agent_id: int, since: datetime, before_id: int
) -> QuerySet:
    """The session's earlier writes a reviewer has not settled, newest first (at most WINDOW_WRITES)."""
    return (
        Chunk.objects.filter(
            source=source,
            source_type=source_type,
            agent_id=agent_id,
            created_at__gte=since,
            id__lt=before_id,
            invalidated_at__isnull=True,
        )
        .exclude(review_state__in=(ReviewState.CONFIRMED, ReviewState.REJECTED))
        .order_by("-id")
        .values_list("id", "content", "heading", "domain", "held_reasons")[:WINDOW_WRITES]
    )


# Compiled once per process (protomem.compiled_lookup): building this queryset on every agent
# write cost more CPU than running it.
_EARLIER = CompiledLookup(
    _earlier_writes, markers=(MARKER, MARKER + "source_type", INT_MARKER, DATETIME_MARKER, INT_MARKER - 1)
)
