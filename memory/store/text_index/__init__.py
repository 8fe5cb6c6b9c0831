"""The keyword indexes behind one interface: TextIndex, one per corpus, an SQLite FTS5 and a
PostgreSQL tsvector backend each.

Three corpora are indexed: chunks (memory_chunk_fts / memory_chunk.search_vector), skills
(memory_skill_fts / memory_skill.search_vector) and, registered by sessions_app, session
summaries. Each TextIndex knows how to probe its index on this database (`backend`: 'fts5',
'tsvector', or 'like' when the index is missing), the query plan its expressions follow (all
terms, then any pair, then any term) and how to run one expression (`match_ids`). Raw SQL stays
in one named module per index: fts5 / tsvector (chunks, and skills on PostgreSQL), skills_fts5,
and sessions_app.fts / sessions_app.pg_fts. Every index shares one tokenizer (`terms_of`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from django.conf import settings
from django.db import connection

from memory.store.text_index import fts5, skills_fts5, tsvector

Matcher = Callable[..., list[int]]  # (expression, *, limit) -> ids, best first


def sql() -> ModuleType:
    """memory.store.text_index.tsvector on PostgreSQL, else memory.store.text_index.fts5: the
    expression builders (all_terms, any_pair, any_term) every index's queries are written in."""
    return tsvector if connection.vendor == "postgresql" else fts5


def terms_of(text: str) -> list[str]:
    """The words of a query every index looks up (fts5.terms_of: stopwords and filler dropped)."""
    return fts5.terms_of(text)


def choose_backend(*, fts_ready: Callable[[], bool], tsvector_ready: Callable[[], bool]) -> str:
    """An index's backend on this database: 'fts5' (SQLite), 'tsvector' (PostgreSQL) or 'like'
    when the index is missing; settings.PROTOMEM_SEARCH_BACKEND = "like" forces the fallback."""
    if getattr(settings, "PROTOMEM_SEARCH_BACKEND", "auto") == "like":
        return "like"
    if connection.vendor == "postgresql":
        return "tsvector" if tsvector_ready() else "like"
    return "fts5" if fts_ready() else "like"


def plan(terms: Sequence[str]) -> list[Any]:
    """Index expressions to try in order: every term, then any two (3+ terms), then any one."""
    if not terms:
        return []
    index = sql()
    terms = list(terms)
    steps = [index.all_terms(terms)]
    if len(terms) >= 3:
        steps.append(index.any_pair(terms))
    if len(terms) >= 2:
        steps.append(index.any_term(terms))
    return steps


def chunk_plan(terms: Sequence[str]) -> list[Any]:
    """plan() for the chunk search (memory.retrieval.search): on PostgreSQL the all-terms and
    pair steps are ranked by one statement (tsvector.Steps), the same rows in the same order
    for one round trip fewer whenever the first step does not fill the search; the pair step
    scores the rows holding two terms, tens to hundreds, which the any-term step (kept apart:
    it scores every row holding any term) never is."""
    steps = plan(terms)
    if connection.vendor == "postgresql" and len(steps) == 3:
        return [tsvector.steps(steps[:2]), steps[2]]
    return steps


@dataclass(eq=False)
class TextIndex:
    """One corpus's keyword index: how to probe it on each database and run an expression.

    `fts5_ready` / `tsvector_ready` probe the index (cached per process: reset() after creating
    or dropping one); `match_fts5` / `match_tsvector` run one plan() expression, best first.
    A corpus whose matching needs more than an expression (session summaries, scoped by agent)
    keeps those queries in its own raw-SQL module and uses the index for the backend choice.
    """

    corpus: str
    fts5_ready: Callable[[], bool]
    tsvector_ready: Callable[[], bool]
    match_fts5: Matcher | None = None
    match_tsvector: Matcher | None = None
    _probes: dict[str, bool] = field(default_factory=dict, repr=False)

    def _probe(self, name: str, probe: Callable[[], bool]) -> Callable[[], bool]:
        def cached() -> bool:
            if name not in self._probes:
                self._probes[name] = probe()
            return self._probes[name]

        return cached

    def backend(self) -> str:
        """'fts5', 'tsvector' or 'like' (choose_backend)."""
        return choose_backend(
            fts_ready=self._probe("fts5", self.fts5_ready),
            tsvector_ready=self._probe("tsvector", self.tsvector_ready),
        )

    def ranked(self) -> bool:
        """Whether searches run through the text index (FTS5 or tsvector), not LIKE."""
        return self.backend() != "like"

    def reset(self) -> None:
        """Forget the cached probes (after creating or dropping the index)."""
        self._probes.clear()

    def match_ids(self, expression: Any, *, limit: int | None) -> list[int]:
        """Ids matching one plan() expression on this database's backend, best first."""
        match = self.match_tsvector if connection.vendor == "postgresql" else self.match_fts5
        if match is None:
            raise NotImplementedError(f"the {self.corpus} index runs its own queries")
        return match(expression, limit=limit)


def _chunk_fts5_ready() -> bool:
    return fts5.fts5_compiled() and fts5.fts_table_exists()


def _skill_tsvector_ready() -> bool:
    return tsvector.column_exists(skills_fts5.SKILL_TABLE)


CHUNKS = TextIndex(
    "chunks",
    fts5_ready=_chunk_fts5_ready,
    tsvector_ready=functools.partial(tsvector.column_exists, fts5.CHUNK_TABLE),
    match_fts5=fts5.match_ids,
    match_tsvector=tsvector.match_ids,
)
SKILLS = TextIndex(
    "skills",
    fts5_ready=skills_fts5.skill_fts_ready,
    tsvector_ready=_skill_tsvector_ready,
    match_fts5=skills_fts5.match_skill_ids,
    match_tsvector=tsvector.skill_ids,
)
