"""Which database the suite runs on (CI runs it on SQLite and on PostgreSQL)."""

from __future__ import annotations

from django.db import connection


def on_postgres() -> bool:
    return connection.vendor == "postgresql"


def ranked_backend() -> str:
    """The name search_backend_name() reports when the text index is in place."""
    return "tsvector" if on_postgres() else "fts5"
