"""protomem search "query": the same ranked search recall uses, printed one hit a line."""

from __future__ import annotations

from argparse import ArgumentParser
from typing import Any

from memory.lifecycle.selectors import chunk_search
from memory.store.text_index import CHUNKS

help = "Search the knowledge store and print id, date, trust label and heading per hit."


def add_arguments(parser: ArgumentParser) -> None:
    parser.add_argument("query", help="free text; operators and punctuation are treated as words")
    parser.add_argument("-k", "--top-k", type=int, default=10, help="how many hits (default 10)")
    parser.add_argument("--include-superseded", action="store_true", help="include revised-away rows")


def handle(command: Any, options: dict[str, Any]) -> None:
    hits = chunk_search(
        options["query"], k=max(options["top_k"], 0), include_superseded=options["include_superseded"]
    )
    for chunk in hits:
        title = chunk.heading or next(iter(chunk.content.strip().splitlines()), "")[:80]
        command.stdout.write(f"#{chunk.pk}\t{chunk.created_at:%Y-%m-%d}\t{chunk.trust_label}\t{title}")
    command.stderr.write(f"{len(hits)} hit(s) via {CHUNKS.backend()}")
