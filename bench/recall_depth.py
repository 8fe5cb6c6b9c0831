"""What reading the vector ranking past the pool costs on conversation turns, in one run.

    .venv/bin/python -m bench.recall_depth                 # the eval conversations, once
    .venv/bin/python -m bench.recall_depth --copies 5      # 5x the turns (more namespaces)

Uses bench.conversation_query's store (built once under BENCH_ROOT/conversation-query-<copies>:
every turn of memory/evals/conversations one chunk of domain "turn", embedded with
local:all-minilm-l6-v2). For each eval question, interleaved, the product's read
(memory.lifecycle.selectors.chunk_search over that conversation's namespace, k=10), the query's
embedding cached (the model's cost apart):

  keyword         knowledge.embeddings off
  hybrid          knowledge.embeddings on, the vector ranking read structure.VECTOR_DEPTH deep
  hybrid/pool     the same with VECTOR_DEPTH set to 0: the vector pool alone (the before)

Prints p50/p90/p99 of each and the ratios to keyword p50 (the goal: hybrid <= 2x keyword).
Ratios, not absolute times, compare across runs.
"""

from __future__ import annotations

import argparse
import statistics
import sys

from bench import common
from bench.conversation_query import MODEL, build

K = 10


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--copies", type=int, default=1)
    args = parser.parse_args()
    instance = common.bench_instance(f"conversation-query-{args.copies}")
    params = {"copies": args.copies, "model": MODEL, "version": 1}
    common.migrate()
    if common.is_built(instance, params) is None:
        print(f"  building {args.copies} copies of the conversations in {instance} ...", file=sys.stderr)
        common.mark_built(instance, params, build(args.copies))

    from memory.evals.conversation_eval import load_corpus
    from memory.lifecycle.selectors import chunk_search
    from memory.retrieval import structure
    from memory.store import vectors
    from memory.store.models import Chunk

    vectors.warm(MODEL)
    depth = structure.VECTOR_DEPTH
    questions = load_corpus().questions
    common.set_knowledge(embeddings=True, embed_model=MODEL)
    for question in questions:  # embed every question once: the cache serves the timed runs
        chunk_search(question.text, k=K, queryset=Chunk.objects.filter(namespace=f"{question.conv}-0"))
    samples: dict[str, list[float]] = {"keyword": [], "hybrid": [], "hybrid/pool": []}
    for question in questions:
        scope = Chunk.objects.filter(namespace=f"{question.conv}-0")

        def search(q: str = question.text, s: object = scope) -> object:
            return chunk_search(q, k=K, queryset=s)  # type: ignore[arg-type]

        common.set_knowledge(embeddings=False, embed_model=MODEL)
        samples["keyword"].append(common.timed_ms(search)[0])
        common.set_knowledge(embeddings=True, embed_model=MODEL)
        samples["hybrid"].append(common.timed_ms(search)[0])
        structure.VECTOR_DEPTH = 0
        try:
            samples["hybrid/pool"].append(common.timed_ms(search)[0])
        finally:
            structure.VECTOR_DEPTH = depth
    print(f"{len(questions)} questions, k={K}, {MODEL}, vector depth {depth}")
    for label, values in samples.items():
        common.print_latency(label, values)
    keyword = statistics.median(samples["keyword"])
    for label in ("hybrid", "hybrid/pool"):
        print(f"  {label} / keyword p50 ratio: {statistics.median(samples[label]) / keyword:.2f}")
    pool = statistics.median(samples["hybrid/pool"])
    print(f"  hybrid / hybrid/pool p50 ratio: {statistics.median(samples['hybrid']) / pool:.2f}")


if __name__ == "__main__":
    main()
