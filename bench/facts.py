"""Facts consolidation at scale: ingest N synthetic facts through memory.lifecycle.facts.fact_ingest.

    .venv/bin/python -m bench.facts [--facts 100000] [--block 10000] [--seed 11]

By default each fact is its own write transaction (as the memory_ingest API writes them);
--per-transaction N hands N facts at a time to memory.lifecycle.facts_bulk.facts_ingest, one transaction each
(as an import does; --one-by-one: fact_ingest per fact inside that transaction, as the harvest).
Consolidation is on throughout: every fact is checked against the live facts of its namespace
through the FTS index and is inserted, skipped as a duplicate or inserted as a revision that
supersedes the old row.

The synthetic stream: content words drawn Zipf(1.0) from a 60k pseudo-word vocabulary (so a
few words are in a large share of the facts, as "user" or "deploy" would be, and most are
rare) plus two to four stopwords. About 10% of facts repeat a live fact (shuffled, re-cased:
a duplicate), about 12% change one or two of its words (mostly the revision band). Printed:
facts/s per block, the mean per-fact cost in the first block (up to ~10k live facts) against
the last (~100k), wall and CPU (this process; the machine may be shared, so CPU is the steadier
number), the FTS index's segment count, and how often the planned duplicates / revisions were
recognised.

Runs in a fresh throwaway database under BENCH_ROOT (bench.common), never the repo's instance.
"""

from __future__ import annotations

import argparse
import bisect
import itertools
import random
import sys
import time
from collections import Counter
from typing import Any

from bench import common

STOPWORDS = ("the", "a", "is", "on", "of", "to", "in", "for", "with", "has", "and", "not")


class Stream:
    """Synthetic facts, some repeating or revising a live fact; knows what each one should do."""

    def __init__(self, seed: int, vocab_size: int = 60_000) -> None:
        self.rng = random.Random(seed)
        self.vocab = common.vocabulary(vocab_size, seed=seed)
        self.cum = list(itertools.accumulate(1.0 / (rank + 1) for rank in range(len(self.vocab))))
        self.live_ids: list[int] = []
        self.live_text: dict[int, str] = {}

    def word(self) -> str:
        point = self.rng.random() * self.cum[-1]
        return self.vocab[min(bisect.bisect_left(self.cum, point), len(self.vocab) - 1)]

    def fresh(self) -> str:
        words = [self.word() for _ in range(self.rng.randint(4, 9))]
        words += self.rng.sample(STOPWORDS, self.rng.randint(2, 4))
        self.rng.shuffle(words)
        return " ".join(words)

    def _live_source(self) -> tuple[int, str] | None:
        while self.live_ids:
            index = self.rng.randrange(len(self.live_ids))
            chunk_id = self.live_ids[index]
            text = self.live_text.get(chunk_id)
            if text is not None:
                return chunk_id, text
            self.live_ids[index] = self.live_ids[-1]  # superseded meanwhile: drop lazily
            self.live_ids.pop()
        return None

    def next(self) -> tuple[str, str, int | None]:
        """(text, plan, source id): plan is "new", "duplicate" or "revision"."""
        roll = self.rng.random()
        source = self._live_source() if roll < 0.22 else None
        if source is None:
            return self.fresh(), "new", None
        chunk_id, text = source
        words = text.split()
        if roll < 0.10:
            self.rng.shuffle(words)
            words[0] = words[0].capitalize()
            return " ".join(words), "duplicate", chunk_id
        for _ in range(self.rng.choice((1, 1, 2))):
            words[self.rng.randrange(len(words))] = self.word()
        return " ".join(words), "revision", chunk_id

    def stored(self, chunk_id: int, text: str, superseded_id: int | None) -> None:
        self.live_ids.append(chunk_id)
        self.live_text[chunk_id] = text
        if superseded_id is not None:
            self.live_text.pop(superseded_id, None)


def run(
    facts: int, block: int, seed: int, per_transaction: int = 1, one_by_one: bool = False
) -> dict[str, Any]:
    common.bench_instance("facts", fresh=True)
    common.migrate()

    from django.db import connection, transaction

    from memory.lifecycle import dedup
    from memory.lifecycle.facts import fact_ingest
    from memory.lifecycle.facts_bulk import facts_ingest
    from memory.lifecycle.writes import ChunkDraft
    from memory.store.models import Chunk
    from memory.store.text_index import fts5

    stream = Stream(seed)
    outcomes: Counter[str] = Counter()
    planned: Counter[str] = Counter()
    recognised: Counter[str] = Counter()
    blocks: list[dict[str, float]] = []
    started, started_cpu = time.perf_counter(), time.process_time()
    block_start, block_time, block_cpu = started, 0.0, started_cpu
    block_ingest_cpu = 0.0
    print(
        f"ingesting {facts:,} facts (consolidation on), blocks of {block:,}, "
        f"{per_transaction} fact(s) per transaction"
    )
    n = 0
    while n < facts:
        size = min(per_transaction, facts - n, block - n % block)
        planned_batch = []
        for _ in range(size):
            text, plan, source_id = stream.next()
            expected = plan
            if source_id is not None:
                expected = {"duplicate": "duplicate", "revision": "superseded", "new": "inserted"}[
                    dedup.decide(dedup.tokens(text), dedup.tokens(stream.live_text[source_id]))
                ]
            planned_batch.append((text, expected, source_id))
        drafts = [
            ChunkDraft(content=text, domain="fact", source="bench", source_type="extracted")
            for text, _, _ in planned_batch
        ]
        t0, c0 = time.perf_counter(), time.process_time()
        if one_by_one or size == 1:
            with transaction.atomic():
                results = [fact_ingest(draft=d, actor="system", path="bench") for d in drafts]
        else:
            with transaction.atomic():
                results = facts_ingest(drafts, actor="system", path="bench")
        block_time += time.perf_counter() - t0
        block_ingest_cpu += time.process_time() - c0
        for (text, expected, source_id), outcome in zip(planned_batch, results, strict=True):
            n += 1
            outcomes[outcome.action] += 1
            if source_id is not None:
                planned[expected] += 1
                if outcome.action == expected:
                    recognised[expected] += 1
            if outcome.action != "duplicate" and outcome.chunk is not None:
                stream.stored(outcome.chunk.pk, text, outcome.superseded_id)
        if n % block == 0:
            live = len(stream.live_text)
            wall = time.perf_counter() - block_start
            cpu_us = (time.process_time() - block_cpu) / block * 1e6
            segments = fts5.segment_count() if connection.vendor == "sqlite" else 0
            blocks.append(
                {
                    "n": n,
                    "live": live,
                    "per_fact_us": block_time / block * 1e6,
                    "ingest_cpu_us": block_ingest_cpu / block * 1e6,
                    "rate": block / wall,
                    "cpu_us": cpu_us,
                    "segments": segments,
                }
            )
            print(
                f"  {n:>8,} facts  {live:>8,} live   {block / wall:>7,.0f} facts/s   "
                f"ingest + commit per fact: {block_time / block * 1e6:>5.0f} us wall "
                f"{block_ingest_cpu / block * 1e6:>5.0f} us CPU   "
                f"{cpu_us:>5.0f} us CPU/fact (whole loop)   {segments:>3} FTS segments",
                flush=True,
            )
            block_start, block_time, block_cpu = time.perf_counter(), 0.0, time.process_time()
            block_ingest_cpu = 0.0
    elapsed, elapsed_cpu = time.perf_counter() - started, time.process_time() - started_cpu
    first, last = blocks[0], blocks[-1]
    print(
        f"\noverall: {facts / elapsed:,.0f} facts/s ({elapsed:.1f} s wall, "
        f"{elapsed_cpu:.1f} s CPU: {facts / elapsed_cpu:,.0f} facts per CPU-second)"
    )
    print(f"outcomes: {dict(outcomes)}")
    print(
        f"per-fact cost (ingest + commit, wall): {first['per_fact_us']:.0f} us at ~{first['live']:,} "
        f"live facts, {last['per_fact_us']:.0f} us at ~{last['live']:,} live "
        f"(x{last['per_fact_us'] / first['per_fact_us']:.2f} for x{last['live'] / first['live']:.1f} rows)"
    )
    print(
        f"per-fact cost (ingest + commit, CPU): {first['ingest_cpu_us']:.0f} us first block, "
        f"{last['ingest_cpu_us']:.0f} us last block (x{last['ingest_cpu_us'] / first['ingest_cpu_us']:.2f})"
    )
    print(
        f"CPU per fact (this process, whole loop): {first['cpu_us']:.0f} us first block, "
        f"{last['cpu_us']:.0f} us last block (x{last['cpu_us'] / first['cpu_us']:.2f})"
    )
    print(f"rate in the last block (~{last['live']:,} live facts): {last['rate']:,.0f} facts/s")
    for kind in ("duplicate", "superseded"):
        if planned[kind]:
            print(
                f"planned {kind}s recognised: {recognised[kind]:,}/{planned[kind]:,} "
                f"({recognised[kind] / planned[kind]:.2%})"
            )
    live_rows = Chunk.objects.filter(domain="fact", invalidated_at__isnull=True).count()
    print(f"live facts in the store: {live_rows:,}; rows in total: {Chunk.objects.count():,}")
    return {"blocks": blocks, "outcomes": dict(outcomes), "elapsed": elapsed, "cpu": elapsed_cpu}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--facts", type=int, default=100_000)
    parser.add_argument("--block", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument(
        "--per-transaction",
        type=int,
        default=1,
        help="facts per write transaction: 1 = each its own (the API), more = a harvest / import batch",
    )
    parser.add_argument(
        "--one-by-one",
        action="store_true",
        help="with --per-transaction N: call fact_ingest per fact instead of facts_ingest per batch",
    )
    args = parser.parse_args(argv)
    if args.facts < args.block or args.block <= 0:
        parser.error("--facts must be at least one --block")
    if args.per_transaction <= 0:
        parser.error("--per-transaction must be positive")
    run(args.facts, args.block, args.seed, args.per_transaction, args.one_by_one)
    return 0


if __name__ == "__main__":
    sys.exit(main())
