"""Blast radius latency: audit.selectors.chunk_influence (+ the first page of its turns) over a
1,000,000-row injection log.

    .venv/bin/python -m bench.influence                   # 1,000,000 turns (cached db)
    .venv/bin/python -m bench.influence --turns 100000 --queries 200
    .venv/bin/python -m bench.influence --rebuild

The log (a throwaway instance dir under /tmp/protomem-bench, schema from the real migrations)
is bulk-inserted with plain sqlite3 (indexes dropped during the load and rebuilt after): 20,000
sessions of 200 agents, each turn given 2 of 20 always-on rows (so each of those entered ~10% of
all turns, ~100,000) and 3 RAG hits from 200,000 chunks, skewed towards popular ones.

Timed per query, interleaved, for RAG chunks drawn by delivery frequency and for the always-on
ones (the worst case: the most turns per chunk):

  influence   chunk_influence(id) (turns, per section, sessions, agents, first/last time) and the
              first page (50) of chunk_influence_turns(id): what GET .../influence/ runs
  count       SELECT count(*) FROM items WHERE chunk_id = ? (the plain indexed count)

and prints p50/p99 of each and influence/count as ratios. Target: influence p99 <= 200 ms.
"""

from __future__ import annotations

import argparse
import random
import sqlite3
import time
from datetime import UTC, datetime, timedelta

from bench import common

HOT_CHUNKS = 20
RAG_CHUNKS = 200_000
SESSIONS = 20_000
AGENTS = 200
PAGE = 50


def build(path: str, turns: int, rng: random.Random) -> None:
    con = sqlite3.connect(path)
    con.execute("PRAGMA synchronous=OFF")
    indexes = con.execute(
        "SELECT name, sql FROM sqlite_master WHERE type='index' AND sql IS NOT NULL "
        "AND tbl_name IN ('audit_injectionlog', 'audit_injectionlogitem')"
    ).fetchall()
    for name, _sql in indexes:
        con.execute(f'DROP INDEX "{name}"')
    start = datetime(2026, 1, 1, tzinfo=UTC)
    step = timedelta(seconds=30)
    batch = 50_000
    item_id = 0
    for first in range(1, turns + 1, batch):
        logs, items = [], []
        for log_id in range(first, min(first + batch, turns + 1)):
            session = rng.randrange(SESSIONS)
            when = (start + step * log_id).strftime("%Y-%m-%d %H:%M:%S.%f")
            hot = rng.sample(range(1, HOT_CHUNKS + 1), 2)
            rag = {HOT_CHUNKS + 1 + int(RAG_CHUNKS * rng.random() ** 3) for _ in range(3)}
            agent = session % AGENTS + 1
            logs.append((log_id, when, agent, f"s-{session}", "[]", str(hot), str(sorted(rag)), 900))
            for section, ids in (("hot", hot), ("rag", sorted(rag))):
                for chunk_id in ids:
                    item_id += 1
                    items.append((item_id, log_id, chunk_id, section, "private", agent, f"s-{session}"))
        con.executemany(
            "INSERT INTO audit_injectionlog (id, created_at, agent_id, session_id, digest_session_ids, "
            "hot_ids, rag_ids, approx_tokens) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            logs,
        )
        con.executemany(
            "INSERT INTO audit_injectionlogitem (id, log_id, chunk_id, section, scope, agent_id, session_id) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            items,
        )
        print(f"    loaded {min(first + batch - 1, turns):,}/{turns:,} turns", flush=True)
    for _name, sql in indexes:
        con.execute(sql)
    con.commit()
    con.execute("ANALYZE")
    con.close()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--turns", type=int, default=1_000_000)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--rebuild", action="store_true")
    args = parser.parse_args()

    instance = common.bench_instance(f"influence-{args.turns}", fresh=args.rebuild)
    from django.conf import settings
    from django.db import connections

    from audit.selectors import chunk_influence, chunk_influence_turns
    from protomem.routers import INJECTIONS_DB

    params = {"turns": args.turns, "version": 2}
    path = str(settings.DATABASES[INJECTIONS_DB]["NAME"])
    if not common.is_built(instance, params):
        common.migrate()
        connections.close_all()
        t0 = time.perf_counter()
        build(path, args.turns, random.Random(11))
        common.mark_built(instance, params, {"load_seconds": round(time.perf_counter() - t0, 1)})
    con = sqlite3.connect(path)
    sample = [
        row[0]
        for row in con.execute(
            "SELECT chunk_id FROM audit_injectionlogitem WHERE section = 'rag' AND id % 997 = 0"
        ).fetchall()
    ]
    con.close()
    rng = random.Random(5)
    rag_ids = rng.sample(sample, min(args.queries, len(sample)))
    hot_ids = [1 + i % HOT_CHUNKS for i in range(max(args.queries // 5, HOT_CHUNKS))]

    cursor = connections[INJECTIONS_DB].cursor()

    def influence(chunk_id: int) -> None:
        chunk_influence(chunk_id)
        list(chunk_influence_turns(chunk_id)[:PAGE])  # the API and the admin page

    def plain_count(chunk_id: int) -> None:
        cursor.execute("SELECT count(*) FROM audit_injectionlogitem WHERE chunk_id = %s", [chunk_id])
        cursor.fetchone()

    print(f"injection log: {args.turns:,} turns ({path})")
    for label, ids in (("RAG chunks", rag_ids), ("always-on chunks", hot_ids)):
        for chunk_id in ids[:5]:  # warm the page cache
            influence(chunk_id)
        spent: dict[str, list[float]] = {"influence": [], "count": []}
        for chunk_id in ids:
            spent["influence"].append(common.timed_ms(lambda c=chunk_id: influence(c))[0])
            spent["count"].append(common.timed_ms(lambda c=chunk_id: plain_count(c))[0])
        turns = [chunk_influence(c).turns for c in ids[:20]]
        print(f"{label} (turns per chunk: {min(turns):,}..{max(turns):,})")
        inf = common.print_latency("influence (summary + first page)", spent["influence"])
        cnt = common.print_latency("plain indexed count", spent["count"])
        ratio_50, ratio_99 = inf["p50"] / cnt["p50"], inf["p99"] / cnt["p99"]
        print(f"  ratio influence/count: p50 {ratio_50:.1f}x   p99 {ratio_99:.1f}x")


if __name__ == "__main__":
    main()
