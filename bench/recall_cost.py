"""Hybrid vs keyword query cost on a plain store (notes, no conversation turns), in one run.

    .venv/bin/python -m bench.recall_cost                  # 50,000 notes
    .venv/bin/python -m bench.recall_cost --rows 200000 --rebuild

Builds (once, cached under /tmp/protomem-bench/recall-cost-<rows>) a committed store of synthetic
notes (bench.common's vocabulary, 8-30 words each) with a random unit vector per row stored
under local:all-minilm-l6-v2 (the cost of a vector search does not depend on what the vectors
mean; the question is embedded by the real model). Then, for each of 200 three-term queries,
interleaved, memory.lifecycle.selectors.chunk_search at k=5:

  keyword        knowledge.embeddings off
  hybrid         knowledge.embeddings on, the query's embedding cached (the model's cost apart:
                 what a fake embedder would cost; the vector side is the index scan, exact:
                 memory.store.int8_scan above vectors.INT8_MIN_ROWS, and the row reads)
  hybrid+model   the same with the query cache emptied first: the local model's forward pass
                 (MiniLM on onnxruntime, on the other core while the keyword search runs)
  hybrid/pool    the same, with the keyword side asking for the whole structure pool (20 rows)
                 as it did before memory.retrieval.hybrid.first_keyword_rows: the before, measured
                 in the same run
  hybrid/any-term  the same, with the keyword top taking the search plan's any-term (OR) step
                 as it did before first_keyword_rows skipped it on plain stores

Each query runs the variants in a shuffled order (the first to run a query reads its pages
cold). Prints p50/p90/p99 of each and the ratios to keyword p50 (the goal: hybrid <= 2x keyword).
Ratios, not absolute times, compare across runs.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import random
import statistics
import sys
from typing import Any

from bench import common

MODEL = "local:all-minilm-l6-v2"
DIM = 384
K = 5
QUERIES = 200


def build(rows: int) -> dict[str, Any]:
    import numpy as np

    from memory.lifecycle.writes import ChunkDraft, add_chunks
    from memory.store import vectors
    from memory.store.models import Chunk

    rng = random.Random(11)
    vocab = common.vocabulary()
    batch = 5000
    for start in range(0, rows, batch):
        add_chunks(
            ChunkDraft(content=common.words(rng, vocab, rng.randint(8, 30)), domain="note", namespace="bench")
            for _ in range(min(batch, rows - start))
        )
    pks = list(Chunk.objects.order_by("pk").values_list("pk", flat=True))
    generator = np.random.default_rng(11)
    for start in range(0, len(pks), batch):
        part = pks[start : start + batch]
        matrix = generator.standard_normal((len(part), DIM)).astype(np.float32)
        matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
        vectors.vectors_store(zip(part, matrix, strict=True), model=MODEL)
    return {"rows": len(pks)}


def int8_state(vectors: Any, model: str) -> str:
    segments = vectors.snapshot(model)
    quantized = segments[0].quantized if len(segments) == 1 else None
    return f"{quantized.size} columns" if quantized is not None else "none (the float32 scan)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=50_000)
    parser.add_argument("--rebuild", action="store_true")
    args = parser.parse_args()

    instance = common.bench_instance(f"recall-cost-{args.rows}", fresh=args.rebuild)
    params = {"rows": args.rows, "model": MODEL, "version": 1}
    common.migrate()
    if common.is_built(instance, params) is None:
        print(f"  building {args.rows} notes in {instance} ...", file=sys.stderr)
        common.mark_built(instance, params, build(args.rows))
    print(f"store: {common.is_built(instance, params)}")

    from unittest import mock

    from memory.embedding import embeddings
    from memory.lifecycle.selectors import chunk_search
    from memory.retrieval import hybrid, structure
    from memory.store import vectors

    def whole_pool(
        query: str, *, k: int, queryset: Any, loaded: structure.Loaded | None = None
    ) -> tuple[dict[int, structure.Row], bool]:
        return structure.search_rows(query, k=structure.pool_size(k), queryset=queryset, loaded=loaded), True

    search_rows = structure.search_rows

    def every_term(query: str, **options: Any) -> dict[int, structure.Row]:
        return search_rows(query, **{**options, "any_term": True})

    print(f"index: {vectors.warm(MODEL)} vectors in memory, int8 copy: {int8_state(vectors, MODEL)}")
    rng = random.Random(5)
    vocab = common.vocabulary()
    queries = [common.query_terms(rng, vocab) for _ in range(QUERIES)]
    common.set_knowledge(embeddings=True, embed_model=MODEL)
    for query in queries:  # embed every query once: the model's cost is not what is compared
        chunk_search(query, k=K)
    samples: dict[str, list[float]] = {
        "keyword": [],
        "hybrid": [],
        "hybrid+model": [],
        "hybrid/pool": [],
        "hybrid/no-cover": [],
        "hybrid/any-term": [],
    }
    no_cover = dataclasses.replace(structure.WEIGHTS, plain_coverage_power=0.0)

    def run(label: str, query: str) -> float:
        common.set_knowledge(embeddings=label != "keyword", embed_model=MODEL)
        if label == "hybrid+model":
            embeddings.forget_queries()  # and "?": a text the local model's own query cache has not seen
            return common.timed_ms(lambda: chunk_search(f"{query}?", k=K))[0]
        patches = {
            "hybrid/pool": mock.patch.object(hybrid, "first_keyword_rows", whole_pool),
            "hybrid/no-cover": mock.patch.object(structure, "WEIGHTS", no_cover),
            "hybrid/any-term": mock.patch.object(structure, "search_rows", every_term),
        }
        with patches.get(label, contextlib.nullcontext()):
            return common.timed_ms(lambda: chunk_search(query, k=K))[0]

    order = random.Random(7)
    for query in queries:
        # Each query's variants in a shuffled order: the first to run a query's terms reads their
        # pages cold, so a fixed order flattered every variant after keyword's.
        labels = list(samples)
        order.shuffle(labels)
        for label in labels:
            samples[label].append(run(label, query))
    print(f"{len(queries)} queries, k={K}, {args.rows} notes")
    for label, values in samples.items():
        common.print_latency(label, values)
    keyword = statistics.median(samples["keyword"])
    for label in ("hybrid", "hybrid+model", "hybrid/pool", "hybrid/no-cover", "hybrid/any-term"):
        print(f"  {label} / keyword p50 ratio: {statistics.median(samples[label]) / keyword:.2f}")


if __name__ == "__main__":
    main()
