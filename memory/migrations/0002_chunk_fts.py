"""The chunk FTS5 index: external content over heading + content, kept in sync by triggers.

Skipped (with a LIKE fallback at runtime) when SQLite lacks FTS5 or the database is not SQLite.
This migration carries its own copy of the SQL on purpose: it must not change when memory.fts does.
"""

from django.db import migrations

FORWARD = [
    """CREATE VIRTUAL TABLE IF NOT EXISTS memory_chunk_fts USING fts5(
        heading, content, content='memory_chunk', content_rowid='id',
        tokenize='porter unicode61')""",
    """CREATE TRIGGER IF NOT EXISTS memory_chunk_fts_ai AFTER INSERT ON memory_chunk BEGIN
        INSERT INTO memory_chunk_fts(rowid, heading, content)
        VALUES (new.id, new.heading, new.content);
    END""",
    """CREATE TRIGGER IF NOT EXISTS memory_chunk_fts_ad AFTER DELETE ON memory_chunk BEGIN
        INSERT INTO memory_chunk_fts(memory_chunk_fts, rowid, heading, content)
        VALUES ('delete', old.id, old.heading, old.content);
    END""",
    """CREATE TRIGGER IF NOT EXISTS memory_chunk_fts_au AFTER UPDATE OF heading, content
    ON memory_chunk BEGIN
        INSERT INTO memory_chunk_fts(memory_chunk_fts, rowid, heading, content)
        VALUES ('delete', old.id, old.heading, old.content);
        INSERT INTO memory_chunk_fts(rowid, heading, content)
        VALUES (new.id, new.heading, new.content);
    END""",
    "INSERT INTO memory_chunk_fts(memory_chunk_fts) VALUES('rebuild')",
]
REVERSE = [
    "DROP TRIGGER IF EXISTS memory_chunk_fts_au",
    "DROP TRIGGER IF EXISTS memory_chunk_fts_ad",
    "DROP TRIGGER IF EXISTS memory_chunk_fts_ai",
    "DROP TABLE IF EXISTS memory_chunk_fts",
]


def has_fts5(schema_editor):
    if schema_editor.connection.vendor != "sqlite":
        return False
    with schema_editor.connection.cursor() as cursor:
        cursor.execute("PRAGMA compile_options")
        return any(row[0] == "ENABLE_FTS5" for row in cursor.fetchall())


def forward(apps, schema_editor):
    if has_fts5(schema_editor):
        for statement in FORWARD:
            schema_editor.execute(statement)


def reverse(apps, schema_editor):
    if schema_editor.connection.vendor == "sqlite":
        for statement in REVERSE:
            schema_editor.execute(statement)


class Migration(migrations.Migration):
    dependencies = [("memory", "0001_initial")]
    operations = [migrations.RunPython(forward, reverse)]
