"""Scrape-time gauges read from the store: the review queue by risk and the embedding backlog.

Computed fresh on each /metrics scrape (one query each), so every web worker reports the same
numbers and nothing needs keeping in step with writes. A failing query drops that family from the
scrape and reports protomem_collector_up{collector=...} 0, so a database hiccup never fails the
whole page.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator

from django.db import DatabaseError
from django.db.models import BooleanField, Case, Count, Value, When
from prometheus_client.metrics_core import GaugeMetricFamily, Metric

from memory.store.deliverable import current_hold, held_q
from memory.store.models import Chunk, ReviewState

logger = logging.getLogger(__name__)

NO_RISK = "none"  # operator rows carry no inspection risk
RISK_LEVELS = ("1", "2", "3", NO_RISK)  # always reported (0 when empty), so a quiet queue reads 0


def review_queue_depth() -> dict[tuple[str, bool], int]:
    """(risk, held) -> live pending rows, in one GROUP BY; held follows knowledge.hold."""
    held = held_q(current_hold())
    held_expr = Case(When(held, then=Value(True)), default=Value(False), output_field=BooleanField())
    if held is None:
        held_expr = Value(False, output_field=BooleanField())
    rows = (
        Chunk.objects.filter(review_state=ReviewState.PENDING, invalidated_at__isnull=True)
        .values("risk", is_held=held_expr)
        .annotate(rows=Count("id"))
        .order_by()
    )
    depth: dict[tuple[str, bool], int] = {}
    for row in rows:
        key = (NO_RISK if row["risk"] is None else str(row["risk"]), bool(row["is_held"]))
        depth[key] = depth.get(key, 0) + row["rows"]
    return depth


def embedding_backlog() -> tuple[str, int] | None:
    """(active model, chunks without its vector), or None while embeddings are off."""
    from protomem.config import get_config

    knowledge = get_config().knowledge
    model = knowledge.embed_model.strip()
    if not knowledge.embeddings or not model:
        return None
    from memory.store.vectors import count_without_vector  # numpy: only when embeddings are on

    return model, count_without_vector(model=model)


def review_queue_metrics() -> Iterator[Metric]:
    depth = review_queue_depth()
    gauge = GaugeMetricFamily(
        "protomem_review_queue_rows",
        "Live pending rows waiting for a reviewer, by inspection risk (1 highest, none for operator "
        "rows) and whether they are held from delivery meanwhile.",
        labels=["risk", "held"],
    )
    keys = {(risk, held) for risk in RISK_LEVELS for held in (True, False)} | set(depth)
    for risk, held in sorted(keys):
        gauge.add_metric([risk, str(held).lower()], depth.get((risk, held), 0))
    yield gauge


def embedding_backlog_metrics() -> Iterator[Metric]:
    backlog = embedding_backlog()
    if backlog is None:
        return
    model, missing = backlog
    gauge = GaugeMetricFamily(
        "protomem_embedding_backlog_chunks",
        "Chunks without a vector for the active embedding model (the backfill's work left).",
        labels=["model"],
    )
    gauge.add_metric([model], missing)
    yield gauge


class StoreCollector:
    """The store's gauges; a part whose query fails is left out and reported up=0."""

    def __init__(self, parts: dict[str, Callable[[], Iterator[Metric]]] | None = None) -> None:
        self.parts = parts or {
            "review_queue": review_queue_metrics,
            "embedding_backlog": embedding_backlog_metrics,
        }

    def collect(self) -> Iterator[Metric]:
        up = GaugeMetricFamily(
            "protomem_collector_up",
            "1 when a scrape-time collector read the database, 0 when its query failed.",
            labels=["collector"],
        )
        for name, part in self.parts.items():
            try:
                metrics = list(part())
            except DatabaseError:
                logger.exception("metrics collector %s failed", name)
                up.add_metric([name], 0)
                continue
            up.add_metric([name], 1)
            yield from metrics
        yield up
