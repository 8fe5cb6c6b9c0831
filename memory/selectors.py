"""Reads. Everything that delivers memory filters through `deliverable()`."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import TYPE_CHECKING

from django.db.models import Q, QuerySet
from django.utils import timezone

from memory.models import Chunk, DeliveryPolicy, ReviewState
from memory.scope import readable_by
from memory.search import search_backend_name, search_chunks, search_deliverable
from memory.trust import source_types_at_or_above
from protomem.config import get_config

if TYPE_CHECKING:
    from sessions_app.models import Agent

HOT_MAX_ROWS = 100
HOT_MAX_CHARS = 6000

__all__ = [
    "chunk_search",
    "chunks_by_ids",
    "deliverable",
    "hot_set",
    "search_backend_name",
    "visible",
]


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


def in_namespaces(queryset: QuerySet[Chunk], namespaces: Iterable[str] | None) -> QuerySet[Chunk]:
    """Restrict to namespaces; None or empty means unfiltered, "" is the un-namespaced bucket."""
    names = list(namespaces or ())
    return queryset.filter(namespace__in=names) if names else queryset


def at_or_above_trust(queryset: QuerySet[Chunk], min_tier: int) -> QuerySet[Chunk]:
    allowed, unknown_ok = source_types_at_or_above(min_tier)
    return queryset if unknown_ok else queryset.filter(source_type__in=sorted(allowed))


def hot_set(
    *, namespaces: Iterable[str] | None = None, now: datetime | None = None, agent: Agent | None = None
) -> list[Chunk]:
    """The always-on set: newest 100 deliverable always-policy rows within 6,000 chars.

    With `agent`, only rows its knowledge.scope lets it read (memory.scope); without, all.
    """
    rows = (
        in_namespaces(readable_by(deliverable(now=now), agent=agent), namespaces)
        .filter(delivery_policy=DeliveryPolicy.ALWAYS)
        .order_by("-created_at", "-id")[:HOT_MAX_ROWS]
    )
    kept: list[Chunk] = []
    used = 0
    for chunk in rows:
        size = len(chunk.content)
        if used + size > HOT_MAX_CHARS:
            continue  # a smaller, older row may still fit
        kept.append(chunk)
        used += size
    return kept


def chunks_by_ids(ids: list[int]) -> list[Chunk]:
    """Rows in the order of `ids`."""
    by_id = Chunk.objects.in_bulk(ids)
    return [by_id[i] for i in ids if i in by_id]


def chunk_search(
    query: str,
    *,
    k: int = 10,
    queryset: QuerySet[Chunk] | None = None,
    include_superseded: bool = False,
) -> list[Chunk]:
    """Best `k` deliverable rows (history too if asked) for a free-text query, best first."""
    if get_config().knowledge.embeddings:  # hybrid: keyword + vector ids fused by RRF (memory.hybrid)
        from memory.hybrid import hybrid_chunk_ids

        base = deliverable(queryset, include_superseded=include_superseded)
        return chunks_by_ids(hybrid_chunk_ids(query, k=k, queryset=base))
    if queryset is None:  # the common case, with deliverable()'s SQL compiled once per process
        return search_deliverable(query, k=k, include_superseded=include_superseded)
    base = deliverable(queryset, include_superseded=include_superseded)
    return search_chunks(query, k=k, queryset=base)
