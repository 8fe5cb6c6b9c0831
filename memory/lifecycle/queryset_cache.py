"""Filter querysets kept per caller and config, for the hot read paths (recall, the turn's RAG).

Building such a filter through the ORM and compiling it (memory.store.row_filter keeps the SQL per
queryset object) cost more CPU per call than running the call's SQL. A queryset is immutable (each
filter makes a new one) and these are never evaluated themselves (the search filters copies), so
one object serves every call with the same key. The config object is part of the key (scope and
trust rules come from it): a reloaded config builds afresh.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from django.db.models import QuerySet

from protomem.config import get_config


class ConfigKeyedQuerysets:
    """key -> the queryset `build()` made under the current config; cleared whole when full."""

    def __init__(self, limit: int = 1024) -> None:
        self.limit = limit
        self._entries: dict[Hashable, tuple[Any, QuerySet[Any]]] = {}

    def get(self, key: Hashable, build: Callable[[], QuerySet[Any]]) -> QuerySet[Any]:
        config = get_config()
        cached = self._entries.get(key)
        if cached is not None and cached[0] is config and cached[1]._result_cache is None:
            return cached[1]
        qs = build()
        if len(self._entries) >= self.limit:
            self._entries.clear()
        self._entries[key] = (config, qs)
        return qs
