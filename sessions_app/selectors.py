"""Session reads: ownership-scoped lookups, summaries for recall, and session search."""

from __future__ import annotations

import functools
import heapq
import math
import re
import time
from dataclasses import dataclass
from datetime import datetime
from typing import Any, NamedTuple

from django.core.cache import cache
from django.db import connection
from django.db.models import Case, IntegerField, Q, QuerySet, Value, When

from memory.store.text_index import TextIndex, terms_of
from memory.store.text_index import fts5 as chunk_fts
from memory.store.text_index import tsvector as chunk_pg_fts
from sessions_app import fts, pg_fts
from sessions_app.models import Agent, HarvestState, Session, SessionSummary
from sessions_app.summaries import clean, clean_for_read

SEARCH_MAX_K = 50
SNIPPET_CHARS = 160


def session_get_for_agent(*, agent: Agent, session_id: str) -> Session | None:
    """The agent's own session by the runtime's id; None for unknown or someone else's."""
    return Session.objects.filter(agent=agent, session_id=session_id).select_related("summary").first()


def sessions_for_agent(*, agent: Agent) -> QuerySet[Session]:
    """The agent's sessions, most recently active first."""
    return Session.objects.filter(agent=agent).select_related("summary").order_by("-last_activity_at", "-id")


def sessions_all() -> QuerySet[Session]:
    """Every session (operator review), most recently active first."""
    return Session.objects.select_related("agent", "summary").order_by("-last_activity_at", "-id")


def sessions_pending_harvest() -> QuerySet[Session]:
    """Retired sessions whose harvest has not finished (pending or running)."""
    return Session.objects.filter(
        retired_at__isnull=False, harvest_state__in=[HarvestState.PENDING, HarvestState.RUNNING]
    )


@dataclass(frozen=True)
class RecalledSummary:
    """One full summary as recall_session returns it (cleaned again on read)."""

    session_id: str
    surface: str
    topic: str
    message_count: int
    updated_at: datetime
    retired: bool
    messages: list[dict[str, Any]]
    top_tool_calls: list[dict[str, Any]]
    final_output: str


def session_summary_get(*, agent: Agent, session_id: str) -> RecalledSummary | None:
    """recall_session: the agent's own summary of one session, stripped and redacted on read."""
    row = SessionSummary.objects.filter(agent=agent, session_key=session_id).select_related("session").first()
    if row is None:
        return None
    data = clean_for_read(row.data or {})
    return RecalledSummary(
        session_id=row.session_key,
        surface=row.surface,
        topic=clean(row.topic),
        message_count=row.message_count,
        updated_at=row.updated_at,
        retired=row.session.retired_at is not None,
        messages=list(data.get("messages") or []),
        top_tool_calls=list(data.get("top_tool_calls") or []),
        final_output=str(data.get("final_output") or ""),
    )


# --------------------------------------------------------------------------------------------
# Session search


def _fts_ready() -> bool:
    return chunk_fts.fts5_compiled() and fts.table_exists()


def _tsvector_ready() -> bool:
    return chunk_pg_fts.column_exists(pg_fts.SUMMARY_TABLE)


# The session-summary index through the text-index interface; its queries are scoped by agent,
# so they stay in its raw-SQL modules (sessions_app.fts, sessions_app.pg_fts: _index()).
SUMMARIES = TextIndex("session summaries", fts5_ready=_fts_ready, tsvector_ready=_tsvector_ready)


def search_backend_name() -> str:
    """The session index's backend: 'fts5', 'tsvector' or 'like' (memory.store.text_index)."""
    return SUMMARIES.backend()


def ranked_backend() -> bool:
    """Whether session search runs through a text index (FTS5 or tsvector), not LIKE."""
    return SUMMARIES.ranked()


def _index() -> Any:
    """The raw-SQL module of this database's session index (same functions on both)."""
    return pg_fts if connection.vendor == "postgresql" else fts


def reset_backend_cache() -> None:
    SUMMARIES.reset()


SUMMARY_COUNT_TTL_S = 60
SUMMARY_COUNT_KEY = "sessions_app:summary_count:v1"


def summary_count() -> int:
    """How many summaries are stored, all agents (cached 60 s: it only scales idf weights)."""
    count = cache.get(SUMMARY_COUNT_KEY)
    if count is None:
        count = SessionSummary.objects.count()
        cache.set(SUMMARY_COUNT_KEY, count, SUMMARY_COUNT_TTL_S)
    return int(count)


# Ranking: a summary scores the idf of every query term it contains (rarer terms weigh more;
# document frequency from a capped count over all summaries), plus the same again for terms
# in its topic (the first user message); ties go to the newer summary. The agent's summaries
# containing a term come from one scoped doclist read. A term in more than RANK_CAP_SHARE of
# the summaries says little about relevance and would make the read O(corpus), so it does not
# score; it only fills the remaining slots, newest first. bm25() is not used: it costs ~10 µs
# per matching row, which one common term over 10,000 summaries turns into 100 ms.
MIN_RANK_CAP = 200
RANK_CAP_SHARE = 0.03
MAX_RANK_TERMS = 8
TOPIC_WEIGHT = 1.0


class _DocFrequencies:
    """Positive document counts per term, kept DF_TTL_S seconds (per process, bounded).

    They only weigh and classify terms, so a little staleness is harmless; a zero is never
    kept, so a word used for the first time is searchable at once.
    """

    def __init__(self) -> None:
        self._entries: dict[str, tuple[float, int]] = {}

    def get(self, term: str) -> int | None:
        hit = self._entries.get(term)
        if hit is None:
            return None
        if hit[0] < time.monotonic():
            del self._entries[term]
            return None
        return hit[1]

    def put(self, term: str, count: int) -> None:
        if count <= 0:
            return
        if len(self._entries) >= DF_CACHE_MAX:
            self._entries.clear()
        self._entries[term] = (time.monotonic() + DF_TTL_S, count)

    def clear(self) -> None:
        self._entries.clear()


DF_TTL_S = 60.0
DF_CACHE_MAX = 100_000
_doc_frequencies = _DocFrequencies()


def reset_search_caches() -> None:
    """Forget cached document counts and the summary total (tests; after bulk deletes)."""
    _doc_frequencies.clear()
    cache.delete(SUMMARY_COUNT_KEY)


def document_frequencies(terms: list[str], *, cap: int) -> dict[str, int]:
    """Per term, how many summaries (any agent's) contain it, counted up to cap + 1."""
    out: dict[str, int] = {}
    for term in terms:
        count = _doc_frequencies.get(term)
        if count is None:
            count = _index().term_count(term, limit=cap + 1)
            _doc_frequencies.put(term, count)
        out[term] = count
    return out


class SummaryRow(NamedTuple):
    """The narrow columns the digest and the search results need."""

    pk: int
    session_id: str
    updated_at: datetime
    surface: str
    topic: str
    message_count: int


def summary_rows(ids: list[int], *, agent_id: int) -> dict[int, SummaryRow]:
    """SummaryRows of the agent by id (one query)."""
    return {row[0]: SummaryRow(*row) for row in _index().summary_rows(ids, agent_id=agent_id)}


def rank_summaries(*, agent_id: int, terms: list[str], k: int) -> list[SummaryRow]:
    """The agent's best `k` summaries for query terms, best first (FTS5 only; see above)."""
    if not terms or k <= 0:
        return []
    total = max(1, summary_count())  # a stale count only skews the weights
    cap = max(MIN_RANK_CAP, int(total * RANK_CAP_SHARE))
    scores: dict[int, float] = {}
    idf: dict[str, float] = {}
    common: list[str] = []
    dfs = document_frequencies(terms[:MAX_RANK_TERMS], cap=cap)
    for term in terms[:MAX_RANK_TERMS]:
        df = dfs[term]
        if df > cap:
            common.append(term)
        elif df:
            idf[term] = weight = math.log(1 + total / df)
            for summary_id in _index().term_ids(term, agent_id=agent_id, limit=cap):
                scores[summary_id] = scores.get(summary_id, 0.0) + weight
    head = heapq.nsmallest(k * 2, scores, key=lambda i: (-scores[i], -i))
    rows = summary_rows(head, agent_id=agent_id) if head else {}
    for summary_id, row in rows.items():
        topic = row.topic.lower()
        scores[summary_id] += TOPIC_WEIGHT * sum(w for term, w in idf.items() if term in topic)
    head.sort(key=lambda i: (-scores[i], -i))
    out = [rows[i] for i in head if i in rows][:k]
    if len(out) < k and common:
        recent = _index().recent_ids(common, agent_id=agent_id, limit=k + len(out))
        fill = [i for i in recent if i not in scores]
        more = summary_rows(fill[: k - len(out)], agent_id=agent_id)
        out.extend(more[i] for i in fill if i in more)
    return out[:k]


def like_summary_ids(*, agent_id: int, terms: list[str], k: int) -> list[int]:
    """The LIKE fallback: rows with the most query terms first, newest breaking ties."""
    matches = [Q(text__icontains=t) | Q(topic__icontains=t) for t in terms]
    any_match = functools.reduce(lambda a, b: a | b, matches)
    score = sum(
        (Case(When(m, then=Value(1)), default=Value(0), output_field=IntegerField()) for m in matches),
        Value(0),
    )
    rows = (
        SessionSummary.objects.filter(agent_id=agent_id)
        .filter(any_match)
        .annotate(term_hits=score)
        .order_by("-term_hits", "-updated_at", "-id")
        .values_list("pk", flat=True)[:k]
    )
    return list(rows)


def _like_snippet(text: str, terms: list[str]) -> str:
    lowered = text.lower()
    hits = [(lowered.find(t), t) for t in terms if lowered.find(t) >= 0]
    if not hits:
        return text[:SNIPPET_CHARS]
    pos, term = min(hits)
    start = max(0, pos - SNIPPET_CHARS // 3)
    excerpt = text[start : start + SNIPPET_CHARS]
    excerpt = re.sub(re.escape(term), lambda m: f"[{m[0]}]", excerpt, count=1, flags=re.IGNORECASE)
    return ("…" if start else "") + excerpt + ("…" if start + SNIPPET_CHARS < len(text) else "")


@dataclass(frozen=True)
class SessionHit:
    session_id: str
    surface: str
    topic: str
    message_count: int
    updated_at: datetime
    snippet: str


def session_search(*, agent: Agent, query: str, k: int = 10) -> list[SessionHit]:
    """session_search: the agent's own sessions whose summary matches `query`, best first.

    Stemmed (porter) FTS5 with the chunk store's query sanitization, ranked by rank_summary_ids;
    LIKE when FTS5 is missing. An empty or all-punctuation query finds nothing.
    """
    terms = terms_of(query)
    k = max(0, min(k, SEARCH_MAX_K))
    if not terms or k == 0:
        return []
    if ranked_backend():
        ranked = rank_summaries(agent_id=agent.pk, terms=terms, k=k)
        snippets = [_index().snippet_for(terms, agent_id=agent.pk, summary_id=r.pk) for r in ranked]
    else:
        ids = like_summary_ids(agent_id=agent.pk, terms=terms, k=k)
        texts = dict(SessionSummary.objects.filter(pk__in=ids).values_list("pk", "text"))
        by_id = summary_rows(ids, agent_id=agent.pk)
        ranked = [by_id[i] for i in ids if i in by_id]
        snippets = [_like_snippet(texts.get(r.pk, ""), terms) for r in ranked]
    return [
        SessionHit(
            session_id=row.session_id,
            surface=row.surface,
            topic=clean(row.topic),
            message_count=row.message_count,
            updated_at=row.updated_at,
            snippet=clean(" ".join(snippet.split())),
        )
        for row, snippet in zip(ranked, snippets, strict=True)
    ]
