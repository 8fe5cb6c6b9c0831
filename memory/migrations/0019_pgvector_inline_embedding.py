"""PostgreSQL: keep the pgvector embedding in the row, the float32 BLOB out of line.

Together they exceed PostgreSQL's ~2 KB row limit at 384 dims, and by default the embedding was
the value moved to the TOAST table, which every search then reads for each row it walks (the
exact rerank): at 300k rows a search touched ~2,240 pages, ~1,900 without those reads
(bench/pgvector.py; memory.store.pgvector_index). Changes the columns' storage only: rows
written from now on are laid out so; rows already stored keep their layout until rewritten.
A no-op on SQLite or without the pgvector column. Reverse restores the defaults.
"""

from django.db import migrations


def forward(apps, schema_editor):
    from memory.store import pgvector_index

    pgvector_index.reset_cache()
    pgvector_index.keep_embedding_inline(alias=schema_editor.connection.alias)


def reverse(apps, schema_editor):
    from memory.store import pgvector_index

    pgvector_index.reset_cache()
    if schema_editor.connection.vendor != "postgresql" or not pgvector_index.has_column(
        schema_editor.connection.alias
    ):
        return
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(
            "ALTER TABLE memory_chunk_vector ALTER COLUMN embedding SET STORAGE EXTERNAL, "
            "ALTER COLUMN vector SET STORAGE EXTENDED"
        )


class Migration(migrations.Migration):
    dependencies = [("memory", "0018_pgvector_halfvec")]

    operations = [migrations.RunPython(forward, reverse)]
