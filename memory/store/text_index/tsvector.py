"""The only module with raw SQL for the chunk store on PostgreSQL: the tsvector twin of text_index.fts5.

Same functions and contracts as text_index.fts5 (text_index picks one per connection), over
the generated `memory_chunk.search_vector` column and its GIN index (migration 0011):

- An expression is a disjunction of conjunctions of terms, e.g. (("a", "b"), ("a", "c")) for
  "rows with a and b, or a and c". Each term reaches SQL as its own bound parameter through
  `websearch_to_tsquery('english', %s)`, which never raises on odd input and applies the same
  english stemming as the column; the groups are joined with tsquery's && and ||.
- Rank: ts_rank with heading (weight A) worth twice content (weight B), like the FTS5 bm25
  column weights, normalised by document length (flag 1) as bm25 is.
- The MATCH runs in its own ranked, limited subquery, then the chunk filters, as text_index.fts5 does.
  PostgreSQL's planner would not fall into SQLite's trap, but one shape keeps the two backends'
  results the same (considered / looked_at semantics included).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence

from django.db import connection

from memory.store.text_index import fts5

CHUNK_TABLE = "memory_chunk"
Expression = tuple[tuple[str, ...], ...]
# ts_rank weights, in PostgreSQL's order {D, C, B, A}: heading (A) 1.0, content (B) 0.5.
RANK_WEIGHTS = "{0.1, 0.2, 0.5, 1.0}"
RANK_NORMALIZATION = 1  # divide by 1 + log(document length)
MAX_PARAMS = 65535  # PostgreSQL's limit of bind parameters per statement
MAX_ROWS_PER_INSERT = 2000
_TERM = "websearch_to_tsquery('english', %s)"
UNINDEXABLE = -1  # the id term_rowids lists for a word PostgreSQL does not index (see there)


def all_terms(terms: Sequence[str]) -> Expression:
    return (tuple(terms),)


def any_term(terms: Sequence[str]) -> Expression:
    return tuple((t,) for t in terms)


def any_pair(terms: Sequence[str]) -> Expression:
    """Rows with at least two of the terms."""
    return tuple((a, b) for i, a in enumerate(terms) for b in terms[i + 1 :])


class Steps(tuple[Expression, ...]):
    """Plan steps ranked by one statement (chunk_plan): a row ranks in the first step it
    matches, by that step's rank, so the rows come in the order the steps would give one
    statement each (rows an earlier step gave are not repeated by a later one either way).
    Each step must hold the ones before it (all terms within any pair): the last one is the
    statement's match."""


def steps(expressions: Sequence[Expression]) -> Steps:
    return Steps(expressions)


def tsquery(expression: Expression | Steps) -> tuple[str, list[object]]:
    """SQL for the expression as one tsquery value, and its parameters (one per term)."""
    if isinstance(expression, Steps):
        return tsquery(expression[-1])
    groups = ["(" + " && ".join([_TERM] * len(group)) + ")" for group in expression if group]
    if not groups:
        return "''::tsquery", []
    return "(" + " || ".join(groups) + ")", [term for group in expression for term in group]


def _ranked(
    expression: Expression | Steps, limit: int | None, *, table: str = CHUNK_TABLE
) -> tuple[str, list[object]]:
    """(id, step, score) of `table`'s rows matching the expression, best first (step 0 unless
    Steps); `table` is a constant."""
    if isinstance(expression, Steps):
        return _ranked_steps(expression, limit, table=table)
    query, params = tsquery(expression)
    sql = (
        f"SELECT c.id, 0 AS step, ts_rank(%s, c.search_vector, {query}, %s) AS score "  # noqa: S608 - see docstring
        f"FROM {table} AS c WHERE c.search_vector @@ {query} ORDER BY score DESC, c.id"
    )
    args: list[object] = [RANK_WEIGHTS, *params, RANK_NORMALIZATION, *params]
    if limit is not None:
        sql += " LIMIT %s"
        args.append(limit)
    return sql, args


def _ranked_steps(expression: Steps, limit: int | None, *, table: str) -> tuple[str, list[object]]:
    """_ranked for Steps: each row's first matching step, then that step's rank."""
    queries = [tsquery(step) for step in expression]
    last = len(queries) - 1
    step_sql: list[str] = []
    score_sql: list[str] = []
    step_args: list[object] = []
    score_args: list[object] = []
    for index, (query, params) in enumerate(queries[:-1]):
        step_sql.append(f"WHEN c.search_vector @@ {query} THEN {index}")
        step_args += params
        score_sql.append(f"WHEN c.search_vector @@ {query} THEN ts_rank(%s, c.search_vector, {query}, %s)")
        score_args += [*params, RANK_WEIGHTS, *params, RANK_NORMALIZATION]
    broadest, params = queries[-1]
    sql = (
        f"SELECT c.id, CASE {' '.join(step_sql)} ELSE {last} END AS step, "  # noqa: S608 - see docstring
        f"CASE {' '.join(score_sql)} ELSE ts_rank(%s, c.search_vector, {broadest}, %s) END AS score "
        f"FROM {table} AS c WHERE c.search_vector @@ {broadest} ORDER BY step, score DESC, c.id"
    )
    args: list[object] = [*step_args, *score_args, RANK_WEIGHTS, *params, RANK_NORMALIZATION, *params]
    if limit is not None:
        sql += " LIMIT %s"
        args.append(limit)
    return sql, args


def match_ids(expression: Expression | Steps, *, limit: int | None) -> list[int]:
    """Chunk ids matching an expression, best rank first (no filters)."""
    sql, params = _ranked(expression, limit)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return [row[0] for row in cursor.fetchall()]


def ranked_rows(
    expression: Expression | Steps,
    *,
    columns: Sequence[str],
    where: str,
    where_params: Sequence[object],
    considered: int | None,
    take: int,
) -> tuple[list[tuple[object, ...]], int]:
    """fts5.ranked_rows on PostgreSQL: rows passing `where`, and how many matches were looked at."""
    ranked, params = _ranked(expression, considered)
    sql = (
        f"SELECT {', '.join(columns)}, count(*) OVER () FROM ({ranked}) AS m "  # noqa: S608 - see docstring
        f"LEFT JOIN memory_chunk ON memory_chunk.id = m.id AND ({where or 'TRUE'}) "
        "ORDER BY memory_chunk.id IS NULL, m.step, m.score DESC, m.id LIMIT %s"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [*params, *where_params, take])
        rows = cursor.fetchall()
    if not rows:
        return [], 0
    return [row[:-1] for row in rows if row[0] is not None], rows[0][-1]


def term_rowids(terms: Sequence[str], *, cap: int) -> dict[str, list[int]]:
    """fts5.term_rowids on PostgreSQL: per term, up to `cap` ids of chunks holding it, ascending.

    One statement: a capped GIN probe per term. A word the english dictionary drops (a stopword
    such as "was" or "only") has no lexeme to look up and would read as held by no row; it is
    held by most rows, so it is reported as common (`cap` UNINDEXABLE ids, never a real row).
    """
    if not terms:
        return {}
    sql = (
        "SELECT t.i, c.id, numnode(websearch_to_tsquery('english', t.term)) = 0 "
        "FROM unnest(%s::text[]) WITH ORDINALITY AS t(term, i) "
        "LEFT JOIN LATERAL (SELECT id FROM memory_chunk "
        "WHERE search_vector @@ websearch_to_tsquery('english', t.term) LIMIT %s) AS c ON TRUE"
    )
    lists: list[list[int]] = [[] for _ in terms]
    with connection.cursor() as cursor:
        cursor.execute(sql, [list(terms), cap])
        for index, chunk_id, unindexable in cursor.fetchall():
            if unindexable:
                lists[index - 1] = [UNINDEXABLE] * cap
            elif chunk_id is not None:
                lists[index - 1].append(chunk_id)
    return {term: sorted(ids) for term, ids in zip(terms, lists, strict=True)}


def chunk_rows(
    ids: Sequence[int], *, columns: Sequence[str], where: str, where_params: Sequence[object]
) -> list[tuple[object, ...]]:
    """`columns` of the chunks among `ids` that pass `where` (SQL over memory_chunk), any order."""
    if not ids:
        return []
    sql = (
        f"SELECT {', '.join(columns)} FROM memory_chunk "  # noqa: S608 - see docstring
        f"WHERE memory_chunk.id = ANY(%s) AND ({where or 'TRUE'})"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [list(ids), *where_params])
        return cursor.fetchall()


def insert_rows(
    columns: Sequence[str], rows: Sequence[Sequence[object]], *, returning: Sequence[str]
) -> list[tuple[object, ...]]:
    """Bulk INSERT into memory_chunk, many rows per statement; the `returning` columns of each row."""
    if not rows:
        return []
    per_statement = max(1, min(MAX_ROWS_PER_INSERT, MAX_PARAMS // len(columns)))
    return fts5.multi_row_insert(columns, rows, returning=returning, per_statement=per_statement)


@contextlib.contextmanager
def page_cache(kib: int) -> Iterator[None]:
    """No-op: PostgreSQL's shared buffers are the server's business."""
    yield


def match_rowids(expression: Expression, *, limit: int) -> list[int]:
    """Ids of chunks matching an expression, unranked, ascending, at most `limit`."""
    query, params = tsquery(expression)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT id FROM memory_chunk WHERE search_vector @@ {query} ORDER BY id LIMIT %s",  # noqa: S608
            [*params, limit],
        )
        return [row[0] for row in cursor.fetchall()]


def indexable(terms: Sequence[str]) -> bool:
    """Whether any of the terms has a lexeme (the english dictionary drops stopwords)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT numnode(websearch_to_tsquery('english', %s)) > 0", [" ".join(terms)])
        return bool(cursor.fetchone()[0])


def like_rows(
    terms: Sequence[str], *, columns: Sequence[str], where: str, where_params: Sequence[object], limit: int
) -> list[tuple[object, ...]]:
    """Rows passing `where` whose content holds every term (any case), newest first.

    Only for a text made of stopwords alone, which the tsvector cannot find (see indexable).
    """
    likes = " AND ".join(["memory_chunk.content ILIKE %s"] * len(terms)) or "TRUE"
    sql = (
        f"SELECT {', '.join(columns)} FROM memory_chunk "  # noqa: S608 - see docstring
        f"WHERE ({where or 'TRUE'}) AND {likes} ORDER BY memory_chunk.id DESC LIMIT %s"
    )
    escaped = ["%" + connection.ops.prep_for_like_query(t) + "%" for t in terms]
    with connection.cursor() as cursor:
        cursor.execute(sql, [*where_params, *escaped, limit])
        return cursor.fetchall()


def ensure_page_cache(kib: int) -> None:
    """No-op: see page_cache."""


def merge_segments(pages: int) -> None:
    """No-op: GIN's pending list is merged by PostgreSQL (fastupdate, autovacuum)."""


def segment_count() -> int:
    """FTS5 segments have no PostgreSQL counterpart."""
    return 0


def rebuild() -> None:
    """No-op: a generated column cannot drift from its row."""


def integrity_check() -> bool:
    """A generated column is consistent by construction."""
    return True


def column_exists(table: str) -> bool:
    """Whether `table` has its search_vector column here (memory 0011, sessions_app 0005)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT 1 FROM information_schema.columns WHERE table_name = %s AND column_name = %s",
            [table, "search_vector"],
        )
        return cursor.fetchone() is not None


def skill_ids(expression: Expression, *, limit: int | None) -> list[int]:
    """Skill ids matching an expression over memory_skill.search_vector, best rank first."""
    sql, params = _ranked(expression, limit, table="memory_skill")
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return [row[0] for row in cursor.fetchall()]
