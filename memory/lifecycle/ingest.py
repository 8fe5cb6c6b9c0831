"""The agent's write tools: memory_ingest and knowledge_ingest (spec "Write paths" 1, D7 step 1).

Provenance is the server's, never the caller's: both services take the agent and the session
the request was authenticated and routed to, and stamp

- memory_ingest:    source = the session's session_id, source_type = "memory_ingest" (tier 2);
- knowledge_ingest: source = the document's origin (URL / path), source_type =
  "knowledge_ingest" (tier 1, third-party), the document split into chunks (`split_document`);

plus agent_id = the agent. Namespace: an agent with a namespace writes there (asking for
another is ForbiddenError); one without writes where it asks ("" = un-namespaced).

Both are agent write paths: the hot-write gate (knowledge.hot_write_confirm) refuses domain
"hot" and delivery_policy "always" with ForbiddenError before anything is read or written.
An incognito session leaves no memory trail, so writes from one are refused too.

Running either twice stores once: a fact goes through memory.lifecycle.facts (dedup + supersede); any
other memory_ingest is skipped when the same session already stored the same text under the
same domain and namespace; a knowledge_ingest of an origin whose live chunks already read
exactly the same is skipped, and one whose text changed supersedes the old chunks.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from memory.lifecycle.authority import may_supersede
from memory.lifecycle.documents import MAX_CHUNK_CHARS, DocumentPart, split_document
from memory.lifecycle.facts import FACT_DOMAIN, FactOutcome, fact_ingest
from memory.lifecycle.guardrail import is_only_reasoning, strip_reasoning
from memory.lifecycle.principals import AgentRef, SessionRef
from memory.lifecycle.scope import readable_by
from memory.lifecycle.split_writes import session_split_hold
from memory.lifecycle.writes import ChunkDraft, add_chunk, chunk_supersede, refuse_gated_always_write
from memory.store.deliverable import hold_reasons, visible
from memory.store.models import Chunk
from protomem.errors import ApplicationError, ForbiddenError

logger = logging.getLogger(__name__)

MEMORY_INGEST = "memory_ingest"
KNOWLEDGE_INGEST = "knowledge_ingest"
KNOWLEDGE_DOMAIN = "knowledge"
MIN_EXPIRES_DAYS = 1
MAX_EXPIRES_DAYS = 3650
MAX_DOCUMENT_CHUNKS = 1000


def actor_for_agent(agent: AgentRef) -> str:
    return f"agent:{agent.pk}"


def agent_namespace(agent: AgentRef, requested: str | None) -> str:
    """Where this agent's write (or read) goes: its pinned namespace, else what it asked for.

    Blank or None means "not asked"; a pinned agent asking for another namespace is refused.
    """
    pinned = (agent.namespace or "").strip()
    asked = (requested or "").strip()
    if pinned:
        if asked and asked != pinned:
            raise ForbiddenError(
                f"this agent is pinned to namespace {pinned!r}; it cannot use {asked!r}",
                extra={"field": "namespace"},
            )
        return pinned
    return asked


def expires_at_for(expires_in_days: int | None, *, now: datetime | None = None) -> datetime | None:
    """now + N days for N in 1..3650; None for None; ApplicationError otherwise."""
    if expires_in_days is None:
        return None
    if (
        isinstance(expires_in_days, bool)
        or not isinstance(expires_in_days, int)
        or not MIN_EXPIRES_DAYS <= expires_in_days <= MAX_EXPIRES_DAYS
    ):
        raise ApplicationError(
            f"expires_in_days must be an integer from {MIN_EXPIRES_DAYS} to {MAX_EXPIRES_DAYS}",
            extra={"field": "expires_in_days"},
        )
    return (now or timezone.now()) + timedelta(days=expires_in_days)


def _refuse_incognito(session: SessionRef) -> None:
    if session.incognito:
        raise ForbiddenError("this session is incognito: it leaves no memory trail")


def memory_ingest(
    *,
    agent: AgentRef,
    session: SessionRef,
    content: str,
    heading: str = "",
    domain: str = FACT_DOMAIN,
    subject: str | None = None,
    memory_kind: str | None = None,
    delivery_policy: str | None = None,
    namespace: str | None = None,
    expires_in_days: int | None = None,
) -> FactOutcome:
    """Record what the agent was told, stamped with its session; facts are consolidated.

    Returns a FactOutcome: "inserted", "superseded" (facts), "duplicate" (nothing written;
    `chunk` is the row already saying it) or "dropped" (only reasoning was sent).
    """
    if session.agent_id != agent.pk:
        raise ForbiddenError("not this agent's session")
    _refuse_incognito(session)
    domain = (domain or FACT_DOMAIN).strip().lower()
    draft = ChunkDraft(
        content=content,
        heading=heading or "",
        domain=domain,
        finding_type=FACT_DOMAIN if domain == FACT_DOMAIN else "",
        namespace=agent_namespace(agent, namespace),
        source=session.session_id,
        source_type=MEMORY_INGEST,
        agent_id=agent.pk,
        memory_kind=memory_kind or None,
        subject=subject or None,
        expires_at=expires_at_for(expires_in_days),
        delivery_policy=delivery_policy or None,
    )
    refuse_gated_always_write(draft)
    actor = actor_for_agent(agent)
    if domain == FACT_DOMAIN:
        outcome = fact_ingest(draft=draft, actor=actor, path=MEMORY_INGEST, agent_write=True)
    else:
        outcome = _ingest_note(draft, actor=actor)
    if outcome.chunk is not None and outcome.action in ("inserted", "superseded"):
        session_split_hold(outcome.chunk)  # judged with the session's recent writes (split_writes)
    if outcome.chunk is not None:
        logger.info(
            "memory_ingest %s #%s (agent %s, session %s)",
            outcome.action,
            outcome.chunk.pk,
            agent.pk,
            session.pk,
        )
    return outcome


def _ingest_note(draft: ChunkDraft, *, actor: str) -> FactOutcome:
    """A non-fact memory_ingest: stored, unless this session already stored the same text here."""
    raw = draft.content or ""
    content = strip_reasoning(raw)
    if is_only_reasoning(raw, content):
        return FactOutcome(action="dropped", chunk=None)
    with transaction.atomic():
        same = (
            visible()
            .filter(
                source=draft.source,
                source_type=draft.source_type,
                agent_id=draft.agent_id,
                domain=draft.domain,
                namespace=draft.namespace,
                content=content,
            )
            .order_by("id")
            .first()
        )
        if same is not None:
            return FactOutcome(action="duplicate", chunk=same, score=1.0)
        chunk = add_chunk(draft, actor=actor, path=MEMORY_INGEST, agent_write=True)
    if chunk is None:  # pragma: no cover - reasoning-only content was caught above
        return FactOutcome(action="dropped", chunk=None)
    return FactOutcome(action="inserted", chunk=chunk)


# ----------------------------------------------------------------------------------------------
# Documents


HELD_FOR_REVIEW = "held_for_review"


def reported_action(outcome: FactOutcome) -> tuple[str, tuple[str, ...]]:
    """What the writing agent is told: the outcome's action, or "held_for_review" and the
    reasons when the stored row waits for a reviewer before any prompt sees it."""
    stored = outcome.action in ("inserted", "superseded", "proposed")
    held = hold_reasons(outcome.chunk) if stored and outcome.chunk is not None else ()
    if held or outcome.action == "proposed":
        return HELD_FOR_REVIEW, held
    return outcome.action, held


def held_chunk_ids(outcome: KnowledgeOutcome) -> list[int]:
    """The chunks a knowledge_ingest stored that wait for a reviewer."""
    if outcome.action == "duplicate":
        return []
    return [chunk.pk for chunk in outcome.chunks if hold_reasons(chunk)]


@dataclass(frozen=True)
class KnowledgeOutcome:
    """action: "inserted" (first version of this origin here), "replaced" (its text changed: new
    chunks, the old ones superseded), "duplicate" (same text as stored; nothing written)."""

    action: str
    chunks: tuple[Chunk, ...]
    superseded_ids: tuple[int, ...] = ()
    proposed_ids: tuple[int, ...] = ()  # old chunks not this agent's to replace: awaiting review


def knowledge_ingest(
    *,
    agent: AgentRef,
    session: SessionRef,
    origin: str,
    content: str,
    title: str = "",
    domain: str = KNOWLEDGE_DOMAIN,
    subject: str | None = None,
    memory_kind: str | None = None,
    delivery_policy: str | None = None,
    namespace: str | None = None,
    expires_in_days: int | None = None,
    max_chars: int = MAX_CHUNK_CHARS,
) -> KnowledgeOutcome:
    """Store a third-party document as chunks with source = its origin (tier 1, pending)."""
    if session.agent_id != agent.pk:
        raise ForbiddenError("not this agent's session")
    _refuse_incognito(session)
    origin = (origin or "").strip()
    if not origin:
        raise ApplicationError("origin must not be empty", extra={"field": "origin"})
    domain = (domain or KNOWLEDGE_DOMAIN).strip().lower()
    ns = agent_namespace(agent, namespace)
    expires_at = expires_at_for(expires_in_days)
    probe = ChunkDraft(
        content="", domain=domain, source_type=KNOWLEDGE_INGEST, delivery_policy=delivery_policy or None
    )
    refuse_gated_always_write(probe)
    parts = [
        DocumentPart(strip_reasoning(p.heading), strip_reasoning(p.content))
        for p in split_document(strip_reasoning(content or ""), title=title, max_chars=max_chars)
    ]
    parts = [p for p in parts if p.content.strip()]
    if not parts:
        raise ApplicationError("content has no text to store", extra={"field": "content"})
    if len(parts) > MAX_DOCUMENT_CHUNKS:
        raise ApplicationError(
            f"document splits into {len(parts)} chunks; at most {MAX_DOCUMENT_CHUNKS} per ingest",
            extra={"field": "content"},
        )
    actor = actor_for_agent(agent)
    with transaction.atomic():
        old = list(
            readable_by(visible(), agent=agent)  # knowledge.scope: what this agent reads
            .filter(source=origin, source_type=KNOWLEDGE_INGEST, namespace=ns, domain=domain)
            .order_by("id")
        )
        if [(c.heading, c.content) for c in old] == [(p.heading, p.content) for p in parts]:
            return KnowledgeOutcome(action="duplicate", chunks=tuple(old))
        # New chunk i replaces old chunk i; where that is not this agent's to replace
        # (lifecycle.authority), chunk i is a proposal and the old one stays live.
        protected = [
            not may_supersede(writer_agent_id=agent.pk, writer_source_type=KNOWLEDGE_INGEST, target=c)
            for c in old
        ]
        new: list[Chunk] = []
        for index, part in enumerate(parts):
            proposes = old[index].pk if index < len(old) and protected[index] else None
            chunk = add_chunk(
                ChunkDraft(
                    content=part.content,
                    heading=part.heading,
                    domain=domain,
                    namespace=ns,
                    source=origin,
                    source_type=KNOWLEDGE_INGEST,
                    agent_id=agent.pk,
                    memory_kind=memory_kind or None,
                    subject=subject or None,
                    expires_at=expires_at,
                    delivery_policy=delivery_policy or None,
                    proposes_id=proposes,
                ),
                actor=actor,
                path=KNOWLEDGE_INGEST,
                agent_write=True,
            )
            if chunk is not None:
                new.append(chunk)
    superseded = _supersede_all(old, new, protected=protected)
    logger.info(
        "knowledge_ingest stored %s chunk(s) (agent %s, session %s), superseded %s",
        len(new),
        agent.pk,
        session.pk,
        len(superseded),
    )
    return KnowledgeOutcome(
        action="replaced" if old else "inserted",
        chunks=tuple(new),
        superseded_ids=tuple(superseded),
        proposed_ids=tuple(c.proposes_id for c in new if c.proposes_id is not None),
    )


def _supersede_all(old: list[Chunk], new: list[Chunk], *, protected: list[bool]) -> list[int]:
    """Old chunk i is superseded by new chunk i (the last new one for any beyond), unless it is
    protected (then new chunk i is its proposal); after the insert."""
    done: list[int] = []
    if not new:
        return done
    for index, chunk in enumerate(old):
        if protected[index]:
            continue
        successor = new[min(index, len(new) - 1)]
        try:
            with transaction.atomic():
                if chunk_supersede(old_id=chunk.pk, new_id=successor.pk):
                    done.append(chunk.pk)
        except Exception:
            logger.exception("chunk #%s landed but #%s was not invalidated", successor.pk, chunk.pk)
    return done
