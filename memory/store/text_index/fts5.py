"""The only module with raw SQL for the chunk store (FTS5 queries, the bulk insert). Parameterized.

The MATCH always runs in its own ranked, limited subquery against the FTS table; filters on
memory_chunk are applied by LEFT JOINing that small result to the chunk table by rowid. Putting
MATCH and chunk filters in one flat WHERE lets SQLite's planner drive from a chunk index
(say `invalidated_at IS NULL`, which matches nearly every row) and probe the FTS index per row.
tests/memory/store/test_fts.py pins the plan with EXPLAIN QUERY PLAN.

Table and column names below come from constants and model metadata, never from user input;
user text only ever reaches SQL as a bound MATCH parameter, already quoted term by term.
"""

from __future__ import annotations

import contextlib
import functools
import json
import re
import sqlite3
from collections.abc import Iterator, Sequence

from django.db import connection

from memory.store.query import weighted_terms

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
    """Word tokens of a user query, lowercased and deduplicated, stopwords and question filler
    dropped if any remain (memory.store.query.weighted_terms).

    Every FTS5 operator character (quotes, hyphens, colons, parentheses, *, ^) is a separator
    here, and each term is later quoted, so AND/OR/NOT/NEAR are just words.
    """
    seen: dict[str, None] = {}
    for word in _WORD.findall((text or "").lower()):
        if word.strip("_"):
            seen.setdefault(word, None)
    return weighted_terms(list(seen), STOPWORDS)[:MAX_TERMS]


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


def match_rowids(expression: str, *, limit: int) -> list[int]:
    """Ids of up to `limit` chunks matching an FTS5 expression, unranked (index order: ascending).

    No bm25: to rank, FTS5 first counts every row holding each term (its IDF), which for a
    stopword is most of the store, so a ranked query costs O(rows) however few rows match.
    """
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT rowid FROM memory_chunk_fts WHERE memory_chunk_fts MATCH %s LIMIT %s", [expression, limit]
        )
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
    limit = connection.connection.getlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER)
    per_statement = max(1, min(MAX_ROWS_PER_INSERT, limit // len(columns)))
    return multi_row_insert(columns, rows, returning=returning, per_statement=per_statement)


def multi_row_insert(
    columns: Sequence[str], rows: Sequence[Sequence[object]], *, returning: Sequence[str], per_statement: int
) -> list[tuple[object, ...]]:
    """INSERT INTO memory_chunk, `per_statement` rows per statement; the `returning` columns.

    Plain SQL on either database (memory.store.text_index.tsvector uses it with PostgreSQL's parameter limit).
    """
    one = "(" + ", ".join(["%s"] * len(columns)) + ")"
    head = f"INSERT INTO memory_chunk ({', '.join(columns)}) VALUES "  # noqa: S608 - model metadata
    tail = f" RETURNING {', '.join(returning)}"
    out: list[tuple[object, ...]] = []
    with connection.cursor() as cursor:
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


def ensure_page_cache(kib: int) -> None:
    """Give this connection a page cache of at least `kib` KiB and leave it so (never lowers it).

    For writers that come back in many small transactions (facts_bulk.facts_ingest): page_cache
    restores the old size on exit, and shrinking the cache drops the pages it held. SQLite only
    allocates pages as it reads them, so an idle connection costs nothing more.
    """
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA cache_size")
        (size,) = cursor.fetchone()
        if size > 0:  # a page count rather than KiB
            cursor.execute("PRAGMA page_size")
            size = -size * cursor.fetchone()[0] // 1024
        if -size < kib:
            cursor.execute(f"PRAGMA cache_size = {-int(kib)}")  # an int: PRAGMA takes no parameters


def merge_segments(pages: int) -> None:
    """FTS5 incremental merge: combine index segments, writing at most `pages` leaf pages.

    Every write transaction adds a segment, and a term lookup seeks in each one (term_rowids on
    100k rows, measured: ~60 us/term with 22 segments, ~25 us with 1). With usermerge=2 (migration
    0012) this merges any level that holds two or more segments and stops early when none does,
    so it keeps a bulk writer's index at a few segments for a bounded cost per call.
    """
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO memory_chunk_fts(memory_chunk_fts, rank) VALUES('merge', %s)", [int(pages)]
        )


_STRUCTURE_V2 = b"\xff\x00\x00\x01"


def segment_count() -> int:
    """How many segments (b-trees) memory_chunk_fts has now: the count in FTS5's structure record."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT block FROM memory_chunk_fts_data WHERE id = 10")
        row = cursor.fetchone()
    if row is None:
        return 0
    data = bytes(row[0])
    at = 8 if data[4:8] == _STRUCTURE_V2 else 4  # a 4-byte cookie, then (SQLite >= 3.45) a marker
    _, at = _varint(data, at)  # levels
    segments, _ = _varint(data, at)
    return segments


def _varint(data: bytes, at: int) -> tuple[int, int]:
    """SQLite's varint at `at`: (value, offset after it)."""
    value = 0
    for i in range(8):
        byte = data[at + i]
        value = (value << 7) | (byte & 0x7F)
        if not byte & 0x80:
            return value, at + i + 1
    return (value << 8) | data[at + 8], at + 9


def indexable(terms: Sequence[str]) -> bool:
    """FTS5 indexes every token (no stopword list), so any term can be looked up."""
    return True


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


# The terms arrive as one JSON array: one statement text whatever their number (prepared once,
# not recompiled per batch size), one bound parameter, one row per term. Measured against a
# UNION ALL of one MATCH subquery per term: 21 vs 28 us/term (100k rows, 6 segments).
_TERM_ROWS = (
    "SELECT t.key, (SELECT group_concat(rowid) FROM (SELECT rowid FROM memory_chunk_fts "
    "WHERE memory_chunk_fts MATCH t.value LIMIT %s)) FROM json_each(%s) AS t"
)


def term_rowids(terms: Sequence[str], *, cap: int) -> dict[str, list[int]]:
    """For each term (quoted as one token), the ids of the chunks holding it, in id order.

    One statement; each list stops at `cap` ids, so a common word costs no more than a rare
    one. A list shorter than `cap` is complete (memory.lifecycle.facts uses that to find rare words).
    """
    if not terms:
        return {}
    lists: list[list[int]] = [[] for _ in terms]
    with connection.cursor() as cursor:
        cursor.execute(_TERM_ROWS, [cap, json.dumps([quote(t) for t in terms])])
        for index, found in cursor.fetchall():
            if found:
                lists[index] = sorted(map(int, found.split(",")))  # group_concat's order is unspecified
    return dict(zip(terms, lists, strict=True))


def chunk_rows(
    ids: Sequence[int], *, columns: Sequence[str], where: str, where_params: Sequence[object]
) -> list[tuple[object, ...]]:
    """`columns` of the chunks among `ids` that pass `where` (SQL over memory_chunk), any order."""
    if not ids:
        return []
    # NOT INDEXED: look each id up by rowid and test `where` on the row. Left to itself the
    # planner seeks (domain, namespace, rowid) in chunk_domain_namespace, then the row: two
    # b-tree descents per id (measured 2.4-2.9 vs 1.75 us/id over 3,700 ids at 90k rows).
    # The ids go as one JSON array (json_each): a statement text that does not change with
    # their number, and no thousands of placeholders to rewrite and bind.
    sql = (
        f"SELECT {', '.join(columns)} FROM memory_chunk NOT INDEXED "  # noqa: S608 - see module docstring
        f"WHERE memory_chunk.id IN (SELECT value FROM json_each(%s)) AND ({where or '1'})"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [json.dumps([int(i) for i in ids]), *where_params])
        return cursor.fetchall()


# -- integrity (memory.store.integrity): one FTS5 index checked against its external content table.
# Table names reach these functions from module constants only; _ident refuses anything else.

_IDENT = re.compile(r"[a-z_][a-z0-9_]*\Z")


def _ident(name: str) -> str:
    if not _IDENT.match(name):
        raise ValueError(f"not a table name: {name!r}")
    return name


def schema_objects(kind: str, names: Sequence[str]) -> set[str]:
    """Which of `names` exist in sqlite_master as `kind` ('table', 'trigger'); empty off SQLite."""
    return _schema_names(kind, names) if names else set()


def index_integrity_error(table: str = FTS_TABLE) -> str | None:
    """FTS5 'integrity-check' with rank 1 (index vs content table): the error, or None if sound."""
    from django.db import DatabaseError, transaction

    name = _ident(table)
    try:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(f"INSERT INTO {name}({name}, rank) VALUES('integrity-check', 1)")
    except DatabaseError as exc:
        return str(exc) or exc.__class__.__name__
    return None


def index_row_counts(table: str = FTS_TABLE, content: str = CHUNK_TABLE) -> dict[str, int]:
    """Rows of the content table vs documents in the index (FTS5's `<table>_docsize` shadow).

    `unindexed`: content rows the index lacks (an insert the trigger missed); `stale`: index
    documents whose content row is gone (a delete the trigger missed).
    """
    docsize, rows = _ident(table + "_docsize"), _ident(content)
    sql = (
        f"SELECT (SELECT count(*) FROM {rows}), (SELECT count(*) FROM {docsize}), "  # noqa: S608 - _ident
        f"(SELECT count(*) FROM {rows} AS c WHERE NOT EXISTS "
        f"(SELECT 1 FROM {docsize} AS d WHERE d.id = c.id)), "
        f"(SELECT count(*) FROM {docsize} AS d WHERE NOT EXISTS "
        f"(SELECT 1 FROM {rows} AS c WHERE c.id = d.id))"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql)
        content_rows, indexed, unindexed, stale = cursor.fetchone()
    return {"rows": content_rows, "indexed": indexed, "unindexed": unindexed, "stale": stale}


def rebuild_index(table: str = FTS_TABLE) -> None:
    """FTS5 'rebuild': the whole index re-read from its content table."""
    name = _ident(table)
    with connection.cursor() as cursor:
        cursor.execute(f"INSERT INTO {name}({name}) VALUES('rebuild')")


def run_schema_sql(statements: Sequence[str]) -> None:
    """Run DDL taken verbatim from a migration module (memory.store.integrity recreates lost objects)."""
    with connection.cursor() as cursor:
        for statement in statements:
            cursor.execute(statement)
