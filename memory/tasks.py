"""Thin Celery wrappers around memory's services; names are stable (beat schedule, queued messages).

The retention tasks are idempotent (the services are), acknowledge late (a worker lost mid-run means
redelivery, which is harmless) and retry only transient database errors: SQLite's
"database is locked" / "busy" under a concurrent writer. Anything else fails loudly.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from celery import shared_task
from django.db import OperationalError

from memory.lifecycle import retention

logger = logging.getLogger(__name__)

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
    return _run(self, lambda: retention.chunks_expire_sweep())


@shared_task(name="memory.chunks_reap_deleted", bind=True, acks_late=True, ignore_result=True)
def chunks_reap_deleted_task(self: Any) -> int:
    """Hard-delete bulk-deleted chunks past their grace (never superseded rows); returns rows reaped."""
    return _run(self, lambda: retention.chunks_reap_deleted())


# -- chunk vectors (heavy imports, numpy and the embedding client, happen inside the tasks)

RETRY_COUNTDOWN_S = 90  # past the breaker's cool-down, so a retry gets the half-open trial
# Well inside CELERY_TASK_SOFT_TIME_LIMIT (120 s): a long backfill hands over to a fresh task.
BACKFILL_TIME_BUDGET_S = 60.0


@shared_task(name="memory.chunks_embed", bind=True, max_retries=3, ignore_result=True)
def chunks_embed_task(self: Any, chunk_ids: list[int]) -> int:
    """Embed these chunks (skips those done); retries a few times on an embedding outage."""
    from memory.embedding.embeddings import EmbeddingCallFailed, EmbeddingCircuitOpen, EmbeddingNotConfigured
    from memory.store.embedding_index import chunks_embed

    try:
        return chunks_embed(chunk_ids=chunk_ids)
    except EmbeddingNotConfigured as exc:
        logger.warning("chunks_embed: %s; %d chunk(s) left for the backfill", exc, len(chunk_ids))
        return 0
    except (EmbeddingCallFailed, EmbeddingCircuitOpen) as exc:
        if self.request.is_eager or self.request.retries >= self.max_retries:
            logger.warning(
                "chunks_embed gave up (%s); %d chunk(s) left for the backfill", exc, len(chunk_ids)
            )
            return 0
        raise self.retry(exc=exc, countdown=RETRY_COUNTDOWN_S) from exc


@shared_task(name="memory.embeddings_backfill", ignore_result=True)
def embeddings_backfill_task(
    batch_size: int = 64, limit: int | None = None, force: bool = False
) -> dict[str, Any]:
    """Embed every chunk still missing a vector, logging progress; a no-op while embeddings are off.

    Runs for BACKFILL_TIME_BUDGET_S at most, then enqueues itself for the rest (re-runnable: it
    only picks rows without a vector). `force` runs it with knowledge.embeddings off (to fill
    vectors before switching hybrid on).
    """
    from memory.store.embedding_index import embeddings_backfill
    from protomem.config import get_config

    if not force and not get_config().knowledge.embeddings:
        logger.info("embeddings backfill: knowledge.embeddings is off; nothing to do")
        return {"embedded": 0, "remaining": None, "skipped": "embeddings off"}

    def progress(done: int, total: int) -> None:
        logger.info("embeddings backfill: %d/%d chunks embedded", done, total)

    report = embeddings_backfill(
        batch_size=batch_size, limit=limit, time_budget_s=BACKFILL_TIME_BUDGET_S, progress=progress
    )
    if report.out_of_time and report.embedded and limit is None:
        logger.info("embeddings backfill: %d rows left, continuing in a new task", report.remaining)
        embeddings_backfill_task.delay(batch_size=batch_size, force=force)
    else:
        logger.info(
            "embeddings backfill done: %d embedded, %d still without a %s vector%s",
            report.embedded,
            report.remaining,
            report.model,
            f" (stopped: {report.error})" if report.error else "",
        )
    return {"embedded": report.embedded, "remaining": report.remaining, "error": report.error}
