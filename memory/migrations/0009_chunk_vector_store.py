"""Chunk vectors for hybrid search: an ordinary table (chunk id, model, float32 BLOB).

Not sqlite-vec: this Python's sqlite3 cannot load extensions, and numpy brute force over the
rows held in memory was measured faster at 100k-1M rows (see memory.vectors).

- memory_chunk_vector: one row per chunk (UNIQUE chunk_id), AUTOINCREMENT id so rows added
  later always have a larger id (the in-process index extends itself by `id > last seen`).
- memory_chunk_vector_state: one row whose `epoch` changes (random) whenever a vector row is
  deleted or rewritten, so every process notices removals with one cheap read.
- Triggers: a deleted chunk takes its vector with it; an edit of heading/content drops the
  now stale vector (the backfill recomputes it).

Plain SQL: it runs on any SQLite, needs no extension, and carries its own copy on purpose.
"""

from django.db import migrations

FORWARD = [
    """CREATE TABLE IF NOT EXISTS memory_chunk_vector (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        chunk_id INTEGER NOT NULL UNIQUE,
        model TEXT NOT NULL,
        dim INTEGER NOT NULL,
        vector BLOB NOT NULL,
        created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP
    )""",
    "CREATE INDEX IF NOT EXISTS memory_chunk_vector_model ON memory_chunk_vector (model, id)",
    """CREATE TABLE IF NOT EXISTS memory_chunk_vector_state (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        epoch BLOB NOT NULL
    )""",
    "INSERT OR IGNORE INTO memory_chunk_vector_state (id, epoch) VALUES (1, randomblob(16))",
    """CREATE TRIGGER IF NOT EXISTS memory_chunk_vector_ad AFTER DELETE ON memory_chunk_vector BEGIN
        UPDATE memory_chunk_vector_state SET epoch = randomblob(16) WHERE id = 1;
    END""",
    """CREATE TRIGGER IF NOT EXISTS memory_chunk_vector_au AFTER UPDATE ON memory_chunk_vector BEGIN
        UPDATE memory_chunk_vector_state SET epoch = randomblob(16) WHERE id = 1;
    END""",
    """CREATE TRIGGER IF NOT EXISTS memory_chunk_vector_chunk_ad AFTER DELETE ON memory_chunk BEGIN
        DELETE FROM memory_chunk_vector WHERE chunk_id = old.id;
    END""",
    """CREATE TRIGGER IF NOT EXISTS memory_chunk_vector_chunk_au AFTER UPDATE OF heading, content
    ON memory_chunk WHEN old.heading IS NOT new.heading OR old.content IS NOT new.content BEGIN
        DELETE FROM memory_chunk_vector WHERE chunk_id = old.id;
    END""",
]
REVERSE = [
    "DROP TRIGGER IF EXISTS memory_chunk_vector_chunk_au",
    "DROP TRIGGER IF EXISTS memory_chunk_vector_chunk_ad",
    "DROP TRIGGER IF EXISTS memory_chunk_vector_au",
    "DROP TRIGGER IF EXISTS memory_chunk_vector_ad",
    "DROP TABLE IF EXISTS memory_chunk_vector_state",
    "DROP TABLE IF EXISTS memory_chunk_vector",
]


def forward(apps, schema_editor):
    if schema_editor.connection.vendor == "sqlite":
        for statement in FORWARD:
            schema_editor.execute(statement)


def reverse(apps, schema_editor):
    if schema_editor.connection.vendor == "sqlite":
        for statement in REVERSE:
            schema_editor.execute(statement)


class Migration(migrations.Migration):
    dependencies = [("memory", "0008_chunk_review_queue_index")]
    operations = [migrations.RunPython(forward, reverse)]
