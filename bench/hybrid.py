"""Hybrid (FTS5 + vectors, RRF) query latency at 100k chunks with 384-dim vectors, vs keyword-only.

    .venv/bin/python -m bench.hybrid                          # 100,000 rows, 300 queries, k=5
    .venv/bin/python -m bench.hybrid --rows 20000 --queries 100
    .venv/bin/python -m bench.hybrid --embedder local         # + real all-MiniLM-L6-v2 query embedding
    .venv/bin/python -m bench.hybrid --rebuild

Builds (once, cached under /tmp/protomem-bench/hybrid-<rows>) the same synthetic store as
bench/search.py (memory.lifecycle.writes.add_chunks, 3% rejected, 2% expired, 2% superseded) plus one
random unit 384-dim vector per chunk in memory_chunk_vector. Then, per random 3-term query,
interleaved:

  keyword   memory.lifecycle.selectors.chunk_search(q, k) with knowledge.embeddings off (FTS5 only)
  hybrid    the same call with knowledge.embeddings on: embed the query, FTS5 ids + vector ids
            (memory.store.vectors, numpy over the cached matrix) fused by RRF, rows loaded
  vector    memory.store.vectors.nearest_ids alone (the in-process KNN + deliverable filter)

With --embedder fake (default) the query "embedding" is a seeded random vector made in
microseconds, so `hybrid` measures the store's work; --embedder http serves those vectors from
a stub OpenAI-compatible /embeddings server on 127.0.0.1 (JSON + HTTP round trip);
--embedder local runs the real model in-process. Prints p50/p90/p99 and the hybrid/keyword
ratios, plus the one-off costs: loading the index cold, and extending it after new writes.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import random
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from bench import common

DIM = 384
SEED = 20261202
MODEL_FAKE = "bench-random-384"
MODEL_LOCAL = "local:all-minilm-l6-v2"


def query_vector(text: str) -> Any:
    import numpy as np

    seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")
    v = np.random.default_rng(seed).standard_normal(DIM).astype(np.float32)
    return v / np.linalg.norm(v)


def build_vectors(model: str, rows: int) -> float:
    """One random unit vector per chunk; seconds taken."""
    import numpy as np

    from memory.store import vectors
    from memory.store.models import Chunk

    rng = np.random.default_rng(SEED)
    ids = list(Chunk.objects.order_by("pk").values_list("pk", flat=True))
    start = time.perf_counter()
    for offset in range(0, len(ids), 5000):
        block = ids[offset : offset + 5000]
        matrix = rng.standard_normal((len(block), DIM)).astype(np.float32)
        matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
        vectors.vectors_store(zip(block, matrix, strict=True), model=model)
        print(f"    vectors {offset + len(block):,}/{rows:,}", file=sys.stderr, flush=True)
    return time.perf_counter() - start


class StubEmbeddings(BaseHTTPRequestHandler):
    def log_message(self, *args: Any) -> None:
        pass

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)))
        inputs = body["input"] if isinstance(body["input"], list) else [body["input"]]
        data = [{"index": i, "embedding": query_vector(t).tolist()} for i, t in enumerate(inputs)]
        raw = json.dumps({"data": data}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)


def configure(embedder: str) -> tuple[str, Any]:
    """(model name, server or None) and settings.PROTOMEM pointed at that embedder."""
    from django.conf import settings

    from memory.embedding import embeddings

    cfg = settings.PROTOMEM
    if embedder == "local":
        return MODEL_LOCAL, None
    if embedder == "http":
        server = ThreadingHTTPServer(("127.0.0.1", 0), StubEmbeddings)
        server.daemon_threads = True
        threading.Thread(target=server.serve_forever, daemon=True).start()
        url = f"http://127.0.0.1:{server.server_address[1]}/v1"
        settings.PROTOMEM = dataclasses.replace(
            cfg, gateway=dataclasses.replace(cfg.gateway, base_url=url, api_key="bench", timeout_s=5.0)
        )
        return MODEL_FAKE, server
    embeddings.embed_query = lambda text, *, model=None: query_vector(text)  # type: ignore[assignment]
    return MODEL_FAKE, None


def run(rows: int, queries: int, k: int, embedder: str, rebuild: bool) -> dict[str, Any]:
    instance = common.bench_instance(f"hybrid-{rows}", fresh=rebuild)
    from bench import search as search_bench

    params = {**search_bench.params_for(rows), "dim": DIM, "vector_seed": SEED, "hybrid_version": 1}
    built = common.is_built(instance, params)
    if built is None:
        for path in common.db_path().parent.glob("agent.db*"):
            path.unlink()
        print(f"  building {rows:,} rows + vectors in {instance} ...", file=sys.stderr, flush=True)
        common.migrate()
        info = search_bench.load(rows)
        info["vector_seconds"] = build_vectors(MODEL_FAKE, rows)
        common.mark_built(instance, params, info)
        built = common.is_built(instance, params)
    else:
        common.migrate()
    if built is None:
        raise SystemExit(f"bench database in {instance} did not record its build")

    import memory.store.vectors  # noqa: F401 - before numpy: memory.store.vectors sets its BLAS threads

    left = retag(MODEL_LOCAL, MODEL_FAKE)
    if left:
        print(f"  restored {left:,} vectors a past --embedder local run left tagged {MODEL_LOCAL}")
    model, server = configure(embedder)
    # The local model's vectors differ from the stored random ones; re-tag them for this run so
    # the index is the same size and shape (all latency depends on), and always tag them back.
    retagged = retag(MODEL_FAKE, model) if embedder == "local" else 0
    try:
        return _measure(rows, queries, k, embedder, model)
    finally:
        if retagged:
            retag(model, MODEL_FAKE)
        if server is not None:
            server.shutdown()


def retag(old: str, new: str) -> int:
    """Move the bench's vectors from model `old` to `new`; how many moved."""
    from django.db import connection

    from memory.store import vectors

    with connection.cursor() as cursor:
        cursor.execute("UPDATE memory_chunk_vector SET model = %s WHERE model = %s", [new, old])
        moved = cursor.rowcount
    vectors.reset_cache()
    return moved


def _measure(rows: int, queries: int, k: int, embedder: str, model: str) -> dict[str, Any]:
    from unittest import mock

    from bench import search as search_bench
    from memory.embedding import embeddings
    from memory.lifecycle.selectors import chunk_search
    from memory.retrieval import retrieve
    from memory.store import vectors
    from memory.store.deliverable import deliverable

    vocab = common.vocabulary(search_bench.VOCAB_SIZE)
    rng = random.Random(SEED)
    texts = [common.query_terms(rng, vocab, 3) for _ in range(queries)]

    print(f"hybrid search, {rows:,} chunks x {DIM}-dim vectors, k={k}, embedder={embedder}")
    vectors.reset_cache()
    cold_ms, loaded = common.timed_ms(lambda: vectors.warm(model))
    print(f"  cold index load: {cold_ms:,.0f} ms for {loaded:,} vectors")

    common.set_knowledge(embeddings=True, embed_model=model)
    for q in texts[:10]:  # warm-up: caches, the local model's weights
        chunk_search(q, k=k)
    t_keyword, t_hybrid, t_again, t_vector, t_embed = [], [], [], [], []
    base = deliverable()
    for q in texts:
        common.set_knowledge(embeddings=False, embed_model=model)
        ms, _ = common.timed_ms(lambda q=q: chunk_search(q, k=k))
        t_keyword.append(ms)
        common.set_knowledge(embeddings=True, embed_model=model)
        ms, _ = common.timed_ms(lambda q=q: chunk_search(q, k=k))
        t_hybrid.append(ms)
        with mock.patch.object(retrieve, "_rows_kept", return_value=None):  # the rows read again after
            ms, _ = common.timed_ms(lambda q=q: chunk_search(q, k=k))
        t_again.append(ms)
        vec = query_vector(q)
        ms, _ = common.timed_ms(lambda vec=vec: vectors.nearest_ids(vec, k=k, model=model, queryset=base))
        t_vector.append(ms)
        if embedder != "fake":
            ms, _ = common.timed_ms(lambda q=q: embeddings.embed_query(q, model=model))
            t_embed.append(ms)
    s_kw = common.print_latency("keyword chunk_search", t_keyword)
    s_hy = common.print_latency("hybrid chunk_search", t_hybrid)
    s_again = common.print_latency("hybrid, rows read again", t_again)
    common.print_latency("vector nearest_ids alone", t_vector)
    if t_embed:
        common.print_latency(f"query embedding ({embedder})", t_embed)
    ratio_p50, ratio_p99 = s_hy["p50"] / s_kw["p50"], s_hy["p99"] / s_kw["p99"]
    print(f"  hybrid/keyword: p50 x{ratio_p50:.2f}, p99 x{ratio_p99:.2f}")
    print(
        f"  hybrid, rows read again/keyword: p50 x{s_again['p50'] / s_kw['p50']:.2f}, "
        f"p99 x{s_again['p99'] / s_kw['p99']:.2f}"
    )
    check = texts[: min(20, len(texts))]  # untimed: what each side actually did
    census = common.store_census(model)
    common.set_knowledge(embeddings=False, embed_model=model)
    with common.metered() as keyword_meter:
        for q in check:
            chunk_search(q, k=k)
    common.print_measured(f"keyword, {len(check)} queries (check pass)", census, keyword_meter)
    common.set_knowledge(embeddings=True, embed_model=model)
    with common.metered() as hybrid_meter:
        for q in check:
            chunk_search(q, k=k)
    common.print_measured(f"hybrid, {len(check)} queries (check pass)", census, hybrid_meter)
    if hybrid_meter.vector_searches < len(check):
        print(
            f"  WARNING: the hybrid side searched vectors on {hybrid_meter.vector_searches} of "
            f"{len(check)} queries: its figures are (partly) keyword only"
        )

    # One-off: new rows appear (another process wrote them); the next query extends the index.
    from memory.store.models import Chunk

    new_ids = list(Chunk.objects.order_by("-pk").values_list("pk", flat=True)[:100])
    vectors.vectors_delete(new_ids)
    vectors.warm(model)
    vectors.vectors_store(((i, query_vector(f"new-{i}")) for i in new_ids), model=model)
    extend_ms, _ = common.timed_ms(
        lambda: vectors.nearest_ids(query_vector("x"), k=k, model=model, queryset=base)
    )
    print(f"  first query after 100 new vectors (index extended in place): {extend_ms:.1f} ms")
    return {
        "rows": rows,
        "k": k,
        "embedder": embedder,
        "keyword": s_kw,
        "hybrid": s_hy,
        "ratio_p50": ratio_p50,
        "ratio_p99": ratio_p99,
        "cold_load_ms": cold_ms,
        "extend_ms": extend_ms,
        "hybrid_vector_searches": hybrid_meter.vector_searches,
        "checked_queries": len(check),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--k", type=int, default=5)
    parser.add_argument("--embedder", choices=("fake", "http", "local"), default="fake")
    parser.add_argument("--rebuild", action="store_true", help="rebuild the cached bench database")
    args = parser.parse_args(argv)
    run(args.rows, args.queries, args.k, args.embedder, args.rebuild)


if __name__ == "__main__":
    main()
