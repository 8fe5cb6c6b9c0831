"""The only module with FTS5 query SQL for the chunk store. Always parameterized.

The MATCH runs alone against the FTS table (ranked, limited); callers filter the returned
ids through the ORM afterwards. Mixing MATCH with filters on memory_chunk in one statement
lets SQLite's planner drive from the chunk table's indexes and abandon the FTS index.
"""

from __future__ import annotations

import functools
import re

from django.db import connection

FTS_TABLE = "memory_chunk_fts"
# bm25 column weights: heading, content. A heading hit says more about the whole chunk.
BM25_WEIGHTS = (2.0, 1.0)

_WORD = re.compile(r"\w+", re.UNICODE)
MAX_TERMS = 12
STOPWORDS = frozenset(
    "a an and are as at be but by can could did do does for from had has have how i if in into "
    "is it its me my no not of on or our so than that the their them then there these they this "
    "to was we were what when where which who why will with would you your "
    "".split()
)


def terms_of(text: str) -> list[str]:
    """Word tokens of a user query, lowercased and deduplicated, stopwords dropped if any remain.

    Every FTS5 operator character (quotes, hyphens, colons, parentheses, *, ^) is a separator
    here, and each term is later quoted, so AND/OR/NOT/NEAR are just words.
    """
    seen: dict[str, None] = {}
    for word in _WORD.findall((text or "").lower()):
        if word.strip("_"):
            seen.setdefault(word, None)
    words = list(seen)
    content = [w for w in words if w not in STOPWORDS]
    return (content or words)[:MAX_TERMS]


def quote(term: str) -> str:
    return '"' + term.replace('"', '""') + '"'


def all_terms(terms: list[str]) -> str:
    return " AND ".join(quote(t) for t in terms)


def any_term(terms: list[str]) -> str:
    return " OR ".join(quote(t) for t in terms)


def any_pair(terms: list[str]) -> str:
    """Rows with at least two of the terms: (a AND b) OR (a AND c) OR ..."""
    pairs = [f"({quote(a)} AND {quote(b)})" for i, a in enumerate(terms) for b in terms[i + 1 :]]
    return " OR ".join(pairs)


@functools.cache
def fts5_compiled() -> bool:
    """Whether this process's SQLite has FTS5 (checked once, on a throwaway connection)."""
    import sqlite3

    try:
        probe = sqlite3.connect(":memory:")
        probe.execute("CREATE VIRTUAL TABLE t USING fts5(x)")
        probe.close()
    except sqlite3.OperationalError:
        return False
    return True


def fts_table_exists() -> bool:
    if connection.vendor != "sqlite":
        return False
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = %s", [FTS_TABLE])
        return cursor.fetchone() is not None


def match_ids(expression: str, *, limit: int | None) -> list[int]:
    """Chunk ids matching an FTS5 expression, best bm25 first."""
    sql = (
        "SELECT rowid FROM memory_chunk_fts WHERE memory_chunk_fts MATCH %s "
        "ORDER BY bm25(memory_chunk_fts, %s, %s)"
    )
    params: list[object] = [expression, *BM25_WEIGHTS]
    if limit is not None:
        sql += " LIMIT %s"
        params.append(limit)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return [row[0] for row in cursor.fetchall()]


def rebuild() -> None:
    """Rebuild the index from memory_chunk (external content)."""
    with connection.cursor() as cursor:
        cursor.execute("INSERT INTO memory_chunk_fts(memory_chunk_fts) VALUES('rebuild')")


def integrity_check() -> bool:
    """FTS5's own check that the index matches the content table."""
    import django.db

    try:
        with connection.cursor() as cursor:
            cursor.execute(
                "INSERT INTO memory_chunk_fts(memory_chunk_fts, rank) VALUES('integrity-check', 1)"
            )
    except django.db.DatabaseError:
        return False
    return True
