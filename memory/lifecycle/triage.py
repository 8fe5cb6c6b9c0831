"""The review queue's triage: risk first, then newest; identical rows grouped under one verdict.

Risk comes from the write inspection (memory.lifecycle.inspection, stored on Chunk.risk at
write); a row without one (operator rows, older rows) counts as the lowest level, 3.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import Count, F, OrderBy, QuerySet, Value
from django.db.models.functions import Coalesce

from memory.store.models import Chunk, ReviewState

LOWEST_RISK = 3
# Grouping reads the content of every row the queue's filters leave; past this many rows the
# queue shows them ungrouped rather than read an unbounded amount of text per page view.
GROUP_SCAN_LIMIT = 20_000


def normalized_content(text: str) -> str:
    """What makes two rows "the same": case folded, whitespace runs collapsed."""
    return " ".join((text or "").casefold().split())


def risk_order() -> tuple[OrderBy | str, ...]:
    """The queue's default order: risk (NULL = 3) ascending, then newest first."""
    return (Coalesce("risk", Value(LOWEST_RISK)).asc(), F("created_at").desc(), F("id").desc())


def duplicate_groups(rows: Iterable[tuple[int, str]]) -> dict[int, list[int]]:
    """First id of each group (in the given order) -> every id with the same normalized content."""
    groups: dict[str, list[int]] = {}
    for pk, content in rows:
        groups.setdefault(normalized_content(content), []).append(pk)
    return {members[0]: members for members in groups.values()}


def grouped_queue(queryset: QuerySet[Chunk]) -> tuple[QuerySet[Chunk], dict[int, int]]:
    """One row per group of `queryset` (its first in risk order) and each shown row's group size.

    Returns `queryset` unchanged (and no sizes) when it holds more than GROUP_SCAN_LIMIT rows.
    """
    rows = list(queryset.order_by(*risk_order()).values_list("pk", "content")[: GROUP_SCAN_LIMIT + 1])
    if len(rows) > GROUP_SCAN_LIMIT:
        return queryset, {}
    groups = duplicate_groups(rows)
    if len(groups) == len(rows):
        return queryset, {}
    sizes = {rep: len(members) for rep, members in groups.items() if len(members) > 1}
    return queryset.filter(pk__in=list(groups)), sizes


def group_members(chunk_ids: Iterable[int], *, within: QuerySet[Chunk] | None = None) -> list[int]:
    """`chunk_ids` and every current row of `within` in the same review state with the same
    normalized content: a verdict on a group's shown row applies to the whole group.

    `within` defaults to every current row; at most GROUP_SCAN_LIMIT rows per state are read.
    """
    wanted = list(dict.fromkeys(int(i) for i in chunk_ids))
    if not wanted:
        return []
    scope = (Chunk.objects.all() if within is None else within).filter(invalidated_at__isnull=True)
    keys: dict[str | None, set[str]] = {}
    for state, content in Chunk.objects.filter(pk__in=wanted).values_list("review_state", "content"):
        keys.setdefault(state, set()).add(normalized_content(content))
    out = dict.fromkeys(wanted)
    for state, norms in keys.items():
        candidates = scope.filter(review_state=state).order_by("id").values_list("pk", "content")
        for pk, content in candidates[:GROUP_SCAN_LIMIT]:
            if normalized_content(content) in norms:
                out.setdefault(pk)
    return list(out)


def pending_by_risk() -> dict[int, int]:
    """Current pending rows per risk level (1..3; no risk counts as 3), for the admin index."""
    counts = {1: 0, 2: 0, 3: 0}
    rows = (
        Chunk.objects.filter(invalidated_at__isnull=True, review_state=ReviewState.PENDING)
        .values("risk")
        .annotate(n=Count("id"))
    )
    for row in rows:
        level = row["risk"] if row["risk"] in (1, 2, 3) else LOWEST_RISK
        counts[level] += row["n"]
    return counts
