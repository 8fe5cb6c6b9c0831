"""protomem eval-recall DATASET: recall@k and MRR for keyword vs vector vs hybrid search.

    manage.py protomem eval-recall memory/evals/recall.jsonl --k 5
    manage.py protomem eval-recall memory/evals/recall_facts.jsonl --embed-model local:all-minilm-l6-v2
    manage.py protomem eval-recall memory/evals/recall.jsonl --embed-model local:all-minilm-l6-v2
    manage.py protomem eval-recall --conversations --embed-model local:all-minilm-l6-v2
    manage.py protomem eval-recall --conversations path/to/corpus/dir --keyword-only

The corpus is loaded into the store inside a transaction that is rolled back (see
memory.evals.recall_eval), so it leaves nothing behind; the embed model defaults to
knowledge.embed_model (the gateway) and works whether or not knowledge.embeddings is on. A second
table gives each mode's scores on halves A and B of the queries (by the relevant chunk's number,
even / odd; B is held out: recall_eval's module doc), `by_half` in --json.

--locomo DIR scores LoCoMo conversations (memory.evals.locomo; e.g. ../shared/eval/locomo-dev):
plain FTS5 bm25, keyword, vector and hybrid side by side, any-evidence r@5 / r@10, all-evidence
@5 / @10, the paper's recall p@5 / p@10 and MRR per category, and the search time per question.

--conversations scores the multi-session dialogue corpus instead (memory.evals.conversation_eval;
default directory memory/evals/conversations): keyword vs hybrid side by side, r@5, r@10,
all-evidence@10 and MRR per question kind, for the tuning and the held-out conversations.
"""

from __future__ import annotations

import json
from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.core.management.base import CommandError

from memory.evals import conversation_eval
from memory.evals.recall_eval import HALVES, DatasetError, evaluate, load_dataset

help = "Score keyword vs hybrid recall (recall@k, MRR) on a labelled JSONL dataset of queries and chunks."


def add_arguments(parser: ArgumentParser) -> None:
    parser.add_argument("dataset", type=Path, nargs="?", help="JSONL file: chunk records and query records")
    parser.add_argument(
        "--conversations",
        type=Path,
        nargs="?",
        const=conversation_eval.CORPUS_DIR,
        default=None,
        metavar="DIR",
        help="score the conversation corpus (default memory/evals/conversations) instead of a dataset",
    )
    parser.add_argument(
        "--locomo", type=Path, default=None, metavar="DIR", help="score LoCoMo conversations (*.json) in DIR"
    )
    parser.add_argument(
        "--keyword-only", action="store_true", help="with --conversations: no embeddings, keyword column only"
    )
    parser.add_argument("--k", type=int, default=5, help="cut-off for recall@k and MRR@k (default 5)")
    parser.add_argument(
        "--embed-model",
        default=None,
        help="embedding model to use (default knowledge.embed_model; 'local:all-minilm-l6-v2' runs offline)",
    )
    parser.add_argument("--json", action="store_true", help="print the scores as one JSON object")


def handle(command: Any, options: dict[str, Any]) -> None:
    from memory.embedding.embeddings import EmbeddingError

    if options.get("conversations") is not None or options.get("locomo") is not None:
        _conversations(command, options)
        return
    if options["dataset"] is None:
        raise CommandError("give a DATASET file or --conversations")
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
    command.stdout.write(f"{'mode':<8}  {'half':<4}  {'n':>4}  {f'recall@{k}':>9}  {f'MRR@{k}':>7}")
    for mode, scores in result.scores.items():
        for half in HALVES:
            n, recall, mrr = scores.half_scores(half)
            command.stdout.write(f"{mode:<8}  {half:<4}  {n:>4}  {recall:>9.3f}  {mrr:>7.3f}")


def _conversations(command: Any, options: dict[str, Any]) -> None:
    """The conversation eval (ours or LoCoMo): retrievers side by side per split and kind
    (conversation_eval.format_table)."""
    from memory.embedding.embeddings import EmbeddingError, active_model
    from memory.evals import locomo

    outside = options.get("locomo") is not None
    try:
        if outside:
            corpus = locomo.load_corpus(options["locomo"])
        else:
            corpus = conversation_eval.load_corpus(options["conversations"])
    except (OSError, ValueError, KeyError) as exc:
        raise CommandError(f"cannot read the conversation corpus: {exc}") from exc
    retrievers: dict[str, conversation_eval.Retriever] = {"keyword": conversation_eval.keyword}
    if outside:
        retrievers = {"fts5 bm25": conversation_eval.plain_keyword, **retrievers}
    model = None
    if not options.get("keyword_only"):
        if outside:
            retrievers["vector"] = conversation_eval.vector
        retrievers["hybrid"] = conversation_eval.hybrid
        model = options["embed_model"] or active_model()
    progress = None if options.get("no_progress") or options["json"] else command.stderr.write
    try:
        result = conversation_eval.evaluate(corpus, retrievers, model=model, progress=progress)
    except EmbeddingError as exc:
        raise CommandError(f"no embeddings, so no hybrid score (try --keyword-only): {exc}") from exc
    if options["json"]:
        command.stdout.write(json.dumps(result.as_dict(), indent=2))
        return
    metrics = conversation_eval.ALL_METRICS if outside else conversation_eval.METRICS
    command.stdout.write(conversation_eval.format_table(result, metrics))
