"""Reads. Everything that delivers memory filters through `deliverable()`."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import Any, NamedTuple

from django.db import DEFAULT_DB_ALIAS, connection
from django.db.models import Case, IntegerField, QuerySet, Value, When
from django.utils import timezone

from memory.lifecycle.principals import AgentRef
from memory.lifecycle.scope import current_scope, readable_by
from memory.retrieval.retrieve import Options, retrieve
from memory.store import row_filter
from memory.store.deliverable import current_hold, deliverable
from memory.store.models import Chunk, DeliveryPolicy
from memory.store.trust import (
    AGENT_SOURCE_TYPES,
    OPERATOR_SOURCE_TYPES,
    TrustTier,
    source_types_at_or_above,
    trust_label,
    trust_tier,
)
from protomem.config import get_config

HOT_MAX_ROWS = 100
HOT_MAX_CHARS = 6000

__all__ = [
    "chunk_search",
    "chunks_by_ids",
    "hot_entries",
    "hot_set",
]


def in_namespaces(queryset: QuerySet[Chunk], namespaces: Iterable[str] | None) -> QuerySet[Chunk]:
    """Restrict to namespaces; None or empty means unfiltered, "" is the un-namespaced bucket."""
    names = list(namespaces or ())
    return queryset.filter(namespace__in=names) if names else queryset


def resolve_namespaces(configured: Sequence[str], pinned: str) -> tuple[str, ...] | None:
    """Namespaces memory may auto-inject from: None = unfiltered, () = none at all.

    `configured` is knowledge.inject_namespaces (empty = all, "" = un-namespaced); a non-blank
    `pinned` (the agent's own namespace) narrows that to itself.
    """
    if not pinned:
        return tuple(configured) or None
    if configured and pinned not in configured:
        return ()
    return (pinned,)


def at_or_above_trust(queryset: QuerySet[Chunk], min_tier: int) -> QuerySet[Chunk]:
    allowed, unknown_ok = source_types_at_or_above(min_tier)
    return queryset if unknown_ok else queryset.filter(source_type__in=sorted(allowed))


class HotEntry(NamedTuple):
    """One always-on row as the projection reads it every turn: plain values, no model instance."""

    pk: int
    heading: str
    content: str
    source: str
    source_type: str
    created_at: datetime
    scope: str | None
    trust_label: str

    @property
    def trust_tier(self) -> int:
        return int(trust_tier(self.source_type))


HOT_FIELDS = ("pk", "heading", "content", "source", "source_type", "created_at", "scope")
# Stand-ins for the per-call values of the hot-set SQL, compiled once per shape (see _hot_template).
_NOW_MARKER = datetime(1901, 2, 3, 4, 5, 6, 789012, tzinfo=UTC)
_AGENT_MARKER = -918_273_645


def _tier_of_row() -> Case:
    """memory.store.trust.trust_tier as SQL over source_type (stored lowercase)."""
    return Case(
        When(source_type__in=sorted(OPERATOR_SOURCE_TYPES), then=Value(int(TrustTier.OPERATOR))),
        When(source_type__in=sorted(AGENT_SOURCE_TYPES), then=Value(int(TrustTier.AGENT))),
        default=Value(int(TrustTier.EXTERNAL)),
        output_field=IntegerField(),
    )


def _hot_queryset(
    *,
    namespaces: Iterable[str] | None,
    now: datetime | None,
    agent: AgentRef | int | None,
    scope: str,
    min_trust: int,
    hold: str,
) -> QuerySet[Chunk]:
    # Highest trust tier first, newest first within a tier: a flood of agent or third-party
    # always-on rows can never push an operator's standing instructions out of the set.
    rows = readable_by(deliverable(now=now, hold=hold), agent=agent, scope=scope)
    readable = in_namespaces(rows, namespaces)
    return (
        at_or_above_trust(readable, min_trust)
        .filter(delivery_policy=DeliveryPolicy.ALWAYS)
        .order_by(_tier_of_row().desc(), "-created_at", "-id")[:HOT_MAX_ROWS]
    )


def _within_budget(rows: Iterable[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """In the given order (tier, then newest) within 6,000 chars of content (rows: HOT_FIELDS order)."""
    kept = []
    used = 0
    for row in rows:
        size = len(row[2])
        if used + size > HOT_MAX_CHARS:
            continue  # a smaller, older row may still fit
        kept.append(row)
        used += size
    return kept


@functools.lru_cache(maxsize=128)
def _hot_template(
    scope: str, namespaces: tuple[str, ...] | None, with_agent: bool, min_trust: int, hold: str
) -> tuple[str, tuple[Any, ...], int, tuple[int, ...]] | None:
    """(sql, params, `now` slot, agent-id slots) of the hot-set query, or None if not templatable.

    Building and compiling the queryset cost more CPU per turn than running it; the rows are
    still read fresh on every call (spec: always-on memory is loaded per turn). An agent's id
    is a parameter (none at all under scope "shared"), so one template serves every agent.
    """
    qs = _hot_queryset(
        namespaces=namespaces,
        now=_NOW_MARKER,
        agent=_AGENT_MARKER if with_agent else None,
        scope=scope,
        min_trust=min_trust,
        hold=hold,
    ).values_list(*HOT_FIELDS)
    sql, params = qs.query.get_compiler(using=DEFAULT_DB_ALIAS).as_sql()
    marker = connection.ops.adapt_datetimefield_value(_NOW_MARKER)
    now_slots = [i for i, p in enumerate(params) if p == marker]
    agent_slots = tuple(i for i, p in enumerate(params) if type(p) is int and p == _AGENT_MARKER)
    if len(now_slots) != 1:
        return None
    return sql, tuple(params), now_slots[0], agent_slots


@functools.lru_cache(maxsize=256)
def _label(source_type: str) -> str:
    return trust_label(source_type)


def hot_entries(
    *,
    namespaces: Iterable[str] | None = None,
    now: datetime | None = None,
    agent: AgentRef | None = None,
    min_trust: int | None = None,
) -> list[HotEntry]:
    """The always-on set: 100 deliverable always-policy rows within 6,000 chars, highest trust
    tier first and newest first within a tier, at or above the trust floor
    (`min_trust`, default knowledge.inject_min_trust).

    With `agent`, only rows its knowledge.scope lets it read (memory.lifecycle.scope); without, all.
    Read fresh on every call, with the query's SQL compiled once per shape.
    """
    names = tuple(namespaces) if namespaces else None
    agent_id = agent.pk if agent is not None else None
    scope = current_scope()
    now = now or timezone.now()
    floor = get_config().knowledge.inject_min_trust if min_trust is None else int(min_trust)
    hold = current_hold()
    template = _hot_template(scope, names, agent_id is not None, floor, hold)
    if template is None:
        qs = _hot_queryset(namespaces=names, now=now, agent=agent_id, scope=scope, min_trust=floor, hold=hold)
        rows: list[tuple[Any, ...]] = list(qs.values_list(*HOT_FIELDS))
    else:
        sql, params, now_slot, agent_slots = template
        values = list(params)
        values[now_slot] = connection.ops.adapt_datetimefield_value(now)
        for slot in agent_slots:
            values[slot] = agent_id
        with connection.cursor() as cursor:
            cursor.execute(sql, values)
            fetched = cursor.fetchall()
        field = Chunk._meta.get_field("created_at")
        col = field.get_col(Chunk._meta.db_table)
        converters = connection.ops.get_db_converters(col) + field.get_db_converters(connection)
        rows = []
        for row in fetched:
            created = row[5]
            for convert in converters:
                created = convert(created, col, connection)
            rows.append((*row[:5], created, row[6]))
    return [HotEntry(*row, trust_label=_label(row[4])) for row in _within_budget(rows)]


def hot_set(
    *,
    namespaces: Iterable[str] | None = None,
    now: datetime | None = None,
    agent: AgentRef | None = None,
    min_trust: int | None = None,
) -> list[Chunk]:
    """hot_entries() as Chunk instances: the same rows in the same order (the admin's hot memory)."""
    ids = [row.pk for row in hot_entries(namespaces=namespaces, now=now, agent=agent, min_trust=min_trust)]
    return chunks_by_ids(ids)


def chunks_by_ids(ids: list[int]) -> list[Chunk]:
    """Rows in the order of `ids`."""
    return row_filter.chunks_in_order(ids)


def chunk_search(
    query: str,
    *,
    k: int = 10,
    queryset: QuerySet[Chunk] | None = None,
    include_superseded: bool = False,
) -> list[Chunk]:
    """Best `k` deliverable rows (history too if asked) for a free-text query, best first
    (memory.retrieval.retrieve: hybrid when knowledge.embeddings is on and the store holds vectors)."""
    options = Options(include_superseded=include_superseded)
    return [hit.chunk for hit in retrieve(query, queryset, k, options) if hit.chunk is not None]
