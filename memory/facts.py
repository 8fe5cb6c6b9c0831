"""Facts consolidation: dedup + supersede, deterministically (spec "Facts: dedup + supersede").

`fact_ingest` stores one fact (domain "fact") unless a live fact in the same namespace already
says it, per the token-set Jaccard bands of memory.dedup:

    >= 0.85       duplicate: nothing is written; the outcome names the existing row
    0.6 - 0.85    revision: the new row is inserted, THEN the old one is stamped
                  invalidated_at + invalidation_reason="superseded_by:<new id>"
    < 0.6         inserted as a new fact

Live facts are rows with domain "fact" in the draft's namespace that are neither invalidated
nor expired. Candidates come from the FTS index, never a table scan, in two bounded statements:

1. the rows holding each of the fact's longest non-stopword words, newest first, each list cut
   at COMMON_AT (memory.fts.term_rowids, one statement). A list shorter than that is complete:
   the word is rare. A word that fills it is common, remembered for a while, and not looked
   up again.
2. memory.dedup.shortlist ranks rows by how many of those rare words they hold, dropping
   rows that cannot reach the revision band (a row in reach holds >= r - d of r rare words),
   and the best few are read by id with the live-fact filter (memory.fts.chunk_rows).

Each step touches at most COMMON_AT index entries per word whatever the store's size, so the
cost per fact stays flat as facts accumulate (bench/facts.py measures it). When the fact has
at least d + 1 rare words the lookup is exact: every live fact able to reach 0.6 is compared
(unless more than SHORTLIST rows share the floor number of its rare words; the ones sharing
most are kept). A fact with fewer rare words also has the rows holding every one of its words
compared, which finds duplicates made of common words, and may miss a revision that shares
only common words with it (bench/facts.py reports how often that happens).

facts_ingest (bulk writers) reaches the same decisions for a batch at once: one rare-word
lookup for every draft of the batch, one read of the shortlisted rows per namespace, one
multi-row INSERT (memory.fts.insert_rows, as memory.services.add_chunks) and one UPDATE for the
supersedes, then a bounded FTS5 merge (memory.fts.merge_segments) so the index stays at a few
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

import functools
import logging
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal, cast

from django.db import DEFAULT_DB_ALIAS, connection, connections, transaction
from django.db.models import Case, CharField, Q, QuerySet, Value, When
from django.utils import timezone

from audit.services import hot_written_record
from memory import dedup, fts, text_index
from memory.embedding_services import chunk_embed_enqueue
from memory.guardrail import is_only_reasoning, strip_reasoning
from memory.models import Chunk, DeliveryPolicy
from memory.scope import can_supersede, readable_ids
from memory.search import search_backend_name
from memory.services import (
    BULK_PAGE_CACHE_KIB,
    SUPERSEDED_PREFIX,
    ChunkDraft,
    _bulk_columns,
    _db_row,
    _prepared_values,
    add_chunk,
    chunk_supersede,
    refuse_gated_always_write,
)
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

Action = Literal["inserted", "duplicate", "superseded", "dropped"]


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
    return f"{qn(fts.CHUNK_TABLE)}.{qn('id')}", f"{qn(fts.CHUNK_TABLE)}.{qn('content')}"


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
    wanted = [w for w in words if w.strip("_") and w not in fts.STOPWORDS and (db, w) not in _common]
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
    if search_backend_name() == "like":
        # No FTS5 in this SQLite: a LIKE pass over the longest words (bounded, newest first).
        words = sorted((w for w in new if w not in fts.STOPWORDS), key=lambda w: (-len(w), w))[:3]
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
    words = sorted(w for w in new if w.strip("_"))[: fts.MAX_TERMS]
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
    readable = readable_ids([i for i, _ in found], agent=agent_id)  # knowledge.scope (memory.scope)
    return dedup.best_match(new, [(i, text) for i, text in found if i in readable])


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
        new = add_chunk(draft, actor=actor, path=path, agent_write=agent_write)
    if new is None:  # pragma: no cover - the strip above already caught reasoning-only content
        return FactOutcome(action="dropped", chunk=None)
    if match is None:
        return FactOutcome(action="inserted", chunk=new)
    if not can_supersede(match.chunk_id, agent=draft.agent_id):  # a commons row on layered
        return FactOutcome(action="inserted", chunk=new, score=match.score)
    return _supersede(new, match)


def _supersede(new: Chunk, match: dedup.Match) -> FactOutcome:
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
    logger.debug("fact #%s supersedes #%s (j=%.3f)", new.pk, match.chunk_id, match.score)
    return FactOutcome(action="superseded", chunk=new, superseded_id=match.chunk_id, score=match.score)


# Drafts consolidated together by facts_ingest: one index lookup, one row read, one INSERT each.
FACTS_BATCH = 500
# Terms per term_rowids statement (one JSON parameter; a batch's probe words fit in one).
TERMS_PER_STATEMENT = 5000
# FTS5 merge work after each batch, at most this many leaf pages (~4 KB each) or one per
# inserted row if more: a 100-row batch adds a segment of a few pages, and merging two at a time
# rewrites each page about log2(segments) times, so this keeps up and bounds the call's writes.
MERGE_PAGES = 64


def facts_ingest(
    drafts: Sequence[ChunkDraft],
    *,
    actor: str,
    path: str,
    agent_write: bool = False,
    now: datetime | None = None,
) -> list[FactOutcome]:
    """fact_ingest for each draft in order, in one transaction; for bulk writers such as imports.

    Same bands and outcomes as calling fact_ingest draft by draft (a later fact is checked
    against the earlier ones, a superseded row absorbs nothing more), but each batch of
    FACTS_BATCH drafts costs one rare-word lookup, one candidate read per namespace and one
    multi-row INSERT (memory.fts.insert_rows). A failing insert rolls back the whole call.
    """
    drafts = list(drafts)
    for d in drafts:
        if (d.domain or "").strip().lower() != FACT_DOMAIN:
            raise ApplicationError("fact_ingest stores domain='fact' drafts only", extra={"field": "domain"})
        if agent_write:
            refuse_gated_always_write(d)
    with transaction.atomic():
        # The batch path compares against every row; drafts written for an agent must only
        # see what its knowledge.scope lets it read, which the per-fact path applies.
        per_fact = any(d.agent_id is not None for d in drafts) or search_backend_name() == "like"
        if per_fact or not connection.features.can_return_rows_from_bulk_insert:
            return [
                fact_ingest(draft=d, actor=actor, path=path, agent_write=agent_write, now=now) for d in drafts
            ]
        # Each call is a transaction or a few; the rows and index pages read by one are read
        # again by the next, so the larger cache stays on the connection (fts.ensure_page_cache).
        text_index.sql().ensure_page_cache(BULK_PAGE_CACHE_KIB)
        out: list[FactOutcome] = []
        for start in range(0, len(drafts), FACTS_BATCH):
            batch = _Batch(drafts[start : start + FACTS_BATCH], now=now or timezone.now())
            out.extend(batch.run(actor, path))
            # Each batch's INSERT added an index segment; each lookup pays a seek per segment.
            text_index.sql().merge_segments(max(MERGE_PAGES, batch.written))
        return out


@dataclass
class _Draft:
    """One draft of a batch while it is decided: its row values, tokens and what became of it."""

    values: dict[str, object] | None  # None: reasoning only (dropped)
    tokens: frozenset[str] = frozenset()
    probe: tuple[str, ...] = ()
    action: Action = "inserted"
    target_db: int | None = None  # a stored row it duplicates or supersedes
    target_pending: int | None = None  # ... or an earlier draft of this batch
    shared: int = 0
    union: int = 0
    chunk: Chunk | None = None


class _Batch:
    """Decides a batch in order against the store (FTS) and the batch's earlier drafts, then writes it."""

    def __init__(self, drafts: Sequence[ChunkDraft], *, now: datetime) -> None:
        self.now = now
        self.db = str(connection.settings_dict.get("NAME", ""))
        self.items: list[_Draft] = []
        for d in drafts:
            values = _prepared_values(d)  # raises on invalid input, before anything is written
            if values is None:
                self.items.append(_Draft(values=None, action="dropped"))
                continue
            toks = dedup.tokens(cast(str, values["content"]))
            wanted = [w for w in toks if w.strip("_") and w not in fts.STOPWORDS]
            wanted.sort(key=lambda w: (-len(w), w))
            self.items.append(_Draft(values=values, tokens=toks, probe=tuple(wanted)))
        # pending rows (this batch's inserts so far), per (namespace, token)
        self.pending: dict[tuple[str, str], list[int]] = {}
        self.invalid_db: set[int] = set()
        self.invalid_pending: set[int] = set()
        self.written = 0  # rows inserted by _write

    def _postings(self) -> dict[str, list[int]]:
        """Stored rows of every probe word of the batch not known common (capped at COMMON_AT)."""
        words = sorted(
            {w for it in self.items for w in it.probe[:PROBE_WORDS] if (self.db, w) not in _common}
        )
        rows: dict[str, list[int]] = {}
        for start in range(0, len(words), TERMS_PER_STATEMENT):
            part = words[start : start + TERMS_PER_STATEMENT]
            rows.update(text_index.sql().term_rowids(part, cap=COMMON_AT))
        for word, ids in rows.items():
            if len(ids) >= COMMON_AT:
                _common.add((self.db, word))
        return rows

    def run(self, actor: str, path: str) -> list[FactOutcome]:
        postings = self._postings()
        # the batch's words known common now (_postings added the new ones): one check per word
        common = {w for it in self.items for w in it.probe if (self.db, w) in _common}
        # 1. per draft: its rare words (stored + earlier drafts of the batch < COMMON_AT) and shortlist
        seen: Counter[str] = Counter()
        shortlists: list[dedup.Shortlist | None] = []
        wanted_ids: dict[str, set[int]] = {}
        for it in self.items:
            if it.values is None or not it.tokens:
                shortlists.append(None)
                continue
            probe = [w for w in it.probe if w not in common][:PROBE_WORDS]
            rare = {w: postings[w] for w in probe if w in postings and len(postings[w]) + seen[w] < COMMON_AT}
            ranked = dedup.shortlist(len(it.tokens), rare, limit=SHORTLIST)
            shortlists.append(ranked)
            wanted_ids.setdefault(cast(str, it.values["namespace"]), set()).update(ranked.ids)
            seen.update(it.tokens)
        # 2. the shortlisted rows that are live facts, one read per namespace
        live: dict[str, dict[int, _Tokens]] = {}
        for namespace, ids in wanted_ids.items():
            where, params = live_where(namespace, self.now)
            index = text_index.sql()
            rows = index.chunk_rows(sorted(ids), columns=_columns(), where=where, where_params=params)
            live[namespace] = {i: _stored_tokens(c) for i, c in cast(list[tuple[int, str]], rows)}
        # 3. decide in order
        for index, (it, ranked) in enumerate(zip(self.items, shortlists, strict=True)):
            if it.values is None:
                continue
            if ranked is not None:
                self._decide(index, it, ranked, live.get(cast(str, it.values["namespace"]), {}))
        # 4. write
        return self._write(actor, path)

    def _stored_candidates(
        self, it: _Draft, ranked: dedup.Shortlist, live: dict[int, _Tokens]
    ) -> list[tuple[int, _Tokens]]:
        invalid = self.invalid_db
        found = [(i, live[i]) for i in ranked.ids if i in live and i not in invalid]
        if found or ranked.exact:
            return found
        namespace = cast(str, cast(dict[str, object], it.values)["namespace"])
        where, params = live_where(namespace, self.now)
        rows = every_word_rows(it.tokens, where=where, where_params=params)
        return [(i, _stored_tokens(c)) for i, c in rows if i not in self.invalid_db]

    def _pending_candidates(self, namespace: str, new: frozenset[str]) -> set[int]:
        """Earlier drafts of the batch able to reach the revision band: exact, no cut-off.

        A row in reach lacks at most d = max_missing(n) of the n tokens, so it holds one of
        any d + 1 of them: the d + 1 with the shortest pending lists are enough.
        """
        lists = sorted((self.pending.get((namespace, w), ()) for w in new), key=len)
        out: set[int] = set()
        for rows in lists[: dedup.max_missing(len(new)) + 1]:
            out.update(rows)
        return out - self.invalid_pending

    def _decide(self, index: int, it: _Draft, ranked: dedup.Shortlist, live: dict[int, _Tokens]) -> None:
        namespace = cast(str, cast(dict[str, object], it.values)["namespace"])
        new = it.tokens
        n = len(new)
        common = new.intersection
        # best so far: shared, union, order (newest wins ties), pending?, id; compared as exact
        # fractions by cross-multiplying (dedup.best_match's rule without building Fractions).
        # The best is the maximum of (fraction, order) and every order is distinct, so the
        # candidates may come in any order. n >= 1, so no union is 0.
        b_shared, b_union, b_order, b_pending, b_id = 0, 0, -1, False, 0
        for chunk_id, toks in self._stored_candidates(it, ranked, live):
            shared = len(common(toks))
            union = n + len(toks) - shared
            left, right = shared * b_union, b_shared * union
            if b_union == 0 or left > right or (left == right and chunk_id > b_order):
                b_shared, b_union, b_order, b_id = shared, union, chunk_id, chunk_id
        for other in self._pending_candidates(namespace, new):
            toks = self.items[other].tokens
            shared = len(common(toks))
            union = n + len(toks) - shared
            order = _PENDING_ORDER + other
            left, right = shared * b_union, b_shared * union
            if b_union == 0 or left > right or (left == right and order > b_order):
                b_shared, b_union, b_order, b_pending, b_id = shared, union, order, True, other
        decision = dedup.decide_overlap(b_shared, b_union) if b_union else "new"
        if decision != "new":
            it.shared, it.union = b_shared, b_union
            if b_pending:
                it.target_pending = b_id
            else:
                it.target_db = b_id
        if decision == "duplicate":
            it.action = "duplicate"
            return
        if decision == "revision":
            it.action = "superseded"
            (self.invalid_pending if b_pending else self.invalid_db).add(b_id)
        for w in new:
            self.pending.setdefault((namespace, w), []).append(index)

    def _write(self, actor: str, path: str) -> list[FactOutcome]:
        columns, plan = _bulk_columns()
        conn = connections[DEFAULT_DB_ALIAS]
        new = [it for it in self.items if it.values is not None and it.action != "duplicate"]
        self.written = len(new)
        returned = text_index.sql().insert_rows(
            columns, [_db_row(plan, cast(dict[str, Any], it.values), conn) for it in new], returning=("id",)
        )
        # rowids are handed out in VALUES order, statement after statement
        ids = sorted(cast(int, r[0]) for r in returned)
        if len(ids) != len(new):  # pragma: no cover - RETURNING yields one row per inserted row
            raise RuntimeError("bulk fact insert returned an unexpected number of ids")
        for it, chunk_id in zip(new, ids, strict=True):
            chunk = Chunk(**cast(dict[str, Any], it.values))
            chunk.pk = chunk_id
            chunk._state.adding = False
            chunk._state.db = conn.alias
            it.chunk = chunk
            if chunk.delivery_policy == DeliveryPolicy.ALWAYS:
                hot_written_record(chunk_id=chunk_id, actor=actor, path=path)
        chunk_embed_enqueue(chunk_ids=ids)
        dup_ids = [it.target_db for it in self.items if it.action == "duplicate" and it.target_db is not None]
        existing = Chunk.objects.in_bulk(dup_ids) if dup_ids else {}
        supersedes = [it for it in self.items if it.action == "superseded"]
        failed = self._supersede_all(supersedes)
        outcomes: list[FactOutcome] = []
        for it in self.items:
            score = it.shared / it.union if it.union else 0.0
            if it.action == "dropped":
                outcomes.append(FactOutcome(action="dropped", chunk=None))
            elif it.action == "duplicate":
                chunk = existing[it.target_db] if it.target_db is not None else self._target(it).chunk
                outcomes.append(FactOutcome(action="duplicate", chunk=chunk, score=score))
            elif it.action == "superseded":
                old_id = self._old_id(it)
                if id(it) in failed:
                    outcomes.append(
                        FactOutcome(
                            action="inserted", chunk=it.chunk, score=score, supersede_failed=failed[id(it)]
                        )
                    )
                else:
                    outcomes.append(
                        FactOutcome(action="superseded", chunk=it.chunk, superseded_id=old_id, score=score)
                    )
            else:
                outcomes.append(FactOutcome(action="inserted", chunk=it.chunk, score=score))
        return outcomes

    def _target(self, it: _Draft) -> _Draft:
        return self.items[cast(int, it.target_pending)]

    def _old_id(self, it: _Draft) -> int:
        if it.target_db is not None:
            return it.target_db
        return cast(Chunk, self._target(it).chunk).pk

    def _supersede_all(self, supersedes: list[_Draft]) -> dict[int, bool]:
        """Invalidate each revised row; {id(draft): supersede_failed} for those that were not.

        One UPDATE for the batch (CAS on invalidated_at IS NULL); if it does not touch every row
        or raises, it is rolled back and redone row by row (chunk_supersede), each in its own
        savepoint, so a failure is logged and leaves both rows valid, as in fact_ingest.
        """
        failed: dict[int, bool] = {}
        if not supersedes:
            return failed
        pairs = {self._old_id(it): cast(Chunk, it.chunk).pk for it in supersedes}
        try:
            with transaction.atomic():
                updated = Chunk.objects.filter(pk__in=list(pairs), invalidated_at__isnull=True).update(
                    invalidated_at=self.now,
                    invalidation_reason=Case(
                        *(
                            When(pk=old, then=Value(f"{SUPERSEDED_PREFIX}{new}"))
                            for old, new in pairs.items()
                        ),
                        output_field=CharField(),
                    ),
                )
                if updated != len(pairs):
                    raise _Partial
            return failed
        except Exception:  # redone row by row below, each failure logged there
            logger.debug("bulk supersede did not apply to every row; redoing row by row")
        for it in supersedes:
            try:
                with transaction.atomic():
                    done = self._supersede_one(it)
            except Exception:
                logger.exception(
                    "fact #%s landed but #%s was not invalidated; both stay valid",
                    cast(Chunk, it.chunk).pk,
                    self._old_id(it),
                )
                failed[id(it)] = True
                continue
            if not done:
                logger.warning(
                    "fact #%s was superseded concurrently; #%s stands beside it",
                    self._old_id(it),
                    cast(Chunk, it.chunk).pk,
                )
                failed[id(it)] = False
        return failed

    def _supersede_one(self, it: _Draft) -> bool:
        return chunk_supersede(old_id=self._old_id(it), new_id=cast(Chunk, it.chunk).pk, now=self.now)


_PENDING_ORDER = 1 << 62

# A stored row's token set as _decide reads it (a tuple of distinct tokens, or a frozenset).
_Tokens = tuple[str, ...] | frozenset[str]


@functools.lru_cache(maxsize=STORED_TOKENS_CACHE)
def _stored_tokens(content: str) -> tuple[str, ...]:
    """dedup.tokens of a stored row's content, memoized by the text itself (the same rows keep
    coming back as candidates; a pure function of the string, so it can never go stale).

    Kept as a tuple of interned strings: ~0.36 KB an entry instead of ~1.3 KB for a frozenset of
    fresh strings, so the cache can hold a 100k-fact store's candidates.
    """
    return tuple(map(sys.intern, dedup.tokens(content)))


class _Partial(Exception):
    """The bulk supersede missed a row: roll it back and go row by row."""
