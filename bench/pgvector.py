"""pgvector on PostgreSQL: hybrid vs keyword latency, ANN agreement with exact search, and what
a fresh web process pays (memory, first query), at 100k (or --rows) 384-dim vectors.

    DATABASE_URL=postgres://protomem:protomem-test@127.0.0.1:5432/protomem_pgvec_bench \\
        .venv/bin/python -m bench.pgvector --rows 100000 --vectors clustered

Builds once (the database is reused while its marker matches) with bench/pg_bulk.py: --rows
chunks of bench/search.py's synthetic mix (3% rejected, 2% expired, 2% superseded; every row
its own text, stamped and inspected by writes.py's own code) sent by COPY, memory_chunk's
secondary indexes (the GIN one too) re-created once afterwards; then one 384-dim vector per
chunk, either `uniform` (standard normal, the worst case for any graph index: no structure, all
distances alike) or `clustered` (200 centres, each vector a centre plus 0.6x noise, as sentence
embeddings cluster by topic; at 1M that is 5,000 vectors per topic, alike within it), sent as
one binary COPY (BLOB + pgvector column), then one HNSW build, each time printed. `--vectors real`
puts real embeddings there instead (bench/real_vectors.py: distinct real texts through the local
model, cached) and asks real questions (or, --queries-from held-out, corpus texts that are not
rows); the fake embedder then hands hybrid one of 400 real questions' vectors per query text.
--latency-ef 40,100,200,400 runs the keyword/hybrid latency step once per hnsw.ef_search. Use a
database of its own (its tables are replaced) and keep it: at 1M the build took 73 min on the
shared 2-core machine (chunk rows 17 min, mostly writes.py's inspection; COPY 1.5 min; indexes
1 min; vectors 2 min; HNSW 40 min with maintenance_work_mem 6GB and one parallel worker).

Then, in this one run (ratios are the result; the machine is shared):
  keyword   chunk_search(q, k) with embeddings off (tsvector)
  hybrid    the same with embeddings on (fake embedder: the query vector is made in microseconds,
            so only the search is measured): tsvector + pgvector HNSW, RRF
  agreement top-10 of pgvector (unfiltered, and filtered by deliverable()) against exact cosine
            over the same vectors (numpy, in this bench process only), per hnsw.ef_search
  fresh process: its first hybrid query's time (and how long after the process started it
            answered) against another fresh process's first keyword query; resident memory
            after 1 and after 100 queries (each a new interpreter)
  --profile the vector step alone: as hybrid calls it, its SQL replayed raw, the server's time

Measured 2026-12-04 at 100k clustered (one run, shared 2-core machine): agreement 1.000 at
ef_search 200 (filtered too); pgvector step alone p50 3.6 ms; hybrid/keyword p50 x5.8, p99 x2.6
(hybrid on the in-process index in the same run: x7.8 / x3.1; most of hybrid's cost is its
20-row keyword pool and rerank, not the vectors); fresh process 94 MB after its first hybrid query
(576 MB with the in-process index), first hybrid 45 ms = x1.74 the first keyword query.

At 1M clustered (same day, one build, runs one after another): agreement 0.710 / 0.881 / 0.948 /
0.980 at ef_search 40 / 100 / 200 / 400 (deliverable() the same +-0.004; a few queries in 200
miss their topic entirely at every ef). Vector step as hybrid calls it, p50/p99: 16.1/33.4 ms
with four round trips per search, 10.8/19.2 ms with one (ef 200), 11.5/19.1 ms at ef 400;
server time alone 4.8 ms (ef 200), 8.0 ms (ef 400). hybrid/keyword p99 x4.8-5.0, p50 x4.2-6.3
(hybrid p50 35-37 ms against keyword 6-8 ms): the vector step is a third of hybrid; the rest is
hybrid's two keyword statements (~11 ms each) and its rerank. Fresh process: first hybrid
query 228-251 ms (first keyword 27-30 ms), answered ~1.0 s after the process started (keyword
the same: imports and Django); resident memory 96 MB after 1 hybrid query, 97 MB after 100.

2026-12-05, 100k clustered (shared host, load average 11-24: single runs move +-30%). The fake
embedder remade its 200 topic centres per query vector (~4.5 ms holding the GIL, on the thread
beside the keyword search): now made once. Statements per 3-term query: keyword 2 -> 1, hybrid
4 -> 3 (the all-terms and pair steps in one statement on PostgreSQL: text_index.chunk_plan; the
same hits on 300/300 queries); interleaved, keyword p50 x0.47-0.57, p99 x0.67-0.75 of before;
hybrid p50 x0.85-0.89. HNSW over halfvec (migration 0018), the index walked for 2k rows and the
best k kept by float32 distance: server time p50 2.56-2.87 -> 1.50-1.66 ms, index 195 -> 112 MB,
agreement 0.983 / 0.999 / 1.000 at ef_search 40 / 100 / 200 (deliverable() 0.981 / 0.999 /
1.000), as with the float32 index. hybrid/keyword after: p50 x5.0-5.2, p99 x0.9-1.3 (keyword got
faster, hybrid less so). What is left of hybrid on this host is round trips, each costing far
more than its server time when the cores are oversubscribed: per statement p50 keyword 5 ms,
vector 15-20 ms (server 1.5 ms), the final row load 3-7 ms (server well under 1 ms), and the
query embedding's thread handoff ~5 ms (hybrid with the vector handed in: 34 vs 39 ms). The
search ahead (the vector statement on a second connection, beside the keyword one) did not pay
here: p50 x0.88 and x1.00 in two runs (memory.store.pgvector_ahead, off by default).

Same day at 300k clustered (one build; 200 queries): agreement at ef_search 194 (ef_for_rows)
0.998, deliverable() 0.998. Both indexes side by side (100 queries, interleaved, server time p50):
float32 22.7 ms and agreement 0.997 at ef 200, halfvec 9.9 ms and 0.996 (at ef 100: 32.1 vs
9.6 ms, 0.977 vs 0.957); index 586 -> 335 MB (shared_buffers here is 128 MB: neither fits, and
at 1M the halfvec index is ~1.1 GB, so give PostgreSQL shared_buffers to hold it). keyword p50/p99
7.7/21.8 ms, hybrid 40.3/66.0 (x5.26 / x3.03), with the search ahead 33.9/64.0 (x4.42 / x2.94);
interleaved before/after (keyword x0.60 / x0.77; hybrid with one keyword statement x0.92 /
x0.77, with the search ahead x1.00 / x0.99). From 100k to 300k keyword and hybrid p50 stay
where they were (round trips dominate); the vector step's server time grows with the index's
share outside shared buffers.

2026-12-06 (shared host, load 3-6; one build each of 100k and 300k clustered). The keyword and
vector statements read every column of the rows they rank (memory.retrieval.structure.rows_read),
so retrieve reads no rows after them: statements per plain-store hybrid query 3 -> 2 (counted
by the latency step). hybrid p50 / p99 ms, rows kept against rows read again, interleaved in
one run each: 100k 14.0/32.3 vs 15.9/36.1 (200 queries), 4.60/17.5 vs 4.87/27.0 (400); 300k
17.6/37.5 vs 17.6/37.0 (200), 17.2/39.2 vs 19.9/43.5 (400), 12.6/27.1 vs 13.6/26.3 (400).
hybrid/keyword p99 after: x1.27-1.64 at 100k, x2.73-3.64 at 300k (the vector statement's own
time there, the index outgrowing shared_buffers). --round-trips (raw replays, 300 queries):
the SET LOCAL prefix costs nothing measurable against session-level settings set once (300k
p50 9.29 vs 9.29 ms, 100k 5.06 vs 5.70); the keyword and vector statements in one message
instead of two: p50 13.3 -> 11.5 ms at 300k, 8.1 -> 6.6 at 100k (the embedding's overlap with
the keyword search aside). Agreement at 300k, 200 queries: 0.983 / 0.989 / 0.998 at ef_search
100 / 140 / 194 (deliverable() the same; at 100 and 140 one query misses its topic entirely);
at 100k 0.988 / 0.998 / 0.999 / 0.999 at 40 / 60 / 80 / 100.

2026-12-06, --vectors real at 100k (bench/real_vectors.py; shared host, load 4, an embedding job
beside it). Real vectors are harder for the graph than the clustered set, not easier: top-10
agreement on 200 real questions 0.935 / 0.974 / 0.990 / 1.000 at ef_search 40 / 100 / 200 / 400
(deliverable() within 0.002; on 400 questions 0.975 / 0.987 / 0.988 / 0.989 / 0.992 / 0.997 at
100 / 120 / 140 / 160 / 200 / 400, one question missed entirely even at 400); on 200 held-out
corpus texts 0.979 / 0.993 / 0.998 / 0.999. ef_for_rows(100k) = 100 gives 0.974-0.975 on the
questions: under 0.98. The misses are questions whose neighbours are one conversation's turns
(e.g. "When was John's old area hit with a flood?": exact top-1 cosine 0.52, pgvector's best
0.30 at ef 100-200): a question is not drawn from the rows' distribution. hybrid/keyword
(200 queries per ef, one run each, p99 of 200 samples is noisy): p50/p99 x3.15/x1.12 (ef 40),
x4.35/x1.02 (100), x4.46/x2.05 (200), x4.36/x1.77 (400); the vector step alone p50 11.0 / 7.9 /
9.9 / 15.4 ms. Fresh process: first hybrid 127 ms (keyword 53), RSS 98 / 99 MB.
At 150k real (one build; HNSW 213 s): 400 questions 0.931 / 0.972 / 0.995 / 0.998 at ef_search
40 / 100 / 200 / 400 (ef_for_rows gave 128 here); 200 held-out texts 0.975 / 0.996 / 0.999 / 1.000.
At 300k real (2026-12-07, one build: chunk prep 172 s, HNSW 325 s; 400 questions): 0.966 /
0.987 / 0.992 / 0.993 at ef_search 100 / 200 / 278 / 400 (deliverable() within 0.001; some
questions miss their neighbourhood at every ef); vector-only p50 4.9 / 6.1 / 10.2 / 12.2 ms.
ef_for_rows(300k) is 278 since it gives 200 at 100k (it was 194: ~0.986).

2026-12-07, 1M clustered (one build, 24 min: chunk prep 341 s, HNSW 840 s; the host shared with
another job that kept one core busy). shared_buffers 2 GB, index prewarmed, 1000 queries
interleaved (host CPU idle 7% during the run): keyword p50/p99 3.1/6.4 ms, hybrid 12.6/20.6
(x4.03 / x3.21), hybrid with the search ahead (pgvector_ahead: the vector statement on a second
connection) 13.1/20.7 (x4.21 / x3.22); vector step alone 8.9/15.4. A 600-query run before it:
x4.24 / x2.36 against x4.45 / x2.10. Later, 1000 queries on a saturated host (0% idle): x4.45 /
x3.46 against x4.27 / x3.58; at shared_buffers 128 MB with 33% idle (600 queries): x5.33 / x2.89
against x5.07 / x2.57 (hybrid p50/p99 19.3/46.8 -> 18.3/41.5 ms), the only run where the search
ahead paid. The overlap mostly does not happen on this host: with one core free, the second
backend's walk and the keyword statement take turns (keyword + vector on two connections: 14.8
ms p50 against 3.7 + 10.4 apart). The walk: ~4,200 index buffers at ef 400, all shared hits,
~1.3 us each (EXPLAIN ANALYZE BUFFERS; 1,900 / 2,100 / 3,100 / 5,400 buffers at 40 / 100 / 200 /
800), so its cost is the elements visited, not their arithmetic; hnsw.iterative_scan off saves
~5%. --compare-graph 256 (the same vectors in a second table, indexed with ef_construction 256;
300 queries, every graph and ef of a query in shuffled order; shared_buffers 4 GB, load ~5):
agreement 0.897 / 0.955 / 0.974 / 0.980 (128) against 0.894 / 0.963 / 0.985 / 0.994 (256) at
ef_search 100 / 200 / 300 / 400, server p50 the same within noise (17.8 vs 17.5 ms at 400 under
that load); the same step on the bench's own 200 queries (--compare-graph 256 --ef 200,300,400,
load 1.5-4.5): 0.948 / 0.973 / 0.978 against 0.973 / 0.993 / 0.996 (min 0.9 from ef 300: no
query misses its topic), server p50 5.8 / 9.7 / 9.6 against 6.2 / 8.0 / 8.8 ms. Hence
HNSW_EF_CONSTRUCTION 256; ef_search stays (300 would give 0.993 here for ~13% fewer buffers, but
real questions at 1M are not measured). Its build took 33 min (load 5-7). The bench runs the
migrations, so a database built before migration 0020 gets its index rebuilt with 256 on its
next run (as long as a build); `manage.py migrate memory 0020 --fake` on that database keeps the
old graph, e.g. for --compare-graph.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
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
REAL_QUERY_POOL = 400  # --vectors real: hybrid's query texts each get one of these real vectors
CLONE_ABOVE = 100_000  # chunks written through add_chunks; the rest are SQL copies of them (text
# repeats, so keyword posting lists grow as the store does; every vector is distinct)


@functools.cache
def _centres() -> Any:
    """The topic centres, made once: remaking them per query vector took ~4.5 ms holding the
    GIL, which the fake embedder's background thread then took from the keyword search."""
    import numpy as np

    return np.random.default_rng(SEED).standard_normal((CENTRES, DIM)).astype(np.float32)


QUERIES_FROM = "questions"  # --queries-from, for --vectors real: "questions" or "held-out" corpus texts


def _real_queries(count: int) -> Any:
    """Real query vectors (bench/real_vectors.py): questions, or corpus texts past the index."""
    from bench import real_vectors

    held_out = None if QUERIES_FROM == "questions" else _chunk_rows()
    return real_vectors.query_matrix(count, held_out_after=held_out)


@functools.cache
def _question_pool() -> Any:
    """The fake embedder's real vectors, loaded once (it runs on the query's embedding thread)."""
    from bench import real_vectors

    return real_vectors.query_matrix(REAL_QUERY_POOL)


def _chunk_rows() -> int:
    from memory.store.models import Chunk

    return Chunk.objects.count()


def _vectors(kind: str, count: int, rng: Any) -> Any:
    import numpy as np

    if kind == "real":  # the fake embedder's query vectors: a real question's, picked by rng
        pool = _question_pool()
        return pool[rng.integers(0, len(pool), count)]
    if kind == "uniform":
        m = rng.standard_normal((count, DIM)).astype(np.float32)
    else:
        centres = _centres()
        noise = rng.standard_normal((count, DIM)).astype(np.float32)
        m = centres[rng.integers(0, CENTRES, count)] + 0.6 * noise
    return m / np.linalg.norm(m, axis=1, keepdims=True)


def query_vectors(kind: str, count: int) -> Any:
    import numpy as np

    if kind == "real":
        return _real_queries(count)
    return _vectors(kind, count, np.random.default_rng(SEED + 1))


def build(rows: int, kind: str, *, reuse_chunks: bool = False) -> dict[str, Any]:
    """Chunks and vectors by COPY (bench/pg_bulk.py), then the HNSW index built once."""
    from bench import pg_bulk
    from memory.store.models import Chunk

    info: dict[str, Any] = {}
    if not (reuse_chunks and Chunk.objects.count() == rows):  # else only the vectors change
        info.update(pg_bulk.load_chunks(rows, seed=SEED))
    info.update(_write_vectors(kind))
    info.update(pg_bulk.build_vector_index())
    return info


def _write_vectors(kind: str) -> dict[str, Any]:
    import numpy as np
    from django.db import connection

    from bench import pg_bulk

    with connection.cursor() as cursor:
        cursor.execute("SELECT id FROM memory_chunk ORDER BY id")
        ids = np.array([row[0] for row in cursor.fetchall()], dtype=np.int64)
    if kind == "real":  # the first len(ids) corpus texts' embeddings, one per chunk in id order
        from bench import real_vectors

        m = real_vectors.matrix(len(ids))
        return pg_bulk.load_vectors(
            (
                (ids[at : at + pg_bulk.COPY_BLOCK], m[at : at + pg_bulk.COPY_BLOCK])
                for at in range(0, len(ids), pg_bulk.COPY_BLOCK)
            ),
            model=MODEL,
        )
    gen = np.random.default_rng(SEED)
    blocks = (
        (ids[at : at + pg_bulk.COPY_BLOCK], _vectors(kind, len(ids[at : at + pg_bulk.COPY_BLOCK]), gen))
        for at in range(0, len(ids), pg_bulk.COPY_BLOCK)
    )
    return pg_bulk.load_vectors(blocks, model=MODEL)


def _stored_matrix() -> tuple[Any, Any]:
    """Every stored float32 vector of the bench model, by chunk id: the exact search's side."""
    import numpy as np
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT chunk_id, vector FROM memory_chunk_vector WHERE model = %s ORDER BY chunk_id", [MODEL]
        )
        rows = cursor.fetchall()
    ids = np.array([r[0] for r in rows], dtype=np.int64)
    return ids, np.frombuffer(b"".join(bytes(r[1]) for r in rows), dtype="<f4").reshape(len(rows), DIM)


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

    from memory.store import pgvector_index
    from memory.store.deliverable import deliverable

    ids, matrix = _stored_matrix()
    passing = set(deliverable().values_list("id", flat=True))
    allowed = np.isin(ids, list(passing))
    qs = query_vectors(kind, queries)
    print(
        f"  agreement with exact top-{K} over {len(ids):,} vectors ({len(passing):,} deliverable), "
        f"{queries} queries"
    )
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


def _host_jiffies() -> tuple[int, int]:
    """(idle, total) jiffies of the whole machine so far (/proc/stat): how busy the shared host
    was during a run, which decides whether two statements in flight can overlap at all."""
    with open("/proc/stat") as stat:
        values = [int(v) for v in stat.readline().split()[1:]]
    return values[3] + values[4], sum(values)


def latency(kind: str, queries: int, *, in_process: bool, ahead: bool = True, again: bool = True) -> None:
    """keyword, hybrid (pgvector), hybrid reading its rows again afterwards (the path before the
    keyword and vector statements read whole rows: retrieve._rows_kept off) and the vector step
    alone as hybrid runs it (deliverable(), the 20-row pool, the rerank columns), interleaved,
    with the statements each sends on this connection; with `ahead`, hybrid with the search
    ahead too; with `in_process`, hybrid on today's in-process index (warmed first), for contrast."""
    from unittest import mock

    from django.conf import settings
    from django.db import connection

    from bench import search as search_bench
    from memory.embedding import embeddings
    from memory.lifecycle.selectors import chunk_search
    from memory.retrieval import retrieve, structure
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
    # label -> (embeddings on, search ahead, rows read by the ranking statements); each query
    # runs every variant in a shuffled order, so none always meets the pages another one read first
    variants = {
        "keyword chunk_search": (False, False, True),
        "hybrid chunk_search (pgvector)": (True, False, True),
    }
    if again:
        variants["hybrid, rows read again"] = (True, False, False)
    if ahead:
        variants["hybrid, search ahead"] = (True, True, True)
    times: dict[str, list[float]] = {label: [] for label in variants}
    sent: dict[str, list[int]] = {label: [] for label in variants}
    order = list(variants)
    t_vec, t_old = [], []

    def count(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        counted[0] += 1
        return execute(sql, params, many, context)

    idle_at, total_at = _host_jiffies()
    for q in texts:
        rng.shuffle(order)
        for label in order:
            embeddings_on, search_ahead, kept = variants[label]
            common.set_knowledge(embeddings=embeddings_on, embed_model=MODEL)
            settings.PROTOMEM_PGVECTOR_AHEAD = search_ahead  # True: the vector step beside the keyword one
            counted = [0]
            patch = (
                contextlib.nullcontext()
                if kept
                else mock.patch.object(retrieve, "_rows_kept", return_value=None)
            )
            with patch, connection.execute_wrapper(count):
                times[label].append(common.timed_ms(lambda q=q: chunk_search(q, k=5))[0])
            sent[label].append(counted[0])
        settings.PROTOMEM_PGVECTOR_AHEAD = False
        common.set_knowledge(embeddings=True, embed_model=MODEL)
        # a vector no search has walked yet: the hybrid query's own would find its pages warm
        # (at 1M that walk reads ~3x faster than a new query's, and understated the step)
        vec = embeddings.embed_query(q + " (alone)")
        t_vec.append(
            common.timed_ms(
                lambda vec=vec: vectors.nearest_rows(
                    vec, k=pool, model=MODEL, queryset=deliverable(), fields=structure.ROW_FIELDS
                )
            )[0]
        )
        if in_process:
            settings.PROTOMEM_PGVECTOR = False
            t_old.append(common.timed_ms(lambda q=q: chunk_search(q, k=5))[0])
            settings.PROTOMEM_PGVECTOR = True
    idle_to, total_to = _host_jiffies()
    idle = (idle_to - idle_at) / max(total_to - total_at, 1)
    cores = os.cpu_count()
    print(f"  host CPU idle during the run: {idle:.0%} of {cores} cores (this bench's own use included)")
    summary = {}
    for label in variants:
        summary[label] = common.print_latency(label, times[label])
        mean = sum(sent[label]) / len(sent[label])
        print(f"    statements per query: mean {mean:.2f}, max {max(sent[label])}")
    common.print_latency(f"pgvector step alone (k={pool})", t_vec)
    kw = summary["keyword chunk_search"]
    for label in list(variants)[1:]:
        hy = summary[label]
        print(f"  {label} / keyword: p50 x{hy['p50'] / kw['p50']:.2f}, p99 x{hy['p99'] / kw['p99']:.2f}")
    if t_old:
        old = common.print_latency("hybrid, in-process index", t_old)
        p50, p99 = old["p50"] / kw["p50"], old["p99"] / kw["p99"]
        print(f"  in-process hybrid/keyword: p50 x{p50:.2f}, p99 x{p99:.2f}")


def profile(kind: str, queries: int, ef_values: list[int]) -> None:
    """Where the vector step's time goes, per hnsw.ef_search: the whole call as hybrid makes it
    (vectors.nearest_rows, deliverable(), the 20-row pool, the rerank columns), the same SQL
    replayed on the raw connection (round trips + server), and the server's own time
    (EXPLAIN ANALYZE), interleaved per query; plus one plan with its buffers."""
    from django.conf import settings
    from django.db import connection

    from memory.retrieval import structure
    from memory.store import vectors
    from memory.store.deliverable import deliverable

    pool = structure.pool_size(5)
    qs = query_vectors(kind, queries)
    captured: list[tuple[str, Any]] = []

    def capture(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        captured.append((sql, params))
        return execute(sql, params, many, context)

    def call(q: Any) -> Any:
        fields = structure.ROW_FIELDS
        return vectors.nearest_rows(q, k=pool, model=MODEL, queryset=deliverable(), fields=fields)

    print(
        f"  profile of the vector step (k={pool}, deliverable(), {len(structure.ROW_FIELDS)} columns), "
        f"{queries} queries"
    )
    for ef in ef_values:
        settings.PROTOMEM_PGVECTOR_EF_SEARCH = ef
        t_call, t_raw, t_server, statements = [], [], [], []
        for q in qs:
            captured.clear()
            with connection.execute_wrapper(capture):
                call(q)
            statements.append(sum("WITH f AS MATERIALIZED" in sql for sql, _params in captured))
            t_call.append(common.timed_ms(lambda q=q: call(q))[0])
            sql, params = captured[-1]  # "SET LOCAL ...; SET LOCAL ...; SELECT ...", as sent
            search = sql.rsplit("; ", 1)[-1]
            with connection.connection.cursor() as cursor:  # the raw psycopg connection, one trip
                start = time.perf_counter()
                cursor.execute(sql, params)
                while cursor.description is None and cursor.nextset():
                    pass
                cursor.fetchall()
                t_raw.append((time.perf_counter() - start) * 1000)
            with connection.connection.transaction(), connection.connection.cursor() as cursor:
                cursor.execute(sql.replace(search, "SELECT 1"), params[:0])
                cursor.execute("EXPLAIN (ANALYZE, FORMAT JSON) " + search, params)
                t_server.append(cursor.fetchone()[0][0]["Execution Time"])
        c, r, sv = (common.summarize(t) for t in (t_call, t_raw, t_server))
        print(
            f"    ef_search {ef:>4}: call p50/p99 {c['p50']:.2f}/{c['p99']:.2f} ms, raw SQL {r['p50']:.2f}/"
            f"{r['p99']:.2f}, server {sv['p50']:.2f}/{sv['p99']:.2f}; exact fallbacks "
            f"{sum(statements)}/{queries}"
        )
    sql, params = captured[-1]
    search = sql.rsplit("; ", 1)[-1]
    with connection.connection.transaction(), connection.connection.cursor() as cursor:
        cursor.execute(sql.replace(search, "SELECT 1"), params[:0])
        cursor.execute("EXPLAIN (ANALYZE, BUFFERS) " + search, params)
        print("    " + "\n    ".join(row[0][:160] for row in cursor.fetchall()))
    del settings.PROTOMEM_PGVECTOR_EF_SEARCH


GRAPH_COPY = "bench_pgvector_graph_b"  # --compare-graph: the same vectors in a table of their own


def _index_options(index: str) -> str:
    """An index's build options as PostgreSQL stores them ("m=16,ef_construction=128")."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT coalesce(array_to_string(reloptions, ','), '') FROM pg_class WHERE relname = %s", [index]
        )
        row = cursor.fetchone()
    return row[0] if row else "(no index)"


def compare_graph(kind: str, queries: int, ef_values: list[int], ef_construction: int) -> None:
    """The product's HNSW index against one over a copy of the same vectors built with another
    ef_construction (GRAPH_COPY, built once and kept while its options match): top-10 agreement
    with exact cosine and the server's time (EXPLAIN ANALYZE) per hnsw.ef_search, every (graph,
    ef) pair of a query in a shuffled order. Both walk by the same SQL (nearest_ids' shape:
    RERANK x 10 rows by halfvec distance, the best 10 by float32 distance)."""
    import numpy as np
    from django.db import connection

    from memory.store import pgvector_index

    copy_index = f"{GRAPH_COPY}_hnsw"
    wanted = f"m={pgvector_index.HNSW_M},ef_construction={int(ef_construction)}"
    if _index_options(copy_index) != wanted:
        start = time.perf_counter()
        with connection.cursor() as cursor:
            cursor.execute(f"DROP TABLE IF EXISTS {GRAPH_COPY}")
            cursor.execute(
                f"CREATE TABLE {GRAPH_COPY} AS SELECT chunk_id, embedding FROM memory_chunk_vector "
                f"WHERE dim = {DIM} AND model = %s",
                [MODEL],
            )
            cursor.execute(f"ALTER TABLE {GRAPH_COPY} ADD PRIMARY KEY (chunk_id)")
            cursor.execute("SELECT set_config('maintenance_work_mem', '6GB', false)")
            cursor.execute(
                f"CREATE INDEX {copy_index} ON {GRAPH_COPY} USING hnsw ((embedding::halfvec({DIM})) "
                f"halfvec_cosine_ops) WITH (m = {pgvector_index.HNSW_M}, "
                f"ef_construction = {int(ef_construction)})"
            )
            cursor.execute(f"VACUUM ANALYZE {GRAPH_COPY}")
        print(f"  built {copy_index} in {time.perf_counter() - start:.0f} s", file=sys.stderr)
    ids, matrix = _stored_matrix()
    walk = (
        "SELECT chunk_id FROM (SELECT v.chunk_id, v.embedding::vector({dim}) <=> %(q)s::vector({dim}) "
        "AS distance FROM {table} AS v {where} "
        "ORDER BY v.embedding::halfvec({dim}) <=> %(q)s::halfvec({dim}) LIMIT {walked}) AS w "
        "ORDER BY distance LIMIT {k}"
    )
    product_index = f"memory_chunk_halfvec_hnsw_{DIM}"
    graphs = {
        f"product index ({_index_options(product_index)})": walk.format(
            dim=DIM,
            table="memory_chunk_vector",
            where=f"WHERE v.dim = {DIM} AND v.model = '{MODEL}'",
            walked=pgvector_index.RERANK * K,
            k=K,
        ),
        f"copy ({_index_options(copy_index)})": walk.format(
            dim=DIM, table=GRAPH_COPY, where="", walked=pgvector_index.RERANK * K, k=K
        ),
    }
    connection.ensure_connection()
    raw = connection.connection
    rng = random.Random(SEED + 13)
    found: dict[tuple[str, int], list[tuple[float, float]]] = {}
    for q in query_vectors(kind, queries):
        text, want = pgvector_index.as_text(q), set(exact_top(matrix, ids, q, K))
        trials = [(graph, ef) for graph in graphs for ef in ef_values]
        rng.shuffle(trials)
        for graph, ef in trials:
            with raw.transaction(), raw.cursor() as cursor:
                cursor.execute(f"SET LOCAL hnsw.ef_search = {int(ef)}")
                cursor.execute("SET LOCAL hnsw.iterative_scan = relaxed_order")
                cursor.execute("EXPLAIN (ANALYZE, FORMAT JSON) " + graphs[graph], {"q": text})
                server = cursor.fetchone()[0][0]["Execution Time"]
                cursor.execute(graphs[graph], {"q": text})
                got = {row[0] for row in cursor.fetchall()}
            found.setdefault((graph, ef), []).append((len(got & want) / K, server))
    print(f"  graphs compared over {len(ids):,} vectors, {queries} queries, top-{K} agreement with exact:")
    for graph in graphs:
        for ef in ef_values:
            share = [a for a, _ in found[graph, ef]]
            server = common.summarize([t for _, t in found[graph, ef]])
            print(
                f"    {graph:48} ef_search {ef:>4}: {np.mean(share):.3f} (min {min(share):.1f}), "
                f"server p50 {server['p50']:.2f} p99 {server['p99']:.2f} ms"
            )


def round_trips(kind: str, queries: int) -> None:
    """Diagnostics for the hybrid query's round trips, each query's statements captured from
    chunk_search and replayed raw, interleaved in a shuffled order: (1) the vector statement
    with its SET LOCAL prefix (as sent) against the SELECT alone under session-level settings
    set once; (2) the keyword and the vector statement as two messages (as sent) against one
    message holding both (what a one-round-trip hybrid would cost, the embedding aside)."""
    from django.db import connection

    from bench import search as search_bench
    from memory.lifecycle.selectors import chunk_search

    fake_embedder(kind)
    vocab = common.vocabulary(search_bench.VOCAB_SIZE)
    rng = random.Random(SEED + 11)
    texts = [common.query_terms(rng, vocab, 3) for _ in range(queries)]
    common.set_knowledge(embeddings=True, embed_model=MODEL)
    captured: list[tuple[str, Any]] = []

    def capture(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        captured.append((sql, params))
        return execute(sql, params, many, context)

    pairs = []
    for q in texts:
        captured.clear()
        with connection.execute_wrapper(capture):
            chunk_search(q, k=5)
        if len(captured) == 2 and "hnsw.ef_search" in captured[1][0]:  # keyword, then vector
            pairs.append(list(captured))
    raw = connection.connection

    def run(sql: str, params: Any) -> float:
        with raw.cursor() as cursor:
            start = time.perf_counter()
            cursor.execute(sql, params)
            while True:
                if cursor.description is not None:
                    cursor.fetchall()
                if not cursor.nextset():
                    return (time.perf_counter() - start) * 1000

    prefix = pairs[0][1][0].rsplit("; ", 1)[0]  # "SET LOCAL ...; SET LOCAL ..."
    with raw.cursor() as cursor:  # session-level: every statement of this connection from now on
        cursor.execute(prefix.replace("SET LOCAL", "SET"))
    times: dict[str, list[float]] = {"local": [], "session": [], "two": [], "one": []}
    for (keyword, kw_params), (vector, vec_params) in pairs:
        select = vector.rsplit("; ", 1)[-1]
        trials = {
            "local": [(vector, vec_params)],
            "session": [(select, vec_params)],
            "two": [(keyword, kw_params), (vector, vec_params)],
            "one": [(f"{vector}; {keyword}", [*vec_params, *kw_params])],
        }
        order = list(trials)
        rng.shuffle(order)
        for name in order:
            times[name].append(sum(run(sql, params) for sql, params in trials[name]))
    with raw.cursor() as cursor:
        cursor.execute("RESET hnsw.ef_search; RESET hnsw.iterative_scan")
    print(f"  round trips, {len(pairs)} hybrid queries of 2 statements (keyword, vector), replayed raw")
    common.print_latency("vector, SET LOCAL prefix (as sent)", times["local"], width=40)
    common.print_latency("vector, session settings, SELECT only", times["session"], width=40)
    common.print_latency("keyword + vector, two messages", times["two"], width=40)
    common.print_latency("keyword + vector, one message", times["one"], width=40)


def _process_age_ms() -> float:
    """Milliseconds since this process started (the kernel's start time, so imports count)."""
    with open("/proc/self/stat") as stat:
        started = int(stat.read().rsplit(")", 1)[1].split()[19]) / os.sysconf("SC_CLK_TCK")
    with open("/proc/uptime") as uptime:
        return (float(uptime.read().split()[0]) - started) * 1000


def _rss_mb() -> float:
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:")) / 1024


def child(mode: str, kind: str) -> None:
    """A fresh process (a web worker's view): its first query's time, from process start too,
    and its resident memory after it and after 100 queries (JSON)."""
    from bench import search as search_bench
    from memory.lifecycle.selectors import chunk_search
    from memory.store import pgvector_index, vectors

    fake_embedder(kind)
    common.set_knowledge(embeddings=mode != "keyword", embed_model=MODEL)
    if mode == "in-process":  # today's path, for contrast: every vector in this process
        from django.conf import settings

        settings.PROTOMEM_PGVECTOR = False
        vectors.warm(MODEL)
    ms, hits = common.timed_ms(lambda: chunk_search("lirapu tanosi komavu", k=5))
    answered, rss = _process_age_ms(), _rss_mb()
    vocab, rng = common.vocabulary(search_bench.VOCAB_SIZE), random.Random(SEED + 7)
    for _ in range(99):
        chunk_search(common.query_terms(rng, vocab, 3), k=5)
    print(
        json.dumps(
            {
                "ms": ms,
                "rss_mb": rss,
                "rss_mb_100": _rss_mb(),
                "answered_ms": answered,
                "pgvector": pgvector_index.active(),
                "hits": len(hits),
            }
        )
    )


def fresh(mode: str, kind: str, rows: int, search_ef: int | None = None) -> dict[str, Any]:
    ef = ["--search-ef", str(search_ef)] if search_ef else []
    out = subprocess.run(  # noqa: S603 - this interpreter, this module
        [
            sys.executable,
            "-m",
            "bench.pgvector",
            "--child",
            mode,
            "--vectors",
            kind,
            "--rows",
            str(rows),
            *ef,
        ],
        capture_output=True,
        text=True,
        check=True,
        cwd=common.REPO,
        env=os.environ.copy(),
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument(
        "--vectors",
        choices=("clustered", "uniform", "real"),
        default="clustered",
        help="real: embedded real texts and questions (bench/real_vectors.py)",
    )
    parser.add_argument(
        "--queries-from",
        choices=("questions", "held-out"),
        default="questions",
        help="--vectors real: questions, or corpus texts that are not rows of the index",
    )
    parser.add_argument(
        "--latency-ef", help="comma list: the latency step once per hnsw.ef_search (keyword/hybrid only)"
    )
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--ef", default="40,100,200,400", help="hnsw.ef_search values to compare")
    parser.add_argument("--rebuild", action="store_true")
    parser.add_argument("--search-ef", type=int, help="hnsw.ef_search for the latency and fresh steps")
    parser.add_argument("--profile", action="store_true", help="only the vector step's profile, per --ef")
    parser.add_argument("--round-trips", action="store_true", help="only the round-trip diagnostics")
    parser.add_argument(
        "--compare-graph",
        type=int,
        metavar="EF_CONSTRUCTION",
        help="only: the product index against a copy of the vectors indexed with this ef_construction (--ef)",
    )
    parser.add_argument(
        "--skip",
        default="",
        help="comma list of steps to skip: agreement,latency,fresh,old,ahead,again (rows read again)",
    )
    parser.add_argument("--reuse-chunks", action="store_true", help="keep the chunks, replace the vectors")
    parser.add_argument("--child", choices=("keyword", "hybrid", "in-process"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    global QUERIES_FROM
    QUERIES_FROM = args.queries_from
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        raise SystemExit("set DATABASE_URL to a PostgreSQL database with pgvector (its tables are replaced)")
    instance = common.bench_instance(f"pgvector-{args.rows}-{args.vectors}")
    from django.conf import settings

    if args.search_ef:
        settings.PROTOMEM_PGVECTOR_EF_SEARCH = args.search_ef
    if args.child:
        child(args.child, args.vectors)
        return
    from django.db import connection

    common.migrate()
    params = {
        "rows": args.rows,
        "vectors": args.vectors,
        "dim": DIM,
        "seed": SEED,
        "db": connection.settings_dict["NAME"],
    }
    if args.vectors == "real":
        from bench import real_vectors

        params["real_version"] = real_vectors.VERSION
    built = common.is_built(instance, params)
    if built is None or args.rebuild:
        print(f"  building {args.rows:,} chunks + {args.vectors} vectors ...", file=sys.stderr, flush=True)
        for other in common.BENCH_ROOT.glob(f"pgvector-{args.rows}-*/{common.MARKER}"):
            # one database: whichever vectors were written last are the built ones (markers of
            # other databases, another run's, stay)
            if json.loads(other.read_text()).get("params", {}).get("db") == params["db"]:
                other.unlink()
        info = build(args.rows, args.vectors, reuse_chunks=args.reuse_chunks)
        common.mark_built(instance, params, info)
        built = common.is_built(instance, params)
    if built is None:
        raise SystemExit(f"bench database in {instance} did not record its build")
    from memory.store import pgvector_index

    state = pgvector_index.status()
    print(
        f"pgvector {state.installed}: {args.rows:,} chunks x {DIM}-dim {args.vectors} vectors, HNSW as built "
        f"{_index_options(f'memory_chunk_halfvec_hnsw_{DIM}')} (new builds: ef_construction "
        f"{pgvector_index.HNSW_EF_CONSTRUCTION}), default ef_search {pgvector_index.EF_SEARCH}; "
        f"shared_buffers {state.shared_buffers_bytes / 2**30:.2f} GB"
    )
    print(
        "  build (bench/pg_bulk.py): "
        + ", ".join(
            f"{key} {value:.0f}" if isinstance(value, float) else f"{key} {value}"
            for key, value in built.items()
            if key != "params"
        )
    )
    skip = set(args.skip.split(","))
    if args.profile:
        profile(args.vectors, args.queries, [int(x) for x in args.ef.split(",")])
        return
    if args.round_trips:
        round_trips(args.vectors, args.queries)
        return
    if args.compare_graph:
        compare_graph(args.vectors, args.queries, [int(x) for x in args.ef.split(",")], args.compare_graph)
        return
    if args.ef and "agreement" not in skip:
        agreement(args.vectors, args.queries, [int(x) for x in args.ef.split(",")])
        if args.search_ef:
            settings.PROTOMEM_PGVECTOR_EF_SEARCH = args.search_ef
    if args.latency_ef:
        for ef in [int(x) for x in args.latency_ef.split(",")]:
            settings.PROTOMEM_PGVECTOR_EF_SEARCH = ef
            print(f"  latency at hnsw.ef_search {ef}, {args.queries} queries:")
            latency(args.vectors, args.queries, in_process=False, ahead=False)
        return
    if "latency" not in skip:
        in_process = args.rows <= 200_000 and "old" not in skip
        latency(
            args.vectors,
            args.queries,
            in_process=in_process,
            ahead="ahead" not in skip,
            again="again" not in skip,
        )
    if "fresh" in skip:
        return
    kw = fresh("keyword", args.vectors, args.rows, args.search_ef)
    hy = fresh("hybrid", args.vectors, args.rows, args.search_ef)
    print(
        f"  fresh process, first keyword query {kw['ms']:.0f} ms; first hybrid query {hy['ms']:.0f} ms "
        f"(x{hy['ms'] / kw['ms']:.2f}, pgvector={hy['pgvector']}); answered "
        f"{hy['answered_ms']:.0f} ms after the process started (keyword {kw['answered_ms']:.0f} ms); "
        "resident memory after 1 / 100 queries: "
        f"keyword {kw['rss_mb']:.0f} / {kw['rss_mb_100']:.0f} MB, hybrid {hy['rss_mb']:.0f} / "
        f"{hy['rss_mb_100']:.0f} MB"
    )
    if "old" in skip:
        return
    old = fresh("in-process", args.vectors, args.rows)
    print(
        f"  for contrast, today's in-process path (PROTOMEM_PGVECTOR off, index warmed): "
        f"resident memory {old['rss_mb']:.0f} MB"
    )


if __name__ == "__main__":
    main()
