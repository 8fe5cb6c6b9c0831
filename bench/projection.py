"""Per-turn projection latency: compose_projected_context on a 1M-chunk store.

    .venv/bin/python -m bench.projection                    # 1,000,000 chunks (cached db)
    .venv/bin/python -m bench.projection --rows 100000 --turns 300
    .venv/bin/python -m bench.projection --rebuild          # reload the cached database
    .venv/bin/python -m bench.projection --profile 200      # + cProfile of 200 compose/deliver turns

The store (a throwaway instance dir under /tmp/protomem-bench, built with the real migrations
and loaded through memory.lifecycle.writes.add_chunks) holds `rows` retrievable chunks, 100 always-on
rows, 20 skills and 10,000 sessions with summaries, all owned by the bench agent. The model's
window is 32k tokens, so the 16,000-char floor budget is live. Per turn (a random 3-term query,
a rotating active session) it times, interleaved:

  compose     delivery.projection.compose_projected_context(...) (digest + hot + RAG + skills
              + working state, budget fit), the per-turn read path
  deliver     deliver_projected_context(...) = compose + the injection-log row and its items
              (the audit app's own database)
  raw fts     raw `MATCH 'a OR b OR c' ORDER BY bm25 LIMIT top_k` on a plain sqlite3 connection
              to the same file (ids only, no filters): the raw FTS5 top-k query of the target
  match sql   the FTS statements the turn actually ran (captured), replayed raw: a stricter base
  all sql     every statement the turn ran, replayed raw: what is left is Python and the ORM

and prints p50/p99 of each (compose and deliver also in process CPU time, which a busy shared
machine inflates less) and the ratios. Targets: compose p99 < 25 ms, compose/raw-fts ratio <= 2.
With --profile N it then runs N more compose and N deliver turns under cProfile (not timed) and
prints the CPU per turn of each stage of the turn and the functions with the most own time.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import re
import sqlite3
import sys
import time
from datetime import timedelta
from typing import Any

from bench import common

SEED = 20260702
VOCAB_SIZE = 5000
WORDS_PER_CHUNK = 30
HEADING_WORDS = 3
SLAB = 50_000
HOT_ROWS = 100
SESSIONS = 10_000
SKILLS = 20
TOP_K = 5
WINDOW = 32_000
SOURCE_TYPES = ["memory_ingest", "extracted", "harvest", "console", "web", ""]
TARGET_P99_MS, TARGET_RATIO = 25.0, 2.0
CONFIG = f"""\
default_model: bench-model
models:
  bench-model: {{context_window: {WINDOW}}}
knowledge: {{top_k: {TOP_K}}}
context: {{budget_pct: 8, prior_sessions: newest}}
"""


def params_for(rows: int) -> dict[str, Any]:
    return {
        "rows": rows,
        "seed": SEED,
        "vocab": VOCAB_SIZE,
        "words": WORDS_PER_CHUNK,
        "hot": HOT_ROWS,
        "sessions": SESSIONS,
        "skills": SKILLS,
        "version": 1,
    }


def _load_chunks(rows: int, rng: random.Random, vocab: list[str], now: Any) -> float:
    from memory.lifecycle.writes import ChunkDraft, add_chunks

    stored, insert_s = 0, 0.0
    while stored < rows:
        batch = [
            ChunkDraft(
                content=common.words(rng, vocab, WORDS_PER_CHUNK - HEADING_WORDS),
                heading=common.words(rng, vocab, HEADING_WORDS),
                source=f"thread-{rng.randint(1, SESSIONS)}",
                source_type=rng.choice(SOURCE_TYPES),
                review_state="rejected" if rng.random() < 0.03 else None,
                created_at=now - timedelta(seconds=rng.randint(0, 365 * 86400)),
            )
            for _ in range(min(SLAB, rows - stored))
        ]
        gc.collect()
        start = time.perf_counter()
        stored += add_chunks(batch)
        insert_s += time.perf_counter() - start
        print(f"    chunks {stored:,}/{rows:,} ({stored / insert_s:,.0f}/s)", file=sys.stderr, flush=True)
    return insert_s


def build(rows: int) -> None:
    from django.db import connection
    from django.utils import timezone

    from memory.store.models import Skill
    from sessions_app.models import Agent, Session, SessionSummary

    rng = random.Random(SEED)
    vocab = common.vocabulary(VOCAB_SIZE)
    now = timezone.now()
    _load_chunks(rows, rng, vocab, now)
    common.add_standing_rules(HOT_ROWS, rng, vocab, now)
    Skill.objects.bulk_create(
        Skill(
            name=f"skill-{i}", description=common.words(rng, vocab, 12), content=common.words(rng, vocab, 80)
        )
        for i in range(SKILLS)
    )
    agent = Agent.objects.create(name="bench-agent")
    for start in range(0, SESSIONS, 2000):
        ids = range(start, min(start + 2000, SESSIONS))
        sessions = Session.objects.bulk_create(
            Session(agent=agent, session_id=f"s-{i}", last_activity_at=now - timedelta(minutes=i))
            for i in ids
        )
        SessionSummary.objects.bulk_create(
            SessionSummary(
                session=s,
                agent=agent,
                session_key=s.session_id,
                topic=common.words(rng, vocab, 6),
                message_count=rng.randint(2, 40),
                data={},
                text=common.words(rng, vocab, 60),
                updated_at=s.last_activity_at,
            )
            for s in sessions
        )
        print(f"    sessions {start + len(ids):,}/{SESSIONS:,}", file=sys.stderr, flush=True)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
        cursor.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--turns", type=int, default=500)
    parser.add_argument("--rebuild", action="store_true", help="drop the cached database first")
    parser.add_argument("--profile", type=int, default=0, metavar="N", help="cProfile N turns after timing")
    args = parser.parse_args()

    name = f"projection-{args.rows}"
    instance = common.BENCH_ROOT / name
    if args.rebuild and instance.exists():
        import shutil

        shutil.rmtree(instance)
    instance.mkdir(parents=True, exist_ok=True)
    (instance / "protomem.yaml").write_text(CONFIG)
    common.bench_instance(name)
    params = params_for(args.rows)
    cached = common.is_built(instance, params) is not None
    if not cached:
        for path in common.db_path().parent.glob("agent.db*"):
            path.unlink()
        for path in instance.glob("memory-injections.db*"):
            path.unlink()
        print(f"  building {args.rows:,} chunks in {instance} ...", file=sys.stderr, flush=True)
        common.migrate()
        start = time.perf_counter()
        build(args.rows)
        common.mark_built(instance, params, {"build_seconds": time.perf_counter() - start})
    else:
        common.migrate()  # a cached db picks up migrations added since it was built

    import logging

    logging.getLogger("delivery.projection").setLevel(logging.WARNING)  # one "memory injected" per turn

    from django.db import connection

    from delivery.projection import ProjectionOptions, compose_projected_context, deliver_projected_context
    from memory.lifecycle.selectors import chunk_search
    from memory.retrieval.search import search_backend_name
    from memory.store.text_index import fts5
    from sessions_app.models import Agent, Session

    if search_backend_name() != "fts5":
        raise SystemExit("bench needs FTS5")
    agent = Agent.objects.get(name="bench-agent")
    sessions = list(Session.objects.filter(agent=agent).select_related("agent").order_by("?")[:200])
    options = ProjectionOptions.from_settings()
    raw = sqlite3.connect(common.db_path())
    raw_sql = (
        f"SELECT rowid FROM {fts5.FTS_TABLE} WHERE {fts5.FTS_TABLE} MATCH ? "
        f"ORDER BY bm25({fts5.FTS_TABLE}, ?, ?) LIMIT ?"
    )
    rng = random.Random(SEED + args.rows)
    vocab = common.vocabulary(VOCAB_SIZE)
    turns = [common.query_terms(rng, vocab, 3) for _ in range(args.turns)]
    warm = [common.query_terms(rng, vocab, 3) for _ in range(max(50, args.turns // 5))]
    working_state = "- finish the migration plan\n- reply to the operator"

    def compose(q: str, session: Any) -> Any:
        return compose_projected_context(
            agent=agent,
            session_id=session.session_id,
            query=q,
            model="bench-model",
            working_state=working_state,
            options=options,
        )

    def deliver(q: str, session: Any) -> Any:
        return deliver_projected_context(
            session=session, query=q, model="bench-model", working_state=working_state, options=options
        )

    def raw_fts(q: str) -> list[Any]:
        expression = fts5.any_term(fts5.terms_of(q))
        return raw.execute(raw_sql, (expression, *fts5.BM25_WEIGHTS, TOP_K)).fetchall()

    def replay(statements: list[tuple[str, tuple[Any, ...]]]) -> None:
        for sql, p in statements:
            raw.execute(to_qmark(sql), p).fetchall()

    for i, q in enumerate(warm):
        compose(q, sessions[i % len(sessions)])
        raw_fts(q)

    t_compose: list[float] = []
    c_compose: list[float] = []
    t_deliver: list[float] = []
    c_deliver: list[float] = []
    t_raw: list[float] = []
    t_fts_plan: list[float] = []
    t_all_sql: list[float] = []
    c_all_sql: list[float] = []
    t_search: list[float] = []
    sizes: list[int] = []
    statements: list[int] = []
    shed_turns = 0
    rag_counts: list[int] = []
    gc.disable()
    try:
        for i, q in enumerate(turns):
            session = sessions[i % len(sessions)]
            capture = Capture()
            with connection.execute_wrapper(capture):
                compose(q, session)  # untimed: records the SQL this turn sends
            statements.append(len(capture.statements))
            fts_statements = [st for st in capture.statements if "MATCH" in st[0]]
            cpu0 = time.process_time()
            ms, ctx = common.timed_ms(lambda q=q, s=session: compose(q, s))
            c_compose.append((time.process_time() - cpu0) * 1000)
            t_compose.append(ms)
            sizes.append(len(ctx.text))
            shed_turns += bool(ctx.budget.overflow)
            rag_counts.append(len(ctx.rag_ids))
            ms, _ = common.timed_ms(lambda q=q: raw_fts(q))
            t_raw.append(ms)
            ms, _ = common.timed_ms(lambda st=fts_statements: replay(st))
            t_fts_plan.append(ms)
            cpu0 = time.process_time()
            ms, _ = common.timed_ms(lambda st=capture.statements: replay(st))
            c_all_sql.append((time.process_time() - cpu0) * 1000)
            t_all_sql.append(ms)
            ms, _ = common.timed_ms(lambda q=q: chunk_search(q, k=TOP_K))
            t_search.append(ms)
            cpu0 = time.process_time()
            ms, _ = common.timed_ms(lambda q=q, s=session: deliver(q, s))
            c_deliver.append((time.process_time() - cpu0) * 1000)
            t_deliver.append(ms)
    finally:
        gc.enable()

    last = ctx
    print(
        f"\n== projection over {args.rows:,} chunks "
        f"({'cached db' if cached else 'built now'}: {common.db_path()})"
    )
    print(
        f"  {HOT_ROWS} always-on rows, {SESSIONS:,} sessions with summaries, {SKILLS} skills; "
        f"window {WINDOW:,} tokens -> ceiling {last.budget.ceiling:,} chars; top_k {TOP_K}"
    )
    print(
        f"  {args.turns} turns: projection {min(sizes):,}-{max(sizes):,} chars; "
        f"hot {len(last.hot_ids)}, digest {len(last.digest_session_ids)}, "
        f"rag mean {sum(rag_counts) / len(rag_counts):.2f}; {shed_turns} turns shed something; "
        f"{min(statements)}-{max(statements)} SQL statements per turn"
    )
    calibration = [common.timed_ms(lambda: sum(range(1_000_000)))[0] for _ in range(20)]
    print(
        f"  machine: load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cpus; "
        f"calibration sum(range(10**6)) p50 {common.percentile(calibration, 50):.1f} ms"
    )
    c = common.print_latency("compose_projected_context", t_compose)
    common.print_latency("  the same, process cpu time", c_compose)
    d = common.print_latency("deliver (compose + log row)", t_deliver)
    dc = common.print_latency("  the same, process cpu time", c_deliver)
    cc = common.summarize(c_compose)
    print(
        f"  the log row's share (deliver - compose, p50): wall {d['p50'] - c['p50']:.3f} ms, "
        f"cpu {dc['p50'] - cc['p50']:.3f} ms"
    )
    common.print_latency("chunk_search alone (k=5)", t_search)
    r = common.print_latency("raw FTS5 OR + bm25 LIMIT 5", t_raw)
    f = common.print_latency("raw FTS5, the turn's MATCH SQL", t_fts_plan)
    a = common.print_latency("raw sqlite3, all the turn's SQL", t_all_sql)
    for label, base in (("raw OR top-k", r), ("turn's MATCH SQL", f), ("all the turn's SQL", a)):
        print(
            f"  ratio compose / {label:<20} p50 {c['p50'] / base['p50']:5.2f}   "
            f"p99 {c['p99'] / base['p99']:5.2f}"
        )
    # SQLite runs in this process, so CPU time covers the replayed SQL too: the ratio a shared,
    # busy machine distorts least (wall time includes waiting for a core).
    ac = common.print_latency("  the same, process cpu time", c_all_sql)
    print(
        f"  ratio compose / all the turn's SQL, process cpu time   p50 {cc['p50'] / ac['p50']:5.2f}   "
        f"p99 {cc['p99'] / ac['p99']:5.2f}   (target <= 1.5)"
    )
    from memory.embedding import embeddings

    model = embeddings.active_model() if options_embeddings() else None
    check = turns[: min(20, len(turns))]  # untimed: what a turn actually touched
    with common.metered() as meter:
        for i, q in enumerate(check):
            compose(q, sessions[i % len(sessions)])
    common.print_measured(f"compose, {len(check)} turns (check pass)", common.store_census(model), meter)
    ratio = c["p50"] / r["p50"]
    print(f"  target compose p99 < {TARGET_P99_MS:g} ms: {'PASS' if c['p99'] < TARGET_P99_MS else 'FAIL'}")
    verdict = "PASS" if ratio <= TARGET_RATIO else "FAIL"
    print(f"  target ratio to raw OR top-k <= {TARGET_RATIO:g} (p50): {verdict}")
    if args.profile > 0:
        extra = [common.query_terms(rng, vocab, 3) for _ in range(args.profile)]
        for label, fn in (("compose", compose), ("deliver", deliver)):
            profile_turns(label, fn, extra, sessions)


def options_embeddings() -> bool:
    from protomem.config import get_config

    return bool(get_config().knowledge.embeddings)


# Stages of a turn for the profile's breakdown: (label, file suffix, function name); "~" is
# cProfile's file for C functions, matched by a part of their name.
STAGES = (
    ("compose_projected_context", "memory/projection.py", "compose_projected_context"),
    ("  always-on rows (hot_entries)", "memory/selectors.py", "hot_entries"),
    ("  RAG hits (rag_hits)", "memory/projection.py", "rag_hits"),
    ("    FTS statements (ranked_rows)", "fts5.py", "ranked_rows"),
    ("  skill index", "memory/skills.py", "skill_index"),
    ("  prior-sessions digest", "memory/projection.py", "default_digest"),
    ("  budget.fit", "memory/budget.py", "fit"),
    ("  result (_result)", "memory/projection.py", "_result"),
    ("injection_log_record", "audit/services.py", "injection_log_record"),
    ("sqlite3 execute / executemany", "~", "execute"),
    ("sqlite3 fetch", "~", "fetch"),
    ("sqlite3 commit", "~", "commit"),
)


def profile_turns(label: str, fn: Any, queries: list[str], sessions: list[Any]) -> None:
    """cProfile `fn` over `queries`; print CPU per turn by stage and the top own-time functions."""
    import cProfile
    import io
    import pstats

    profiler = cProfile.Profile(time.process_time)  # cpu time: a busy machine inflates it less
    cpu0 = time.process_time()
    profiler.enable()
    for i, q in enumerate(queries):
        fn(q, sessions[i % len(sessions)])
    profiler.disable()
    turns = len(queries)
    cpu = (time.process_time() - cpu0) * 1000 / turns
    stats = pstats.Stats(profiler)
    print(f"\n== cProfile, {turns} {label} turns: {cpu:.2f} ms cpu per turn under the profiler")
    print("  cumulative cpu ms per turn by stage (profiler overhead included: compare shares):")
    raw = stats.stats  # type: ignore[attr-defined]
    for stage, suffix, name in STAGES:
        total = sum(
            entry[3]
            for (path, _line, func), entry in raw.items()
            if path.endswith(suffix) and (func == name or (suffix == "~" and name in func))
        )
        if total:
            print(f"    {stage:<36} {total * 1000 / turns:7.3f} ms")
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(15)
    lines = [ln for ln in out.getvalue().splitlines() if ln.strip()]
    start = next((i for i, ln in enumerate(lines) if ln.lstrip().startswith("ncalls")), 0)
    print("  top own time:")
    for line in lines[start : start + 16]:
        print("    " + line.replace(str(common.REPO) + "/", "")[:150])


class Capture:
    """Records the SQL sent during one call (connection.execute_wrapper)."""

    def __init__(self) -> None:
        self.statements: list[tuple[str, tuple[Any, ...]]] = []

    def __call__(self, execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        self.statements.append((sql, tuple(params or ())))
        return execute(sql, params, many, context)


_QMARK = re.compile(r"(?<!%)%s")


def to_qmark(sql: str) -> str:
    """Django's %s placeholders to sqlite3's ? (what Django's SQLite cursor wrapper does)."""
    return _QMARK.sub("?", sql).replace("%%", "%")


if __name__ == "__main__":
    main()
