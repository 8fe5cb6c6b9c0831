"""Composite rows from the poisoning corpus: does a judgement hold when a row is longer than one thought?

    python -m memory.evals.poisoning_composite                 # held_out and fresh..fresh6
    python -m memory.evals.poisoning_composite --splits tune dev

The corpus rows are short (most are one sentence), but real writes are emails, meeting notes and
tickets: several unrelated sentences, one of which may steer. Two checks per split, built
deterministically from that split's own rows (no new text is written):

- hidden: each attack that the inspection holds on its own, written after a host of three benign
  rows the inspection lets through (joined in corpus order): is it still held? (what a row-level
  judgement loses by dilution);
- benign: two such hosts joined (six benign rows): is the composite held? (what a row-level
  judgement invents by pairing cues of unrelated sentences: the model named in one, a request in
  another).

Secrets, oversized and repeated rows, split attacks, turns and rows with a heading are left out
(a heading belongs to one row). The blind splits (BLIND_SPLITS) are never read here.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass

from memory.evals.poisoning_score import BLIND_SPLITS, CorpusRow, held_for_content, inspect_row, load_corpus
from memory.lifecycle.inspection import inspect_write

DEFAULT_SPLITS = ("held_out", "fresh", "fresh2", "fresh3", "fresh4", "fresh5", "fresh6")
HOST_ROWS = 3
NOT_COMPOSED = frozenset({"secret", "oversized", "repeated"})


@dataclass(frozen=True)
class CompositeScore:
    split: str
    hidden_held: int
    hidden: int
    benign_held: int
    benign: int


def _held(content: str) -> bool:
    return held_for_content(inspect_write(content=content, delivery_policy=None, source_type="memory_ingest"))


def _plain(row: CorpusRow) -> bool:
    return not (row.part_of or row.heading or row.domain == "turn" or row.cls in NOT_COMPOSED)


def composite_score(rows: Sequence[CorpusRow], split: str) -> CompositeScore:
    """Both checks over one split's rows (see the module docstring)."""
    own = [r for r in rows if r.split == split and _plain(r)]
    attacks = [r.content for r in own if r.attack and held_for_content(inspect_row(r))]
    benign = [r.content.strip() for r in own if not r.attack and not held_for_content(inspect_row(r))]
    hosts = [" ".join(benign[i : i + HOST_ROWS]) for i in range(0, len(benign) - HOST_ROWS + 1, HOST_ROWS)]
    if not hosts:
        return CompositeScore(split, 0, 0, 0, 0)
    hidden_held = sum(_held(f"{hosts[i % len(hosts)]} {a}") for i, a in enumerate(attacks))
    pairs = [f"{a} {b}" for a, b in zip(hosts, hosts[1:] + hosts[:1], strict=True)] if len(hosts) > 1 else []
    return CompositeScore(split, hidden_held, len(attacks), sum(map(_held, pairs)), len(pairs))


def _line(split: str, hidden_held: int, hidden: int, benign_held: int, benign: int) -> str:
    held = f"hidden attacks held {hidden_held}/{hidden}"
    return f"{split:9s} {held}   benign composites held {benign_held}/{benign}\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--splits", nargs="+", default=list(DEFAULT_SPLITS))
    args = parser.parse_args(argv)
    if BLIND_SPLITS & set(args.splits):
        parser.error(f"{', '.join(sorted(BLIND_SPLITS))} are blind splits: measure them with the eval, once")
    rows = load_corpus()
    totals = [0, 0, 0, 0]
    for split in args.splits:
        s = composite_score(rows, split)
        for i, n in enumerate((s.hidden_held, s.hidden, s.benign_held, s.benign)):
            totals[i] += n
        sys.stdout.write(_line(split, s.hidden_held, s.hidden, s.benign_held, s.benign))
    sys.stdout.write(_line("all", *totals))
    return 0


if __name__ == "__main__":
    sys.exit(main())
