"""protomem pgvector-enable: move vector search into PostgreSQL once pgvector is installed."""

from __future__ import annotations

from argparse import ArgumentParser
from typing import Any

from django.core.management.base import CommandError

from memory.store import pgvector_index

help = (
    "PostgreSQL: create the vector extension, copy the stored vectors into it and build the HNSW "
    "indexes (idempotent; run after installing postgresql-NN-pgvector)."
)


def add_arguments(parser: ArgumentParser) -> None:
    parser.add_argument("--no-index", action="store_true", help="copy the vectors but build no index yet")


def handle(command: Any, options: dict[str, Any]) -> None:
    say = (lambda _text: None) if options.get("no_progress") else command.stderr.write
    try:
        done = pgvector_index.enable(build_indexes=not options["no_index"], progress=say)
    except pgvector_index.PgvectorUnavailable as exc:
        raise CommandError(str(exc)) from exc
    dims = ", ".join(map(str, done.indexed_dims)) or "none yet"
    command.stdout.write(
        f"pgvector {done.version}: {done.backfilled} vectors copied; HNSW indexes for dims: {dims}. "
        "Restart the web and worker processes so they search in the database."
    )
