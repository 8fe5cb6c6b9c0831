"""Search latency and bulk insert throughput of the chunk store at 100k and 1M rows.

    .venv/bin/python -m bench.search                       # 100,000 and 1,000,000 rows
    .venv/bin/python -m bench.search --rows 100000 --queries 200
    .venv/bin/python -m bench.search --rebuild             # reload the cached databases

Each size runs in its own process against its own throwaway instance dir under
/tmp/protomem-bench (built with the real migrations, loaded through memory.lifecycle.writes.add_chunks,
cached between runs). Per random 3-term query it times:

  service     memory.lifecycle.selectors.chunk_search(query, k=10) (Django, ORM rows out)
  raw plan    the exact SQL statements the service ran for that query (captured with
              connection.execute_wrapper), replayed on a plain sqlite3 connection, rows fetched
  naive       raw `MATCH 'a OR b OR c' ORDER BY bm25 LIMIT 10` (no filters, ids only), in its
              own pass on its own connection (its scans would otherwise cool the caches)

and prints p50/p99 of each plus the ratios service/raw-plan and service/naive, and the
service's best of 3 per query (a noise floor: the machine is shared, and p99 is mostly
preemption when other work runs).
Targets at 1M rows: service/raw-plan <= 1.3, service p99 < 20 ms, insert >= 5,000 rows/s.

Rows are stamped created_at=now by the service, as bulk writes are. (Random historical dates
cost about twice the index maintenance: measured 6.9k vs 12.4k rows per CPU-second at 300k in
plain sqlite3, because two indexes lead with created_at.) The machine is shared: the insert
line also prints rows per CPU-second, which contention inflates much less than wall time.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import re
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from datetime import timedelta
from pathlib import Path
from typing import Any

from bench import common

SEED = 20260701
WORDS_PER_CHUNK = 30
HEADING_WORDS = 3
VOCAB_SIZE = 5000
SLAB = 50_000  # drafts generated per slab; only add_chunks itself is timed
SOURCE_TYPES = ["memory_ingest", "extracted", "harvest", "console", "web", ""]
NAMESPACES = ["", "", "", "proj-a", "proj-b"]
# Share of rows that must never be delivered, so the filters do real work.
P_REJECTED, P_EXPIRED, P_EXPIRING, P_INVALIDATED = 0.03, 0.02, 0.03, 0.02
TARGET_RATIO, TARGET_P99_MS, TARGET_INSERT = 1.3, 20.0, 5000

_QMARK = re.compile(r"(?<!%)%s")


def params_for(rows: int) -> dict[str, Any]:
    return {
        "rows": rows,
        "seed": SEED,
        "vocab": VOCAB_SIZE,
        "words": WORDS_PER_CHUNK,
        "heading_words": HEADING_WORDS,
        "mix": [P_REJECTED, P_EXPIRED, P_EXPIRING, P_INVALIDATED],
        "version": 4,
    }


def drafts(rng: random.Random, vocab: list[str], count: int, now: Any) -> list[Any]:
    from memory.lifecycle.writes import ChunkDraft

    out = []
    for _ in range(count):
        text = common.words(rng, vocab, WORDS_PER_CHUNK - HEADING_WORDS)
        heading = common.words(rng, vocab, HEADING_WORDS)
        roll = rng.random()
        review_state, expires_at = None, None
        if roll < P_REJECTED:
            review_state = "rejected"
        elif roll < P_REJECTED + P_EXPIRED:
            expires_at = now - timedelta(days=rng.randint(1, 300))
        elif roll < P_REJECTED + P_EXPIRED + P_EXPIRING:
            expires_at = now + timedelta(days=rng.randint(1, 300))
        out.append(
            ChunkDraft(
                content=text,
                heading=heading,
                domain=rng.choice(("fact", "fact", "conversation", "preferences", "knowledge")),
                namespace=rng.choice(NAMESPACES),
                source=f"thread-{rng.randint(1, 5000)}",
                source_type=rng.choice(SOURCE_TYPES),
                review_state=review_state,
                expires_at=expires_at,
            )
        )
    return out


def load(rows: int) -> dict[str, Any]:
    """Fill the (freshly migrated) bench database; returns the insert measurements."""
    from django.db import connection
    from django.utils import timezone

    from memory.lifecycle.writes import add_chunks

    rng = random.Random(SEED)
    vocab = common.vocabulary(VOCAB_SIZE)
    now = timezone.now()
    insert_s, insert_cpu, stored = 0.0, 0.0, 0
    while stored < rows:
        batch = drafts(rng, vocab, min(SLAB, rows - stored), now)
        gc.collect()
        start, cpu = time.perf_counter(), time.process_time()
        stored += add_chunks(batch)
        insert_s += time.perf_counter() - start
        insert_cpu += time.process_time() - cpu
        print(
            f"    loaded {stored:,}/{rows:,} ({stored / insert_s:,.0f} rows/s)", file=sys.stderr, flush=True
        )
    with connection.cursor() as cursor:
        # Supersede a slice directly (not through a service: it's fixture data, not a write path).
        step = round(1 / P_INVALIDATED)
        cursor.execute(
            "UPDATE memory_chunk SET invalidated_at = %s, invalidation_reason = 'superseded_by:0' "
            "WHERE id %% %s = 0",
            [now, step],
        )
        cursor.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return {
        "insert_rows_per_s": stored / insert_s,
        "insert_rows_per_cpu_s": stored / insert_cpu,
        "insert_seconds": insert_s,
        "stored": stored,
    }


class Capture:
    """Records the SQL the service sends for one call (execute_wrapper)."""

    def __init__(self) -> None:
        self.statements: list[tuple[str, tuple[Any, ...]]] = []

    def __call__(self, execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        self.statements.append((sql, tuple(params or ())))
        return execute(sql, params, many, context)


def to_qmark(sql: str) -> str:
    """Django's %s style to sqlite3's qmark style (what its SQLite cursor wrapper does)."""
    return _QMARK.sub("?", sql).replace("%%", "%")


def run_one(rows: int, queries: int, k: int, rebuild: bool) -> dict[str, Any]:
    instance = common.bench_instance(f"search-{rows}", fresh=rebuild)
    params = params_for(rows)
    built = common.is_built(instance, params)
    if built is None:
        for path in common.db_path().parent.glob("agent.db*"):  # half-built or stale: start over
            path.unlink()
        print(f"  building {rows:,} rows in {instance} ...", file=sys.stderr, flush=True)
        common.migrate()
        info = load(rows)
        common.mark_built(instance, params, info)
        built = common.is_built(instance, params)
        cached = False
    else:
        cached = True
        common.migrate()  # the schema may have moved on since the cached db was built
    if built is None:
        raise SystemExit(f"bench database in {instance} did not record its build")

    from django.db import connection

    from memory.lifecycle.selectors import chunk_search
    from memory.retrieval.search import search_backend_name
    from memory.store.text_index import fts5

    if search_backend_name() != "fts5":
        raise SystemExit("bench needs SQLite with FTS5 and the memory_chunk_fts table")
    raw = sqlite3.connect(common.db_path())
    raw_naive = sqlite3.connect(common.db_path())
    naive_sql = (
        f"SELECT rowid FROM {fts5.FTS_TABLE} WHERE {fts5.FTS_TABLE} MATCH ? "
        f"ORDER BY bm25({fts5.FTS_TABLE}, ?, ?) LIMIT ?"
    )
    rng = random.Random(SEED + rows)
    vocab = common.vocabulary(VOCAB_SIZE)
    qs = [common.query_terms(rng, vocab, 3) for _ in range(queries)]
    warm = [common.query_terms(rng, vocab, 3) for _ in range(max(50, queries // 5))]

    def service(q: str) -> list[Any]:
        return chunk_search(q, k=k)

    def replay(statements: list[tuple[str, tuple[Any, ...]]]) -> list[list[Any]]:
        return [raw.execute(to_qmark(sql), p).fetchall() for sql, p in statements]

    def naive(q: str) -> list[Any]:
        expression = fts5.any_term(fts5.terms_of(q))
        return raw_naive.execute(naive_sql, (expression, *fts5.BM25_WEIGHTS, k)).fetchall()

    for q in warm:  # page cache, statement caches, first-use imports
        capture = Capture()
        with connection.execute_wrapper(capture):
            service(q)
        replay(capture.statements)
    for q in warm[:10]:
        naive(q)

    t_service: list[float] = []
    t_raw: list[float] = []
    t_naive: list[float] = []
    t_best: list[float] = []
    statements_per_query: Counter[int] = Counter()
    steps_used: Counter[int] = Counter()
    short = 0
    gc.disable()
    try:
        # Pass 1: service and its replay, paired per query (alternating which goes first).
        for n, q in enumerate(qs):
            capture = Capture()
            with connection.execute_wrapper(capture):
                service(q)  # untimed: records the statements (the wrapper adds overhead)
            statements_per_query[len(capture.statements)] += 1
            steps_used[_steps_reached(capture.statements)] += 1
            for turn in (0, 1) if n % 2 else (1, 0):
                if turn == 0:
                    ms, hits = common.timed_ms(lambda q=q: service(q))
                    t_service.append(ms)
                    short += len(hits) < k
                else:
                    ms, _ = common.timed_ms(lambda s=capture.statements: replay(s))
                    t_raw.append(ms)
        # Pass 2: the naive query on its own connection, so its big scans never share a
        # page cache (or CPU caches, back to back) with the two measured above.
        for q in qs:
            ms, _ = common.timed_ms(lambda q=q: naive(q))
            t_naive.append(ms)
        # Pass 3: the service's best of 3 per query: what the query costs when the shared
        # machine does not preempt it (p99 above includes scheduling noise; this does not).
        for q in qs:
            t_best.append(min(common.timed_ms(lambda q=q: service(q))[0] for _ in range(3)))
    finally:
        gc.enable()

    print(f"\n== {rows:,} rows ({'cached db' if cached else 'built now'}: {common.db_path()})")
    print(
        f"  insert via add_chunks (bulk): {built['insert_rows_per_s']:,.0f} rows/s "
        f"({built['stored']:,} rows in {built['insert_seconds']:.1f} s; "
        f"{built.get('insert_rows_per_cpu_s', 0):,.0f} rows per CPU-second)"
        f"{'  [measured when the cached db was built]' if cached else ''}"
    )
    print(f"  {queries} random 3-term queries, k={k}; {short} returned fewer than k")
    with common.metered() as meter:  # untimed: what the service's queries touched
        for q in qs[:20]:
            service(q)
    common.print_measured(f"service, {min(20, len(qs))} queries (check pass)", common.store_census(), meter)
    s = common.print_latency("service chunk_search", t_service)
    r = common.print_latency("raw sqlite3, same plan SQL", t_raw)
    n = common.print_latency("raw naive OR + bm25 LIMIT", t_naive)
    b = common.print_latency("service, best of 3 per query", t_best)
    ratio_raw = s["p50"] / r["p50"]
    ratio_raw99 = s["p99"] / r["p99"]
    ratio_naive = s["p50"] / n["p50"]
    ratio_naive99 = s["p99"] / n["p99"]
    print(f"  ratio service/raw-plan   p50 {ratio_raw:5.2f}   p99 {ratio_raw99:5.2f}")
    print(f"  ratio service/naive      p50 {ratio_naive:5.2f}   p99 {ratio_naive99:5.2f}")
    print(f"  statements per query: {dict(sorted(statements_per_query.items()))}")
    print(f"  deepest plan step reached: {dict(sorted(steps_used.items()))}")
    result = {
        "rows": rows,
        "insert_rows_per_s": built["insert_rows_per_s"],
        "service": s,
        "raw_plan": r,
        "naive": n,
        "service_best_of_3": b,
        "ratio_raw_p50": ratio_raw,
        "ratio_raw_p99": ratio_raw99,
        "ratio_naive_p50": ratio_naive,
        "ratio_naive_p99": ratio_naive99,
    }
    if rows >= 1_000_000:
        verdicts = [
            ("ratio service/raw-plan <= 1.3 (p50)", ratio_raw <= TARGET_RATIO),
            ("service p99 < 20 ms", s["p99"] < TARGET_P99_MS),
            ("insert >= 5,000 rows/s", built["insert_rows_per_s"] >= TARGET_INSERT),
        ]
        for label, ok in verdicts:
            print(f"  target {label}: {'PASS' if ok else 'FAIL'}")
    return result


def _steps_reached(statements: list[tuple[str, tuple[Any, ...]]]) -> int:
    """How many distinct MATCH expressions the service tried (1 = all terms only)."""
    seen = []
    for sql, params in statements:
        expression = next((p for p in params if isinstance(p, str) and '"' in p), None)
        if "MATCH" in sql and expression and expression not in seen:
            seen.append(expression)
    return len(seen)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, nargs="+", default=[100_000, 1_000_000])
    parser.add_argument("--queries", type=int, default=500)
    parser.add_argument("-k", type=int, default=10)
    parser.add_argument("--rebuild", action="store_true", help="drop the cached databases first")
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--json", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        result = run_one(args.one, args.queries, args.k, args.rebuild)
        if args.json:
            args.json.write_text(json.dumps(result))
        return
    for rows in args.rows:  # one process per size: Django binds its database at setup
        cmd = [sys.executable, "-m", "bench.search", "--one", str(rows), "--queries", str(args.queries)]
        cmd += ["-k", str(args.k)] + (["--rebuild"] if args.rebuild else [])
        subprocess.run(cmd, check=True, cwd=common.REPO)  # noqa: S603 - our own interpreter


if __name__ == "__main__":
    main()
