"""Reads behind the agent's memory_recall and memory_list tools, and their one-line formats.

memory_recall is tool-driven, so it is not scoped by knowledge.inject_namespaces (spec
"RAG hits"); an agent pinned to a namespace still only ever reads that namespace. Hits are
deliverable rows (memory.lifecycle.selectors.chunk_search: not rejected, not expired, not invalidated),
of any delivery policy including on_demand; with include_superseded the revised-away history
comes too, tagged [superseded by #ID] (or [superseded] for a row without a chain id).
Bulk-deleted rows are never recalled, history or not.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import tzinfo

from django.db.models import QuerySet
from django.utils import timezone

from memory.lifecycle.ingest import agent_namespace
from memory.lifecycle.principals import AgentRef
from memory.lifecycle.queryset_cache import ConfigKeyedQuerysets
from memory.lifecycle.rendering import chunk_block, chunk_text, one_line, stored_date
from memory.lifecycle.retention import BULK_DELETE_MARKER
from memory.lifecycle.scope import readable_by
from memory.lifecycle.selectors import chunk_search
from memory.store.deliverable import visible
from memory.store.models import Chunk
from protomem.metrics import RECALL_SECONDS, timed

LIST_PREVIEW_CHARS = 200


@dataclass(frozen=True)
class RecallHit:
    chunk: Chunk
    tag: str  # "" for a live row, else "superseded by #ID" / "superseded"
    line: str


def superseded_tag(chunk: Chunk) -> str:
    """ "superseded by #ID" / "superseded" for an invalidated row, "" for a live one."""
    if chunk.invalidated_at is None:
        return ""
    successor = chunk.superseded_by_id
    return f"superseded by #{successor}" if successor is not None else "superseded"


def expires_date(chunk: Chunk, tz: tzinfo | None = None) -> str | None:
    """The row's expiry day (YYYY-MM-DD) in the active time zone, or None."""
    if chunk.expires_at is None:
        return None
    return chunk.expires_at.astimezone(tz or timezone.get_current_timezone()).date().isoformat()


def recall_line(chunk: Chunk, tag: str = "") -> str:
    """- [#ID] (stored YYYY-MM-DD; trust: LABEL; src: SOURCE) [superseded by #N] heading: content

    The label comes before the text (as in the per-turn envelope), so the text cannot forge it.
    """
    meta = [f"stored {stored_date(chunk)}", f"trust: {chunk.trust_label}"]
    if chunk.source:
        meta.append(f"src: {one_line(chunk.source)}")
    prefix = f"- [#{chunk.pk}] ({'; '.join(meta)})" + (f" [{tag}]" if tag else "")
    return chunk_block(chunk, prefix)


def list_line(chunk: Chunk) -> str:
    """- [#ID] (kind, state, policy; stored YYYY-MM-DD; trust: LABEL) heading: preview expires=YYYY-MM-DD"""
    text = chunk_text(chunk)
    if len(text) > LIST_PREVIEW_CHARS:
        text = text[: LIST_PREVIEW_CHARS - 1].rstrip() + "…"
    kind = ", ".join(v or "-" for v in (chunk.memory_kind, chunk.review_state, chunk.delivery_policy))
    line = f"- [#{chunk.pk}] ({kind}; stored {stored_date(chunk)}; trust: {chunk.trust_label}) {text}"
    if chunk.namespace:
        line += f" ns={chunk.namespace}"
    expires = expires_date(chunk)
    return f"{line} expires={expires}" if expires else line


@timed(RECALL_SECONDS)
def memory_recall(
    *,
    agent: AgentRef,
    query: str,
    top_k: int = 10,
    namespace: str | None = None,
    include_superseded: bool = False,
) -> list[RecallHit]:
    """The agent's best `top_k` deliverable rows for a query, best first (history if asked)."""
    ns = agent_namespace(agent, namespace)
    base = _recall_queryset(agent.pk, ns if ns or agent.namespace else None)
    hits = chunk_search(query, k=top_k, queryset=base, include_superseded=include_superseded)
    out = []
    for chunk in hits:
        tag = superseded_tag(chunk)
        out.append(RecallHit(chunk=chunk, tag=tag, line=recall_line(chunk, tag)))
    return out


def _recall_queryset(agent_id: int, namespace: str | None) -> QuerySet[Chunk]:
    """The rows memory_recall searches for this agent (and namespace, None: every one), built
    once per agent, namespace and config (memory.lifecycle.queryset_cache): ~0.3 ms of CPU a recall."""

    def build() -> QuerySet[Chunk]:
        qs = readable_by(Chunk.objects.exclude(invalidation_reason=BULK_DELETE_MARKER), agent=agent_id)
        return qs if namespace is None else qs.filter(namespace=namespace)

    return _RECALL_QUERYSETS.get((agent_id, namespace), build)


_RECALL_QUERYSETS = ConfigKeyedQuerysets()  # (agent, namespace) keys


def memory_list_rows(*, agent: AgentRef) -> QuerySet[Chunk]:
    """Rows memory_list shows this agent: live (not invalidated) rows, newest first; pinned
    agents see their namespace only, and every agent only what its knowledge.scope lets it read
    (memory.lifecycle.scope). Rejected and expired rows are listed (with their state
    and expires=) so the agent can see what is waiting on, or was turned down by, the operator."""
    rows = readable_by(visible(), agent=agent)
    if agent.namespace:
        rows = rows.filter(namespace=agent.namespace)
    return rows.order_by("-created_at", "-id")
