"""Celery tasks for chunk vectors: thin callers of memory.embedding_services.

Registered by memory.apps.MemoryConfig.ready() (Celery's autodiscovery only looks at
`<app>.tasks`). Heavy imports (numpy, the embedding client) happen inside the tasks.
"""

from __future__ import annotations

import logging
from typing import Any

from celery import shared_task

logger = logging.getLogger(__name__)

RETRY_COUNTDOWN_S = 90  # past the breaker's cool-down, so a retry gets the half-open trial
# Well inside CELERY_TASK_SOFT_TIME_LIMIT (120 s): a long backfill hands over to a fresh task.
BACKFILL_TIME_BUDGET_S = 60.0


@shared_task(name="memory.chunks_embed", bind=True, max_retries=3, ignore_result=True)
def chunks_embed_task(self: Any, chunk_ids: list[int]) -> int:
    """Embed these chunks (skips those done); retries a few times on an embedding outage."""
    from memory.embedding_services import chunks_embed
    from memory.embeddings import EmbeddingCallFailed, EmbeddingCircuitOpen, EmbeddingNotConfigured

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
    from memory.embedding_services import embeddings_backfill
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
