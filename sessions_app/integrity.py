"""The session-summary FTS5 index joins the store's integrity check (`manage.py protomem check`)."""

from __future__ import annotations

from memory.store.integrity import FtsIndex, register_fts_index
from sessions_app import fts

SUMMARY_FTS_MIGRATION = ("sessions_app", "0003_session_summary_fts")


def register_summary_index() -> None:
    register_fts_index(
        FtsIndex(
            "summary_fts",
            fts.FTS_TABLE,
            fts.SUMMARY_TABLE,
            SUMMARY_FTS_MIGRATION,
            fts.missing_schema,
            fts.integrity_error,
            fts.index_row_counts,
            fts.rebuild,
        )
    )
