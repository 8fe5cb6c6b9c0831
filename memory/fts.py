"""The only module with raw SQL for the chunk store (FTS5 queries, the bulk insert). Parameterized.

The MATCH always runs in its own ranked, limited subquery against the FTS table; filters on
memory_chunk are applied by LEFT JOINing that small result to the chunk table by rowid. Putting
MATCH and chunk filters in one flat WHERE lets SQLite's planner drive from a chunk index
(say `invalidated_at IS NULL`, which matches nearly every row) and probe the FTS index per row.
tests/memory/test_fts.py pins the plan with EXPLAIN QUERY PLAN.

Table and column names below come from constants and model metadata, never from user input;
user text only ever reaches SQL as a bound MATCH parameter, already quoted term by term.
"""

from __future__ import annotations

import contextlib
import functools
import re
import sqlite3
from collections.abc import Iterator, Sequence

from django.db import connection

FTS_TABLE = "memory_chunk_fts"
CHUNK_TABLE = "memory_chunk"
TRIGGERS = ("memory_chunk_fts_ai", "memory_chunk_fts_ad", "memory_chunk_fts_au")
# bm25 column weights: heading, content. A heading hit says more about the whole chunk.
BM25_WEIGHTS = (2.0, 1.0)
# Upper bound on rows per INSERT statement in bulk mode (see insert_rows).
MAX_ROWS_PER_INSERT = 2000

_WORD = re.compile(r"\w+", re.UNICODE)
MAX_TERMS = 12
STOPWORDS = frozenset(
    "a an and are as at be but by can could did do does for from had has have how i if in into "
    "is it its me my no not of on or our so than that the their them then there these they this "
    "to was we were what when where which who why will with would you your "
    "".split()
)

_RANKED = (
    "SELECT rowid AS id, bm25(memory_chunk_fts, %s, %s) AS score "
    "FROM memory_chunk_fts WHERE memory_chunk_fts MATCH %s ORDER BY score"
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
    """One FTS5 string token: the term in double quotes, embedded quotes doubled."""
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
    try:
        probe = sqlite3.connect(":memory:")
        try:
            probe.execute("CREATE VIRTUAL TABLE t USING fts5(x)")
        finally:
            probe.close()
    except sqlite3.OperationalError:
        return False
    return True


def _schema_names(kind: str, names: Sequence[str]) -> set[str]:
    if connection.vendor != "sqlite":
        return set()
    placeholders = ", ".join(["%s"] * len(names))
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT name FROM sqlite_master WHERE type = %s AND name IN ({placeholders})",  # noqa: S608 - placeholders only
            [kind, *names],
        )
        return {row[0] for row in cursor.fetchall()}


def fts_table_exists() -> bool:
    return bool(_schema_names("table", [FTS_TABLE]))


def missing_schema() -> list[str]:
    """Names of the FTS table and sync triggers that are absent (empty when all are there)."""
    tables = _schema_names("table", [FTS_TABLE])
    triggers = _schema_names("trigger", list(TRIGGERS))
    wanted = [(FTS_TABLE, tables), *((name, triggers) for name in TRIGGERS)]
    return [name for name, present in wanted if name not in present]


def match_ids(expression: str, *, limit: int | None) -> list[int]:
    """Chunk ids matching an FTS5 expression, best bm25 first (no filters)."""
    sql = _RANKED
    params: list[object] = [*BM25_WEIGHTS, expression]
    if limit is not None:
        sql += " LIMIT %s"
        params.append(limit)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return [row[0] for row in cursor.fetchall()]


def ranked_rows(
    expression: str,
    *,
    columns: Sequence[str],
    where: str,
    where_params: Sequence[object],
    considered: int | None,
    take: int,
) -> tuple[list[tuple[object, ...]], int]:
    """Up to `take` chunk rows matching `expression` and passing `where`, best bm25 first.

    Only the `considered` best matches are looked at (None: all of them). Returns the rows
    (`columns`, the first must be the id) and how many matches were looked at, so a caller can
    tell "filtered away" (widen) from "nothing more matches" (stop). One statement.
    """
    ranked = _RANKED
    params: list[object] = [*BM25_WEIGHTS, expression]
    if considered is not None:
        ranked += " LIMIT %s"
        params.append(considered)
    sql = (
        f"SELECT {', '.join(columns)}, count(*) OVER () FROM ({ranked}) AS m "  # noqa: S608 - see module docstring
        f"LEFT JOIN memory_chunk ON memory_chunk.id = m.id AND ({where or '1'}) "
        "ORDER BY memory_chunk.id IS NULL, m.score LIMIT %s"
    )
    params.extend(where_params)
    params.append(take)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    if not rows:
        return [], 0
    looked_at = rows[0][-1]
    return [row[:-1] for row in rows if row[0] is not None], looked_at


def explain(sql: str, params: Sequence[object]) -> list[str]:
    """EXPLAIN QUERY PLAN detail lines for a statement (used by tests and checks)."""
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN QUERY PLAN " + sql, list(params))
        return [row[-1] for row in cursor.fetchall()]


def insert_rows(
    columns: Sequence[str], rows: Sequence[Sequence[object]], *, returning: Sequence[str]
) -> list[tuple[object, ...]]:
    """Bulk INSERT into memory_chunk with as many rows per statement as SQLite allows.

    Why not bulk_create: writing through the sync trigger, FTS5 (SQLite 3.40) flushes its
    pending terms to a new index segment at the end of every INSERT statement (checked: 1,000
    one-row statements in one transaction leave 1,000 segments, one 1,000-row statement leaves
    1), and every segment is merged again later. Django caps a statement at 999 variables (62
    chunk rows); with 2,000-row statements plain sqlite3 loads the chunk table ~60% faster
    (10.5k vs 6.6k rows/s at 100k rows). Returns the `returning` columns of every inserted row.
    """
    if not rows:
        return []
    with connection.cursor() as cursor:
        limit = connection.connection.getlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER)
        per_statement = max(1, min(MAX_ROWS_PER_INSERT, limit // len(columns)))
        one = "(" + ", ".join(["%s"] * len(columns)) + ")"
        head = f"INSERT INTO memory_chunk ({', '.join(columns)}) VALUES "  # noqa: S608 - model metadata
        tail = f" RETURNING {', '.join(returning)}"
        out: list[tuple[object, ...]] = []
        for start in range(0, len(rows), per_statement):
            part = rows[start : start + per_statement]
            cursor.execute(head + ", ".join([one] * len(part)) + tail, [v for row in part for v in row])
            out.extend(cursor.fetchall())
        return out


@contextlib.contextmanager
def page_cache(kib: int) -> Iterator[None]:
    """Run the block with a page cache of `kib` KiB on this connection, then restore the old size.

    Bulk mode uses it: a 10k-row transaction dirties more index pages than SQLite's default
    2 MiB cache holds, so pages spill to the WAL and are written again (measured: ~10% fewer
    CPU-seconds per row at 300k rows with 64 MiB).
    """
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA cache_size")
        (before,) = cursor.fetchone()
        cursor.execute(f"PRAGMA cache_size = {-int(kib)}")  # an int: PRAGMA takes no parameters
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute(f"PRAGMA cache_size = {int(before)}")  # the int read back above


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


_TERM_ROWS = (
    "SELECT %s, rowid FROM (SELECT rowid FROM memory_chunk_fts WHERE memory_chunk_fts MATCH %s LIMIT %s)"
)


def term_rowids(terms: Sequence[str], *, cap: int) -> dict[str, list[int]]:
    """For each term (quoted as one token), the ids of the chunks holding it, in id order.

    One statement; each list stops at `cap` ids, so a common word costs no more than a rare
    one. A list shorter than `cap` is complete (memory.facts uses that to find rare words).
    """
    if not terms:
        return {}
    sql = " UNION ALL ".join([_TERM_ROWS] * len(terms))
    params: list[object] = []
    for index, term in enumerate(terms):
        params.extend([index, quote(term), cap])
    lists: list[list[int]] = [[] for _ in terms]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        for index, rowid in cursor.fetchall():
            lists[index].append(rowid)
    return dict(zip(terms, lists, strict=True))


def chunk_rows(
    ids: Sequence[int], *, columns: Sequence[str], where: str, where_params: Sequence[object]
) -> list[tuple[object, ...]]:
    """`columns` of the chunks among `ids` that pass `where` (SQL over memory_chunk), any order."""
    if not ids:
        return []
    placeholders = ", ".join(["%s"] * len(ids))
    sql = (
        f"SELECT {', '.join(columns)} FROM memory_chunk "  # noqa: S608 - see module docstring
        f"WHERE memory_chunk.id IN ({placeholders}) AND ({where or '1'})"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [*ids, *where_params])
        return cursor.fetchall()
