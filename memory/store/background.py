"""Committed rows only: one background thread per key at a time, each on a database connection of
its own (the in-process vector index's reload, the ANN file's build), and whether a connection is
inside a transaction (what it reads there may not be committed, so it is not cached)."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Hashable

from django.db import connections

logger = logging.getLogger(__name__)


def in_transaction(alias: str) -> bool:
    connection = connections[alias]
    return connection.in_atomic_block or not connection.get_autocommit()


class OncePerKey:
    """start(key, work) runs `work` on a daemon thread unless one for `key` is still running."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._running: set[Hashable] = set()

    def start(self, key: Hashable, work: Callable[[], None], *, alias: str, name: str, failure: str) -> None:
        with self._lock:
            if key in self._running:
                return
            self._running.add(key)

        def run() -> None:
            try:
                work()
            except Exception:
                logger.exception(failure)
            finally:
                with self._lock:
                    self._running.discard(key)
                connections[alias].close()

        threading.Thread(target=run, name=name, daemon=True).start()
