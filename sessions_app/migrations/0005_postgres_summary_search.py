"""Session search on PostgreSQL: a generated tsvector over topic + text, GIN indexed.

The twin of migration 0003's FTS5 index (english stemming, like porter: "audit log" finds
"audit logs"). Queries scope by agent_id with the ordinary column; sessions_app.pg_fts reads it.
A no-op on other databases.
"""

from django.db import migrations

FORWARD = [
    """ALTER TABLE sessions_app_sessionsummary ADD COLUMN IF NOT EXISTS search_vector tsvector
        GENERATED ALWAYS AS (
            setweight(to_tsvector('english', coalesce(topic, '')), 'A')
            || setweight(to_tsvector('english', coalesce(text, '')), 'B')
        ) STORED""",
    """CREATE INDEX IF NOT EXISTS sessions_app_summary_search_vector
        ON sessions_app_sessionsummary USING GIN (search_vector) WITH (fastupdate = off)""",
]
REVERSE = [
    "DROP INDEX IF EXISTS sessions_app_summary_search_vector",
    "ALTER TABLE sessions_app_sessionsummary DROP COLUMN IF EXISTS search_vector",
]


def forward(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        for statement in FORWARD:
            schema_editor.execute(statement)


def reverse(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        for statement in REVERSE:
            schema_editor.execute(statement)


class Migration(migrations.Migration):
    dependencies = [("sessions_app", "0004_api_key_plural_names")]
    operations = [migrations.RunPython(forward, reverse, elidable=False)]
