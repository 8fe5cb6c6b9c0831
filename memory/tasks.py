"""Thin Celery wrappers around memory.lifecycle; names are stable (beat schedule, queued messages).

Both tasks are idempotent (the services are), acknowledge late (a worker lost mid-run means
redelivery, which is harmless) and retry only transient database errors: SQLite's
"database is locked" / "busy" under a concurrent writer. Anything else fails loudly.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from celery import shared_task
from django.db import OperationalError

from memory import lifecycle

MAX_RETRIES = 5
RETRY_BACKOFF_MAX_S = 60
TRANSIENT_MESSAGES = ("database is locked", "database table is locked", "database is busy")


def is_transient(exc: BaseException) -> bool:
    """True for database errors worth retrying (lock contention), False for the rest."""
    return isinstance(exc, OperationalError) and any(m in str(exc).lower() for m in TRANSIENT_MESSAGES)


def _run(task: Any, service: Callable[[], int]) -> int:
    try:
        return service()
    except OperationalError as exc:
        if not is_transient(exc):
            raise
        countdown = min(2**task.request.retries, RETRY_BACKOFF_MAX_S)
        raise task.retry(exc=exc, countdown=countdown, max_retries=MAX_RETRIES) from exc


@shared_task(name="memory.chunks_expire_sweep", bind=True, acks_late=True, ignore_result=True)
def chunks_expire_sweep_task(self: Any) -> int:
    """Record every lapsed, unrecorded chunk once ("memory.expired"); returns rows recorded."""
    return _run(self, lambda: lifecycle.chunks_expire_sweep())


@shared_task(name="memory.chunks_reap_deleted", bind=True, acks_late=True, ignore_result=True)
def chunks_reap_deleted_task(self: Any) -> int:
    """Hard-delete bulk-deleted chunks past their grace (never superseded rows); returns rows reaped."""
    return _run(self, lambda: lifecycle.chunks_reap_deleted())
