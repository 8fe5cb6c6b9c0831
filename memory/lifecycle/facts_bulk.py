"""Facts consolidation for bulk writers: facts_ingest decides a whole batch at once.

Same bands and outcomes as memory.lifecycle.facts.fact_ingest called draft by draft, for a
fraction of the statements (see that module's docstring for the lookup it batches).
"""

from __future__ import annotations

import functools
import logging
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from fractions import Fraction
from typing import Any, cast

from django.db import DEFAULT_DB_ALIAS, connection, connections, transaction
from django.db.models import Case, CharField, Value, When
from django.utils import timezone

from memory.lifecycle import dedup, facts_links
from memory.lifecycle.authority import PROPOSED_REVISION, may_supersede
from memory.lifecycle.facts import (
    COMMON_AT,
    FACT_DOMAIN,
    PROBE_WORDS,
    SHORTLIST,
    STORED_TOKENS_CACHE,
    Action,
    FactOutcome,
    _columns,
    _common,
    every_word_rows,
    fact_ingest,
    live_where,
)
from memory.lifecycle.writes import (
    BULK_PAGE_CACHE_KIB,
    SUPERSEDED_PREFIX,
    ChunkDraft,
    _bulk_columns,
    _db_row,
    chunk_supersede,
    prepared_values_many,
    record_write_events,
    refuse_gated_always_write,
)
from memory.store import text_index
from memory.store.embedding_index import chunk_embed_enqueue
from memory.store.models import Chunk, ReviewState
from memory.store.text_index import CHUNKS, fts5
from protomem.errors import ApplicationError

logger = logging.getLogger(__name__)


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
    multi-row INSERT (memory.store.text_index.fts5.insert_rows). A failing insert rolls back the whole call.
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
        per_fact = any(d.agent_id is not None for d in drafts) or CHUNKS.backend() == "like"
        if per_fact or not connection.features.can_return_rows_from_bulk_insert:
            return [
                fact_ingest(draft=d, actor=actor, path=path, agent_write=agent_write, now=now) for d in drafts
            ]
        # Each call is a transaction or a few; the rows and index pages read by one are read
        # again by the next, so the larger cache stays on the connection (fts5.ensure_page_cache).
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
    verdict: object = None  # the facts_subject.Verdict of the row it duplicates or revises


class _Batch:
    """Decides a batch in order against the store (FTS) and the batch's earlier drafts, then writes it."""

    def __init__(self, drafts: Sequence[ChunkDraft], *, now: datetime) -> None:
        self.now = now
        self.db = str(connection.settings_dict.get("NAME", ""))
        self.items: list[_Draft] = []
        # raises on invalid input, before anything is written; one inspection for the batch
        for values in prepared_values_many(drafts):
            if values is None:
                self.items.append(_Draft(values=None, action="dropped"))
                continue
            toks = dedup.tokens(cast(str, values["content"]))
            wanted = [w for w in toks if w.strip("_") and w not in fts5.STOPWORDS]
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
        live: dict[str, dict[int, tuple[_Tokens, str]]] = {}
        for namespace, ids in wanted_ids.items():
            where, params = live_where(namespace, self.now)
            index = text_index.sql()
            rows = index.chunk_rows(sorted(ids), columns=_columns(), where=where, where_params=params)
            live[namespace] = {i: (_stored_tokens(c), c) for i, c in cast(list[tuple[int, str]], rows)}
        # 3. decide in order
        for index, (it, ranked) in enumerate(zip(self.items, shortlists, strict=True)):
            if it.values is None:
                continue
            if ranked is not None:
                self._decide(index, it, ranked, live.get(cast(str, it.values["namespace"]), {}))
        # 4. write
        return self._write(actor, path)

    def _stored_candidates(
        self, it: _Draft, ranked: dedup.Shortlist, live: dict[int, tuple[_Tokens, str]]
    ) -> list[tuple[int, tuple[_Tokens, str]]]:
        invalid = self.invalid_db
        found = [(i, live[i]) for i in ranked.ids if i in live and i not in invalid]
        if found or ranked.exact:
            return found
        namespace = cast(str, cast(dict[str, object], it.values)["namespace"])
        where, params = live_where(namespace, self.now)
        rows = every_word_rows(it.tokens, where=where, where_params=params)
        return [(i, (_stored_tokens(c), c)) for i, c in rows if i not in self.invalid_db]

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

    def _decide(
        self, index: int, it: _Draft, ranked: dedup.Shortlist, live: dict[int, tuple[_Tokens, str]]
    ) -> None:
        namespace = cast(str, cast(dict[str, object], it.values)["namespace"])
        new = it.tokens
        n = len(new)
        common = new.intersection
        # Every candidate worth judging, best overlap first (newest wins ties; an earlier draft of
        # the batch counts as newer than any stored row), then the first about the same thing
        # (dedup.judge): fact_ingest's dedup.best_match, over the store and the batch so far.
        scored: list[tuple[Fraction, int, int, int, bool, int, str]] = []
        for chunk_id, (toks, content) in self._stored_candidates(it, ranked, live):
            shared = len(common(toks))
            union = n + len(toks) - shared
            if dedup.worth_judging(shared, union):
                scored.append((Fraction(shared, union), chunk_id, shared, union, False, chunk_id, content))
        for other in self._pending_candidates(namespace, new):
            toks = self.items[other].tokens
            shared = len(common(toks))
            union = n + len(toks) - shared
            if dedup.worth_judging(shared, union):
                content = cast(str, cast(dict[str, object], self.items[other].values)["content"])
                scored.append(
                    (Fraction(shared, union), _PENDING_ORDER + other, shared, union, True, other, content)
                )
        scored.sort(key=lambda row: row[:2], reverse=True)
        text = cast(str, cast(dict[str, object], it.values)["content"])
        decision: dedup.Decision = "new"
        b_pending, b_id = False, 0
        for _, _, shared, union, pending, target, content in scored:
            decision, verdict = dedup.judge(content, text, shared, union)
            if decision != "new":
                it.shared, it.union, it.verdict = shared, union, verdict
                b_pending, b_id = pending, target
                if pending:
                    it.target_pending = target
                else:
                    it.target_db = target
                break
        if decision == "duplicate":
            it.action = "duplicate"
            return
        target = None if b_pending or decision != "revision" else self._target_row(b_id)
        values = cast(dict[str, object], it.values)
        if target is not None and not self._may_supersede(it, target):
            # Not the writer's to replace (lifecycle.authority): a proposal; the row stays live.
            it.action = "proposed"
            values.update(proposes_id=b_id, review_state=ReviewState.PENDING, held_reasons=PROPOSED_REVISION)
            self._link(it, target, proposal=True)
        elif decision == "revision":
            it.action = "superseded"
            (self.invalid_pending if b_pending else self.invalid_db).add(b_id)
            if target is not None:
                self._link(it, target, proposal=False)
        for w in new:
            self.pending.setdefault((namespace, w), []).append(index)

    def _target_row(self, target_id: int) -> Chunk:
        return Chunk.objects.only("agent_id", "source_type", "scope", "review_state").get(pk=target_id)

    def _link(self, it: _Draft, target: Chunk, *, proposal: bool) -> None:
        """held_detail (and contradicts_confirmed) of a draft that revises a stored row."""
        values = cast(dict[str, object], it.values)
        match = dedup.Match(target.pk, it.shared, it.union, "revision", cast(Any, it.verdict))
        entries = facts_links.link_entries(match, proposal=proposal, target=target)
        values["held_detail"] = facts_links.merged(cast(Any, values.get("held_detail")), entries)
        if any(e["code"] == facts_links.CONTRADICTS_CONFIRMED for e in entries):
            held = cast(str | None, values.get("held_reasons"))
            values["held_reasons"] = facts_links.with_code(held, facts_links.CONTRADICTS_CONFIRMED)

    def _may_supersede(self, it: _Draft, target: Chunk) -> bool:
        values = cast(dict[str, object], it.values)
        return may_supersede(
            writer_agent_id=cast(int | None, values["agent_id"]),
            writer_source_type=cast(str, values["source_type"]),
            target=target,
        )

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
            record_write_events(chunk_id, chunk.delivery_policy, chunk.held_reasons, actor=actor, path=path)
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
            elif it.action == "proposed":
                outcomes.append(
                    FactOutcome(action="proposed", chunk=it.chunk, proposed_id=it.target_db, score=score)
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
