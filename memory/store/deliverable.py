"""Which rows may be returned at all (visible) and which may enter a prompt (deliverable).

Plain filters on memory_chunk's own columns, so the search layer can compile them into its
statements; the scope and trust rules on top of them live in memory.lifecycle.selectors.
"""

from __future__ import annotations

from datetime import datetime

from django.db.models import Q, QuerySet
from django.utils import timezone

from memory.store.models import Chunk, ReviewState


def visible(queryset: QuerySet[Chunk] | None = None, *, include_superseded: bool = False) -> QuerySet[Chunk]:
    """Rows retrieval may return: not invalidated (unless history is asked for)."""
    qs = Chunk.objects.all() if queryset is None else queryset
    return qs if include_superseded else qs.filter(invalidated_at__isnull=True)


def deliverable(
    queryset: QuerySet[Chunk] | None = None,
    *,
    now: datetime | None = None,
    include_superseded: bool = False,
) -> QuerySet[Chunk]:
    """Rows that may enter a prompt: not invalidated, not rejected, not expired."""
    now = now or timezone.now()
    return (
        visible(queryset, include_superseded=include_superseded)
        .exclude(review_state=ReviewState.REJECTED)
        .filter(Q(expires_at__isnull=True) | Q(expires_at__gt=now))
    )
