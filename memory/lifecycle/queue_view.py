"""Reads behind the review queue's view: who and which sessions have rows waiting, and a group's spread.

The admin renders these; the verdicts themselves stay in memory.lifecycle.review.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Exists, IntegerField, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce

from memory.lifecycle.confirm_effect import agent_names
from memory.lifecycle.principals import is_operator_source
from memory.lifecycle.triage import GROUP_SCAN_LIMIT, duplicate_groups, risk_order
from memory.store.models import Chunk, ReviewState

MAX_FACETS = 30  # choices a queue filter lists (the chosen one is always listed too)


def _waiting() -> QuerySet[Chunk]:
    return Chunk.objects.filter(invalidated_at__isnull=True, review_state=ReviewState.PENDING)


def queue_agents(*, limit: int = MAX_FACETS) -> list[tuple[int, str, int]]:
    """(agent id, name, pending rows) for the agents with the most rows waiting."""
    counts = list(
        _waiting()
        .filter(agent_id__isnull=False)
        .values_list("agent_id")
        .annotate(n=Count("id"))
        .order_by("-n", "agent_id")[:limit]
    )
    names = agent_names([pk for pk, _ in counts])
    return [(pk, names.get(pk, f"#{pk}"), n) for pk, n in counts]


def queue_sessions(*, limit: int = MAX_FACETS) -> list[tuple[str, int]]:
    """(session id, pending rows) for the sessions that wrote the most rows waiting.

    A session's writes carry its id in `source`; operator writes and documents (a URL or a
    path) are not sessions.
    """
    counts = (
        _waiting()
        .exclude(source="")
        .values_list("source")
        .annotate(n=Count("id"))
        .order_by("-n", "source")[: limit * 2]
    )
    found = [
        (source, n)
        for source, n in counts
        if "://" not in source and not source.startswith("/") and not is_operator_source(source)
    ]
    return found[:limit]


def _waiting_from_outer_session() -> QuerySet[Chunk]:
    # A session's writes carry its id in `source` and its agent in `agent`.
    return _waiting().filter(source=OuterRef("session_id"), agent_id=OuterRef("agent_id"))


def session_waiting_count() -> Coalesce:
    """An annotation for a Session queryset: how many rows it wrote are waiting for a verdict."""
    counted = _waiting_from_outer_session().order_by().values("source").annotate(n=Count("id")).values("n")
    return Coalesce(Subquery(counted, output_field=IntegerField()), 0)


def session_has_waiting() -> Exists:
    """A filter for a Session queryset: it wrote at least one row waiting for a verdict."""
    return Exists(_waiting_from_outer_session())


def held_for(code: str) -> Q:
    """Rows whose comma-separated held_reasons include `code`."""
    return (
        Q(held_reasons=code)
        | Q(held_reasons__startswith=f"{code},")
        | Q(held_reasons__endswith=f",{code}")
        | Q(held_reasons__contains=f",{code},")
    )


def queue_groups(queryset: QuerySet[Chunk]) -> tuple[QuerySet[Chunk], dict[int, list[int]]]:
    """One row per group of identical `queryset` rows (its first in risk order), and the members
    of each group of two or more (shown row -> every id), so the console can open a group.

    The grouping is triage.grouped_queue's; this also keeps the members. Past GROUP_SCAN_LIMIT
    rows, `queryset` is returned ungrouped.
    """
    rows = list(queryset.order_by(*risk_order()).values_list("pk", "content")[: GROUP_SCAN_LIMIT + 1])
    if len(rows) > GROUP_SCAN_LIMIT:
        return queryset, {}
    groups = duplicate_groups(rows)
    if len(groups) == len(rows):
        return queryset, {}
    members = {rep: ids for rep, ids in groups.items() if len(ids) > 1}
    return queryset.filter(pk__in=list(groups)), members


@dataclass(frozen=True)
class GroupSpread:
    """The rows behind a queue group ("N copies"): who wrote them and in which sessions."""

    rows: tuple[Chunk, ...]
    agents: tuple[str, ...]  # names, first seen first; "(no agent)" for host rows
    sessions: tuple[str, ...]  # distinct sources

    @property
    def text(self) -> str:
        n, a, s = len(self.rows), len(self.agents), len(self.sessions)
        return (
            f"{n} row{'s' if n != 1 else ''} · {a} agent{'s' if a != 1 else ''} · "
            f"{s} session{'s' if s != 1 else ''}"
        )


def group_spread(ids: list[int]) -> GroupSpread:
    """The rows `ids` (a group's members), oldest first, with their distinct agents and sessions."""
    rows = tuple(Chunk.objects.filter(pk__in=ids).select_related("agent").order_by("created_at", "id"))
    agents = dict.fromkeys(r.agent.name if r.agent is not None else "(no agent)" for r in rows)
    sessions = dict.fromkeys(r.source or "(no source)" for r in rows)
    return GroupSpread(rows=rows, agents=tuple(agents), sessions=tuple(sessions))
