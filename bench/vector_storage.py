"""Vector storage options compared: sqlite-vec KNN vs in-process indexes, 384-dim float32.

    python bench/vector_storage.py --rows 100000 --queries 200
    python bench/vector_storage.py --rows 1000000 --queries 100 --skip hnswlib,usearch

Standalone (no Django): the candidates need packages the project does not install, so run it
from a scratch venv that has them, e.g.

    python3 -m venv /tmp/vbench
    /tmp/vbench/bin/pip install numpy pysqlite3-binary sqlite-vec hnswlib usearch
    /tmp/vbench/bin/python bench/vector_storage.py

A backend whose package is missing is reported as such and skipped. For each backend it times
loading / building from the persisted rows, then single-query top-k latency (p50/p99), and
recall@k against exact brute force (approximate indexes only).

  numpy-blob  ordinary SQLite table (id INTEGER PRIMARY KEY, vector BLOB float32), read into
              one float32 matrix; query = one gemv + argpartition, rows (n x d) and columns
              (d x n, what memory.store.vectors keeps)
  sqlite-vec  vec0 virtual table, `WHERE embedding MATCH ? AND k = ?` (needs extension
              loading: pysqlite3-binary on this machine)
  hnswlib     HNSW (M=16, ef_construction=100, ef=64), built from the same matrix
  usearch     HNSW (connectivity 16, expansion_add 128, expansion_search 64), f32
"""

from __future__ import annotations

import argparse
import functools
import os
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

DIM = 384
print = functools.partial(print, flush=True)
K = 10
SEED = 7


def pct(samples: list[float], p: float) -> float:
    ordered = sorted(samples)
    rank = max(1, min(len(ordered), round(p / 100 * len(ordered) + 0.5)))
    return ordered[rank - 1]


def line(label: str, samples: list[float]) -> None:
    print(
        f"  {label:<28} p50 {pct(samples, 50):8.2f} ms  p99 {pct(samples, 99):8.2f} ms  "
        f"mean {statistics.fmean(samples):8.2f} ms"
    )


def unit_rows(rng: np.random.Generator, n: int) -> np.ndarray:
    out = np.empty((n, DIM), dtype=np.float32)
    for start in range(0, n, 100_000):
        block = rng.standard_normal((min(100_000, n - start), DIM), dtype=np.float32)
        block /= np.linalg.norm(block, axis=1, keepdims=True)
        out[start : start + len(block)] = block
    return out


def exact_top(matrix: np.ndarray, q: np.ndarray, k: int) -> np.ndarray:
    scores = matrix @ q
    top = np.argpartition(-scores, k)[:k]
    return top[np.argsort(-scores[top])]


def bench_numpy(path: Path, matrix: np.ndarray, queries: np.ndarray) -> None:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE IF NOT EXISTS vec (id INTEGER PRIMARY KEY, vector BLOB NOT NULL)")
    start = time.perf_counter()
    with conn:
        conn.executemany(
            "INSERT INTO vec (id, vector) VALUES (?, ?)",
            ((i + 1, matrix[i].tobytes()) for i in range(len(matrix))),
        )
    print(f"  insert {len(matrix):,} blobs: {time.perf_counter() - start:.1f} s")
    start = time.perf_counter()
    ids, blobs = [], []
    for row_id, blob in conn.execute("SELECT id, vector FROM vec ORDER BY id"):
        ids.append(row_id)
        blobs.append(blob)
    loaded = np.frombuffer(b"".join(blobs), dtype=np.float32).reshape(len(blobs), DIM)
    id_array = np.asarray(ids, dtype=np.int64)
    print(f"  load matrix from SQLite: {time.perf_counter() - start:.2f} s")
    start = time.perf_counter()
    conn.execute("SELECT count(*), max(id) FROM vec").fetchone()
    print(f"  freshness probe count(*)+max(id): {(time.perf_counter() - start) * 1000:.2f} ms")
    start = time.perf_counter()
    conn.execute("SELECT max(id) FROM vec").fetchone()
    print(f"  freshness probe max(id) alone: {(time.perf_counter() - start) * 1000:.3f} ms")
    samples = []
    for q in queries:
        t = time.perf_counter()
        top_k = exact_top(loaded, q, K)
        _ = id_array[top_k]
        samples.append((time.perf_counter() - t) * 1000)
    line("numpy rows (n x d) top-10", samples)
    columns = np.ascontiguousarray(loaded.T)
    samples = []
    for q in queries:
        t = time.perf_counter()
        scores = q @ columns
        top = np.argpartition(-scores, K)[:K]
        _ = id_array[top[np.argsort(-scores[top])]]
        samples.append((time.perf_counter() - t) * 1000)
    line("numpy columns (d x n) top-10", samples)
    conn.close()


def bench_sqlite_vec(path: Path, matrix: np.ndarray, queries: np.ndarray) -> None:
    try:
        import pysqlite3.dbapi2 as sq  # type: ignore[import-not-found]
        import sqlite_vec  # type: ignore[import-not-found]
    except ImportError as exc:
        print(f"  skipped: {exc}")
        return
    conn = sq.connect(str(path))
    conn.enable_load_extension(True)
    sqlite_vec.load(conn)
    conn.enable_load_extension(False)
    print(
        f"  sqlite {conn.execute('select sqlite_version()').fetchone()[0]}, "
        f"vec {conn.execute('select vec_version()').fetchone()[0]}"
    )
    conn.execute(f"CREATE VIRTUAL TABLE v USING vec0(embedding float[{DIM}] distance_metric=cosine)")
    start = time.perf_counter()
    with conn:
        conn.executemany(
            "INSERT INTO v (rowid, embedding) VALUES (?, ?)",
            ((i + 1, matrix[i].tobytes()) for i in range(len(matrix))),
        )
    print(f"  insert {len(matrix):,} into vec0: {time.perf_counter() - start:.1f} s")
    samples = []
    recall_hits = 0
    for q in queries:
        t = time.perf_counter()
        rows = conn.execute(
            "SELECT rowid, distance FROM v WHERE embedding MATCH ? AND k = ?", (q.tobytes(), K)
        ).fetchall()
        samples.append((time.perf_counter() - t) * 1000)
        truth = set((exact_top(matrix, q, K) + 1).tolist())
        recall_hits += len(truth & {r[0] for r in rows})
    line("sqlite-vec vec0 KNN top-10", samples)
    print(f"  recall@{K} vs exact: {recall_hits / (K * len(queries)):.3f}")
    conn.close()


def bench_hnswlib(matrix: np.ndarray, queries: np.ndarray) -> None:
    try:
        import hnswlib  # type: ignore[import-not-found]
    except ImportError as exc:
        print(f"  skipped: {exc}")
        return
    index = hnswlib.Index(space="ip", dim=DIM)
    start = time.perf_counter()
    index.init_index(max_elements=len(matrix), ef_construction=100, M=16)
    index.add_items(matrix, np.arange(len(matrix)), num_threads=2)
    print(f"  build: {time.perf_counter() - start:.1f} s (2 threads)")
    index.set_ef(64)
    index.set_num_threads(1)
    samples, hits = [], 0
    for q in queries:
        t = time.perf_counter()
        labels, _ = index.knn_query(q, k=K)
        samples.append((time.perf_counter() - t) * 1000)
        hits += len(set(exact_top(matrix, q, K).tolist()) & set(labels[0].tolist()))
    line("hnswlib top-10", samples)
    print(f"  recall@{K} vs exact: {hits / (K * len(queries)):.3f}")


def bench_usearch(matrix: np.ndarray, queries: np.ndarray) -> None:
    try:
        from usearch.index import Index  # type: ignore[import-not-found]
    except ImportError as exc:
        print(f"  skipped: {exc}")
        return
    index = Index(ndim=DIM, metric="ip", dtype="f32", connectivity=16, expansion_add=128, expansion_search=64)
    start = time.perf_counter()
    index.add(np.arange(len(matrix)), matrix, threads=2)
    print(f"  build: {time.perf_counter() - start:.1f} s (2 threads)")
    samples, hits = [], 0
    for q in queries:
        t = time.perf_counter()
        found = index.search(q, K, threads=1)
        samples.append((time.perf_counter() - t) * 1000)
        hits += len(set(exact_top(matrix, q, K).tolist()) & set(found.keys.tolist()))
    line("usearch top-10", samples)
    print(f"  recall@{K} vs exact: {hits / (K * len(queries)):.3f}")


def main(argv: list[str] | None = None) -> None:
    formatter = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=formatter)
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--skip", default="", help="comma list of backends to skip")
    args = parser.parse_args(argv)
    skip = set(filter(None, args.skip.split(",")))
    rng = np.random.default_rng(SEED)
    matrix = unit_rows(rng, args.rows)
    queries = unit_rows(rng, args.queries)
    info: dict[str, Any] = {"rows": args.rows, "dim": DIM, "matrix_mb": matrix.nbytes / 1e6}
    print(
        f"{info['rows']:,} x {DIM} float32 ({info['matrix_mb']:.0f} MB), {args.queries} queries, "
        f"numpy {np.__version__}, OPENBLAS_CORETYPE={os.environ.get('OPENBLAS_CORETYPE', '')!r}"
    )
    with tempfile.TemporaryDirectory(prefix="vecbench-") as tmp:
        if "numpy" not in skip:
            print("numpy-blob:")
            bench_numpy(Path(tmp) / "blob.db", matrix, queries)
        if "sqlite-vec" not in skip:
            print("sqlite-vec:")
            bench_sqlite_vec(Path(tmp) / "vec.db", matrix, queries)
    if "hnswlib" not in skip:
        print("hnswlib:")
        bench_hnswlib(matrix, queries)
    if "usearch" not in skip:
        print("usearch:")
        bench_usearch(matrix, queries)


if __name__ == "__main__":
    main()
