"""Warm a web process before it takes requests: what each worker's first agent call paid lazily.

Measured on a fresh process (bench/load_profile's instance): the first recall took ~70 ms of CPU
(the URLconf's import: every view, serializer and drf-spectacular module, and its route
regexes), the first memory_ingest ~40 ms (Celery finalizing its app and task registry), the
first context ~10 ms; later calls 3-7 ms. gunicorn workers load the app before they accept a
connection, so this moves that work out of the first requests (and out of a load run's CPU per
request with 5 workers). Nothing here touches the database or the broker, writes a log line
or a metric, or imports the MCP SDK (/mcp stays lazy: resolving its route does not call it).
The first memory_ingest also paid ~9 ms for the write inspection's patterns (compiled on first
use) and ~5 ms for Celery's result backend and AMQP helpers (built on the first send, even with
results ignored): a benign inspection and those two attributes are built here too (first ingest
41 -> 21-25 ms CPU, bench: a fresh process, two runs); the broker is not contacted (the first send
still opens its connection). With embeddings on, the ANN base is mapped and the local model's
query session opened (memory.retrieval.retrieve.prepare_hybrid): bench/ann.py at 100k, a new
process's first hybrid query 555 ms cold against 42 ms after it (the warm-up itself 130 ms), one
run, loaded machine.
"""

from __future__ import annotations

from django.urls import get_resolver

# The agent's hot routes (any session id matches the pattern).
HOT_PATHS = (
    "/api/memory/recall/",
    "/api/sessions/warm/context/",
    "/api/sessions/warm/memory/ingest/",
    "/api/sessions/",
)


def warm_up() -> None:
    resolver = get_resolver()
    for path in HOT_PATHS:
        resolver.resolve(path)  # imports the URLconf once, compiles the route regexes on the way
    _warm_serializers()
    _warm_celery()
    _warm_inspection()
    _warm_hybrid()


def _warm_serializers() -> None:
    from delivery.api import views as delivery_views
    from delivery.api.serializers import ContextInput
    from memory.api import views as memory_views
    from memory.api.serializers import MemoryIngestInput, RecallQueryInput

    for cls in (RecallQueryInput, ContextInput, MemoryIngestInput):
        _ = cls().fields  # the shared prototype (protomem.shared_fields)
    memory_views._recall_hits_list()
    memory_views._chunk_dict()
    delivery_views._context_dict()


def _warm_celery() -> None:
    from celery import current_app

    _ = current_app.tasks  # finalizes the app: every task registered (no broker connection)
    _ = current_app.backend, current_app.amqp  # what the first send builds (no connection either)


def _warm_inspection() -> None:
    from memory.lifecycle.inspection import inspect_write

    # A benign agent note: the detectors' patterns compile, nothing is stored or logged.
    inspect_write(content="warm-up note", delivery_policy=None, source_type="agent")


def _warm_hybrid() -> None:
    from memory.retrieval.retrieve import prepare_hybrid

    prepare_hybrid()  # the ANN base and the local model's query session, when embeddings are on
