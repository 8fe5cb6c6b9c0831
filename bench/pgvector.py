"""pgvector on PostgreSQL: hybrid vs keyword latency, ANN agreement with exact search, and what
a fresh web process pays (memory, first query), at 100k (or --rows) 384-dim vectors.

    DATABASE_URL=postgres://protomem:protomem-test@127.0.0.1:5432/protomem_pgvec_bench \\
        .venv/bin/python -m bench.pgvector --rows 100000 --vectors clustered

Builds once (the database is reused while its marker matches): --rows chunks through
memory.lifecycle.writes.add_chunks (the same synthetic mix as bench/search.py: 3% rejected, 2%
expired, 2% superseded; past 100k, SQL copies of those rows: add_chunks would take an hour),
then one 384-dim vector per chunk, either `uniform` (standard normal, the worst case for any
graph index: no structure, all distances alike) or `clustered` (200 centres, each vector a
centre plus noise, as real sentence embeddings cluster by topic). The vectors are written
with the pgvector column dropped and then enabled the way an operator would (`pgvector-enable`:
backfill, then one HNSW build over the bulk load), and that time is printed.

Then, in this one run (ratios are the result; the machine is shared):
  keyword   chunk_search(q, k) with embeddings off (tsvector)
  hybrid    the same with embeddings on (fake embedder: the query vector is made in microseconds,
            so only the search is measured): tsvector + pgvector HNSW, RRF
  agreement top-10 of pgvector (unfiltered, and filtered by deliverable()) against exact cosine
            over the same vectors (numpy, in this bench process only), per hnsw.ef_search
  fresh process: resident memory after its first hybrid query, and its first hybrid query's time
            against another fresh process's first keyword query (each a new interpreter)

Measured 2026-12-04 at 100k clustered (one run, shared 2-core machine): agreement 1.000 at
ef_search 200 (filtered too); pgvector step alone p50 3.6 ms; hybrid/keyword p50 x5.8, p99 x2.6
(hybrid on the in-process index in the same run: x7.8 / x3.1; most of hybrid's cost is its
20-row keyword pool and rerank, not the vectors); fresh process 94 MB after its first hybrid query
(576 MB with the in-process index), first hybrid 45 ms = x1.74 the first keyword query. 1M was
not reached in the session (the 1M HNSW build alone is tens of minutes here).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from typing import Any

from bench import common

DIM = 384
SEED = 20261204
CENTRES = 200
MODEL = "bench-pgvector-384"
K = 10
CLONE_ABOVE = 100_000  # chunks written through add_chunks; the rest are SQL copies of them (text
# repeats, so keyword posting lists grow as the store does; every vector is distinct)


def _vectors(kind: str, count: int, rng: Any) -> Any:
    import numpy as np

    if kind == "uniform":
        m = rng.standard_normal((count, DIM)).astype(np.float32)
    else:
        centres = np.random.default_rng(SEED).standard_normal((CENTRES, DIM)).astype(np.float32)
        noise = rng.standard_normal((count, DIM)).astype(np.float32)
        m = centres[rng.integers(0, CENTRES, count)] + 0.6 * noise
    return m / np.linalg.norm(m, axis=1, keepdims=True)


def query_vectors(kind: str, count: int) -> Any:
    import numpy as np

    return _vectors(kind, count, np.random.default_rng(SEED + 1))


def build(rows: int, kind: str, *, reuse_chunks: bool = False) -> dict[str, Any]:
    from django.db import connection
    from django.utils import timezone

    from bench import search as search_bench
    from memory.lifecycle.writes import add_chunks
    from memory.store import pgvector_index
    from memory.store.models import Chunk

    if reuse_chunks and Chunk.objects.count() == rows:  # only the vectors change
        pgvector_index.disable()
        with connection.cursor() as cursor:
            cursor.execute("DELETE FROM memory_chunk_vector")
        return {"chunk_s": 0.0, **_write_vectors(kind, rows)}
    with connection.cursor() as cursor:
        cursor.execute("TRUNCATE memory_chunk CASCADE")
    rng = random.Random(SEED)
    vocab = common.vocabulary(search_bench.VOCAB_SIZE)
    now = timezone.now()
    start, stored = time.perf_counter(), 0
    written = min(rows, CLONE_ABOVE)
    while stored < written:
        stored += add_chunks(search_bench.drafts(rng, vocab, min(search_bench.SLAB, written - stored), now))
        print(f"    chunks {stored:,}/{rows:,}", file=sys.stderr, flush=True)
    columns = ", ".join(f.column for f in Chunk._meta.concrete_fields if f.column != "id")
    while stored < rows:  # fixture data past CLONE_ABOVE: SQL copies of the written rows
        with connection.cursor() as cursor:
            cursor.execute(
                f"INSERT INTO memory_chunk ({columns}) SELECT {columns} FROM memory_chunk "
                "ORDER BY id LIMIT %s",
                [min(written, rows - stored)],
            )
            stored += cursor.rowcount
        print(f"    chunks {stored:,}/{rows:,} (copies)", file=sys.stderr, flush=True)
    chunk_s = time.perf_counter() - start
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE memory_chunk SET invalidated_at = %s, invalidation_reason = 'superseded_by:0' "
            "WHERE id %% %s = 0",
            [now, round(1 / search_bench.P_INVALIDATED)],
        )
    pgvector_index.disable()  # bulk load first, then one index build (what pgvector-enable does)
    return {"chunk_s": chunk_s, **_write_vectors(kind, rows)}


def _write_vectors(kind: str, rows: int) -> dict[str, Any]:
    import numpy as np
    from django.conf import settings
    from django.db import connection

    from memory.store import pgvector_index, vectors

    settings.PROTOMEM_PGVECTOR_BUILD_MEMORY = "4GB"  # the 1M graph fits: built in memory
    with connection.cursor() as cursor:
        cursor.execute("SELECT id FROM memory_chunk ORDER BY id")
        ids = cursor.fetchall()
    gen = np.random.default_rng(SEED)
    start = time.perf_counter()
    for offset in range(0, len(ids), 5000):
        block = [row[0] for row in ids[offset : offset + 5000]]
        vectors.vectors_store(zip(block, _vectors(kind, len(block), gen), strict=True), model=MODEL)
    blob_s = time.perf_counter() - start
    start = time.perf_counter()
    done = pgvector_index.enable(progress=lambda text: print("    " + text, file=sys.stderr, flush=True))
    enable_s = time.perf_counter() - start
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE memory_chunk")
        cursor.execute("VACUUM ANALYZE memory_chunk_vector")
    return {"blob_s": blob_s, "enable_s": enable_s, "backfilled": done.backfilled}


def exact_top(matrix: Any, ids: Any, query: Any, k: int, allowed: Any = None) -> list[int]:
    import numpy as np

    scores = matrix @ query
    if allowed is not None:
        scores = np.where(allowed, scores, -np.inf)
    top = np.argpartition(-scores, k)[:k]
    return ids[top[np.argsort(-scores[top], kind="stable")]].tolist()


def agreement(kind: str, queries: int, ef_values: list[int]) -> None:
    import numpy as np
    from django.conf import settings
    from django.db import connection

    from memory.store import pgvector_index
    from memory.store.deliverable import deliverable

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT chunk_id, vector FROM memory_chunk_vector WHERE model = %s ORDER BY chunk_id", [MODEL]
        )
        rows = cursor.fetchall()
    ids = np.array([r[0] for r in rows], dtype=np.int64)
    matrix = np.frombuffer(b"".join(bytes(r[1]) for r in rows), dtype="<f4").reshape(len(rows), DIM)
    passing = set(deliverable().values_list("id", flat=True))
    allowed = np.isin(ids, list(passing))
    qs = query_vectors(kind, queries)
    print(f"  agreement with exact top-{K} over {len(ids):,} vectors ({len(passing):,} deliverable), "
          f"{queries} queries")
    for ef in ef_values:
        settings.PROTOMEM_PGVECTOR_EF_SEARCH = ef
        plain, filtered, t_plain = [], [], []
        for q in qs:
            ms, got = common.timed_ms(lambda q=q: pgvector_index.nearest_ids(q, k=K, model=MODEL))
            t_plain.append(ms)
            plain.append(len(set(got) & set(exact_top(matrix, ids, q, K))) / K)
            got = [r[0] for r in pgvector_index.nearest_rows(q, k=K, model=MODEL, queryset=deliverable())]
            filtered.append(len(set(got) & set(exact_top(matrix, ids, q, K, allowed))) / K)
        p50 = common.percentile(t_plain, 50)
        print(
            f"    ef_search {ef:>4}: unfiltered {np.mean(plain):.3f} (min {min(plain):.1f}), "
            f"deliverable() {np.mean(filtered):.3f} (min {min(filtered):.1f}); vector-only p50 {p50:.2f} ms"
        )
    del settings.PROTOMEM_PGVECTOR_EF_SEARCH


def fake_embedder(kind: str) -> None:
    import hashlib

    import numpy as np

    from memory.embedding import embeddings

    def embed(text: str, *, model: str | None = None) -> Any:
        seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")
        return _vectors(kind, 1, np.random.default_rng(seed))[0]

    embeddings.embed_query = embed  # type: ignore[assignment]


def latency(kind: str, queries: int, *, in_process: bool) -> None:
    """keyword, hybrid (pgvector) and the vector step alone as hybrid runs it (deliverable(),
    the 20-row pool, the rerank columns), interleaved; with `in_process`, hybrid on today's
    in-process index too (warmed first), for contrast."""
    from django.conf import settings

    from bench import search as search_bench
    from memory.embedding import embeddings
    from memory.lifecycle.selectors import chunk_search
    from memory.retrieval import structure
    from memory.store import vectors
    from memory.store.deliverable import deliverable

    fake_embedder(kind)
    vocab = common.vocabulary(search_bench.VOCAB_SIZE)
    rng = random.Random(SEED)
    texts = [common.query_terms(rng, vocab, 3) for _ in range(queries)]
    common.set_knowledge(embeddings=True, embed_model=MODEL)
    for q in texts[:10]:
        chunk_search(q, k=5)
    if in_process:
        settings.PROTOMEM_PGVECTOR = False
        vectors.warm(MODEL)
        settings.PROTOMEM_PGVECTOR = True
    pool = structure.pool_size(5)
    t_kw, t_hy, t_vec, t_old = [], [], [], []
    for q in texts:
        common.set_knowledge(embeddings=False, embed_model=MODEL)
        t_kw.append(common.timed_ms(lambda q=q: chunk_search(q, k=5))[0])
        common.set_knowledge(embeddings=True, embed_model=MODEL)
        t_hy.append(common.timed_ms(lambda q=q: chunk_search(q, k=5))[0])
        vec = embeddings.embed_query(q)
        t_vec.append(common.timed_ms(lambda vec=vec: vectors.nearest_rows(
            vec, k=pool, model=MODEL, queryset=deliverable(), fields=structure.ROW_FIELDS))[0])
        if in_process:
            settings.PROTOMEM_PGVECTOR = False
            t_old.append(common.timed_ms(lambda q=q: chunk_search(q, k=5))[0])
            settings.PROTOMEM_PGVECTOR = True
    kw = common.print_latency("keyword chunk_search", t_kw)
    hy = common.print_latency("hybrid chunk_search (pgvector)", t_hy)
    common.print_latency(f"pgvector step alone (k={pool})", t_vec)
    print(f"  hybrid/keyword: p50 x{hy['p50'] / kw['p50']:.2f}, p99 x{hy['p99'] / kw['p99']:.2f}")
    if t_old:
        old = common.print_latency("hybrid, in-process index", t_old)
        p50, p99 = old["p50"] / kw["p50"], old["p99"] / kw["p99"]
        print(f"  in-process hybrid/keyword: p50 x{p50:.2f}, p99 x{p99:.2f}")


def child(mode: str, kind: str) -> None:
    """A fresh process: its first query's time and its resident memory afterwards (JSON)."""
    from memory.lifecycle.selectors import chunk_search
    from memory.store import pgvector_index, vectors

    fake_embedder(kind)
    common.set_knowledge(embeddings=mode != "keyword", embed_model=MODEL)
    if mode == "in-process":  # today's path, for contrast: every vector in this process
        from django.conf import settings

        settings.PROTOMEM_PGVECTOR = False
        vectors.warm(MODEL)
    ms, hits = common.timed_ms(lambda: chunk_search("lirapu tanosi komavu", k=5))
    with open("/proc/self/status") as status:
        rss = next(int(line.split()[1]) for line in status if line.startswith("VmRSS:")) / 1024
    print(json.dumps({"ms": ms, "rss_mb": rss, "pgvector": pgvector_index.active(), "hits": len(hits)}))


def fresh(mode: str, kind: str, rows: int) -> dict[str, Any]:
    out = subprocess.run(  # noqa: S603 - this interpreter, this module
        [sys.executable, "-m", "bench.pgvector", "--child", mode, "--vectors", kind, "--rows", str(rows)],
        capture_output=True, text=True, check=True, cwd=common.REPO, env=os.environ.copy(),
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--vectors", choices=("clustered", "uniform"), default="clustered")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--ef", default="40,100,200,400", help="hnsw.ef_search values to compare")
    parser.add_argument("--rebuild", action="store_true")
    parser.add_argument("--reuse-chunks", action="store_true", help="keep the chunks, replace the vectors")
    parser.add_argument("--child", choices=("keyword", "hybrid", "in-process"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        raise SystemExit("set DATABASE_URL to a PostgreSQL database with pgvector (its tables are replaced)")
    instance = common.bench_instance(f"pgvector-{args.rows}-{args.vectors}")
    if args.child:
        child(args.child, args.vectors)
        return
    from django.db import connection

    common.migrate()
    params = {
        "rows": args.rows, "vectors": args.vectors, "dim": DIM, "seed": SEED,
        "db": connection.settings_dict["NAME"],
    }
    built = common.is_built(instance, params)
    if built is None or args.rebuild:
        print(f"  building {args.rows:,} chunks + {args.vectors} vectors ...", file=sys.stderr, flush=True)
        for other in common.BENCH_ROOT.glob(f"pgvector-{args.rows}-*/{common.MARKER}"):
            other.unlink()  # one database: whichever vectors were written last are the built ones
        info = build(args.rows, args.vectors, reuse_chunks=args.reuse_chunks)
        common.mark_built(instance, params, info)
        built = common.is_built(instance, params)
    if built is None:
        raise SystemExit(f"bench database in {instance} did not record its build")
    from memory.store import pgvector_index

    state = pgvector_index.status()
    print(f"pgvector {state.installed}: {args.rows:,} chunks x {DIM}-dim {args.vectors} vectors, HNSW m="
          f"{pgvector_index.HNSW_M} ef_construction={pgvector_index.HNSW_EF_CONSTRUCTION}, default ef_search "
          f"{pgvector_index.EF_SEARCH}")
    print(f"  build: chunks {built['chunk_s']:.0f} s, vectors as BLOBs {built['blob_s']:.0f} s, "
          f"pgvector-enable (backfill {built['backfilled']:,} + HNSW build) {built['enable_s']:.0f} s")
    if args.ef:
        agreement(args.vectors, args.queries, [int(x) for x in args.ef.split(",")])
    latency(args.vectors, args.queries, in_process=args.rows <= 200_000)
    kw, hy = fresh("keyword", args.vectors, args.rows), fresh("hybrid", args.vectors, args.rows)
    print(f"  fresh process, first keyword query {kw['ms']:.0f} ms; first hybrid query {hy['ms']:.0f} ms "
          f"(x{hy['ms'] / kw['ms']:.2f}, pgvector={hy['pgvector']}); resident memory after it: "
          f"keyword {kw['rss_mb']:.0f} MB, hybrid {hy['rss_mb']:.0f} MB")
    old = fresh("in-process", args.vectors, args.rows)
    print(f"  for contrast, today's in-process path (PROTOMEM_PGVECTOR off, index warmed): "
          f"resident memory {old['rss_mb']:.0f} MB")


if __name__ == "__main__":
    main()
