"""SQLite's ANN index (memory.store.ann_index) against keyword search and exact vector search.

    .venv/bin/python -m bench.ann                        # 100,000 rows, 200 queries, k=5
    .venv/bin/python -m bench.ann --rows 1000000 --queries 300
    .venv/bin/python -m bench.ann --rebuild-index        # build the ANN file again (timed)

Builds (once, cached under /tmp/protomem-bench/ann-<rows>) the same synthetic rows as
bench/search.py, loaded straight into the tables by bench/bulk_load.py (1M rows: 346 s for the
chunks with the FTS5 rebuild, 105 s for the vectors, against ~450 rows/s through add_chunks),
plus one 384-dim vector per chunk drawn like real embeddings rather than
uniformly: rows/100 topic centres sharing a common direction (sentence embeddings are
anisotropic: unrelated texts still score ~0.2-0.3), each row its topic's centre plus noise
(~0.6 cosine to the centre), each query another draw around a random topic. Then, in order:

  build      ann_index.build() of the whole store with all cores (timed; cached unless asked)
  fresh      two new processes: one's first query is a keyword chunk_search, the other's a hybrid
             one; the ratio of those first-query times, and the hybrid process's resident
             memory after that query and after --later more (default resident budget, against a
             process keeping every index page it touched): VmRSS = anonymous + mapped files
             (RssFile counts the page-cache pages of the mapped index this process touched,
             shared with every process mapping it), the index file's share, private pages
  latency    keyword vs hybrid chunk_search(q, k) interleaved on the same store (the fake
             embedder: the query vector costs microseconds, so this is the store's work)
  agreement  top-10 of vectors.nearest_ids over deliverable() by the ANN path against the exact
             path (knowledge.vector_ann_min_rows=0: the in-process matrix) for the same queries

Everything printed is measured in this one run; the ratios are the result (the machine is shared).

One run here at 1M (2 cores shared, index built once: 3910 s wall for 1125 CPU s, int8, connectivity
16, expansion_add 64; file 508 MB): hybrid/keyword p50 x2.31, p99 x1.84 (ANN nearest_ids p50
4.9 ms); new process first hybrid 299 ms (keyword 21 ms); its VmRSS after 100 hybrid queries
687 MB = 150 MB anonymous + 537 MB mapped files, of which 508 MB the whole index file (page
cache shared by every worker; the kernel maps 16 pages around each fault, MADV_RANDOM does not
stop it); top-10 agreement 0.853 at expansion_search 256 (0.617 at 64): the graph, not the
beam, is short at 1M (--tune: 2048 reaches only 0.90). Earlier at 100k (f32): agreement 0.996.

2026-12-06, sign-bit bases (usearch b1, Hamming graph, 200+ hits rescored from the table) tried in
place of i8 and not kept (runs on a shared 2-core box, default 128 MB resident budget):
- 1M, 384 bits (signs about a sampled mean): file 187 MB (i8: 508), build 492 CPU s (i8: 1368),
  top-10 agreement 0.892 (--tune: 0.909 rescoring 1000); worker VmRSS after 100 / 1000 hybrid
  queries 271 / 276 MB (pages kept: 363); first hybrid 346 ms; hybrid/keyword p99 x2.97.
- 1M, 768 bits (signs in two random rotations): file 233 MB, build 462 CPU s, agreement 0.943
  (0.979 only at expansion_search 4096, p50 98 ms); VmRSS 178 / 179 MB (a release every query),
  peak VmHWM 410 MB; first hybrid 210 ms; hybrid/keyword p99 x3.84.
- Brute-force Hamming over the same kind of 1M rows holds the exact top 10 within its top 200
  for 0.989 of them (384 bits; 768: 1.0): the HNSW graph on Hamming distances loses them, not the
  bits. At 100k both formats pass (same session: i8 agreement 0.999, VmRSS 180 MB, file 51 MB,
  75 CPU s, p99 x2.61; b1 384 bits 1.000, 149 MB, 19 MB, 19 CPU s, p99 x2.80).
- A view maps every node record at once (100k: 14 MB of a 50 MB file), and one search maps the
  whole file at 100k (fault-around: 64 kB per touch here): a budget below the file releases on
  every query. VmHWM (printed per --later) is the peak, during a query.
The i8 base was not rebuilt at 1M that day (~1400 CPU s; two attempts stopped unfinished on the
shared box), so no same-day i8 figures at 1M: the paragraph above is the last.

2026-12-06, --vectors real at 100k (bench/real_vectors.py; i8 base, 376 s wall / 72 CPU s on a
busy box, 51 MB): top-10 agreement 0.998 on 200 real questions (0.98 of lists identical); --tune
0.993 / 0.998 / 0.998 / 0.999 at expansion_search 128 / 256 / 384 / 512 (held-out corpus texts
0.996 / 0.998 / 0.999 / 0.999). hybrid/keyword p50 x18.5, p99 x1.83 (keyword p50 2.2 ms, p90
27 ms: a noisy run beside PostgreSQL benches). New process: first hybrid 185 ms (keyword 8 ms),
25 ms after prepare_hybrid() (78 ms); VmRSS 178 MB after it, 181 MB after 100 queries.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
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
MODEL = "bench-clustered-384"
NOISE = 0.06  # per dimension: |noise| ~ 1.2 against a unit centre, cosine to the centre ~0.6
COMMON = 0.5  # weight of the direction every topic shares
LATER = (100, 1000)  # hybrid queries after which a fresh process's resident memory is read (--later)
# Query texts (and so query vectors) are drawn from this seed: SEED is the development split the
# knobs were tuned on; --held-out draws them from HELD_OUT_SEED, never used for tuning.
QUERY_SEED = SEED
HELD_OUT_SEED = SEED + 7919
DTYPE: str | None = None  # --dtype: ann_index.DTYPE for this run's build (an A/B of formats)
VECTORS = "clustered"  # --vectors: "real" is embedded real texts and questions (bench/real_vectors.py)
REAL_QUERY_POOL = 400  # --vectors real: each query text gets one of these questions' vectors


def centres(rows: int) -> Any:
    import numpy as np

    rng = np.random.default_rng(SEED)
    shared = rng.standard_normal(DIM).astype(np.float32)
    shared /= np.linalg.norm(shared)
    topics = rng.standard_normal((max(rows // 100, 10), DIM)).astype(np.float32)
    topics /= np.linalg.norm(topics, axis=1, keepdims=True)
    topics = COMMON * shared + topics
    return topics / np.linalg.norm(topics, axis=1, keepdims=True)


def draw(rng: Any, topics: Any, count: int) -> Any:
    import numpy as np

    picked = topics[rng.integers(0, len(topics), count)]
    rows = picked + NOISE * rng.standard_normal((count, DIM)).astype(np.float32)
    return (rows / np.linalg.norm(rows, axis=1, keepdims=True)).astype(np.float32)


def query_vector(text: str, topics: Any) -> Any:
    import numpy as np

    seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")
    if VECTORS == "real":
        pool = _question_pool()
        return pool[seed % len(pool)]
    return draw(np.random.default_rng(seed), topics, 1)[0]


@functools.cache
def _question_pool() -> Any:
    from bench import real_vectors

    return real_vectors.query_matrix(REAL_QUERY_POOL)


def query_sample(texts: list[str], topics: Any, rows: int) -> Any:
    """The agreement's query vectors: one per text; with --vectors real, real questions (or with
    --held-out, corpus texts that are not rows of the index) rather than the texts' pool picks."""
    if VECTORS != "real":
        return [query_vector(q, topics) for q in texts]
    from bench import real_vectors

    held_out = rows if QUERY_SEED == HELD_OUT_SEED else None
    return list(real_vectors.query_matrix(len(texts), held_out_after=held_out))


def _real_rows(rows: int) -> Any:
    """make(count) for bulk_load.load_vectors: the next `count` rows of the real matrix."""
    from bench import real_vectors

    m, at = real_vectors.matrix(rows), [0]

    def make(count: int) -> Any:
        at[0] += count
        return m[at[0] - count : at[0]]

    return make


def setup(rows: int, *, rebuild: bool) -> dict[str, Any]:
    real = VECTORS == "real"
    instance = common.bench_instance(f"ann-{rows}" + ("-real" if real else ""), fresh=rebuild)
    from bench import bulk_load
    from bench import search as search_bench

    params = {**search_bench.params_for(rows), "dim": DIM, "vector_seed": SEED, "noise": NOISE, "v": 2}
    if real:
        from bench import real_vectors

        params["real_version"] = real_vectors.VERSION
    built = common.is_built(instance, params)
    if built is None:
        import shutil

        import numpy as np

        for path in common.db_path().parent.glob("agent.db*"):
            if path.is_dir():  # the ANN files of an older store
                shutil.rmtree(path)
            elif path.is_file():
                path.unlink()
        print(f"  building {rows:,} rows + vectors in {instance} ...", file=sys.stderr, flush=True)
        common.migrate()
        info = bulk_load.load_chunks(rows)
        topics = centres(rows)
        rng = np.random.default_rng(SEED + 1)
        make = _real_rows(rows) if real else lambda count: draw(rng, topics, count)
        info.update(bulk_load.load_vectors(MODEL, DIM, make))
        common.mark_built(instance, params, info)
        built = common.is_built(instance, params)
    else:
        common.migrate()
    if built is None:
        raise SystemExit(f"bench database in {instance} did not record its build")
    return built


def texts_for(queries: int) -> list[str]:
    from bench import search as search_bench

    vocab = common.vocabulary(search_bench.VOCAB_SIZE)
    rng = random.Random(QUERY_SEED)
    return [common.query_terms(rng, vocab, 3) for _ in range(queries)]


def rss() -> dict[str, int]:
    """This process's resident memory in kB: VmRSS, its peak VmHWM, and its anonymous and file-backed parts
    (/proc/self/status; RssFile counts the page-cache pages of mapped files this process has
    touched, shared with every other process mapping them), its private (unshared) pages
    (/proc/self/smaps_rollup), and the resident pages of the mapped ANN index files
    (/proc/self/smaps)."""
    out = {}
    with open("/proc/self/status") as status:
        for line in status:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM", "RssAnon", "RssFile"):
                out[key] = int(value.split()[0])
    with open("/proc/self/smaps_rollup") as rollup:
        for line in rollup:
            key, _, value = line.partition(":")
            if key in ("Pss", "Private_Clean", "Private_Dirty"):
                out[key] = int(value.split()[0])
    out["IndexRss"] = 0
    with open("/proc/self/smaps") as smaps:
        in_index = False
        for line in smaps:
            head = line.split()
            if head and "-" in head[0] and not head[0].endswith(":"):
                in_index = line.rstrip().endswith(".usearch")
            elif in_index and head and head[0] == "Rss:":
                out["IndexRss"] += int(head[1])
    return out


KEEP_PAGES = 2**62  # ann_index.RESIDENT_BUDGET that never releases: the B side of the A/B


def child(rows: int, first: str) -> None:
    """A fresh process's first query (`first`: keyword, hybrid with the default resident budget,
    hybrid-kept: hybrid with the index pages it touched kept mapped, or hybrid-warm: hybrid after
    retrieve.prepare_hybrid(), which a web worker runs before it takes requests), as JSON on stdout."""
    started = time.perf_counter()
    setup(rows, rebuild=False)
    from memory.store import ann_index

    ann_index.RESIDENT_BUDGET = KEEP_PAGES if first == "hybrid-kept" else None
    warm = first == "hybrid-warm"
    first = "keyword" if first == "keyword" else "hybrid"
    from memory.embedding import embeddings

    topics = centres(rows)
    embeddings.embed_query = lambda text, *, model=None: query_vector(text, topics)  # type: ignore[assignment]
    from memory.lifecycle.selectors import chunk_search

    common.set_knowledge(embeddings=first == "hybrid", embed_model=MODEL, vector_ann_min_rows=1)
    text = texts_for(1)[0]
    warm_ms = None
    if warm:
        from memory.retrieval.retrieve import prepare_hybrid

        warm_ms, _ = common.timed_ms(prepare_hybrid)
    before = rss()
    ms, _ = common.timed_ms(lambda: chunk_search(text, k=5))
    after_first = rss()
    setup_ms = (time.perf_counter() - started) * 1000 - ms
    later = {}
    day = texts_for(LATER[-1])[1:] if first == "hybrid" else []  # a worker's day: pages add up
    for done, more in enumerate(day, start=2):
        chunk_search(more, k=5)
        if done in LATER:
            later[done] = rss()
    print(
        json.dumps(
            {
                "first_ms": ms,
                "warm_ms": warm_ms,
                "setup_ms": setup_ms,
                "rss_before": before,
                "rss": after_first,
                "rss_later": {str(n): rss for n, rss in later.items()},
                "budget": ann_index.resident_budget(),
            }
        )
    )


def fresh(rows: int, first: str) -> dict[str, Any]:
    run = subprocess.run(  # noqa: S603 - this interpreter and this module
        [
            sys.executable,
            "-m",
            "bench.ann",
            "--rows",
            str(rows),
            "--child",
            first,
            "--later",
            ",".join(map(str, LATER)),
        ]
        + (["--held-out"] if QUERY_SEED == HELD_OUT_SEED else [])
        + ["--vectors", VECTORS],
        capture_output=True,
        text=True,
        check=True,
        cwd=str(common.REPO),
        env={**os.environ, "OPENBLAS_NUM_THREADS": "1"},
    )
    return json.loads(run.stdout.strip().splitlines()[-1])


def run(rows: int, queries: int, k: int, rebuild: bool, rebuild_index: bool) -> dict[str, Any]:
    built = setup(rows, rebuild=rebuild)
    from memory.store import ann_index, vectors

    if DTYPE:
        ann_index.DTYPE = DTYPE

    topics = centres(rows)
    stored = vectors.vector_count(model=MODEL)
    print(
        f"queries: {'held-out' if QUERY_SEED == HELD_OUT_SEED else 'development'} split (seed {QUERY_SEED})"
    )
    print(
        f"ANN index on SQLite: {rows:,} chunks, {stored:,} vectors x {DIM} dims ({VECTORS}), k={k}; "
        f"usearch {ann_index.DTYPE}, connectivity {ann_index.CONNECTIVITY}, expansion add/search "
        f"{ann_index.EXPANSION_ADD}/{ann_index.EXPANSION_SEARCH}"
    )
    print(
        f"  store loaded earlier by bench.bulk_load: {built.get('stored', 0):,} chunks in "
        f"{built.get('load_seconds', 0):.0f} s (FTS5 rebuild {built.get('fts_seconds', 0):.0f} s), "
        f"{built.get('vectors', 0):,} vectors in {built.get('vector_seconds', 0):.0f} s"
    )

    ann_index.AUTO_BUILD = False
    common.set_knowledge(vector_ann_min_rows=1)  # the ANN path whatever the size (default: from 50,000)
    base = ann_index.current_base(MODEL)
    build_s = None
    if base is None or rebuild_index:
        report = ann_index.build(MODEL)
        if report is None:
            raise SystemExit("ANN build did not run (another process holds the lock?)")
        build_s = report.seconds
        print(
            f"  build: {report.vectors:,} vectors in {report.seconds:.1f} s "
            f"({report.vectors / report.seconds:,.0f} vectors/s; {report.cpu_seconds:.1f} CPU s "
            f"on {os.cpu_count()} cores: wall >> CPU / cores means the machine was busy)"
        )
        base = ann_index.current_base(MODEL)
    else:
        print(f"  build: reusing {base.meta['file']} (--rebuild-index to time a build)")
    if base is None:
        raise SystemExit("no ANN base to measure")
    size = os.path.getsize(ann_index.index_dir() / base.meta["file"])  # type: ignore[operator]
    print(f"  index file: {size / 2**20:,.0f} MB for {int(base.meta['count']):,} vectors")
    if ann_index.active_base(MODEL) is None:
        raise SystemExit("the ANN index does not serve this store")
    problems = ann_index.check(MODEL)
    print(f"  integrity check: {problems or 'ok'}")

    kw_first, hy_first = fresh(rows, "keyword"), fresh(rows, "hybrid")
    kept = fresh(rows, "hybrid-kept")["rss_later"]  # the A/B of the resident budget
    warmed = fresh(rows, "hybrid-warm")
    print(
        f"  new process, first query: keyword {kw_first['first_ms']:.0f} ms, "
        f"hybrid {hy_first['first_ms']:.0f} ms "
        f"(x{hy_first['first_ms'] / kw_first['first_ms']:.2f}); Django setup before it "
        f"{hy_first['setup_ms']:.0f} ms"
    )
    print(
        f"  new process after retrieve.prepare_hybrid() (a web worker's warm-up, "
        f"{warmed['warm_ms']:.0f} ms): first hybrid {warmed['first_ms']:.0f} ms "
        f"(x{warmed['first_ms'] / kw_first['first_ms']:.2f} the keyword process's first)"
    )
    mem = hy_first["rss"]
    print(
        f"  new process RSS after its first hybrid query: {mem['VmRSS'] / 1024:.0f} MB "
        f"(anonymous {mem['RssAnon'] / 1024:.0f} MB, mapped files {mem['RssFile'] / 1024:.0f} MB; "
        f"before the query {hy_first['rss_before']['VmRSS'] / 1024:.0f} MB)"
    )
    budget = hy_first["budget"]
    said = "never released" if budget is None else f"released past {budget >> 20} MB (the default)"
    for n in LATER:
        later, kept_n = hy_first["rss_later"][str(n)], kept[str(n)]
        private = (later["Private_Clean"] + later["Private_Dirty"]) / 1024
        print(
            f"  ... after {n} hybrid queries, index pages {said}: VmRSS {later['VmRSS'] / 1024:.0f} MB = "
            f"anonymous {later['RssAnon'] / 1024:.0f} MB + mapped files {later['RssFile'] / 1024:.0f} MB "
            f"(the ANN index file {later['IndexRss'] / 1024:.0f} MB: page cache shared by every process "
            f"mapping it, not a copy each); private {private:.0f} MB, "
            f"PSS {later['Pss'] / 1024:.0f} MB; peak VmHWM {later.get('VmHWM', 0) / 1024:.0f} MB (during a "
            f"query, before its release); kept mapped instead: VmRSS {kept_n['VmRSS'] / 1024:.0f} MB "
            f"(anonymous {kept_n['RssAnon'] / 1024:.0f} MB, index file {kept_n['IndexRss'] / 1024:.0f} MB)"
        )

    from memory.embedding import embeddings
    from memory.lifecycle.selectors import chunk_search
    from memory.store.deliverable import deliverable

    embeddings.embed_query = lambda text, *, model=None: query_vector(text, topics)  # type: ignore[assignment]
    texts = texts_for(queries)
    common.set_knowledge(embeddings=True, embed_model=MODEL)
    for q in texts[:10]:
        chunk_search(q, k=k)
    t_keyword, t_hybrid, t_released, t_vector = [], [], [], []
    for q in texts:
        common.set_knowledge(embeddings=False)
        t_keyword.append(common.timed_ms(lambda q=q: chunk_search(q, k=k))[0])
        common.set_knowledge(embeddings=True)
        t_hybrid.append(common.timed_ms(lambda q=q: chunk_search(q, k=k))[0])  # the default budget
        ann_index.RESIDENT_BUDGET = KEEP_PAGES  # A/B: the same query, index pages kept mapped
        t_released.append(common.timed_ms(lambda q=q: chunk_search(q, k=k))[0])
        ann_index.RESIDENT_BUDGET = None
        vec = query_vector(q, topics)
        t_vector.append(
            common.timed_ms(
                lambda vec=vec: vectors.nearest_ids(vec, k=k, model=MODEL, queryset=deliverable())
            )[0]
        )
    s_kw = common.print_latency("keyword chunk_search", t_keyword)
    s_hy = common.print_latency("hybrid chunk_search", t_hybrid)
    s_rel = common.print_latency("hybrid, index pages kept mapped", t_released)
    common.print_latency("ANN nearest_ids over deliverable()", t_vector)
    print(
        f"  hybrid/keyword: p50 x{s_hy['p50'] / s_kw['p50']:.2f}, p99 x{s_hy['p99'] / s_kw['p99']:.2f} "
        f"(pages kept mapped: p50 x{s_rel['p50'] / s_kw['p50']:.2f}, p99 x{s_rel['p99'] / s_kw['p99']:.2f})"
    )
    measured_pass(texts[:50], k, base)

    sample = query_sample(texts, topics, rows)
    ann_top = [vectors.nearest_ids(v, k=10, model=MODEL, queryset=deliverable()) for v in sample]
    common.set_knowledge(vector_ann_min_rows=0)  # the exact in-process path, for the reference answers
    vectors.warm(MODEL)
    exact_top = [vectors.nearest_ids(v, k=10, model=MODEL, queryset=deliverable()) for v in sample]
    agreement = sum(len(set(a) & set(e)) for a, e in zip(ann_top, exact_top, strict=True)) / (
        10 * len(sample)
    )
    same_order = sum(a == e for a, e in zip(ann_top, exact_top, strict=True)) / len(sample)
    print(f"  ANN top-10 agreement with exact search: {agreement:.3f} ({same_order:.2f} of lists identical)")
    return {
        "rows": rows,
        "vectors": stored,
        "build_s": build_s,
        "keyword": s_kw,
        "hybrid": s_hy,
        "first_keyword_ms": kw_first["first_ms"],
        "first_hybrid_ms": hy_first["first_ms"],
        "first_hybrid_warm_ms": warmed["first_ms"],
        "warm_up_ms": warmed["warm_ms"],
        "rss_kb": mem,
        "agreement": agreement,
    }


def measured_pass(texts: list[str], k: int, base: Any) -> None:
    """What the hybrid queries touched, counted on a separate (untimed) pass over `texts`."""
    from memory.lifecycle.selectors import chunk_search
    from memory.store import ann_index

    rescored = {"calls": 0, "rows": 0}
    original = ann_index.rescored

    def counting(ids: Any, *args: Any, **kwargs: Any) -> Any:
        rescored["calls"] += 1
        rescored["rows"] += len(ids)
        return original(ids, *args, **kwargs)

    ann_index.rescored = counting  # type: ignore[assignment]
    try:
        with common.metered() as meter:
            for q in texts:
                chunk_search(q, k=k)
    finally:
        ann_index.rescored = original  # type: ignore[assignment]
    delta = ann_index._delta(base, MODEL, "default")
    common.print_measured(
        f"{len(texts)} hybrid chunk_search(k={k}) over the ANN base of {int(base.meta['count']):,} "
        f"{base.meta.get('dtype', 'f32')} vectors + a delta of {len(delta.ids):,} scanned exactly; "
        f"{rescored['rows'] / max(len(texts), 1):.0f} base hits rescored from the table per query "
        f"({rescored['calls']} rescoring reads)",
        common.store_census(MODEL),
        meter,
    )


def profile(rows: int, queries: int, k: int) -> None:
    """cProfile of `queries` hybrid chunk_search calls on the built store (after 10 untimed
    ones), top 25 functions by cumulative time: where a hybrid query's time goes."""
    import cProfile
    import pstats

    setup(rows, rebuild=False)
    from memory.embedding import embeddings
    from memory.lifecycle.selectors import chunk_search
    from memory.store import ann_index

    topics = centres(rows)
    ann_index.AUTO_BUILD = False
    embeddings.embed_query = lambda text, *, model=None: query_vector(text, topics)  # type: ignore[assignment]
    common.set_knowledge(embeddings=True, embed_model=MODEL, vector_ann_min_rows=1)
    texts = texts_for(queries + 10)
    for q in texts[:10]:
        chunk_search(q, k=k)
    profiler = cProfile.Profile()
    profiler.enable()
    for q in texts[10:]:
        chunk_search(q, k=k)
    profiler.disable()
    print(f"cProfile of {queries} hybrid chunk_search(k={k}) at {rows:,} rows, by cumulative time:")
    pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)


# (expansion_search, rescore)
KNOBS = [(128, 20), (256, 20), (256, 30), (256, 40), (384, 20), (384, 40), (512, 40)]


def tune(rows: int, queries: int) -> None:
    """Search-time knobs on the built base (no rebuild): for each expansion_search and rescoring
    depth, top-10 agreement of nearest_ids over deliverable() with the exact path, and its p50."""
    import statistics

    setup(rows, rebuild=False)
    from memory.store import ann_index, vectors
    from memory.store.deliverable import deliverable

    ann_index.AUTO_BUILD = False
    topics = centres(rows)
    sample = query_sample(texts_for(queries), topics, rows)
    common.set_knowledge(vector_ann_min_rows=0)
    vectors.warm(MODEL)
    exact_top = [vectors.nearest_ids(v, k=10, model=MODEL, queryset=deliverable()) for v in sample]
    common.set_knowledge(vector_ann_min_rows=1)
    print(f"search knobs at {rows:,} rows, {queries} queries, top 10 over deliverable():")
    for expansion, rescore in KNOBS:
        ann_index.EXPANSION_SEARCH, ann_index.RESCORE_MIN = expansion, rescore
        ann_index.reset_cache()
        times, got = [], []
        for v in sample:
            ms, found = common.timed_ms(
                lambda v=v: vectors.nearest_ids(v, k=10, model=MODEL, queryset=deliverable())
            )
            times.append(ms)
            got.append(found)
        hits = sum(len(set(a) & set(e)) for a, e in zip(got, exact_top, strict=True))
        agreement = hits / (10 * len(sample))
        print(
            f"  expansion_search {expansion}, rescore >= {rescore}: agreement {agreement:.3f}, "
            f"p50 {statistics.median(times):.2f} ms"
        )


def compare_builds(count: int) -> None:
    """usearch build options on `count` vectors in memory (no database): CPU and wall time of
    the build, file size, top-10 agreement with exact search of the index's own top 10, and of
    its top 20 / 40 rescored exactly from the float32 rows (what ann_index does), one line each."""
    import tempfile

    import numpy as np
    from usearch.index import Index

    rng = np.random.default_rng(SEED)
    topics = centres(count)
    if VECTORS == "real":
        from bench import real_vectors

        rows, queries = real_vectors.matrix(count), real_vectors.query_matrix(200)
    else:
        rows, queries = draw(rng, topics, count), draw(rng, topics, 200)
    truth = np.argsort(-(queries @ rows.T), axis=1)[:, :10]

    def agreement(found: Any) -> float:
        return float(np.mean([len(set(found[i]) & set(truth[i])) / 10 for i in range(len(queries))]))

    def rescored(keys: Any) -> list[Any]:
        out = []
        for i, row in enumerate(keys):
            row = np.asarray(row, dtype=np.int64)
            out.append(row[np.argsort(-(rows[row] @ queries[i]))[:10]])
        return out

    print(f"usearch builds of {count:,} {VECTORS} {DIM}-dim vectors (connectivity 16), 200 queries")
    for dtype, expansion, threads in [("f32", 64, 2), ("f16", 64, 2), ("i8", 64, 2)]:
        index = Index(ndim=DIM, metric="cos", dtype=dtype, connectivity=16, expansion_add=expansion)
        start, cpu = time.perf_counter(), time.process_time()
        for at in range(0, count, 20_000):
            index.add(
                np.arange(at, min(count, at + 20_000), dtype=np.uint64),
                rows[at : at + 20_000],
                threads=threads,
            )
        wall, cpu = time.perf_counter() - start, time.process_time() - cpu
        with tempfile.TemporaryDirectory() as tmp:
            index.save(f"{tmp}/i.usearch")
            size = os.path.getsize(f"{tmp}/i.usearch")
        own = agreement(index.search(queries, 10, threads=1).keys)
        r20 = agreement(rescored(index.search(queries, 20, threads=1).keys))
        r40 = agreement(rescored(index.search(queries, 40, threads=1).keys))
        print(
            f"  {dtype} expansion_add={expansion} threads={threads}: build wall {wall:.1f} s, "
            f"CPU {cpu:.1f} s; file {size / 2**20:.0f} MB ({size / count:.0f} B/vector); agreement "
            f"own top 10 {own:.3f}, top 20 rescored {r20:.3f}, top 40 rescored {r40:.3f}"
        )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--k", type=int, default=5)
    parser.add_argument("--rebuild", action="store_true", help="rebuild the cached bench database")
    parser.add_argument("--rebuild-index", action="store_true", help="build (and time) the ANN file again")
    parser.add_argument(
        "--dtype", help="build the ANN file with this usearch dtype (i8, f32; with --rebuild-index)"
    )
    parser.add_argument("--compare-builds", type=int, metavar="N", help="only compare usearch build options")
    parser.add_argument("--tune", action="store_true", help="only compare search-time knobs")
    parser.add_argument("--profile", action="store_true", help="only profile hybrid queries")
    parser.add_argument(
        "--held-out",
        action="store_true",
        help="queries from the held-out seed (not the tuning one); with --vectors real, corpus texts "
        "that are not rows of the index instead of questions",
    )
    parser.add_argument(
        "--vectors",
        choices=("clustered", "real"),
        default="clustered",
        help="real: embedded real texts and questions (bench/real_vectors.py)",
    )
    parser.add_argument(
        "--later",
        default="100,1000",
        help="hybrid queries after which a new process's RSS is read",
    )
    parser.add_argument(
        "--child", choices=("keyword", "hybrid", "hybrid-kept", "hybrid-warm"), help=argparse.SUPPRESS
    )
    args = parser.parse_args(argv)
    global QUERY_SEED, LATER
    QUERY_SEED = HELD_OUT_SEED if args.held_out else SEED
    LATER = tuple(sorted(int(n) for n in args.later.split(",")))
    global DTYPE, VECTORS
    DTYPE = args.dtype
    VECTORS = args.vectors
    if args.compare_builds:
        compare_builds(args.compare_builds)
        return
    if args.tune:
        tune(args.rows, args.queries)
        return
    if args.profile:
        profile(args.rows, args.queries, args.k)
        return
    if args.child:
        child(args.rows, args.child)
        return
    run(args.rows, args.queries, args.k, args.rebuild, args.rebuild_index)


if __name__ == "__main__":
    main()
