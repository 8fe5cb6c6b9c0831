"""PostgreSQL: the pgvector HNSW indexes over half-precision copies of the vectors.

Each dimension's index becomes `memory_chunk_halfvec_hnsw_N` over (embedding::halfvec(N)), in
place of 0017's `memory_chunk_vector_hnsw_N` over (embedding::vector(N)): half the size (a 100k x
384 index 195 -> 112 MB, so more of it stays in shared buffers), a walk of about half the server
time, and top-10 agreement with exact search the same within 0.003 (bench/pgvector.py); the rows
found are still ordered by their full-precision distance (memory.store.pgvector_index). The column
keeps its float32 values. The index is rebuilt once, as long as a first build takes (1M x 384:
~40 min on the shared 2-core test host). A no-op on SQLite or without the pgvector column.

Reverse drops the halfvec indexes and builds 0017's again (its own copy of that SQL).
"""

from django.db import migrations

LEGACY_MAX_DIM = 2000  # HNSW over `vector` stops there


def _dims_and_indexes(cursor):
    cursor.execute(
        "SELECT EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = to_regclass('memory_chunk_vector') "
        "AND attname = 'embedding' AND NOT attisdropped)"
    )
    if not cursor.fetchone()[0]:
        return None, []
    cursor.execute(
        "SELECT indexname FROM pg_indexes WHERE tablename = 'memory_chunk_vector' AND indexname LIKE 'memory%%hnsw%%'"
    )
    names = [row[0] for row in cursor.fetchall()]
    cursor.execute("SELECT DISTINCT dim FROM memory_chunk_vector ORDER BY dim")
    return [int(row[0]) for row in cursor.fetchall()], names


def _drop_indexes(schema_editor, prefix):
    """Drop the vector table's HNSW indexes whose name starts with `prefix`; the table's dims, or
    None off PostgreSQL or without the pgvector column (nothing to do)."""
    if schema_editor.connection.vendor != "postgresql":
        return None
    with schema_editor.connection.cursor() as cursor:
        dims, names = _dims_and_indexes(cursor)
        for name in names:
            if name.startswith(prefix):
                cursor.execute(f"DROP INDEX IF EXISTS {name}")  # noqa: S608 - a name read from pg_indexes
    return dims


def forward(apps, schema_editor):
    if _drop_indexes(schema_editor, "memory_chunk_vector_hnsw_") is None:
        return
    from memory.store import pgvector_index

    pgvector_index.reset_cache()
    pgvector_index.build_all_indexes(alias=schema_editor.connection.alias)


def reverse(apps, schema_editor):
    dims = _drop_indexes(schema_editor, "memory_chunk_halfvec_hnsw_")
    if dims is None:
        return
    with schema_editor.connection.cursor() as cursor:
        for dim in dims:
            if dim <= LEGACY_MAX_DIM:
                cursor.execute(
                    f"CREATE INDEX IF NOT EXISTS memory_chunk_vector_hnsw_{int(dim)} ON memory_chunk_vector "
                    f"USING hnsw ((embedding::vector({int(dim)})) vector_cosine_ops) "
                    f"WITH (m = 16, ef_construction = 128) WHERE dim = {int(dim)}"
                )
    from memory.store import pgvector_index

    pgvector_index.reset_cache()


class Migration(migrations.Migration):
    dependencies = [("memory", "0017_pgvector")]
    operations = [migrations.RunPython(forward, reverse, elidable=False)]
