"""PostgreSQL: chunk vectors in pgvector (an `embedding vector` column, HNSW per dimension).

Creates the `vector` extension when this database role may (a superuser, or pgvector marked
trusted), adds memory_chunk_vector.embedding, fills it from the stored BLOBs and builds the HNSW
indexes after that bulk load (memory.store.pgvector_index.enable). When the extension is not
installed on the server, or this role may not create it, the migration says what to install and
changes nothing: the product keeps the in-process vector path, `doctor` warns, and
`manage.py protomem pgvector-enable` does all of this later. A no-op on SQLite.

Reverse drops the column and its indexes; the extension stays (other schemas may use it).
"""

import sys

from django.db import migrations


def forward(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    from memory.store import pgvector_index

    try:
        done = pgvector_index.enable(alias=schema_editor.connection.alias)
    except pgvector_index.PgvectorUnavailable as exc:
        sys.stderr.write(f"\n  pgvector not enabled, vectors stay on the in-process path: {exc}\n")
        return
    sys.stderr.write(
        f"\n  pgvector {done.version}: {done.backfilled} vectors copied, HNSW for dims {list(done.indexed_dims)}\n"
    )


def reverse(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    from memory.store import pgvector_index

    pgvector_index.disable(alias=schema_editor.connection.alias)


class Migration(migrations.Migration):
    dependencies = [("memory", "0016_chunk_held_detail")]
    operations = [migrations.RunPython(forward, reverse, elidable=False)]
