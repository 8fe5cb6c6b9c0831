"""FTS5 usermerge=2 on the chunk index: a positive 'merge' command also combines two segments.

memory.facts.facts_ingest runs a bounded 'merge' after each bulk batch (memory.fts.merge_segments)
so term lookups, which seek once per index segment, stay cheap as facts accumulate. Only that
command reads usermerge; what every write merges on its own (automerge) keeps its default.

A config row of the FTS table, not a schema change: memory_chunk and its triggers are untouched.
Skipped where the FTS table does not exist (no FTS5, or not SQLite). Its own copy of the SQL, as
0002 has.
"""

from django.db import migrations

FORWARD = "INSERT INTO memory_chunk_fts(memory_chunk_fts, rank) VALUES('usermerge', 2)"
REVERSE = "INSERT INTO memory_chunk_fts(memory_chunk_fts, rank) VALUES('usermerge', 4)"  # the default


def fts_table_exists(schema_editor):
    if schema_editor.connection.vendor != "sqlite":
        return False
    with schema_editor.connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'memory_chunk_fts'")
        return cursor.fetchone() is not None


def forward(apps, schema_editor):
    if fts_table_exists(schema_editor):
        schema_editor.execute(FORWARD)


def reverse(apps, schema_editor):
    if fts_table_exists(schema_editor):
        schema_editor.execute(REVERSE)


class Migration(migrations.Migration):
    dependencies = [("memory", "0011_postgres_search_and_vectors")]
    operations = [migrations.RunPython(forward, reverse)]
