"""PostgreSQL twins of the SQLite-only schema: full-text columns and the vector table.

- memory_chunk.search_vector / memory_skill.search_vector: generated tsvector columns (english
  stemming, like FTS5's porter tokenizer) with GIN indexes. fastupdate off: with it on, every
  insert lands in a pending list that each lookup reads linearly until a vacuum merges it
  (measured: 1.1 ms vs 0.006 ms per term lookup at 5k rows, so ~250 ms per fact ingest under
  load); facts consolidation makes ~20 lookups per write, so reads must stay cheap. Generated, so they can never drift
  from the row and need no triggers (memory.pg_fts reads them).
- memory_chunk_vector (+ _state): the same table and epoch bookkeeping as migration 0009, in
  PostgreSQL types, with trigger functions in place of SQLite triggers.

Django's models do not list these columns: they exist only on PostgreSQL. A no-op elsewhere.
"""

from django.db import migrations

# Heading weighs more than content (A vs B), as the FTS5 bm25 weights (2, 1) do on SQLite.
FORWARD = [
    """ALTER TABLE memory_chunk ADD COLUMN IF NOT EXISTS search_vector tsvector
        GENERATED ALWAYS AS (
            setweight(to_tsvector('english', coalesce(heading, '')), 'A')
            || setweight(to_tsvector('english', coalesce(content, '')), 'B')
        ) STORED""",
    "CREATE INDEX IF NOT EXISTS memory_chunk_search_vector ON memory_chunk USING GIN (search_vector) WITH (fastupdate = off)",
    """ALTER TABLE memory_skill ADD COLUMN IF NOT EXISTS search_vector tsvector
        GENERATED ALWAYS AS (
            setweight(to_tsvector('english', coalesce(name, '')), 'A')
            || setweight(to_tsvector('english', coalesce(description, '')), 'B')
            || setweight(to_tsvector('english', coalesce(content, '')), 'C')
        ) STORED""",
    "CREATE INDEX IF NOT EXISTS memory_skill_search_vector ON memory_skill USING GIN (search_vector) WITH (fastupdate = off)",
    """CREATE TABLE IF NOT EXISTS memory_chunk_vector (
        id BIGSERIAL PRIMARY KEY,
        chunk_id BIGINT NOT NULL UNIQUE,
        model TEXT NOT NULL,
        dim INTEGER NOT NULL,
        vector BYTEA NOT NULL,
        created_at TIMESTAMPTZ NOT NULL DEFAULT CURRENT_TIMESTAMP
    )""",
    "CREATE INDEX IF NOT EXISTS memory_chunk_vector_model ON memory_chunk_vector (model, id)",
    """CREATE TABLE IF NOT EXISTS memory_chunk_vector_state (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        epoch BYTEA NOT NULL
    )""",
    """INSERT INTO memory_chunk_vector_state (id, epoch)
        VALUES (1, decode(md5(random()::text || clock_timestamp()::text), 'hex'))
        ON CONFLICT (id) DO NOTHING""",
    """CREATE OR REPLACE FUNCTION memory_chunk_vector_bump() RETURNS trigger AS $$
    BEGIN
        UPDATE memory_chunk_vector_state
            SET epoch = decode(md5(random()::text || clock_timestamp()::text), 'hex') WHERE id = 1;
        RETURN NULL;
    END $$ LANGUAGE plpgsql""",
    # Per row, as on SQLite: a statement-level trigger would also fire for an upsert that changed nothing.
    """CREATE OR REPLACE TRIGGER memory_chunk_vector_changed AFTER UPDATE OR DELETE ON memory_chunk_vector
        FOR EACH ROW EXECUTE FUNCTION memory_chunk_vector_bump()""",
    """CREATE OR REPLACE FUNCTION memory_chunk_vector_drop() RETURNS trigger AS $$
    BEGIN
        DELETE FROM memory_chunk_vector WHERE chunk_id = old.id;
        RETURN NULL;
    END $$ LANGUAGE plpgsql""",
    """CREATE OR REPLACE TRIGGER memory_chunk_vector_chunk_ad AFTER DELETE ON memory_chunk
        FOR EACH ROW EXECUTE FUNCTION memory_chunk_vector_drop()""",
    # TRUNCATE fires no row triggers (Django's test flush truncates): empty the vectors with it.
    """CREATE OR REPLACE FUNCTION memory_chunk_vector_drop_all() RETURNS trigger AS $$
    BEGIN
        DELETE FROM memory_chunk_vector;
        RETURN NULL;
    END $$ LANGUAGE plpgsql""",
    """CREATE OR REPLACE TRIGGER memory_chunk_vector_chunk_truncate AFTER TRUNCATE ON memory_chunk
        FOR EACH STATEMENT EXECUTE FUNCTION memory_chunk_vector_drop_all()""",
    """CREATE OR REPLACE TRIGGER memory_chunk_vector_chunk_au AFTER UPDATE OF heading, content ON memory_chunk
        FOR EACH ROW WHEN (old.heading IS DISTINCT FROM new.heading OR old.content IS DISTINCT FROM new.content)
        EXECUTE FUNCTION memory_chunk_vector_drop()""",
]
REVERSE = [
    "DROP TRIGGER IF EXISTS memory_chunk_vector_chunk_au ON memory_chunk",
    "DROP TRIGGER IF EXISTS memory_chunk_vector_chunk_ad ON memory_chunk",
    "DROP TRIGGER IF EXISTS memory_chunk_vector_chunk_truncate ON memory_chunk",
    "DROP FUNCTION IF EXISTS memory_chunk_vector_drop_all()",
    "DROP FUNCTION IF EXISTS memory_chunk_vector_drop()",
    "DROP TABLE IF EXISTS memory_chunk_vector_state",
    "DROP TABLE IF EXISTS memory_chunk_vector",
    "DROP FUNCTION IF EXISTS memory_chunk_vector_bump()",
    "DROP INDEX IF EXISTS memory_skill_search_vector",
    "ALTER TABLE memory_skill DROP COLUMN IF EXISTS search_vector",
    "DROP INDEX IF EXISTS memory_chunk_search_vector",
    "ALTER TABLE memory_chunk DROP COLUMN IF EXISTS search_vector",
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
    dependencies = [("memory", "0010_chunk_scope_and_promotion")]
    operations = [migrations.RunPython(forward, reverse, elidable=False)]
