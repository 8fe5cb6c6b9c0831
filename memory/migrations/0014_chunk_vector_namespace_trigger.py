"""A chunk moved to another namespace changes the vector epoch, so every process reloads its index.

The in-process vector index (memory.store.vectors) keeps each vector's namespace, read when the
vector was loaded, and a search within a namespace reads only that namespace's columns. Nothing
in the product moves a row (an edit is a revision: a new row in the same namespace), but a raw
UPDATE could, and the index must not keep the old namespace: the row would then be missing from
its new namespace's vector hits. Only rows that have a vector bump the epoch.

Carries its own SQL, one list per database (memory.store.integrity recreates the trigger from it).
"""

from django.db import migrations

FORWARD_SQLITE = [
    """CREATE TRIGGER IF NOT EXISTS memory_chunk_vector_chunk_moved AFTER UPDATE OF namespace
    ON memory_chunk WHEN old.namespace IS NOT new.namespace BEGIN
        UPDATE memory_chunk_vector_state SET epoch = randomblob(16)
        WHERE id = 1 AND EXISTS (SELECT 1 FROM memory_chunk_vector WHERE chunk_id = new.id);
    END""",
]
REVERSE_SQLITE = ["DROP TRIGGER IF EXISTS memory_chunk_vector_chunk_moved"]

FORWARD_POSTGRESQL = [
    """CREATE OR REPLACE FUNCTION memory_chunk_vector_moved() RETURNS trigger AS $$
    BEGIN
        IF EXISTS (SELECT 1 FROM memory_chunk_vector WHERE chunk_id = new.id) THEN
            UPDATE memory_chunk_vector_state
                SET epoch = decode(md5(random()::text || clock_timestamp()::text), 'hex') WHERE id = 1;
        END IF;
        RETURN NULL;
    END $$ LANGUAGE plpgsql""",
    """CREATE OR REPLACE TRIGGER memory_chunk_vector_chunk_moved AFTER UPDATE OF namespace ON memory_chunk
        FOR EACH ROW WHEN (old.namespace IS DISTINCT FROM new.namespace)
        EXECUTE FUNCTION memory_chunk_vector_moved()""",
]
REVERSE_POSTGRESQL = [
    "DROP TRIGGER IF EXISTS memory_chunk_vector_chunk_moved ON memory_chunk",
    "DROP FUNCTION IF EXISTS memory_chunk_vector_moved()",
]

FORWARD = {"sqlite": FORWARD_SQLITE, "postgresql": FORWARD_POSTGRESQL}
REVERSE = {"sqlite": REVERSE_SQLITE, "postgresql": REVERSE_POSTGRESQL}


def forward(apps, schema_editor):
    for statement in FORWARD.get(schema_editor.connection.vendor, []):
        schema_editor.execute(statement)


def reverse(apps, schema_editor):
    for statement in REVERSE.get(schema_editor.connection.vendor, []):
        schema_editor.execute(statement)


class Migration(migrations.Migration):
    dependencies = [("memory", "0013_chunk_authority_and_review_risk")]
    operations = [migrations.RunPython(forward, reverse, elidable=False)]
