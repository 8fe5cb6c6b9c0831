"""The pgvector search started ahead, on a database connection of its own, while the caller runs
its keyword search on its own connection: two PostgreSQL backends, so the server's time for the
two overlaps instead of adding up (memory.retrieval.hybrid).

Only when it reads what the caller's connection would read: the caller is in autocommit (inside
a transaction its uncommitted rows are invisible to another connection) and connections persist
(CONN_MAX_AGE > 0 or None; opening one per search would cost more than it saves). Each pool
thread keeps its own connection, closed when obsolete or broken as a request's would be
(CONN_MAX_AGE, CONN_HEALTH_CHECKS).

Off unless settings.PROTOMEM_PGVECTOR_AHEAD = True: on the shared 2-core test host (load 13-23)
it did not pay. bench/pgvector.py at 100k, interleaved: hybrid p50 31.6 ms with it against 35.8
without (p99 65.7 against 56.7) in one run, 39.7 against 39.9 (p99 76.3 / 74.7) in another: the
second backend and the pool thread compete for the same busy cores. A host with idle cores
beside its web workers may differ: measure there (bench/pgvector.py's "search ahead" row).
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import numpy as np
from django.conf import settings
from django.db import connections
from django.db.models import QuerySet

from memory.store import background, pgvector_index
from memory.store.models import Chunk

logger = logging.getLogger(__name__)

SETTING = "PROTOMEM_PGVECTOR_AHEAD"
THREADS = 2  # searches in flight per process: one per core here; more would only queue in PostgreSQL

_pool: tuple[int, ThreadPoolExecutor] | None = None
_pool_lock = threading.Lock()


def available(queryset: QuerySet[Chunk]) -> bool:
    """Whether nearest_rows_ahead would search on its own connection for this queryset."""
    alias = queryset.db
    max_age = connections[alias].settings_dict.get("CONN_MAX_AGE", 0)
    return (
        bool(getattr(settings, SETTING, False))
        and (max_age is None or max_age > 0)
        and not background.in_transaction(alias)
        and pgvector_index.active(alias)
    )


def _executor() -> ThreadPoolExecutor:
    global _pool
    with _pool_lock:
        if _pool is None or _pool[0] != os.getpid():  # a forked worker starts its own
            _pool = (
                os.getpid(),
                ThreadPoolExecutor(max_workers=THREADS, thread_name_prefix="pgvector-ahead"),
            )
        return _pool[1]


def nearest_rows_ahead(
    query: Future[np.ndarray],
    *,
    k: int,
    model: str,
    queryset: QuerySet[Chunk],
    fields: Sequence[str] = ("id",),
) -> Future[list[tuple[Any, ...]] | None] | None:
    """pgvector_index.nearest_rows of the vector `query` will hold, run on a pool thread's own
    connection as soon as it is there; None when it cannot run apart (see available()). The
    future's result is None when the vector could not be made or the search failed (the
    caller then searches itself and meets the error there)."""
    if k <= 0 or not available(queryset):
        return None
    own = queryset.all()  # a clone: compiling a queryset is not safe beside the caller's use of it
    return _executor().submit(_search, query, k, model, own, tuple(fields))


def _search(
    query: Future[np.ndarray], k: int, model: str, queryset: QuerySet[Chunk], fields: tuple[str, ...]
) -> list[tuple[Any, ...]] | None:
    try:
        vector = query.result()
    except Exception:  # the caller meets the embedding error itself
        return None
    connection = connections[queryset.db]
    connection.close_if_unusable_or_obsolete()
    try:
        return pgvector_index.nearest_rows(vector, k=k, model=model, queryset=queryset, fields=fields)
    except Exception:
        logger.warning("the pgvector search ahead failed; the caller searches itself", exc_info=True)
        connection.close()
        return None


def close_connections() -> None:
    """Close every pool thread's connection (tests, before their database goes)."""
    with _pool_lock:
        pool = _pool[1] if _pool is not None and _pool[0] == os.getpid() else None
    if pool is None:
        return
    barrier = threading.Barrier(THREADS)

    def close() -> None:
        barrier.wait(timeout=5)  # every thread takes one: each closes its own connection
        connections.close_all()

    for done in [pool.submit(close) for _ in range(THREADS)]:
        done.result()
