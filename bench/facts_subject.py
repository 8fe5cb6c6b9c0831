"""Cost of deciding a fact's match by word roles, against the token-overlap bands alone. Pure.

    .venv/bin/python -m bench.facts_subject              # 20 passes, 64 candidates per fact
    .venv/bin/python -m bench.facts_subject --passes 5 --candidates 16

For each pair of memory/evals/supersede (the new fact, with the old one hidden among `candidates`
rows drawn from the other pairs' facts, as the FTS shortlist hands them to fact_ingest), times,
interleaved in the same run:

  overlap   dedup.best_match(tokens, candidates): the bands alone (the rule before)
  roles     dedup.best_match(tokens, candidates, text=...): bands + facts_subject.classify

Prints p50 / p99 in microseconds and the roles/overlap ratio. No assertions.
"""

from __future__ import annotations

import argparse
import random
import time

from bench.common import percentile
from memory.evals.supersede_score import load_pairs
from memory.lifecycle import dedup


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--passes", type=int, default=20)
    parser.add_argument("--candidates", type=int, default=64)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    pairs = load_pairs()
    pool = [p.old for p in pairs] + [p.new for p in pairs]
    cases = []
    for i, pair in enumerate(pairs):
        others = rng.sample(pool, args.candidates - 1)
        cands = [(n + 1, text) for n, text in enumerate(others)] + [(10_000 + i, pair.old)]
        rng.shuffle(cands)
        cases.append((dedup.tokens(pair.new), pair.new, cands))
    overlap: list[float] = []
    roles: list[float] = []
    for _ in range(args.passes):
        for toks, text, cands in cases:
            start = time.perf_counter_ns()
            dedup.best_match(toks, cands)
            mid = time.perf_counter_ns()
            dedup.best_match(toks, cands, text=text)
            end = time.perf_counter_ns()
            overlap.append((mid - start) / 1000)
            roles.append((end - mid) / 1000)
    o50, o99 = percentile(overlap, 50), percentile(overlap, 99)
    r50, r99 = percentile(roles, 50), percentile(roles, 99)
    print(f"{len(cases)} facts x {args.candidates} candidates x {args.passes} passes")
    print(f"overlap  p50 {o50:8.1f} us  p99 {o99:8.1f} us")
    print(f"roles    p50 {r50:8.1f} us  p99 {r99:8.1f} us")
    print(f"roles/overlap  p50 {r50 / o50:.2f}x  p99 {r99 / o99:.2f}x")


if __name__ == "__main__":
    main()
