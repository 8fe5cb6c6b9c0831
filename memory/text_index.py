"""The chunk store's text index for the current database: which raw-SQL module serves it.

memory.fts (SQLite FTS5) and memory.pg_fts (PostgreSQL tsvector + GIN) offer the same functions
(all_terms / any_pair / any_term expressions, match_ids, ranked_rows, term_rowids, chunk_rows,
insert_rows, page_cache, rebuild, integrity_check); callers ask here instead of importing one.
"""

from __future__ import annotations

from types import ModuleType

from django.db import connection

from memory import fts, pg_fts


def sql() -> ModuleType:
    """memory.pg_fts on PostgreSQL, else memory.fts."""
    return pg_fts if connection.vendor == "postgresql" else fts
