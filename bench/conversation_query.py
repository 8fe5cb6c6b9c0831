"""Query latency on conversation turns: keyword vs hybrid recall, as an agent's recall runs it.

    .venv/bin/python -m bench.conversation_query                # the 12 eval conversations
    .venv/bin/python -m bench.conversation_query --copies 5     # 5x the turns (more namespaces)
    .venv/bin/python -m bench.conversation_query --rebuild

Builds (once, cached under /tmp/protomem-bench/conversation-query-<copies>) a committed store of
memory/evals/conversations: every turn one chunk of domain "turn" (as the eval stores them),
one namespace per conversation (and per copy), embedded with local:all-minilm-l6-v2. Then, for
each eval question, interleaved, the product's read (memory.lifecycle.selectors.chunk_search
over that conversation's namespace, k=10):

  keyword       knowledge.embeddings off: FTS5, then dates, small talk, repeats, turn window
  hybrid/warm   knowledge.embeddings on, the question's embedding already cached (a repeat)
  hybrid/cold   the same with the query cache cleared first: the local model embeds it

Prints p50/p90/p99 of each, the hybrid/keyword ratios, and the cold query-embedding cost alone.
Ratios, not absolute times, are what compare across runs (the machines are noisy).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from typing import Any

from bench import common

MODEL = "local:all-minilm-l6-v2"
K = 10


def build(copies: int) -> dict[str, Any]:
    """Store and embed every turn, `copies` times over; returns what was built."""
    from memory.embedding import embeddings
    from memory.evals.conversation_eval import load_corpus
    from memory.lifecycle.writes import add_chunks
    from memory.store import vectors
    from memory.store.models import Chunk

    corpus = load_corpus()
    started = time.perf_counter()
    for copy in range(copies):
        add_chunks(t.draft(f"{t.conv}-{copy}", session_suffix=f"-{copy}") for t in corpus.turns)
    stored = time.perf_counter() - started
    rows = list(Chunk.objects.order_by("pk").values_list("pk", "heading", "content"))
    started = time.perf_counter()
    matrix = embeddings.embed_texts([embeddings.chunk_text(h, c) for _, h, c in rows], model=MODEL)
    embedded = time.perf_counter() - started
    vectors.vectors_store(zip((pk for pk, _, _ in rows), matrix, strict=True), model=MODEL)
    return {"rows": len(rows), "store_seconds": round(stored, 1), "embed_seconds": round(embedded, 1)}


def forget_queries() -> None:
    """Empty both query caches (memory.embedding.embeddings' and the local encoder's own LRU)."""
    from django.conf import settings

    from memory.embedding import embeddings

    embeddings._query_cache.clear()
    encoder = embeddings._local_encoder(
        embeddings.LOCAL_MODELS[MODEL.removeprefix("local:")], settings.PROTOMEM.knowledge.query_precision
    )
    encoder._cache.clear()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--copies", type=int, default=1)
    parser.add_argument("--rebuild", action="store_true")
    args = parser.parse_args()

    instance = common.bench_instance(f"conversation-query-{args.copies}", fresh=args.rebuild)
    params = {"copies": args.copies, "model": MODEL, "version": 1}
    built = common.is_built(instance, params)
    common.migrate()
    if built is None:
        print(f"  building {args.copies} copies of the conversations in {instance} ...", file=sys.stderr)
        common.mark_built(instance, params, build(args.copies))
        built = common.is_built(instance, params)
    print(f"store: {built}")

    from memory.embedding import embeddings
    from memory.evals.conversation_eval import load_corpus
    from memory.lifecycle.selectors import chunk_search
    from memory.store import vectors
    from memory.store.models import Chunk

    vectors.warm(MODEL)
    questions = load_corpus().questions
    common.set_knowledge(embeddings=True, embed_model=MODEL)
    chunk_search(questions[0].text, k=K, queryset=Chunk.objects.filter(namespace=f"{questions[0].conv}-0"))
    samples: dict[str, list[float]] = {"keyword": [], "hybrid/warm": [], "hybrid/cold": [], "embed/cold": []}
    for question in questions:
        scope = Chunk.objects.filter(namespace=f"{question.conv}-0")
        common.set_knowledge(embeddings=False, embed_model=MODEL)
        ms, _ = common.timed_ms(lambda q=question.text, s=scope: chunk_search(q, k=K, queryset=s))
        samples["keyword"].append(ms)
        common.set_knowledge(embeddings=True, embed_model=MODEL)
        forget_queries()
        ms, _ = common.timed_ms(lambda q=question.text, s=scope: chunk_search(q, k=K, queryset=s))
        samples["hybrid/cold"].append(ms)
        ms, _ = common.timed_ms(lambda q=question.text, s=scope: chunk_search(q, k=K, queryset=s))
        samples["hybrid/warm"].append(ms)
        forget_queries()
        ms, _ = common.timed_ms(lambda q=question.text: embeddings.embed_query(q, model=MODEL))
        samples["embed/cold"].append(ms)
    print(f"{len(questions)} questions, k={K}, {MODEL}")
    summary = {label: common.print_latency(label, values) for label, values in samples.items()}
    for label in ("hybrid/warm", "hybrid/cold"):
        ratio = statistics.median(samples[label]) / statistics.median(samples["keyword"])
        tail = summary[label]["p99"] / summary["keyword"]["p99"]
        print(f"  {label} / keyword p50 ratio: {ratio:.2f} (p99 {tail:.2f})")


if __name__ == "__main__":
    main()
