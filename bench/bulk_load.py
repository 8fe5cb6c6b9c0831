"""A fast loader for bench stores of a million rows: straight into the tables, not through add_chunks.

bench/search.py loads through memory.lifecycle.writes.add_chunks (guardrail, write inspection,
audit, one FTS5 trigger per row): ~450 rows/s here, so 1M rows took most of an hour before the
vectors. A bench that measures search needs the rows, not the write path, so this loader:

- makes the same rows as bench/search.py (its drafts(), same seed, same mix of rejected,
  expired, expiring and superseded rows), stamped like add_chunks stamps them
  (lifecycle.stamps.creation_stamps, host scope) but not inspected (risk and held_reasons stay
  NULL: the pseudo-word text holds nothing the inspection would hold), with no audit events;
- inserts them with executemany in transactions of BATCH rows on the raw sqlite3 connection,
  with the FTS5 insert trigger dropped, then fills the FTS5 index in one 'rebuild' and puts the
  trigger back exactly as it was (its SQL read from sqlite_master);
- writes vectors straight into memory_chunk_vector (executemany, same batches).

The ANN index is then built once by the caller (memory.store.ann_index.build).
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

BATCH = 50_000
FTS_INSERT_TRIGGER = "memory_chunk_fts_ai"


def _raw() -> Any:
    from django.db import connection

    connection.ensure_connection()
    return connection.connection  # sqlite3.Connection, autocommit (isolation_level None)


def _rows(rows: int, now: Any) -> Iterator[list[tuple[Any, ...]]]:
    """bench/search.py's drafts as memory_chunk INSERT rows, BATCH at a time."""
    from django.db import connection

    from bench import common
    from bench import search as search_bench
    from memory.lifecycle.stamps import creation_stamps
    from memory.lifecycle.writes import _bulk_columns, _db_row

    _, plan = _bulk_columns()
    rng = random.Random(search_bench.SEED)
    vocab = common.vocabulary(search_bench.VOCAB_SIZE)
    made = 0
    while made < rows:
        out = []
        for draft in search_bench.drafts(rng, vocab, min(BATCH, rows - made), now):
            stamps = creation_stamps(
                domain=draft.domain,
                source_type=draft.source_type,
                memory_kind=draft.memory_kind,
                delivery_policy=draft.delivery_policy,
                review_state=draft.review_state,
            )
            values = {name: getattr(draft, name) for name in draft.__dataclass_fields__}
            values.update(
                memory_kind=stamps.memory_kind,
                delivery_policy=stamps.delivery_policy,
                review_state=stamps.review_state,
                created_at=now,
                scope="host",
            )
            out.append(_db_row(plan, values, connection))
        made += len(out)
        yield out


def load_chunks(rows: int) -> dict[str, Any]:
    """Fill a freshly migrated bench database with `rows` chunks; returns what it took."""
    from django.db import connection
    from django.utils import timezone

    from bench import search as search_bench
    from memory.lifecycle.writes import _bulk_columns

    columns, _ = _bulk_columns()
    raw = _raw()
    (trigger_sql,) = raw.execute(
        "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = ?", (FTS_INSERT_TRIGGER,)
    ).fetchone()
    insert = f"INSERT INTO memory_chunk ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"
    now = timezone.now()
    start, cpu = time.perf_counter(), time.process_time()
    raw.execute("PRAGMA synchronous=OFF")
    raw.execute("PRAGMA cache_size=-262144")  # 256 MB while loading; this process only
    raw.execute(f"DROP TRIGGER {FTS_INSERT_TRIGGER}")
    stored = 0
    try:
        for batch in _rows(rows, now):
            raw.execute("BEGIN")
            raw.executemany(insert, batch)
            raw.execute("COMMIT")
            stored += len(batch)
            rate = stored / (time.perf_counter() - start)
            print(f"    chunks {stored:,}/{rows:,} ({rate:,.0f} rows/s)", file=sys.stderr, flush=True)
        fts_start = time.perf_counter()
        raw.execute("BEGIN")
        raw.execute("INSERT INTO memory_chunk_fts(memory_chunk_fts) VALUES('rebuild')")
        raw.execute("COMMIT")
        fts_s = time.perf_counter() - fts_start
        print(f"    FTS5 rebuilt in {fts_s:.0f} s", file=sys.stderr, flush=True)
    finally:
        raw.execute(trigger_sql)
    # Supersede a slice, as bench/search.py does (fixture data, not a write path).
    step = round(1 / search_bench.P_INVALIDATED)
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE memory_chunk SET invalidated_at = %s, invalidation_reason = 'superseded_by:0' "
            "WHERE id %% %s = 0",
            [now, step],
        )
    seconds = time.perf_counter() - start
    return {
        "stored": stored,
        "load_seconds": seconds,
        "load_cpu_seconds": time.process_time() - cpu,
        "fts_seconds": fts_s,
        "loader": "bench.bulk_load",
    }


def load_vectors(model: str, dim: int, make: Callable[[int], np.ndarray]) -> dict[str, Any]:
    """One vector of `model` per chunk, in id order; `make(count)` returns the next (count, dim)
    float32 rows. Straight into memory_chunk_vector (no ANN after_write: the caller builds)."""
    raw = _raw()
    ids = [r[0] for r in raw.execute("SELECT id FROM memory_chunk ORDER BY id")]
    start = time.perf_counter()
    raw.execute("PRAGMA synchronous=OFF")
    insert = "INSERT INTO memory_chunk_vector (chunk_id, model, dim, vector) VALUES (?, ?, ?, ?)"
    for offset in range(0, len(ids), BATCH):
        block = ids[offset : offset + BATCH]
        rows = np.ascontiguousarray(make(len(block)), dtype="<f4")
        raw.execute("BEGIN")
        raw.executemany(
            insert, ((chunk_id, model, dim, rows[i].tobytes()) for i, chunk_id in enumerate(block))
        )
        raw.execute("COMMIT")
        done = offset + len(block)
        rate = done / (time.perf_counter() - start)
        print(f"    vectors {done:,}/{len(ids):,} ({rate:,.0f} rows/s)", file=sys.stderr, flush=True)
    raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    raw.execute("PRAGMA synchronous=NORMAL")
    return {"vectors": len(ids), "vector_seconds": time.perf_counter() - start}
