"""One background thread per key at a time, each on a database connection of its own (so it reads
committed rows only): the in-process vector index's reload and the ANN file's build."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Hashable

from django.db import connections

logger = logging.getLogger(__name__)


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
