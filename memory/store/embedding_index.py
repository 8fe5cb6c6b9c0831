"""Writes for semantic recall: compute and store chunk vectors, on add and by backfill.

A chunk write never waits on the embedding service: `chunk_embed_enqueue` only registers an
on-commit hook that queues memory.chunks_embed, and only when knowledge.embeddings is on.
Rows whose embedding failed (gateway down, breaker open) are picked up later by
memory.embeddings_backfill, which embeds every chunk that has no vector for the active model.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from django.db import transaction

from protomem.config import get_config
from protomem.queue import send_task

logger = logging.getLogger(__name__)

EMBED_BATCH = 32
BACKFILL_BATCH = 64
EMBED_TASK = "memory.chunks_embed"  # memory.tasks.chunks_embed_task
ENQUEUE_GROUP = 256  # chunk ids per memory.chunks_embed task, so one task stays well inside its time limit


def chunk_embed_enqueue(*, chunk_ids: Sequence[int]) -> None:
    """After commit, queue embedding of these chunks when embeddings are on; never raises."""
    ids = [int(i) for i in chunk_ids if i is not None]
    if not ids or not get_config().knowledge.embeddings:
        return

    def enqueue() -> None:
        for start in range(0, len(ids), ENQUEUE_GROUP):
            send_task(EMBED_TASK, ids[start : start + ENQUEUE_GROUP])

    # robust: a broker hiccup is logged, never surfaced to the writer (the backfill catches up).
    transaction.on_commit(enqueue, robust=True)


def chunks_embed(*, chunk_ids: Sequence[int], model: str | None = None) -> int:
    """Embed and store the given chunks that lack a vector for the model. Idempotent; rows stored.

    Raises memory.embedding.embeddings.EmbeddingError when the backend is unavailable (callers retry).
    """
    from memory.embedding import embeddings
    from memory.store import vectors
    from memory.store.models import Chunk

    model = model or embeddings.active_model()
    have = vectors.stored_vectors(list(chunk_ids), model=model)
    todo = list(
        Chunk.objects.filter(pk__in=[i for i in chunk_ids if i not in have])
        .order_by("pk")
        .values_list("pk", "heading", "content")
    )
    stored = 0
    for start in range(0, len(todo), EMBED_BATCH):
        batch = todo[start : start + EMBED_BATCH]
        matrix = embeddings.embed_texts(
            [embeddings.chunk_text(heading, content) for _, heading, content in batch], model=model
        )
        stored += vectors.vectors_store(
            ((pk, row) for (pk, _, _), row in zip(batch, matrix, strict=True)), model=model
        )
    return stored


@dataclass(frozen=True)
class BackfillReport:
    model: str
    embedded: int
    remaining: int
    error: str = ""
    out_of_time: bool = False  # stopped at `time_budget_s` with rows left: run it again


def embeddings_backfill(
    *,
    model: str | None = None,
    batch_size: int = BACKFILL_BATCH,
    limit: int | None = None,
    time_budget_s: float | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> BackfillReport:
    """Embed chunks with no vector for the model, oldest first, `batch_size` at a time.

    Re-runnable: it only ever looks at rows still missing a vector. Stops at the first
    embedding failure (reported in `error`) so an outage does not spin, and after the batch
    that crosses `time_budget_s` (`out_of_time`); `progress(done, total)` follows each batch.
    """
    from memory.embedding import embeddings
    from memory.store import vectors

    model = model or embeddings.active_model()
    total = vectors.count_without_vector(model=model)
    if limit is not None:
        total = min(total, limit)
    deadline = None if time_budget_s is None else time.monotonic() + time_budget_s
    done, after, error, out_of_time = 0, 0, "", False
    while done < total:
        ids = vectors.chunk_ids_without_vector(
            model=model, after_id=after, limit=min(batch_size, total - done)
        )
        if not ids:
            break
        try:
            done += chunks_embed(chunk_ids=ids, model=model)
        except embeddings.EmbeddingError as exc:
            error = str(exc) or exc.__class__.__name__
            logger.warning("embeddings backfill stopped after %d/%d rows: %s", done, total, error)
            break
        after = ids[-1]
        if progress is not None:
            progress(done, total)
        if deadline is not None and time.monotonic() >= deadline:  # at least one batch per run
            out_of_time = True
            break
    remaining = vectors.count_without_vector(model=model)
    return BackfillReport(
        model=model,
        embedded=done,
        remaining=remaining,
        error=error,
        out_of_time=out_of_time and remaining > 0,
    )
