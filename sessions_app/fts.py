"""The only module with session-search FTS5 SQL. Always parameterized; DDL is in migration 0003.

The index is `sessions_app_summary_fts` (porter unicode61, external content over
sessions_app_sessionsummary: topic, text, agent_id). The owner is an indexed token, so every
query is scoped inside the index: `agent_id : "<id>" AND {topic text} : (<terms>)`. User text
reaches SQL only as a bound MATCH parameter, each term quoted by memory.store.text_index.fts5.quote (the chunk
store's sanitization); the agent id is an integer from our own rows.

Ranking is done by the caller from per-term doclists (see selectors.rank_summaries): bm25()
costs ~10 µs per matching row, which a common term across 10,000 summaries turns into 100 ms.
"""

from __future__ import annotations

from datetime import UTC, datetime

from django.db import connection

from memory.store.text_index import fts5 as chunk_fts
from memory.store.text_index.fts5 import any_term, quote

FTS_TABLE = "sessions_app_summary_fts"
SNIPPET_TOKENS = 16


def table_exists() -> bool:
    """Whether migration 0003 created the index (it is skipped without FTS5)."""
    if connection.vendor != "sqlite":
        return False
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = %s", [FTS_TABLE])
        return cursor.fetchone() is not None


def scoped(agent_id: int, expression: str) -> str:
    """An FTS5 expression over topic + text, restricted to one agent's summaries."""
    return f'agent_id : "{int(agent_id)}" AND {{topic text}} : ({expression})'


def term_ids(term: str, *, agent_id: int, limit: int) -> list[int]:
    """Summary ids of one agent containing `term` (stemmed), at most `limit`, in rowid order."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT rowid FROM sessions_app_summary_fts WHERE sessions_app_summary_fts MATCH %s LIMIT %s",
            [scoped(agent_id, quote(term)), limit],
        )
        return [row[0] for row in cursor.fetchall()]


def term_count(term: str, *, limit: int) -> int:
    """How many summaries (any agent's) contain `term`, counting no further than `limit`.

    Unscoped on purpose: the owner token's long doclist makes a scoped count several times
    dearer, and a document frequency over everyone's summaries is a fine idf estimate.
    """
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM (SELECT rowid FROM sessions_app_summary_fts "
            "WHERE sessions_app_summary_fts MATCH %s LIMIT %s)",
            ["{topic text} : (" + quote(term) + ")", limit],
        )
        return int(cursor.fetchone()[0])


def recent_ids(terms: list[str], *, agent_id: int, limit: int) -> list[int]:
    """Summary ids of one agent containing any of `terms`, most recently created first."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT rowid FROM sessions_app_summary_fts WHERE sessions_app_summary_fts MATCH %s "
            "ORDER BY rowid DESC LIMIT %s",
            [scoped(agent_id, any_term(terms)), limit],
        )
        return [row[0] for row in cursor.fetchall()]


def snippet_for(terms: list[str], *, agent_id: int, summary_id: int) -> str:
    """A short excerpt of one summary's text with the query terms in [brackets] ('' if none)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT snippet(sessions_app_summary_fts, 1, '[', ']', '…', %s) "
            "FROM sessions_app_summary_fts WHERE sessions_app_summary_fts MATCH %s AND rowid = %s",
            [SNIPPET_TOKENS, scoped(agent_id, any_term(terms)), summary_id],
        )
        row = cursor.fetchone()
    return (row[0] or "") if row else ""


ROW_COLUMNS = "id, session_key, updated_at, surface, topic, message_count"


def summary_rows(ids: list[int], *, agent_id: int) -> list[tuple[int, str, datetime, str, str, int]]:
    """(id, session id, updated_at, surface, topic, message_count) of the agent's summaries.

    Plain SQL because this runs on every relevant-digest turn and the ORM's query building
    costs ten times the query itself. Placeholders are generated from len(ids) (integers).
    """
    if not ids:
        return []
    marks = ", ".join(["%s"] * len(ids))
    sql = (
        f"SELECT {ROW_COLUMNS} FROM sessions_app_sessionsummary "  # noqa: S608 - constants only
        f"WHERE agent_id = %s AND id IN ({marks})"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [int(agent_id), *(int(i) for i in ids)])
        rows = cursor.fetchall()
    return [(r[0], r[1], _aware(r[2]), r[3], r[4], r[5]) for r in rows]


def _aware(value: object) -> datetime:
    """SQLite hands back the stored text (naive UTC, as Django writes it with USE_TZ)."""
    stamp = value if isinstance(value, datetime) else datetime.fromisoformat(str(value))
    return stamp if stamp.tzinfo else stamp.replace(tzinfo=UTC)


def rebuild() -> None:
    """Rebuild the index from sessions_app_sessionsummary (external content)."""
    with connection.cursor() as cursor:
        cursor.execute("INSERT INTO sessions_app_summary_fts(sessions_app_summary_fts) VALUES('rebuild')")


def integrity_check() -> bool:
    """FTS5's own check that the index matches the content table."""
    import django.db

    try:
        with connection.cursor() as cursor:
            cursor.execute(
                "INSERT INTO sessions_app_summary_fts(sessions_app_summary_fts, rank) "
                "VALUES('integrity-check', 1)"
            )
    except django.db.DatabaseError:
        return False
    return True


# -- integrity (memory.store.integrity)

SUMMARY_TABLE = "sessions_app_sessionsummary"
TRIGGERS = ("sessions_app_summary_fts_ai", "sessions_app_summary_fts_ad", "sessions_app_summary_fts_au")


def missing_schema() -> list[str]:
    """Names of the summary FTS table and sync triggers that are absent."""
    present = chunk_fts.schema_objects("table", [FTS_TABLE]) | chunk_fts.schema_objects("trigger", TRIGGERS)
    return [name for name in (FTS_TABLE, *TRIGGERS) if name not in present]


def integrity_error() -> str | None:
    """FTS5 'integrity-check' against the summaries table: the error, or None if sound."""
    return chunk_fts.index_integrity_error(FTS_TABLE)


def index_row_counts() -> dict[str, int]:
    return chunk_fts.index_row_counts(FTS_TABLE, SUMMARY_TABLE)
