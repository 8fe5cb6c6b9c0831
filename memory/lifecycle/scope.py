"""Private vs commons rows (knowledge.scope, ADR 0041): who reads and who writes which rows.

Scope is a column of each row (Chunk.scope), so one query serves every mode with one ranking:

- "private" (NULL on rows that predate the column) belongs to `Chunk.agent` and to nobody else:
  a private row without an agent (an agent that was deleted before deletion was refused) is
  read by no agent at all. Ownership never widens;
- "host" marks, explicitly, a row written for every agent (an operator or system write without
  a target agent), read by every agent in scoped, shared and layered mode;
- "commons" is the host commons.

Visibility for agent A, per knowledge.scope:

    scoped:  host OR (private AND agent = A)
    shared:  commons OR host
    layered: commons OR host OR (private AND agent = A)

Operators (no agent) see everything. An agent writes private rows (agent = A) on scoped and
layered, commons rows (agent = A kept as the author) on shared; a write without an agent is a
host row. Which of the rows it reads a write may supersede is lifecycle.authority's rule.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db.models import Q, QuerySet

from memory.lifecycle.principals import AgentRef
from protomem.config import get_config

if TYPE_CHECKING:
    from memory.store.models import Chunk

PRIVATE = "private"
COMMONS = "commons"
HOST = "host"
SCOPED, SHARED, LAYERED = "scoped", "shared", "layered"


def current_scope(scope: str | None = None) -> str:
    """`scope`, else knowledge.scope from the config."""
    return scope or get_config().knowledge.scope


def _agent_pk(agent: AgentRef | int | None) -> int | None:
    return agent if agent is None or isinstance(agent, int) else agent.pk


def private_q() -> Q:
    """Private rows (NULL is private: rows from before the column)."""
    return Q(scope__isnull=True) | Q(scope=PRIVATE)


def readable_q(*, agent: AgentRef | int | None, scope: str | None = None) -> Q | None:
    """The Q of rows `agent` may read under `scope`; None = everything (operators)."""
    agent_id = _agent_pk(agent)
    if agent_id is None:
        return None
    mode = current_scope(scope)
    host = Q(scope=HOST)
    own = private_q() & Q(agent_id=agent_id)
    if mode == SHARED:
        return Q(scope=COMMONS) | host
    if mode == LAYERED:
        return Q(scope=COMMONS) | host | own
    return host | own


def readable_by(
    queryset: QuerySet[Chunk], *, agent: AgentRef | int | None, scope: str | None = None
) -> QuerySet[Chunk]:
    """Rows of `queryset` that `agent` may read under `scope` (default knowledge.scope); all for None."""
    q = readable_q(agent=agent, scope=scope)
    return queryset if q is None else queryset.filter(q)


def write_scope(*, agent: AgentRef | int | None, scope: str | None = None) -> str:
    """The scope a write lands in: host without an agent, commons on shared, else private."""
    if _agent_pk(agent) is None:
        return HOST
    return COMMONS if current_scope(scope) == SHARED else PRIVATE


def row_scope(chunk: Chunk) -> str:
    """ "private", "host" or "commons" for a stored row (NULL reads as private)."""
    return chunk.scope if chunk.scope in (COMMONS, HOST) else PRIVATE


def readable_ids(ids: list[int], *, agent: AgentRef | int | None, scope: str | None = None) -> set[int]:
    """Which of `ids` `agent` may read (one query; all of them for an operator)."""
    from memory.store.models import Chunk

    if not ids or _agent_pk(agent) is None:
        return set(ids)
    rows = readable_by(Chunk.objects.filter(pk__in=ids), agent=agent, scope=scope)
    return set(rows.values_list("pk", flat=True))


def readers_of(chunk: Chunk, *, scope: str | None = None) -> str:
    """Who reads a stored row under `scope` (default knowledge.scope), in words for the console."""
    kind = row_scope(chunk)
    mode = current_scope(scope)
    if kind == HOST:
        return "every agent"
    if kind == COMMONS:
        return "every agent" if mode in (SHARED, LAYERED) else "no agent (commons is off)"
    if mode == SHARED:
        return "no agent (private rows are off)"
    return f"only {chunk.agent}" if chunk.agent_id is not None else "no agent"
