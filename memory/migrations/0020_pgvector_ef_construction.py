"""PostgreSQL: the pgvector HNSW indexes rebuilt with ef_construction = 256 (was 128).

A graph built with a longer candidate list per insertion has better neighbour lists, so a search
of the same length (hnsw.ef_search) reaches more of the true nearest rows at the same cost per
query; it is built once, about twice as long (memory.store.pgvector_index, bench/pgvector.py).
The drop and the build share the migration's transaction, so vector reads and writes wait for
it (as for 0018): on a large store, migrate in a quiet window. Only indexes built with another
ef_construction are rebuilt, so a database whose indexes 0018 just built with the new value is
left alone. A no-op on SQLite or without the pgvector column.

Reverse rebuilds them with ef_construction = 128 (its own copy of that SQL).
"""

from django.db import migrations

PREVIOUS = 128


def _indexes(cursor):
    """(name, dim, reloptions) of the vector table's halfvec HNSW indexes; None without the column."""
    cursor.execute(
        "SELECT EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = to_regclass('memory_chunk_vector') "
        "AND attname = 'embedding' AND NOT attisdropped)"
    )
    if not cursor.fetchone()[0]:
        return None
    cursor.execute(
        "SELECT c.relname, coalesce(c.reloptions, '{}') FROM pg_class AS c WHERE c.relkind = 'i' "
        "AND c.relname LIKE 'memory_chunk_halfvec_hnsw_%%'"
    )
    return [(name, int(name.rsplit("_", 1)[1]), list(options)) for name, options in cursor.fetchall()]


def _drop_other(schema_editor, ef_construction):
    """Drop the halfvec HNSW indexes built with another ef_construction; their dims, or None
    off PostgreSQL or without the pgvector column (nothing to do)."""
    if schema_editor.connection.vendor != "postgresql":
        return None
    with schema_editor.connection.cursor() as cursor:
        found = _indexes(cursor)
        if found is None:
            return None
        dropped = []
        for name, dim, options in found:
            if f"ef_construction={int(ef_construction)}" not in options:
                cursor.execute(f"DROP INDEX IF EXISTS {name}")  # noqa: S608 - a name read from pg_class
                dropped.append(dim)
    from memory.store import pgvector_index

    pgvector_index.reset_cache()
    return dropped


def forward(apps, schema_editor):
    from memory.store import pgvector_index

    if _drop_other(schema_editor, pgvector_index.HNSW_EF_CONSTRUCTION):
        pgvector_index.build_all_indexes(alias=schema_editor.connection.alias)  # the dropped ones


def reverse(apps, schema_editor):
    with schema_editor.connection.cursor() as cursor:
        for dim in _drop_other(schema_editor, PREVIOUS) or ():
            cursor.execute(
                f"CREATE INDEX IF NOT EXISTS memory_chunk_halfvec_hnsw_{int(dim)} ON memory_chunk_vector "
                f"USING hnsw ((embedding::halfvec({int(dim)})) halfvec_cosine_ops) "
                f"WITH (m = 16, ef_construction = {PREVIOUS}) WHERE dim = {int(dim)}"
            )


class Migration(migrations.Migration):
    dependencies = [("memory", "0019_pgvector_inline_embedding")]
    operations = [migrations.RunPython(forward, reverse, elidable=False)]
