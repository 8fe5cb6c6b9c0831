"""Facts consolidation: dedup + supersede, deterministically (spec "Facts: dedup + supersede").

`fact_ingest` stores one fact (domain "fact") unless a live fact in the same namespace already
says it, per the token-set Jaccard bands of memory.lifecycle.dedup:

    >= 0.85       duplicate: nothing is written; the outcome names the existing row
    0.6 - 0.85    revision: the new row is inserted, THEN the old one is stamped
                  invalidated_at + invalidation_reason="superseded_by:<new id>"
    < 0.6         inserted as a new fact

The band is corrected by the roles of the words that differ (dedup.judge,
memory.lifecycle.facts_subject): a row whose differing words name another thing (a service, a
person, an id) is never matched, however high the overlap; one whose only differences are
values (numbers, times, days, versions) is a revision even below 0.6 or above 0.85; a negation
flip is a revision too. The best-overlapping live fact about the same thing is the match. The
new row's held_detail records what it replaced and why (facts_links); a revision that is only a
proposal and turns round a row a person stands behind is also held as `contradicts_confirmed`.
The lookup below is exact for the 0.6 band only: a value revision below it is found when the
shortlist holds the old row (it shares the rare words, as a revision of a short fact does), not
guaranteed.

Live facts are rows with domain "fact" in the draft's namespace that are neither invalidated
nor expired. Candidates come from the FTS index, never a table scan, in two bounded statements:

1. the rows holding each of the fact's longest non-stopword words, newest first, each list cut
   at COMMON_AT (text_index.fts5.term_rowids, one statement). A list shorter than that is complete:
   the word is rare. A word that fills it is common, remembered for a while, and not looked
   up again.
2. memory.lifecycle.dedup.shortlist ranks rows by how many of those rare words they hold, dropping
   rows that cannot reach the revision band (a row in reach holds >= r - d of r rare words),
   and the best few are read by id with the live-fact filter (memory.store.text_index.fts5.chunk_rows).

Each step touches at most COMMON_AT index entries per word whatever the store's size, so the
cost per fact stays flat as facts accumulate (bench/facts.py measures it). When the fact has
at least d + 1 rare words the lookup is exact: every live fact able to reach 0.6 is compared
(unless more than SHORTLIST rows share the floor number of its rare words; the ones sharing
most are kept). A fact with fewer rare words also has the rows holding every one of its words
compared, which finds duplicates made of common words, and may miss a revision that shares
only common words with it (bench/facts.py reports how often that happens).

facts_bulk.facts_ingest (bulk writers) reaches the same decisions for a batch at once: one rare-word
lookup for every draft of the batch, one read of the shortlisted rows per namespace, one
multi-row INSERT (text_index.fts5.insert_rows, as memory.lifecycle.writes.add_chunks) and one UPDATE for the
supersedes, then a bounded FTS5 merge (text_index.fts5.merge_segments) so the index stays at a few
segments however many batches come. Each draft is also compared with the batch's earlier drafts
(held in memory, looked up exactly through the d + 1 of its tokens fewest of them hold), and a
row superseded earlier in the batch absorbs nothing more, as if the drafts had been ingested
one by one.

Order of writes: a failed insert raises before anything is invalidated, so the old fact is
never lost; if the insert landed and the invalidation fails, that is logged and both rows
stay valid until the next revision (the invalidation runs in its own savepoint, so a caller's
surrounding transaction, e.g. the harvest's, survives it).
"""

from __future__ import annotations

import dataclasses
import functools
import logging
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Literal, cast

from django.db import connection, transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from memory.lifecycle import dedup, facts_links
from memory.lifecycle.authority import may_supersede
from memory.lifecycle.guardrail import is_only_reasoning, strip_reasoning
from memory.lifecycle.scope import readable_ids
from memory.lifecycle.writes import (
    ChunkDraft,
    add_chunk,
    chunk_supersede,
    refuse_gated_always_write,
)
from memory.store import text_index
from memory.store.models import Chunk
from memory.store.text_index import CHUNKS, fts5
from protomem.errors import ApplicationError

logger = logging.getLogger(__name__)

FACT_DOMAIN = "fact"
# A word held by this many rows (any domain) is "common": too unselective to look facts up by.
COMMON_AT = 200
COMMON_TTL_S = 600.0
COMMON_CACHE_MAX = 200_000
# Words of one fact looked up in the index, at most.
PROBE_WORDS = 32
# Rows compared per fact at most: those sharing the most rare words (read with the live filter).
SHORTLIST = 64
# Rows compared from the all-common-words fallback.
TAKE = 16
# Stored rows whose token sets are memoized (facts._stored_tokens; ~0.5 KB each with the key:
# measured 23 MiB + the content strings for 65,536).
STORED_TOKENS_CACHE = 1 << 16
# Matches looked at by the all-common-words fallback.
CONSIDER = 256

Action = Literal["inserted", "duplicate", "superseded", "proposed", "dropped"]


@dataclass(frozen=True)
class FactOutcome:
    """What fact_ingest did.

    action: "inserted" (new row), "duplicate" (nothing written; `chunk` is the existing row),
    "superseded" (new row, `superseded_id` invalidated by it), or "dropped" (the content was
    only reasoning; nothing written, `chunk` is None). `score` is the best Jaccard found.
    """

    action: Action
    chunk: Chunk | None
    superseded_id: int | None = None
    proposed_id: int | None = None  # "proposed": the row this pending revision would supersede
    score: float = 0.0
    supersede_failed: bool = False


def live_facts(namespace: str, *, now: datetime | None = None) -> QuerySet[Chunk]:
    """Facts a new fact is consolidated against: same namespace, not invalidated, not expired."""
    now = now or timezone.now()
    return Chunk.objects.filter(domain=FACT_DOMAIN, namespace=namespace, invalidated_at__isnull=True).filter(
        Q(expires_at__isnull=True) | Q(expires_at__gt=now)
    )


def _where(queryset: QuerySet[Chunk]) -> tuple[str, list[object]]:
    """The queryset's WHERE as SQL over memory_chunk (ORM-compiled, parameterized)."""
    query = queryset.query
    sql, params = query.get_compiler(using=queryset.db).compile(query.where)
    return sql, list(params)


_NS_SENTINEL = "\x00namespace\x00"
_NOW_SENTINEL = datetime(1901, 1, 1, tzinfo=UTC)


@functools.cache
def _live_where_template() -> tuple[str, tuple[object, ...], object]:
    """live_facts()'s WHERE compiled once, with sentinels where the namespace and the clock go."""
    sql, params = _where(live_facts(_NS_SENTINEL, now=_NOW_SENTINEL))
    return sql, tuple(params), connection.ops.adapt_datetimefield_value(_NOW_SENTINEL)


def live_where(namespace: str, now: datetime) -> tuple[str, list[object]]:
    """live_facts(namespace, now=now) as SQL + params, without rebuilding the ORM query per fact."""
    sql, template, now_sentinel = _live_where_template()
    now_value = connection.ops.adapt_datetimefield_value(now)
    params: list[object] = []
    for v in template:
        if v == _NS_SENTINEL:
            v = namespace
        elif type(v) is type(now_sentinel) and v == now_sentinel:  # a str on SQLite, a datetime on PG
            v = now_value
        params.append(v)
    return sql, params


def _columns() -> tuple[str, str]:
    qn = connection.ops.quote_name
    return f"{qn(fts5.CHUNK_TABLE)}.{qn('id')}", f"{qn(fts5.CHUNK_TABLE)}.{qn('content')}"


class _CommonWords:
    """Words seen held by >= COMMON_AT rows, remembered for a while so they are not re-counted.

    Only "common" verdicts are cached: a word only gets more common as facts arrive, and a stale
    verdict merely leaves the word out of a candidate query. Per process, bounded, with a TTL.
    """

    def __init__(self) -> None:
        self._until: dict[tuple[str, str], float] = {}

    def __contains__(self, key: tuple[str, str]) -> bool:
        until = self._until.get(key)
        if until is None:
            return False
        if until < time.monotonic():
            del self._until[key]
            return False
        return True

    def add(self, key: tuple[str, str]) -> None:
        if len(self._until) >= COMMON_CACHE_MAX:
            self._until.clear()
        self._until[key] = time.monotonic() + COMMON_TTL_S

    def clear(self) -> None:
        self._until.clear()


_common = _CommonWords()


def reset_common_words() -> None:
    """Forget cached common-word verdicts (tests; after a large delete)."""
    _common.clear()


def rare_postings(words: frozenset[str], *, enough: int | None = None) -> dict[str, list[int]]:
    """Complete row lists of rare words among `words` (held by < COMMON_AT rows, any domain).

    Stopwords and words already known to be common are not looked up. Longest words go first
    (a cheap stand-in for rarity), at most PROBE_WORDS of them; with `enough`, lookups stop
    once that many rare words are known (each index lookup costs a seek per FTS segment).
    """
    db = str(connection.settings_dict.get("NAME", ""))
    wanted = [w for w in words if w.strip("_") and w not in fts5.STOPWORDS and (db, w) not in _common]
    wanted.sort(key=lambda w: (-len(w), w))
    wanted = wanted[:PROBE_WORDS]
    rare: dict[str, list[int]] = {}
    start = 0
    while start < len(wanted):
        step = len(wanted) - start if enough is None else max(enough - len(rare), 1)
        for word, rows in text_index.sql().term_rowids(wanted[start : start + step], cap=COMMON_AT).items():
            if len(rows) >= COMMON_AT:
                _common.add((db, word))
            else:
                rare[word] = rows
        start += step
        if enough is not None and len(rare) >= enough:
            break
    return rare


def candidates(new: frozenset[str], *, namespace: str, now: datetime | None = None) -> list[tuple[int, str]]:
    """(id, content) of the live facts most likely to overlap `new`, best first (bounded)."""
    now = now or timezone.now()
    if CHUNKS.backend() == "like":
        # No FTS5 in this SQLite: a LIKE pass over the longest words (bounded, newest first).
        words = sorted((w for w in new if w not in fts5.STOPWORDS), key=lambda w: (-len(w), w))[:3]
        match = Q()
        for word in words or sorted(new)[:3]:
            match |= Q(content__icontains=word)
        rows = live_facts(namespace, now=now).filter(match).order_by("-id")
        return list(rows.values_list("id", "content")[:TAKE])
    where, params = live_where(namespace, now)
    # Every rare word is looked up: each one more raises the floor (r - d) that prunes the rows.
    ranked = dedup.shortlist(len(new), rare_postings(new), limit=SHORTLIST)
    if ranked.ids:
        rows = text_index.sql().chunk_rows(ranked.ids, columns=_columns(), where=where, where_params=params)
        by_id = {cast(int, row[0]): cast(str, row[1]) for row in rows}
        found = [(i, by_id[i]) for i in ranked.ids if i in by_id]
        if found or ranked.exact:
            return found
    if ranked.exact:
        return []  # every row in reach holds a rare word, and none does: nothing to compare
    # Too few rare words to be sure: also look for rows holding every word (duplicates made of
    # common words).
    return every_word_rows(new, where=where, where_params=params)


def every_word_rows(new: frozenset[str], *, where: str, where_params: list[object]) -> list[tuple[int, str]]:
    """(id, content) of live rows holding every word of `new`: the TAKE best by bm25 among the
    CONSIDER best matches (the fallback for a fact with too few rare words).

    Ranking makes FTS5 count every row holding each term, for a stopword most of the store, so
    the matches are first listed unranked: when there are at most CONSIDER of them and at most
    TAKE are live, they are exactly the rows the ranked query returns (in another order, which
    no caller depends on: the best match is chosen by score, then id) and nothing is ranked.
    """
    index = text_index.sql()
    words = sorted(w for w in new if w.strip("_"))[: fts5.MAX_TERMS]
    if not index.indexable(words):  # PostgreSQL: stopwords only ("it is what it is")
        rows = index.like_rows(words, columns=_columns(), where=where, where_params=where_params, limit=TAKE)
        return cast(list[tuple[int, str]], rows)
    expression = index.all_terms(words)
    ids = index.match_rowids(expression, limit=CONSIDER + 1)
    if len(ids) <= CONSIDER:
        rows = index.chunk_rows(ids, columns=_columns(), where=where, where_params=where_params)
        if len(rows) <= TAKE:
            return sorted(cast(list[tuple[int, str]], rows), reverse=True)
    ranked, _ = index.ranked_rows(
        expression, columns=_columns(), where=where, where_params=where_params, considered=CONSIDER, take=TAKE
    )
    return cast(list[tuple[int, str]], ranked)


def closest(
    content: str, *, namespace: str, now: datetime | None = None, agent_id: int | None = None
) -> dedup.Match | None:
    """The live fact `content` duplicates or revises (None: it is new), among rows `agent_id` reads."""
    new = dedup.tokens(content)
    if not new:
        return None
    found = candidates(new, namespace=namespace, now=now)
    readable = readable_ids([i for i, _ in found], agent=agent_id)  # knowledge.scope (memory.lifecycle.scope)
    return dedup.best_match(new, [(i, text) for i, text in found if i in readable], text=content)


def fact_ingest(
    *, draft: ChunkDraft, actor: str, path: str, agent_write: bool = False, now: datetime | None = None
) -> FactOutcome:
    """Store a fact unless a live one says the same; supersede the one it revises (see module doc).

    Running it twice with the same draft stores one row (the second run is a duplicate).
    `agent_write` applies the hot-write gate (ForbiddenError) before anything is read or written.
    """
    if (draft.domain or "").strip().lower() != FACT_DOMAIN:
        raise ApplicationError("fact_ingest stores domain='fact' drafts only", extra={"field": "domain"})
    if agent_write:
        refuse_gated_always_write(draft)
    raw = draft.content or ""
    content = strip_reasoning(raw)
    if is_only_reasoning(raw, content):
        logger.info("dropped a reasoning-only fact", extra={"actor": actor, "path": path})
        return FactOutcome(action="dropped", chunk=None)
    with transaction.atomic():
        # One write transaction (BEGIN IMMEDIATE on SQLite): the check and the insert cannot
        # interleave with another writer's, so two racing copies of a fact store one row.
        match = closest(content, namespace=draft.namespace, now=now, agent_id=draft.agent_id)
        if match is not None and match.decision == "duplicate":
            existing = Chunk.objects.get(pk=match.chunk_id)
            logger.debug("fact duplicates #%s (j=%.3f); skipped", match.chunk_id, match.score)
            return FactOutcome(action="duplicate", chunk=existing, score=match.score)
        target = Chunk.objects.get(pk=match.chunk_id) if match is not None else None
        proposal = target is not None and not may_supersede(
            writer_agent_id=draft.agent_id, writer_source_type=draft.source_type, target=target
        )
        if proposal:
            draft = dataclasses.replace(draft, proposes_id=cast(dedup.Match, match).chunk_id)
        new = add_chunk(draft, actor=actor, path=path, agent_write=agent_write)
        if new is not None and match is not None and proposal:
            facts_links.record_link(new, match, proposal=True, target=cast(Chunk, target))
    if new is None:  # pragma: no cover - the strip above already caught reasoning-only content
        return FactOutcome(action="dropped", chunk=None)
    if match is None:
        return FactOutcome(action="inserted", chunk=new)
    if proposal:
        logger.info("fact #%s proposes a revision of #%s (j=%.3f)", new.pk, match.chunk_id, match.score)
        return FactOutcome(action="proposed", chunk=new, proposed_id=match.chunk_id, score=match.score)
    return _supersede(new, match, cast(Chunk, target))


def _supersede(new: Chunk, match: dedup.Match, target: Chunk) -> FactOutcome:
    try:
        with transaction.atomic():
            superseded = chunk_supersede(old_id=match.chunk_id, new_id=new.pk)
    except Exception:
        logger.exception(
            "fact #%s landed but #%s was not invalidated; both stay valid", new.pk, match.chunk_id
        )
        return FactOutcome(action="inserted", chunk=new, score=match.score, supersede_failed=True)
    if not superseded:
        logger.warning("fact #%s was superseded concurrently; #%s stands beside it", match.chunk_id, new.pk)
        return FactOutcome(action="inserted", chunk=new, score=match.score)
    facts_links.record_link(new, match, proposal=False, target=target)
    logger.debug("fact #%s supersedes #%s (j=%.3f)", new.pk, match.chunk_id, match.score)
    return FactOutcome(action="superseded", chunk=new, superseded_id=match.chunk_id, score=match.score)
