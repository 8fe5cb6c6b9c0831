"""The skills FTS5 index (name, description, content), external content, trigger-synced.

Skipped when SQLite lacks FTS5 or the database is not SQLite (skills then match with LIKE).
"""

from django.db import migrations

FORWARD = [
    """CREATE VIRTUAL TABLE IF NOT EXISTS memory_skill_fts USING fts5(
        name, description, content, content='memory_skill', content_rowid='id',
        tokenize='porter unicode61')""",
    """CREATE TRIGGER IF NOT EXISTS memory_skill_fts_ai AFTER INSERT ON memory_skill BEGIN
        INSERT INTO memory_skill_fts(rowid, name, description, content)
        VALUES (new.id, new.name, new.description, new.content);
    END""",
    """CREATE TRIGGER IF NOT EXISTS memory_skill_fts_ad AFTER DELETE ON memory_skill BEGIN
        INSERT INTO memory_skill_fts(memory_skill_fts, rowid, name, description, content)
        VALUES ('delete', old.id, old.name, old.description, old.content);
    END""",
    """CREATE TRIGGER IF NOT EXISTS memory_skill_fts_au AFTER UPDATE OF name, description, content
    ON memory_skill BEGIN
        INSERT INTO memory_skill_fts(memory_skill_fts, rowid, name, description, content)
        VALUES ('delete', old.id, old.name, old.description, old.content);
        INSERT INTO memory_skill_fts(rowid, name, description, content)
        VALUES (new.id, new.name, new.description, new.content);
    END""",
    "INSERT INTO memory_skill_fts(memory_skill_fts) VALUES('rebuild')",
]
REVERSE = [
    "DROP TRIGGER IF EXISTS memory_skill_fts_au",
    "DROP TRIGGER IF EXISTS memory_skill_fts_ad",
    "DROP TRIGGER IF EXISTS memory_skill_fts_ai",
    "DROP TABLE IF EXISTS memory_skill_fts",
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
    dependencies = [("memory", "0004_skill_and_admin_proxies")]
    operations = [migrations.RunPython(forward, reverse)]
