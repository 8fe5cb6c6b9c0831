"""System checks for the harvest fleet's timing rules."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.core import checks


@checks.register()
def harvest_lease_check(app_configs: Sequence[Any] | None = None, **kwargs: Any) -> list[checks.CheckMessage]:
    """W101 when Redis would redeliver a dead worker's harvest before its claim counts as stale."""
    options = getattr(settings, "CELERY_BROKER_TRANSPORT_OPTIONS", {}) or {}
    visibility = options.get("visibility_timeout")
    stale = float(getattr(settings, "SESSIONS_HARVEST_STALE_S", 0))
    if visibility is None or float(visibility) > stale:
        return []
    return [
        checks.Warning(
            f"Celery's visibility timeout ({visibility} s) is not above SESSIONS_HARVEST_STALE_S "
            f"({stale:g} s): a redelivered harvest finds the dead worker's claim still fresh and "
            "waits out the lease.",
            hint="Keep CELERY_VISIBILITY_TIMEOUT > SESSIONS_HARVEST_STALE_S > the longest harvest.",
            id="sessions_app.W101",
        )
    ]
