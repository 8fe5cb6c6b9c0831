"""The only module with FTS5 SQL for the skills index (memory_skill_fts). Always parameterized.

Like memory/fts5.py, the MATCH runs alone (ranked, limited); callers filter ids through the ORM.
The table and its triggers come from migration memory/0005_skill_fts.
"""

from __future__ import annotations

from django.db import connection

from memory.store.text_index import fts5

SKILL_FTS_TABLE = "memory_skill_fts"
# bm25 column weights: name, description, content. A name hit says most about the skill.
BM25_WEIGHTS = (4.0, 2.0, 1.0)


def skill_fts_ready() -> bool:
    """Whether this database has the skills FTS5 table (it is skipped without FTS5)."""
    if connection.vendor != "sqlite" or not fts5.fts5_compiled():
        return False
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = %s", [SKILL_FTS_TABLE])
        return cursor.fetchone() is not None


def match_skill_ids(expression: str, *, limit: int | None) -> list[int]:
    """Skill ids matching an FTS5 expression, best bm25 first."""
    sql = (
        "SELECT rowid FROM memory_skill_fts WHERE memory_skill_fts MATCH %s "
        "ORDER BY bm25(memory_skill_fts, %s, %s, %s)"
    )
    params: list[object] = [expression, *BM25_WEIGHTS]
    if limit is not None:
        sql += " LIMIT %s"
        params.append(limit)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return [row[0] for row in cursor.fetchall()]


def rebuild_skill_index() -> None:
    """Rebuild the skills index from memory_skill (external content)."""
    with connection.cursor() as cursor:
        cursor.execute("INSERT INTO memory_skill_fts(memory_skill_fts) VALUES('rebuild')")


# -- integrity (memory.store.integrity)

SKILL_TABLE = "memory_skill"
SKILL_TRIGGERS = ("memory_skill_fts_ai", "memory_skill_fts_ad", "memory_skill_fts_au")


def skill_index_missing_schema() -> list[str]:
    """Names of the skills FTS table and sync triggers that are absent."""
    present = fts5.schema_objects("table", [SKILL_FTS_TABLE]) | fts5.schema_objects("trigger", SKILL_TRIGGERS)
    return [name for name in (SKILL_FTS_TABLE, *SKILL_TRIGGERS) if name not in present]


def skill_index_integrity_error() -> str | None:
    return fts5.index_integrity_error(SKILL_FTS_TABLE)


def skill_index_row_counts() -> dict[str, int]:
    return fts5.index_row_counts(SKILL_FTS_TABLE, SKILL_TABLE)
