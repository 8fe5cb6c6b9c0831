"""protomem eval-recall DATASET: recall@k and MRR for keyword vs vector vs hybrid search.

    manage.py protomem eval-recall memory/evals/recall.jsonl --k 5
    manage.py protomem eval-recall memory/evals/recall.jsonl --embed-model local:all-minilm-l6-v2

The corpus is loaded into the store inside a transaction that is rolled back (see
memory.evals.recall_eval), so it leaves nothing behind; the embed model defaults to
knowledge.embed_model (the gateway) and works whether or not knowledge.embeddings is on.
"""

from __future__ import annotations

import json
from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.core.management.base import CommandError

from memory.evals.recall_eval import DatasetError, evaluate, load_dataset

help = "Score keyword vs hybrid recall (recall@k, MRR) on a labelled JSONL dataset of queries and chunks."


def add_arguments(parser: ArgumentParser) -> None:
    parser.add_argument("dataset", type=Path, help="JSONL file: chunk records and query records")
    parser.add_argument("--k", type=int, default=5, help="cut-off for recall@k and MRR@k (default 5)")
    parser.add_argument(
        "--embed-model",
        default=None,
        help="embedding model to use (default knowledge.embed_model; 'local:all-minilm-l6-v2' runs offline)",
    )
    parser.add_argument("--json", action="store_true", help="print the scores as one JSON object")


def handle(command: Any, options: dict[str, Any]) -> None:
    from memory.store.embeddings import EmbeddingError

    if options["k"] < 1:
        raise CommandError("--k must be at least 1")
    try:
        dataset = load_dataset(options["dataset"])
    except (OSError, DatasetError) as exc:
        raise CommandError(str(exc)) from exc
    progress = None if options.get("no_progress") or options["json"] else command.stderr.write
    try:
        result = evaluate(dataset, k=options["k"], model=options["embed_model"], progress=progress)
    except EmbeddingError as exc:
        raise CommandError(f"no embeddings, so no hybrid score: {exc}") from exc
    if options["json"]:
        command.stdout.write(json.dumps(result.as_dict(), indent=2))
        return
    k = result.k
    command.stdout.write(
        f"{options['dataset']}: {result.chunks} chunks, {result.queries} queries; embed model {result.model}"
    )
    kind_cols = "".join(f"  {kind + f' r@{k}':>16}" for kind in result.kinds)
    command.stdout.write(f"{'mode':<8}  {f'recall@{k}':>9}  {f'MRR@{k}':>7}{kind_cols}")
    for mode, scores in result.scores.items():
        kinds = "".join(f"  {scores.kind_recall(kind):>16.3f}" for kind in result.kinds)
        command.stdout.write(f"{mode:<8}  {scores.recall:>9.3f}  {scores.mrr:>7.3f}{kinds}")
