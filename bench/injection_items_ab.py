"""A/B in one process, alternating per request: a turn's injection-log items written by executemany
of the one-row INSERT (before) or by the one-statement UNNEST INSERT (after, PostgreSQL).

    .venv/bin/python -m bench.injection_items_ab --database-url postgres://.../protomem_load

Alternating request by request in one process keeps a shared machine's drift out of the ratio
(separate runs of bench.load_profile differed by +-8% with the same code). Builds bench.load's
instance (the PostgreSQL database in the URL is dropped and recreated, and dropped after), then
sends `--requests` context calls through protomem.wsgi and prints mean and median CPU per side.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from typing import Any


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", required=True, help="postgres://... (recreated)")
    parser.add_argument("--requests", type=int, default=1000)
    parser.add_argument("--chunks", type=int, default=2000)
    args = parser.parse_args()
    os.environ["DATABASE_URL"] = args.database_url

    from bench import common, load_server
    from bench.load_clients import VOCAB_SIZE
    from bench.load_profile import _WsgiClient

    setup = argparse.Namespace(database_url=args.database_url, chunks=args.chunks, agents=1)
    _instance, keys = load_server.setup(setup)
    from django.db import connections

    import audit.services as services

    after = services._item_insert

    def before(rows: Any, alias: str) -> None:
        one, _ = services._item_insert_sql(alias)
        with connections[alias].cursor() as cursor:
            cursor.executemany(one, rows)

    client = _WsgiClient(keys[0])
    client.post("/api/sessions/", {"session_id": "ab"})
    vocab, rng = common.vocabulary(VOCAB_SIZE), random.Random(11)
    cost: dict[str, list[float]] = {"before": [], "after": []}
    for i in range(args.requests):
        side = "before" if i % 2 else "after"
        services._item_insert = before if side == "before" else after  # type: ignore[assignment]
        body = {"query": common.query_terms(rng, vocab), "model": "bench-model", "working_state": "- x"}
        start = time.process_time()
        status = client.post("/api/sessions/ab/context/", body).status_code
        if i >= 40:  # the first calls of each side warm caches
            cost[side].append((time.process_time() - start) * 1000)
        if status != 200:
            raise SystemExit(f"context answered {status}")
    services._item_insert = after
    b, a = statistics.mean(cost["before"]), statistics.mean(cost["after"])
    print(
        f"== context CPU per request, alternating (n={len(cost['after'])} each): before {b:.2f} ms, "
        f"after {a:.2f} ms, ratio {a / b:.2f}; medians {statistics.median(cost['before']):.2f} / "
        f"{statistics.median(cost['after']):.2f} ms"
    )
    for conn in connections.all():
        conn.close()
    load_server._pg_recreate(drop_only=True)


if __name__ == "__main__":
    main()
