"""Exact replay cost: delivery.replay.replay_injection over a 1,000,000-row injection log, and what
each way of keeping a turn costs in bytes.

    .venv/bin/python -m bench.replay                      # 1,000,000 log rows (cached db)
    .venv/bin/python -m bench.replay --turns 100000 --queries 200
    .venv/bin/python -m bench.replay --rebuild

The store (a throwaway instance dir under /tmp/protomem-bench, schema from the real migrations)
holds 20,000 retrievable rows and 10 always-on rows. 500 turns are delivered for real through
deliver_projected_context (three digest lines each, a random 2-term query), with verdicts and
revisions in between; the log is then filled to `turns` rows with plain sqlite3, each a copy of
one of the delivered turns under a new id (so every row is replayable, and its replay provably
exact). Items are not copied: a replay never reads them.

Storage, per delivered turn (averaged over the 500):
  rebuild      what this design keeps: sha256 + digest lines + time zone + row states (JSON)
  compressed   the alternative: the envelope zlib -9 compressed (+ the same row states, which a
               replay needs either way); it would also keep an erased row's words in the log

Timed per query, interleaved, on log ids drawn uniformly from the whole log (each row read once,
untimed, before its three timings, so none of them pays its first disk read):
  log read     InjectionLog.objects.get(pk=id): reading the row
  replay       the same read + replay_injection (store read, projection rendering, sha256)
  copy read    the same read + zlib.decompress of the turn's compressed copy (held in memory)

and prints p50/p99 of each, replay/log-read as ratios, and how many replays were exact.
Goal: replay <= 50 ms at 1M log rows.

The delivery side's cost: for 100 turns, compose_projected_context and then replay_record (the
hook's work: the envelope's sha256, the digest lines and one read of the rows' review states),
timed interleaved, with record/compose as a ratio.
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import sqlite3
import time
import zlib
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from bench import common

SEED = 20261204
STORE_ROWS = 20_000
HOT_ROWS = 10
DELIVERED = 500
VOCAB_SIZE = 3000
SLAB = 50_000
TARGET_MS = 50.0
START = datetime(2026, 1, 1, tzinfo=UTC)
LOG_COLUMNS = (
    "created_at, agent_id, session_id, digest_session_ids, hot_ids, rag_ids, approx_tokens, "
    "envelope_sha256, digest_lines, time_zone, row_states"
)


@dataclass(frozen=True)
class Digest:
    session_id: str
    line: str


def build_store(rng: random.Random, vocab: list[str]) -> None:
    from memory.store.models import Chunk

    rows = [
        Chunk(
            content=common.words(rng, vocab, 12),
            heading=common.words(rng, vocab, 3),
            source_type="operator",
            review_state="confirmed",
            delivery_policy="always",
            scope="host",
            created_at=START,
        )
        for _ in range(HOT_ROWS)
    ]
    for i in range(STORE_ROWS):
        rows.append(
            Chunk(
                content=common.words(rng, vocab, 25),
                heading=common.words(rng, vocab, 3) if i % 3 else "",
                source_type=rng.choice(["memory_ingest", "web", "console", "harvest"]),
                review_state=rng.choice(["confirmed", "confirmed", "pending"]),
                delivery_policy="retrieved",
                scope="host",
                created_at=START + timedelta(minutes=i),
            )
        )
    for first in range(0, len(rows), 5000):
        Chunk.objects.bulk_create(rows[first : first + 5000])


def deliver_turns(rng: random.Random, vocab: list[str]) -> dict[int, str]:
    """Deliver DELIVERED real turns; returns log id -> the envelope it delivered."""
    from delivery.projection import deliver_projected_context
    from delivery.replay_record import delivered_envelope
    from memory.lifecycle.review import chunk_review, chunk_revise
    from memory.store.models import Chunk
    from sessions_app.models import Agent, Session

    agent = Agent.objects.create(name="bench-replay")
    sessions = [Session.objects.create(agent=agent, session_id=f"bench-{i}") for i in range(20)]
    ids = list(Chunk.objects.values_list("pk", flat=True))
    delivered: dict[int, str] = {}
    for turn in range(DELIVERED):
        if turn % 5 == 0:
            pick = rng.choice(ids)
            if rng.random() < 0.5:
                chunk_review(chunk_id=pick, state=rng.choice(["confirmed", "rejected"]), actor="bench")
            elif not Chunk.objects.filter(pk=pick, invalidated_at__isnull=False).exists():
                chunk_revise(chunk_id=pick, content=common.words(rng, vocab, 20), actor="bench")
        digest = [Digest(f"prior-{turn}-{i}", common.words(rng, vocab, 14)) for i in range(3)]
        context, log = deliver_projected_context(
            session=rng.choice(sessions),
            query=common.query_terms(rng, vocab, 2),
            digest=digest,
            now=START + timedelta(days=30, minutes=turn),
        )
        if log is not None:
            delivered[log.pk] = delivered_envelope(context.text)
    return delivered


def fill(path: str, turns: int) -> None:
    """Copy the delivered rows (round robin, new ids, later times) until the log has `turns` rows."""
    con = sqlite3.connect(path)
    con.execute("PRAGMA synchronous=OFF")
    templates = con.execute(f"SELECT {LOG_COLUMNS} FROM audit_injectionlog ORDER BY id").fetchall()
    have = con.execute("SELECT count(*) FROM audit_injectionlog").fetchone()[0]
    placeholders = ", ".join("?" * len(LOG_COLUMNS.split(",")))
    start = START + timedelta(days=60)
    n = have
    while n < turns:
        batch = []
        for _ in range(min(SLAB, turns - n)):
            row = list(templates[n % len(templates)])
            row[0] = (start + timedelta(seconds=30 * n)).strftime("%Y-%m-%d %H:%M:%S.%f")
            batch.append(row)
            n += 1
        con.executemany(
            f"INSERT INTO audit_injectionlog ({LOG_COLUMNS}) VALUES ({placeholders})",
            batch,
        )
        print(f"    filled {n:,}/{turns:,} log rows", flush=True)
    con.commit()
    con.execute("ANALYZE")
    con.close()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--turns", type=int, default=1_000_000)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--rebuild", action="store_true")
    args = parser.parse_args()

    instance = common.bench_instance(f"replay-{args.turns}", fresh=args.rebuild)
    logging.getLogger("delivery.projection").setLevel(logging.WARNING)  # one INFO line per turn
    from django.conf import settings
    from django.db import connections

    from audit.models import InjectionLog
    from delivery.replay import replay_injection
    from protomem.routers import INJECTIONS_DB

    params = {"turns": args.turns, "version": 1}
    path = str(settings.DATABASES[INJECTIONS_DB]["NAME"])
    envelopes_file = instance / "delivered.json"
    if not common.is_built(instance, params):
        common.migrate()
        rng = random.Random(SEED)
        vocab = common.vocabulary(VOCAB_SIZE)
        t0 = time.perf_counter()
        build_store(rng, vocab)
        delivered = deliver_turns(rng, vocab)
        envelopes_file.write_text(json.dumps(delivered))
        connections.close_all()
        fill(path, args.turns)
        common.mark_built(instance, params, {"load_seconds": round(time.perf_counter() - t0, 1)})
    delivered = {int(k): v for k, v in json.loads(envelopes_file.read_text()).items()}
    templates = sorted(delivered)

    # Storage per delivered turn: what is kept for a rebuild vs a compressed copy of the envelope.
    kept, copies, states, raw = [], [], [], []
    for log in InjectionLog.objects.filter(pk__in=templates):
        state_bytes = len(json.dumps(log.row_states, separators=(",", ":")).encode())
        kept.append(
            len(log.envelope_sha256)
            + len(json.dumps(log.digest_lines, separators=(",", ":")).encode())
            + len(log.time_zone)
            + state_bytes
        )
        states.append(state_bytes)
        envelope = delivered[log.pk].encode()
        raw.append(len(envelope))
        copies.append(len(zlib.compress(envelope, 9)) + state_bytes)
    total = InjectionLog.objects.count()
    print(f"injection log: {total:,} rows ({path}); {len(templates)} delivered turns copied round robin")
    print(
        f"  bytes per turn: envelope {sum(raw) / len(raw):,.0f} raw; "
        f"rebuild fields {sum(kept) / len(kept):,.0f} "
        f"(of which row states {sum(states) / len(states):,.0f}); "
        f"compressed copy + row states {sum(copies) / len(copies):,.0f}"
    )
    print(f"  ratio compressed copy / rebuild fields: {sum(copies) / sum(kept):.2f}x")

    compressed = {pk: zlib.compress(text.encode(), 9) for pk, text in delivered.items()}
    first_id = InjectionLog.objects.order_by("id").values_list("id", flat=True).first() or 1
    rng = random.Random(7)
    sample = [rng.randint(first_id, first_id + total - 1) for _ in range(args.queries)]

    def template_of(log_id: int) -> int:
        return templates[(log_id - first_id) % len(templates)]

    def log_read(log_id: int) -> InjectionLog:
        return InjectionLog.objects.get(pk=log_id)

    def replay(log_id: int) -> bool:
        result = replay_injection(InjectionLog.objects.get(pk=log_id))
        return result.exact and result.text == delivered[template_of(log_id)]

    def copy_read(log_id: int) -> str:
        InjectionLog.objects.get(pk=log_id)
        return zlib.decompress(compressed[template_of(log_id)]).decode()

    for log_id in sample[:10]:  # warm caches
        replay(log_id)
    spent: dict[str, list[float]] = {"log": [], "replay": [], "copy": []}
    exact = 0
    for log_id in sample:
        log_read(log_id)  # untimed: the row's pages in cache, so no timer pays the first disk read
        spent["log"].append(common.timed_ms(lambda i=log_id: log_read(i))[0])
        ms, ok = common.timed_ms(lambda i=log_id: replay(i))
        spent["replay"].append(ms)
        exact += bool(ok)
        spent["copy"].append(common.timed_ms(lambda i=log_id: copy_read(i))[0])
    read = common.print_latency("log read (one row by id)", spent["log"])
    rep = common.print_latency("replay (read + rebuild + sha256)", spent["replay"])
    common.print_latency("compressed copy (read + unzip)", spent["copy"])
    print(
        f"  ratio replay/log read: p50 {rep['p50'] / read['p50']:.1f}x   p99 {rep['p99'] / read['p99']:.1f}x"
    )
    print(f"  exact replays: {exact}/{len(sample)} (byte for byte and hash-equal)")
    verdict = "met" if rep["p99"] <= TARGET_MS else "NOT met"
    print(f"  goal replay <= {TARGET_MS:.0f} ms: p99 {rep['p99']:.2f} ms ({verdict})")
    hook_cost(random.Random(9))


def hook_cost(rng: random.Random) -> None:
    """What recording a turn for replay adds to delivering it (compose logs nothing)."""
    from delivery.projection import compose_projected_context
    from delivery.replay_record import replay_record
    from sessions_app.models import Agent

    agent = Agent.objects.get(name="bench-replay")
    vocab = common.vocabulary(VOCAB_SIZE)
    spent: dict[str, list[float]] = {"compose": [], "record": []}
    for turn in range(110):
        digest = [Digest(f"prior-{i}", common.words(rng, vocab, 14)) for i in range(3)]
        ms, context = common.timed_ms(
            lambda d=digest: compose_projected_context(
                agent=agent, session_id="bench-0", query=common.query_terms(rng, vocab, 2), digest=d
            )
        )
        record_ms = common.timed_ms(lambda c=context: replay_record(c))[0]
        if turn >= 10:  # the first ten warm the caches
            spent["compose"].append(ms)
            spent["record"].append(record_ms)
    print("delivery side (per turn)")
    comp = common.print_latency("compose", spent["compose"])
    rec = common.print_latency("replay_record (the hook)", spent["record"])
    print(
        f"  ratio record/compose: p50 {rec['p50'] / comp['p50']:.2f}x   p99 {rec['p99'] / comp['p99']:.2f}x"
    )


if __name__ == "__main__":
    main()
