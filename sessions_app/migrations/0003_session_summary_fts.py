"""Session search: an FTS5 index (porter, so "audit log" finds "audit logs") over summaries.

External content over sessions_app_sessionsummary(topic, text, agent_id), kept in sync by
triggers. agent_id is indexed as a token so a query is scoped to its owner inside the index
(`agent_id : "7" AND {topic text} : (...)`): doclist intersection, no per-row content lookups.
Skipped when SQLite lacks FTS5 (session search then falls back to LIKE at runtime).
This migration carries its own copy of the SQL on purpose: it must not change when
sessions_app.fts does.
"""

from django.db import migrations

FORWARD = [
    """CREATE VIRTUAL TABLE IF NOT EXISTS sessions_app_summary_fts USING fts5(
        topic, text, agent_id,
        content='sessions_app_sessionsummary', content_rowid='id',
        tokenize='porter unicode61')""",
    """CREATE TRIGGER IF NOT EXISTS sessions_app_summary_fts_ai
    AFTER INSERT ON sessions_app_sessionsummary BEGIN
        INSERT INTO sessions_app_summary_fts(rowid, topic, text, agent_id)
        VALUES (new.id, new.topic, new.text, new.agent_id);
    END""",
    """CREATE TRIGGER IF NOT EXISTS sessions_app_summary_fts_ad
    AFTER DELETE ON sessions_app_sessionsummary BEGIN
        INSERT INTO sessions_app_summary_fts(sessions_app_summary_fts, rowid, topic, text, agent_id)
        VALUES ('delete', old.id, old.topic, old.text, old.agent_id);
    END""",
    """CREATE TRIGGER IF NOT EXISTS sessions_app_summary_fts_au
    AFTER UPDATE OF topic, text, agent_id ON sessions_app_sessionsummary BEGIN
        INSERT INTO sessions_app_summary_fts(sessions_app_summary_fts, rowid, topic, text, agent_id)
        VALUES ('delete', old.id, old.topic, old.text, old.agent_id);
        INSERT INTO sessions_app_summary_fts(rowid, topic, text, agent_id)
        VALUES (new.id, new.topic, new.text, new.agent_id);
    END""",
    "INSERT INTO sessions_app_summary_fts(sessions_app_summary_fts) VALUES('rebuild')",
]
REVERSE = [
    "DROP TRIGGER IF EXISTS sessions_app_summary_fts_au",
    "DROP TRIGGER IF EXISTS sessions_app_summary_fts_ad",
    "DROP TRIGGER IF EXISTS sessions_app_summary_fts_ai",
    "DROP TABLE IF EXISTS sessions_app_summary_fts",
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
    dependencies = [("sessions_app", "0002_session_turns_summaries_harvest")]
    operations = [migrations.RunPython(forward, reverse)]
