"""System checks for the knowledge store (run by `manage.py check` and before every command).

- memory.W001  SQLite lacks FTS5: search works, through the slower LIKE fallback.
- memory.E001  FTS5 is available and the FTS migration has run, but the chunk FTS table or a
               sync trigger is missing: search would silently fall back to LIKE (or stop
               seeing new rows), so this is an error.
- memory.W002  SECRET_KEY is the embedded development default while DEBUG is off (`check --deploy`).

E001 only looks at a database whose memory migrations have run: before the first `migrate`
there is nothing to check, and failing then would stop `migrate` itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.core import checks
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections
from django.db.migrations.recorder import MigrationRecorder

from memory.store.text_index import fts5

# protomem/settings.py's fallback when DJANGO_SECRET_KEY is unset (tests/test_project.py pins it).
DEV_SECRET_KEY = "insecure-dev-key-change-me"  # noqa: S105 - the value we warn about
FTS_MIGRATION = ("memory", "0002_chunk_fts")
REPAIR_HINT = (
    "`manage.py protomem check --rebuild` recreates them and reindexes. "
    "The FTS5 table and triggers are created by migration memory.0002_chunk_fts, which skips "
    "them on a SQLite without FTS5. Re-run it on this SQLite: `manage.py migrate memory 0001 "
    "--fake --skip-checks`, `manage.py migrate memory 0002_chunk_fts --skip-checks`, then "
    "`manage.py migrate memory --fake`."
)


def _fts_migration_applied() -> bool:
    recorder = MigrationRecorder(connections[DEFAULT_DB_ALIAS])
    if not recorder.has_table():
        return False
    return recorder.migration_qs.filter(app=FTS_MIGRATION[0], name=FTS_MIGRATION[1]).exists()


@checks.register()
def fts_schema_check(app_configs: Sequence[Any] | None = None, **kwargs: Any) -> list[checks.CheckMessage]:
    """W001 when SQLite lacks FTS5; E001 when it has FTS5 but the migrated schema lacks the index."""
    if connections[DEFAULT_DB_ALIAS].vendor != "sqlite":
        return []
    if not fts5.fts5_compiled():
        return [
            checks.Warning(
                "This SQLite build has no FTS5: chunk search uses the LIKE fallback "
                "(correct, but unranked by bm25 and slow on a large store).",
                hint="Use a Python whose sqlite3 module is built with FTS5 (most are).",
                id="memory.W001",
            )
        ]
    try:
        if not _fts_migration_applied():
            return []
        missing = fts5.missing_schema()
    except DatabaseError as exc:
        return [
            checks.Warning(
                f"Could not inspect the knowledge store's FTS schema: {exc}",
                id="memory.W003",
            )
        ]
    if not missing:
        return []
    return [
        checks.Error(
            f"SQLite has FTS5 but the chunk search index is incomplete: missing {', '.join(missing)}.",
            hint=REPAIR_HINT,
            obj=fts5.FTS_TABLE,
            id="memory.E001",
        )
    ]


# deploy=True: `manage.py check --deploy` and `protomem doctor` say it, not every command's preamble.
@checks.register(checks.Tags.security, deploy=True)
def secret_key_check(app_configs: Sequence[Any] | None = None, **kwargs: Any) -> list[checks.CheckMessage]:
    """W002 when the embedded development SECRET_KEY is used with DEBUG off."""
    if settings.DEBUG or settings.SECRET_KEY != DEV_SECRET_KEY:
        return []
    return [
        checks.Warning(
            "SECRET_KEY is the embedded development default and DEBUG is off.",
            hint="Set DJANGO_SECRET_KEY to a long random value before exposing this service.",
            id="memory.W002",
        )
    ]
