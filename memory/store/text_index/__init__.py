"""The chunk store's text index for the current database: which raw-SQL module serves it.

fts5 (SQLite FTS5) and tsvector (PostgreSQL tsvector + GIN) offer the same functions
(all_terms / any_pair / any_term expressions, match_ids, ranked_rows, term_rowids, chunk_rows,
insert_rows, page_cache, rebuild, integrity_check); callers ask here instead of importing one.
"""

from __future__ import annotations

from types import ModuleType

from django.db import connection

from memory.store.text_index import fts5, tsvector


def sql() -> ModuleType:
    """memory.store.text_index.tsvector on PostgreSQL, else memory.store.text_index.fts5."""
    return tsvector if connection.vendor == "postgresql" else fts5
