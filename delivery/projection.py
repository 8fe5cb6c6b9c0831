"""The per-turn projection: what memory enters the prompt, framed, budgeted and accounted for.

`compose_projected_context` is the one function every runtime calls (the agent API's per-turn
context call and the operator prompt preview alike); `deliver_projected_context` is the same
composition plus the injection-log row, for calls whose result really enters a prompt.

Layout (blocks separated by a blank line):

    <injected_memory>            reference data, never instructions (header)
      prior-sessions digest      sessions_app.digest (digest_entries / digest_block)
      always-on memory           selectors.hot_entries() (read fresh every turn)
      retrieved memory (RAG)     selectors.chunk_search(), trust-tier ordered
    </injected_memory>
    <available_skills> ... </available_skills>     capability, not memory
    <working_state> ... </working_state>           the agent's own live commitments

Budget priority (highest first): working state, always-on, skills, digest, RAG (delivery.budget).
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Sequence
from datetime import datetime, tzinfo
from typing import TYPE_CHECKING, Any

from django.db.models import QuerySet
from django.utils import timezone

from delivery import budget
from delivery.budget import Item, Part, Shed
from delivery.skills import SkillEntry, skill_index, skill_relevance
from delivery.types import (
    DIGEST,
    ENVELOPE,
    HOT,
    HOT_HEADER,
    LABELS,
    PRIORITY,
    RAG,
    RAG_HEADER,
    SKILLS,
    SKILLS_FOOTER,
    SKILLS_HEADER,
    WORKING_STATE,
    WORKING_STATE_FOOTER,
    WORKING_STATE_HEADER,
    BudgetSummary,
    DigestEntryLike,
    ProjectedContext,
    ProjectedSection,
    ProjectionOptions,
    Source,
)
from memory.lifecycle.queryset_cache import ConfigKeyedQuerysets
from memory.lifecycle.rendering import ChunkLike, hot_line, normalized, one_line, rag_line, stored_date
from memory.lifecycle.scope import readable_by, row_scope
from memory.lifecycle.selectors import (
    HotEntry,
    at_or_above_trust,
    chunk_search,
    hot_entries,
    hot_set,
    in_namespaces,
    resolve_namespaces,
)
from memory.store.models import Chunk, DeliveryPolicy, Skill
from protomem.metrics import CONTEXT_SECONDS, timed
from sessions_app.digest import digest_block, digest_entries

if TYPE_CHECKING:
    from audit.models import InjectionLog
    from sessions_app.models import Agent, Session

logger = logging.getLogger(__name__)

# Standing-context sizes already warned about (per process).
_standing_warned: set[int] = set()

# ----------------------------------------------------------------------------------------------
# Line formats


def skill_line(skill: Skill | SkillEntry) -> str:
    description = one_line(skill.description)
    return f"{skill_short_line(skill)}: {description}" if description else skill_short_line(skill)


def skill_short_line(skill: Skill | SkillEntry) -> str:
    return f"- {one_line(skill.name)}"


# ----------------------------------------------------------------------------------------------
# Sources


def rag_hits(
    query: str,
    *,
    top_k: int,
    namespaces: tuple[str, ...] | None,
    min_trust: int,
    agent: Agent | None = None,
) -> list[Chunk]:
    """The turn's RAG hits: deliverable retrieved-policy rows the agent's scope reads, by trust tier."""
    if top_k <= 0 or not query.strip() or namespaces == ():
        return []
    qs = _rag_queryset(agent.pk if agent is not None else None, namespaces, min_trust)
    hits = chunk_search(query, k=top_k, queryset=qs)
    return sorted(hits, key=lambda c: -c.trust_tier)  # stable: relevance kept within a tier


def _rag_queryset(
    agent_id: int | None, namespaces: tuple[str, ...] | None, min_trust: int
) -> QuerySet[Chunk]:
    """The RAG candidates' filter, built once per agent, namespaces, trust floor and config
    (memory.lifecycle.queryset_cache): building it cost more CPU per turn than the turn's SQL."""

    def build() -> QuerySet[Chunk]:
        qs = Chunk.objects.exclude(delivery_policy__in=[DeliveryPolicy.ALWAYS, DeliveryPolicy.ON_DEMAND])
        return at_or_above_trust(in_namespaces(readable_by(qs, agent=agent_id), namespaces), min_trust)

    return _RAG_QUERYSETS.get((agent_id, namespaces, min_trust), build)


_RAG_QUERYSETS = ConfigKeyedQuerysets()  # (agent, namespaces, floor) keys


def hot_rows(
    *, namespaces: tuple[str, ...] | None, now: datetime | None, agent: Agent | None = None
) -> list[Chunk]:
    """The always-on rows as Chunks (the admin's hot memory): the rows compose delivers."""
    if namespaces == ():
        return []
    return hot_set(namespaces=namespaces, now=now, agent=agent)


def default_digest(
    *,
    agent: Agent | None,
    session_id: str,
    query: str,
    policy: str,
    goal_driven: bool,
    now: datetime | None,
) -> list[DigestEntryLike]:
    """The prior-sessions digest from sessions_app.digest ([] without an agent)."""
    if agent is None or policy == "off" or goal_driven:
        return []
    return list(
        digest_entries(
            agent=agent,
            active_session_id=session_id or None,
            query=query,
            policy=policy,
            goal_driven=goal_driven,
            now=now,
        )
    )


def _digest_renderer(entries: Sequence[DigestEntryLike]) -> Callable[[Sequence[int]], str]:
    """Renders the kept entries with the sessions side's own framing (digest_block)."""

    def render(indexes: Sequence[int]) -> str:
        return digest_block([entries[i] for i in indexes]).strip("\n")

    return render


def _skill_shed_sequence(
    skills: Sequence[Skill | SkillEntry], relevant_ids: Sequence[int]
) -> tuple[int, ...]:
    """Which descriptions go first: unmatched skills from the end, then matches, least relevant first."""
    position = {skill.pk: index for index, skill in enumerate(skills)}
    relevant = [position[i] for i in relevant_ids if i in position]
    relevant_set = set(relevant)
    unmatched = [i for i in range(len(skills) - 1, -1, -1) if i not in relevant_set]
    return tuple(unmatched + relevant[::-1])


# ----------------------------------------------------------------------------------------------
# Composition


def _hot_items(hot: Sequence[ChunkLike]) -> tuple[Item, ...]:
    """The always-on part's items. The set is read fresh every turn but rarely changes, so its
    rendering is kept by value: HotEntry tuples (every field a line or a source reads) are the
    key, so any edit, revision, new or removed row is a new key. Chunk instances (a replay)
    hash by id alone and are rendered every time."""
    if all(type(c) is HotEntry for c in hot):
        return _hot_items_cached(tuple(hot))  # type: ignore[arg-type]
    return tuple(Item(key=c.pk, text=hot_line(c)) for c in hot)


@functools.lru_cache(maxsize=64)
def _hot_items_cached(hot: tuple[HotEntry, ...]) -> tuple[Item, ...]:
    return tuple(Item(key=c.pk, text=hot_line(c)) for c in hot)


def _skill_items(skills: Sequence[Skill | SkillEntry]) -> tuple[Item, ...]:
    """The skills part's items, kept by value (SkillEntry tuples) like _hot_items."""
    if all(type(s) is SkillEntry for s in skills):
        return _skill_items_cached(tuple(skills))  # type: ignore[arg-type]
    return tuple(Item(key=s.name, text=skill_line(s), short=skill_short_line(s)) for s in skills)


@functools.lru_cache(maxsize=64)
def _skill_items_cached(skills: tuple[SkillEntry, ...]) -> tuple[Item, ...]:
    return tuple(Item(key=s.name, text=skill_line(s), short=skill_short_line(s)) for s in skills)


@functools.lru_cache(maxsize=64)
def _hot_sources(hot: tuple[HotEntry, ...], kept: tuple[int, ...], tz: tzinfo) -> tuple[Source, ...]:
    """The always-on part's sources (immutable), kept by value like _hot_items."""
    rows = {c.pk: c for c in hot}
    return tuple(_chunk_source(HOT, chunk_id, rows[chunk_id], tz) for chunk_id in kept)


def _chunk_source(section_key: str, chunk_id: int, chunk: ChunkLike, tz: tzinfo) -> Source:
    return Source(
        section=section_key,
        chunk_id=chunk_id,
        source=chunk.source,
        source_type=chunk.source_type,
        trust=chunk.trust_label,
        stored=stored_date(chunk, tz),
        scope=row_scope(chunk),
    )


def memory_parts(
    *,
    entries: Sequence[DigestEntryLike],
    hot: Sequence[ChunkLike],
    hits: Sequence[ChunkLike],
    tz: tzinfo,
) -> list[Part]:
    """The parts inside <injected_memory> (digest, always-on, RAG), in display order.

    The one rendering of memory lines: compose uses it every turn and delivery.replay rebuilds a
    logged turn with it, so a replay cannot drift from what was delivered.
    """
    parts: list[Part] = []
    if entries:
        parts.append(
            Part(
                key=DIGEST,
                label=LABELS[DIGEST],
                items=tuple(Item(key=str(e.session_id), text=f"- {one_line(e.line)}") for e in entries),
                priority=PRIORITY[DIGEST],
                in_envelope=True,
                render=_digest_renderer(entries),
            )
        )
    if hot:
        parts.append(
            Part(
                key=HOT,
                label=LABELS[HOT],
                items=_hot_items(hot),
                priority=PRIORITY[HOT],
                shed=Shed.NEVER,
                header=HOT_HEADER,
                in_envelope=True,
            )
        )
    if hits:
        parts.append(
            Part(
                key=RAG,
                label=LABELS[RAG],
                items=tuple(Item(key=c.pk, text=rag_line(c, tz)) for c in hits),
                priority=PRIORITY[RAG],
                header=RAG_HEADER,
                in_envelope=True,
            )
        )
    return parts


@timed(CONTEXT_SECONDS.labels(stage="compose"))
def compose_projected_context(
    *,
    agent: Agent | None = None,
    session_id: str = "",
    query: str = "",
    model: str = "",
    goal_driven: bool = False,
    working_state: str = "",
    incognito: bool = False,
    options: ProjectionOptions | None = None,
    digest: Sequence[DigestEntryLike] | None = None,
    now: datetime | None = None,
) -> ProjectedContext:
    """Compose one turn's projected context (reads only; logs nothing).

    `digest` overrides the digest source (None = sessions_app.digest with the options' policy).
    Incognito, or knowledge off: no digest, hot memory or RAG; skills and working state stay.
    """
    opts = options or ProjectionOptions.from_settings()
    tz = timezone.get_current_timezone()
    memory_on = opts.knowledge_enabled and not incognito
    namespaces = resolve_namespaces(opts.inject_namespaces, agent.namespace if agent else "")

    entries: list[DigestEntryLike] = []
    hot: list[HotEntry] = []
    hits: list[Chunk] = []
    if memory_on:
        if goal_driven:
            entries = []  # the digest is suppressed on goal-driven turns
        elif digest is not None:
            entries = list(digest)  # the caller's own (e.g. cached) digest, its policy applied
        else:
            entries = default_digest(
                agent=agent,
                session_id=session_id,
                query=query,
                policy=opts.prior_sessions,
                goal_driven=goal_driven,
                now=now,
            )
        if namespaces != ():  # the agent's pin excludes every namespace
            hot = hot_entries(namespaces=namespaces, now=now, agent=agent, min_trust=opts.inject_min_trust)
        hits = rag_hits(
            query, top_k=opts.top_k, namespaces=namespaces, min_trust=opts.inject_min_trust, agent=agent
        )
    skills = skill_index()

    parts = memory_parts(entries=entries, hot=hot, hits=hits, tz=tz)
    if skills:
        parts.append(
            Part(
                key=SKILLS,
                label=LABELS[SKILLS],
                items=_skill_items(skills),
                priority=PRIORITY[SKILLS],
                shed=Shed.REDUCE,
                header=SKILLS_HEADER,
                footer=SKILLS_FOOTER,
                shed_sequence=lambda: _skill_shed_sequence(skills, skill_relevance(query)),
            )
        )
    state = normalized(working_state or "").strip("\n")  # the agent's text: untrusted like the rest
    if state.strip():
        parts.append(
            Part(
                key=WORKING_STATE,
                label=LABELS[WORKING_STATE],
                items=(Item(key=WORKING_STATE, text=state),),
                priority=PRIORITY[WORKING_STATE],
                shed=Shed.NEVER,
                header=WORKING_STATE_HEADER,
                footer=WORKING_STATE_FOOTER,
            )
        )

    ceiling = opts.ceiling(model)
    fitted = budget.fit(parts, ceiling=ceiling, envelope=ENVELOPE)
    if fitted.over_budget:
        _warn_standing(fitted)
    return _result(fitted, hot=hot, hits=hits, incognito=incognito, opts=opts, tz=tz)


def _warn_standing(fitted: budget.FitResult) -> None:
    size = fitted.standing_chars
    if size in _standing_warned:
        return
    _standing_warned.add(size)
    sizes = {p.key: p.chars for p in fitted.parts if p.key in (WORKING_STATE, HOT, SKILLS)}
    logger.warning(
        "projection over budget after shedding: working_state=%d always_on=%d skills_floor=%d "
        "chars, ceiling=%d chars; standing context is delivered whole",
        sizes.get(WORKING_STATE, 0),
        sizes.get(HOT, 0),
        sizes.get(SKILLS, 0),
        fitted.ceiling or 0,
    )


def _result(
    fitted: budget.FitResult,
    *,
    hot: list[HotEntry],
    hits: list[Chunk],
    incognito: bool,
    opts: ProjectionOptions,
    tz: tzinfo,
) -> ProjectedContext:
    sections = tuple(
        ProjectedSection(
            key=p.key,
            label=p.label,
            text=p.text,
            ids=p.kept_keys,
            items=len(p.kept_keys),
            items_dropped=p.items_dropped,
            chars_dropped=p.chars_dropped,
        )
        for p in fitted.parts
    )
    by_key = {s.key: s for s in sections}

    def kept(key: str) -> tuple[Any, ...]:
        section = by_key.get(key)
        return section.ids if section else ()

    hot_ids = tuple(int(i) for i in kept(HOT))
    rag_ids = tuple(int(i) for i in kept(RAG))
    digest_ids = tuple(str(i) for i in kept(DIGEST))
    sources = [Source(section=DIGEST, session_id=sid) for sid in digest_ids]
    if hot_ids and all(type(c) is HotEntry for c in hot):
        sources.extend(_hot_sources(tuple(hot), hot_ids, tz))
    else:
        hot_rows_by_id = {c.pk: c for c in hot}
        sources.extend(_chunk_source(HOT, i, hot_rows_by_id[i], tz) for i in hot_ids)
    hits_by_id = {c.pk: c for c in hits}
    sources.extend(_chunk_source(RAG, i, hits_by_id[i], tz) for i in rag_ids)
    return ProjectedContext(
        text=fitted.text,
        sections=sections,
        digest_session_ids=digest_ids,
        hot_ids=hot_ids,
        rag_ids=rag_ids,
        skill_names=tuple(str(n) for n in kept(SKILLS)),
        sources=tuple(sources),
        budget=BudgetSummary(
            ceiling=fitted.ceiling,
            chars_used=fitted.chars_used,
            over_budget=fitted.over_budget,
            overflow=fitted.overflow,
            truncated={s.key: s.truncated for s in sections},
        ),
        incognito=incognito,
        knowledge_enabled=opts.knowledge_enabled,
    )


@timed(CONTEXT_SECONDS.labels(stage="deliver"))
def deliver_projected_context(
    *,
    session: Session,
    query: str = "",
    model: str = "",
    goal_driven: bool = False,
    working_state: str = "",
    incognito: bool = False,
    options: ProjectionOptions | None = None,
    digest: Sequence[DigestEntryLike] | None = None,
    now: datetime | None = None,
) -> tuple[ProjectedContext, InjectionLog | None]:
    """Compose the turn's context for `session` and log what memory entered it.

    Exactly one injection-log row when any digest / hot / RAG item was delivered (the delivered
    ids only, never shed ones); none for incognito (the call's flag or the session's).
    """
    from audit.services import injection_log_record
    from delivery.replay_record import replay_record

    incognito = incognito or session.incognito
    context = compose_projected_context(
        agent=session.agent,
        session_id=session.session_id,
        query=query,
        model=model,
        goal_driven=goal_driven,
        working_state=working_state,
        incognito=incognito,
        options=options,
        digest=digest,
        now=now,
    )
    if incognito or not context.memory_injected:
        return context, None
    log = injection_log_record(
        agent_id=session.agent_id,
        session_id=session.session_id,
        digest_session_ids=context.digest_session_ids,
        hot_ids=context.hot_ids,
        rag_ids=context.rag_ids,
        approx_tokens=context.approx_tokens,
        scopes={s.chunk_id: s.scope for s in context.sources if s.chunk_id is not None},
        **replay_record(context),  # what delivery.replay needs to rebuild this turn exactly
    )
    logger.info(
        "memory injected",
        extra={
            "session_id": session.session_id,
            "agent_id": session.agent_id,
            "injection_id": log.pk,
            "hot": len(context.hot_ids),
            "rag": len(context.rag_ids),
            "digest": len(context.digest_session_ids),
        },
    )
    return context, log
