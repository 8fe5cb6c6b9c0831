"""Bulk write cost: add_chunks against a raw SQLite executemany of the same rows, and the inspection's share.

    .venv/bin/python -m bench.bulk_insert                 # 20,000 rows, 3 rounds
    .venv/bin/python -m bench.bulk_insert --rows 5000 --rounds 2

On a fresh SQLite instance (real migrations: the FTS5 index and its triggers are there), each
round times, on the same rows:

  add_chunks  memory.lifecycle.writes.add_chunks(drafts): guardrail, stamps, the write
              inspection (agent-written rows: source_type "knowledge_ingest"), audit, insert
  raw         the same rows' column values (as add_chunks would store them) in one
              `executemany` INSERT into memory_chunk inside one transaction
  inspect     memory.lifecycle.inspection.inspect_write on each row alone (no database), and
              inspect_writes on all rows at once (as add_chunks inspects a batch): us per row
  plain       add_chunks again with the classifier layer (inspection_classifier) switched off

The rows are the poisoning corpus's benign rows of at most 1,500 chars (memory and document
chunks as agents write them), cycled with a counter so none repeats; the exemplar layer's kept
matches are forgotten before every timed pass, so no pass reuses another's encodings. Prints, per
round and as the median over rounds, add_chunks rows/s ÷ raw rows/s, and the inspection's cost per
row as a share of add_chunks' cost per row. Ratios only, measured in one run: the machine is shared.
`--clock cpu` times with this process's CPU time instead of the wall clock: on a loaded
machine the other processes' share then stays out of both sides of every ratio.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Sequence
from typing import Any

from bench import common

_clock = time.perf_counter  # --clock cpu: time.process_time


def _drafts(rows: int) -> list[Any]:
    from memory.evals.poisoning_score import load_corpus
    from memory.lifecycle.writes import ChunkDraft

    texts = [(r.heading, r.content) for r in load_corpus() if not r.attack and len(r.content) <= 1500]
    return [
        ChunkDraft(
            content=f"{texts[i % len(texts)][1]} (#{i})",
            heading=texts[i % len(texts)][0],
            domain="note",
            source=f"bulk-{i % 50}",
            source_type="knowledge_ingest",
        )
        for i in range(rows)
    ]


def _forget_kept_matches() -> None:
    """Every timed pass pays the exemplar layer's encoding as new writes would: the rows repeat
    between passes and rounds, and the layer keeps its matches by text (a cache that would flatter
    every pass after the first)."""
    from memory.lifecycle.inspection_exemplars import forget_kept_matches

    forget_kept_matches()


def _clear() -> None:
    from django.db import connection, transaction

    from memory.store.models import Chunk

    _forget_kept_matches()

    with transaction.atomic():
        Chunk.objects.all().delete()
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def _time_add_chunks(drafts: Sequence[Any]) -> float:
    from memory.lifecycle.writes import add_chunks

    start = _clock()
    stored = add_chunks(drafts, actor="bench", path="bench")
    elapsed = _clock() - start
    if stored != len(drafts):
        raise SystemExit(f"add_chunks stored {stored} of {len(drafts)} rows")
    return elapsed


def _raw_rows(drafts: Sequence[Any]) -> tuple[str, list[tuple[Any, ...]]]:
    """The INSERT add_chunks' rows amount to, and its parameters (values prepared outside the timing)."""
    from django.db import DEFAULT_DB_ALIAS, connections

    from memory.lifecycle.writes import _bulk_columns, _db_row, _prepared_values

    columns, plan = _bulk_columns()
    conn = connections[DEFAULT_DB_ALIAS]
    rows = [_db_row(plan, values, conn) for values in map(_prepared_values, drafts) if values is not None]
    sql = f"INSERT INTO memory_chunk ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"
    return sql, rows


def _time_raw(sql: str, rows: list[tuple[Any, ...]]) -> float:
    from django.db import connection

    connection.ensure_connection()
    raw = connection.connection  # the sqlite3 connection itself: no Django on the measured path
    start = _clock()
    cursor = raw.cursor()
    cursor.execute("BEGIN")
    cursor.executemany(sql, rows)
    cursor.execute("COMMIT")
    return _clock() - start


def _time_inspect(drafts: Sequence[Any]) -> float:
    from memory.lifecycle.inspection import inspect_write

    start = _clock()
    for draft in drafts:
        inspect_write(
            content=draft.content,
            heading=draft.heading,
            delivery_policy=None,
            source_type=draft.source_type,
            domain=draft.domain,
        )
    return _clock() - start


def _time_inspect_batch(drafts: Sequence[Any]) -> float:
    """The same rows through inspect_writes at once, as add_chunks inspects a batch."""
    from memory.lifecycle.inspection import inspect_writes

    writes = [
        {"content": d.content, "heading": d.heading, "delivery_policy": None, "source_type": d.source_type,
         "domain": d.domain}
        for d in drafts
    ]  # fmt: skip
    start = _clock()
    inspect_writes(writes)
    return _clock() - start


def _time_add_chunks_without_classifier(drafts: Sequence[Any]) -> float:
    """add_chunks with the classifier layer switched off: what that layer costs in bulk, paired."""
    from unittest import mock

    def unscored(rows: Sequence[Any], model: Any = None, **_options: Any) -> list[None]:
        return [None] * len(rows)

    with (
        mock.patch("memory.lifecycle.inspection.classify", return_value=None),
        mock.patch("memory.lifecycle.inspection.classify_many", unscored),
    ):
        return _time_add_chunks(drafts)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall")
    args = parser.parse_args(argv)
    global _clock  # one switch for every timer of this run
    _clock = time.process_time if args.clock == "cpu" else time.perf_counter

    common.bench_instance("bulk-insert", fresh=True)
    common.migrate()
    drafts = _drafts(args.rows)
    sql, rows = _raw_rows(drafts)
    _time_inspect(drafts[:500])  # warm-up: pattern compilation
    ratios, shares, plain = [], [], []
    per_row: list[tuple[float, float]] = []
    setup = f"{args.rows} rows (SQLite, FTS5 triggers on), {args.rounds} rounds, {args.clock} clock"
    print(f"bulk insert of {setup}")
    for round_no in range(1, args.rounds + 1):
        _clear()
        bulk = _time_add_chunks(drafts)
        _clear()
        raw = _time_raw(sql, rows)
        _forget_kept_matches()
        inspect = _time_inspect(drafts)
        _forget_kept_matches()
        batched = _time_inspect_batch(drafts)
        _clear()
        without = _time_add_chunks_without_classifier(drafts)
        ratio, share = raw / bulk, batched / bulk
        ratios.append(ratio)
        shares.append(share)
        plain.append(raw / without)
        per_row.append((inspect / len(drafts) * 1e6, batched / len(drafts) * 1e6))
        print(
            f"  round {round_no}: add_chunks / raw executemany = {ratio:.2f}x   "
            f"inspection (batched, as add_chunks runs it) = {share:.0%} of add_chunks' time per row "
            f"({batched / raw:.2f}x the raw insert's); "
            f"without the classifier layer {raw / without:.2f}x; "
            f"inspect_write {per_row[-1][0]:.0f} us/row alone, {per_row[-1][1]:.0f} us/row batched"
        )
    print(f"median without the classifier layer: {statistics.median(plain):.2f}x")
    print(
        f"median inspection cost: inspect_write {statistics.median(r[0] for r in per_row):.0f} us/row alone, "
        f"inspect_writes {statistics.median(r[1] for r in per_row):.0f} us/row batched"
    )
    print(
        f"median: add_chunks rows/s / raw executemany rows/s = {statistics.median(ratios):.2f}x; "
        f"inspection share of add_chunks = {statistics.median(shares):.0%}"
    )


if __name__ == "__main__":
    main()
