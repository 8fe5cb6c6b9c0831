"""Prometheus metrics: the instruments every layer may use, and the exposition /metrics serves.

Plumbing: this module imports no app, so the store, lifecycle and delivery layers can time their
own calls with one decorator (`@timed(RECALL_SECONDS)`). Metrics that need the database (queue
depth, embedding backlog) are computed at scrape time by collectors an interface module adds
with `add_scrape_collector` (observability.collectors).

Several processes: gunicorn runs several workers and Celery runs its tasks in prefork children,
each with its own counters. With PROMETHEUS_MULTIPROC_DIR set (scripts/run.sh sets it) every
process writes its samples to files in that directory and a scrape of any web worker sums them
all, the Celery worker's task outcomes included when it shares the directory (same host). A
worker on another host needs the directory there and a scrape of its own. Without the variable
each process counts alone, which is right for runserver and the tests.
"""

from __future__ import annotations

import functools
import os
import re
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any, ParamSpec, TypeVar

from django.http import HttpRequest, HttpResponse
from prometheus_client import REGISTRY, CollectorRegistry, Counter, Histogram, disable_created_metrics
from prometheus_client.exposition import choose_encoder
from prometheus_client.metrics_core import Metric
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.registry import Collector

# No *_created series: they double the page and no dashboard here reads them.
disable_created_metrics()

P = ParamSpec("P")
R = TypeVar("R")

# Seconds; the per-turn paths are meant to answer well under a second, recall under 100 ms.
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)

REQUEST_SECONDS = Histogram(
    "protomem_http_request_duration_seconds",
    "Time to answer an HTTP request, by URL route (never the raw path), method and status class.",
    ["route", "method", "status"],
    buckets=LATENCY_BUCKETS,
)
CONTEXT_SECONDS = Histogram(
    "protomem_context_duration_seconds",
    "Per-turn context: compose (every composition, previews included) and deliver (compose plus "
    "the injection-log row).",
    ["stage"],
    buckets=LATENCY_BUCKETS,
)
RECALL_SECONDS = Histogram(
    "protomem_recall_duration_seconds",
    "Time to answer one memory_recall (search, scope and formatting).",
    buckets=LATENCY_BUCKETS,
)
TASK_RUNS = Counter(
    "protomem_task_runs",
    "Celery task runs by task name and outcome: success, failure, retry, or the state a task "
    "returns as a short word (the harvest's done / skipped / failed / busy / not_claimed / lost_claim).",
    ["task", "outcome"],
)
TASK_ITEMS = Counter(
    "protomem_task_items",
    "Rows a task reported handling (its integer result: chunks expired or reaped, sessions retired, "
    "harvests re-enqueued, chunks embedded).",
    ["task"],
)

UNMATCHED_ROUTE = "<unmatched>"
KNOWN_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
# A task result that names an outcome: a short lowercase word, so labels stay a small set.
OUTCOME_WORD = re.compile(r"[a-z][a-z_]{0,23}")


def timed(histogram: Histogram) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Decorator: observe the wrapped call's wall time in `histogram` (a labelled child or a
    label-less histogram), whether it returns or raises."""

    def decorate(func: Callable[P, R]) -> Callable[P, R]:
        @functools.wraps(func)
        def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
            started = time.perf_counter()
            try:
                return func(*args, **kwargs)
            finally:
                histogram.observe(time.perf_counter() - started)

        return wrapper

    return decorate


# ----------------------------------------------------------------------------------------------
# HTTP


def route_label(request: HttpRequest) -> str:
    """The matched URL pattern's name (namespaced, e.g. "admin:index"), else its route; one label
    value per pattern whatever the path's ids, and one for every path that matched nothing."""
    match = getattr(request, "resolver_match", None)
    if match is None:
        return UNMATCHED_ROUTE
    return (match.view_name if match.url_name else match.route) or UNMATCHED_ROUTE


class RequestMetricsMiddleware:
    """Times every request into REQUEST_SECONDS (outermost but one, so it sees the final status)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        started = time.perf_counter()
        response = self.get_response(request)
        method = request.method if request.method in KNOWN_METHODS else "other"
        REQUEST_SECONDS.labels(
            route=route_label(request), method=method, status=f"{response.status_code // 100}xx"
        ).observe(time.perf_counter() - started)
        return response


# ----------------------------------------------------------------------------------------------
# Celery tasks


def task_outcome(state: str | None, retval: Any) -> str:
    """success / failure / retry / ..., or the short word a successful task returned."""
    outcome = (state or "unknown").lower()
    if outcome == "success" and isinstance(retval, str) and OUTCOME_WORD.fullmatch(retval):
        return retval
    return outcome


def record_task_run(task_name: str, state: str | None, retval: Any) -> None:
    TASK_RUNS.labels(task=task_name, outcome=task_outcome(state, retval)).inc()
    if state == "SUCCESS" and isinstance(retval, int) and not isinstance(retval, bool) and retval > 0:
        TASK_ITEMS.labels(task=task_name).inc(retval)


def _on_task_postrun(sender: Any = None, state: str | None = None, retval: Any = None, **_: Any) -> None:
    record_task_run(getattr(sender, "name", None) or "unknown", state, retval)


def connect_task_signals() -> None:
    """Count every task run, in whichever process runs it (idempotent: one receiver, one uid)."""
    from celery.signals import task_postrun

    task_postrun.connect(_on_task_postrun, weak=False, dispatch_uid="protomem.metrics.task_postrun")


# ----------------------------------------------------------------------------------------------
# Exposition

_scrape_collectors: dict[str, Collector] = {}


def add_scrape_collector(name: str, collector: Collector) -> None:
    """Collect `collector` on every /metrics scrape (a later add under `name` replaces it)."""
    _scrape_collectors[name] = collector


def multiprocess_dir() -> str:
    return os.environ.get("PROMETHEUS_MULTIPROC_DIR", "")


class _Scrape:
    """One scrape's sources: this process's registry (or every process's files) and the
    scrape-time collectors, read fresh each time."""

    def __init__(self, sources: Iterable[Collector]) -> None:
        self.sources = list(sources)

    def collect(self) -> Iterator[Metric]:
        for source in self.sources:
            yield from source.collect()


def exposition(accept_header: str = "") -> tuple[bytes, str]:
    """The metrics page in the format the scraper asked for (OpenMetrics or text 0.0.4)."""
    if multiprocess_dir():
        registry = CollectorRegistry()
        MultiProcessCollector(registry)
        base: Collector = registry
    else:
        base = REGISTRY
    encoder, content_type = choose_encoder(accept_header)
    return encoder(_Scrape([base, *_scrape_collectors.values()])), content_type
