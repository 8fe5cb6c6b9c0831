"""The only module with session-search SQL for PostgreSQL: the twin of sessions_app.fts.

Reads the generated `sessions_app_sessionsummary.search_vector` column (migration 0005, english
stemming, GIN indexed). Same functions and contracts as sessions_app.fts; the agent scope is the
ordinary agent_id column. Each term reaches SQL as a bound `websearch_to_tsquery` parameter.
"""

from __future__ import annotations

from django.db import connection

from memory.store.text_index.tsvector import any_term, tsquery
from sessions_app.fts import SNIPPET_TOKENS, summary_rows

__all__ = ["SUMMARY_TABLE", "recent_ids", "snippet_for", "summary_rows", "term_count", "term_ids"]

SUMMARY_TABLE = "sessions_app_sessionsummary"


def _any(terms: list[str]) -> tuple[str, list[object]]:
    """A tsquery matching any of the terms (text_index.tsvector builds it, one bound term each)."""
    return tsquery(any_term(terms))


def term_ids(term: str, *, agent_id: int, limit: int) -> list[int]:
    """Summary ids of one agent containing `term` (stemmed), at most `limit`, ascending."""
    query, params = _any([term])
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT id FROM sessions_app_sessionsummary "  # noqa: S608 - constants only
            f"WHERE agent_id = %s AND search_vector @@ {query} ORDER BY id LIMIT %s",
            [int(agent_id), *params, limit],
        )
        return [row[0] for row in cursor.fetchall()]


def term_count(term: str, *, limit: int) -> int:
    """How many summaries (any agent's) contain `term`, counting no further than `limit`."""
    query, params = _any([term])
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM (SELECT 1 FROM sessions_app_sessionsummary "  # noqa: S608 - constants only
            f"WHERE search_vector @@ {query} LIMIT %s) AS t",
            [*params, limit],
        )
        return int(cursor.fetchone()[0])


def recent_ids(terms: list[str], *, agent_id: int, limit: int) -> list[int]:
    """Summary ids of one agent containing any of `terms`, most recently created first."""
    query, params = _any(terms)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT id FROM sessions_app_sessionsummary "  # noqa: S608 - placeholders only
            f"WHERE agent_id = %s AND search_vector @@ {query} ORDER BY id DESC LIMIT %s",
            [int(agent_id), *params, limit],
        )
        return [row[0] for row in cursor.fetchall()]


# ts_headline marks hits with these (never in stored text); they become [ ] once the excerpt is whole.
_START, _STOP = "\x02", "\x03"


def snippet_for(terms: list[str], *, agent_id: int, summary_id: int) -> str:
    """A short excerpt of one summary's text with the query terms in [brackets] ('' if none)."""
    options = f"StartSel={_START}, StopSel={_STOP}, MaxWords={SNIPPET_TOKENS}, MinWords=4"
    query, params = _any(terms)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT ts_headline('english', text, {query}, %s), text "  # noqa: S608 - placeholders only
            "FROM sessions_app_sessionsummary WHERE agent_id = %s AND id = %s",
            [*params, options, int(agent_id), int(summary_id)],
        )
        row = cursor.fetchone()
    if not row or not row[0]:
        return ""
    return _whole_words(row[0], row[1] or "").replace(_START, "[").replace(_STOP, "]")


def _whole_words(excerpt: str, text: str) -> str:
    """The excerpt widened to whitespace in `text`: ts_headline stops at word characters, so
    "[REDACTED]" would lose its closing bracket."""
    plain = excerpt.replace(_START, "").replace(_STOP, "")
    start = text.find(plain)
    if start < 0:
        return excerpt
    end = start + len(plain)
    head = start
    while head > 0 and not text[head - 1].isspace():
        head -= 1
    tail = end
    while tail < len(text) and not text[tail].isspace():
        tail += 1
    return text[head:start] + excerpt + text[end:tail]
