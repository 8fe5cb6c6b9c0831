"""Score the supersede decision on the labelled pairs of memory/evals/supersede (dev + held-out).

Each pair is (old fact, new fact, same): `same` says the new fact is about the same thing, so it
may replace (or duplicate) the old one. A decider says "matched" when it would dedup or
supersede; precision = matched pairs that are the same thing / all matched, recall = same-thing
pairs matched / all same-thing pairs, per split and per kind. Two deciders are scored in one run:

- "overlap": the token-set Jaccard bands alone (the rule before facts_subject);
- "roles":   dedup.judge, the bands corrected by the roles of the differing words (what the write
             paths use).

Pure: no database. `protomem eval-supersede` prints the table.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from memory.lifecycle import dedup

DATASET_DIR = Path(__file__).resolve().parent / "supersede"
SPLITS = ("dev", "heldout")


@dataclass(frozen=True)
class Pair:
    id: str
    split: str
    kind: str
    domain: str
    lang: str
    old: str
    new: str
    same: bool


def load_pairs(directory: Path = DATASET_DIR) -> list[Pair]:
    pairs: list[Pair] = []
    for path in sorted(directory.glob("*.jsonl")):
        with path.open(encoding="utf-8") as fh:
            for line in fh:
                if line.strip():
                    pairs.append(Pair(**json.loads(line)))
    return pairs


def overlap_decider(old: str, new: str) -> bool:
    return dedup.decide(dedup.tokens(new), dedup.tokens(old)) != "new"


def roles_decider(old: str, new: str) -> bool:
    shared, union = dedup.overlap(dedup.tokens(new), dedup.tokens(old))
    return dedup.worth_judging(shared, union) and dedup.judge(old, new, shared, union)[0] != "new"


DECIDERS: dict[str, Callable[[str, str], bool]] = {"overlap": overlap_decider, "roles": roles_decider}


@dataclass
class Counts:
    tp: int = 0
    fp: int = 0
    fn: int = 0
    tn: int = 0

    def add(self, same: bool, matched: bool) -> None:
        if matched and same:
            self.tp += 1
        elif matched:
            self.fp += 1
        elif same:
            self.fn += 1
        else:
            self.tn += 1

    @property
    def pairs(self) -> int:
        return self.tp + self.fp + self.fn + self.tn

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0

    @property
    def accuracy(self) -> float:
        return (self.tp + self.tn) / self.pairs if self.pairs else 1.0


@dataclass
class Result:
    # decider -> split -> Counts; decider -> (split, kind) -> Counts
    by_split: dict[str, dict[str, Counts]] = field(default_factory=dict)
    by_kind: dict[str, dict[tuple[str, str], Counts]] = field(default_factory=dict)
    misses: dict[str, list[Pair]] = field(default_factory=dict)

    def as_dict(self) -> dict[str, object]:
        def c(x: Counts) -> dict[str, object]:
            return {"pairs": x.pairs, "precision": round(x.precision, 4), "recall": round(x.recall, 4)}

        return {
            name: {
                "splits": {s: c(x) for s, x in self.by_split[name].items()},
                "kinds": {f"{s}/{k}": c(x) for (s, k), x in sorted(self.by_kind[name].items())},
            }
            for name in self.by_split
        }


def score(pairs: Iterable[Pair], deciders: dict[str, Callable[[str, str], bool]] = DECIDERS) -> Result:
    result = Result()
    pairs = list(pairs)
    for name, decider in deciders.items():
        splits: dict[str, Counts] = defaultdict(Counts)
        kinds: dict[tuple[str, str], Counts] = defaultdict(Counts)
        wrong: list[Pair] = []
        for pair in pairs:
            matched = decider(pair.old, pair.new)
            splits[pair.split].add(pair.same, matched)
            kinds[(pair.split, pair.kind)].add(pair.same, matched)
            if matched != pair.same:
                wrong.append(pair)
        result.by_split[name] = dict(splits)
        result.by_kind[name] = dict(kinds)
        result.misses[name] = wrong
    return result


def format_table(result: Result) -> str:
    lines = [f"{'decider':<8}  {'split':<8}  {'kind':<14}  {'pairs':>5}  {'precision':>9}  {'recall':>6}"]
    for name, splits in result.by_split.items():
        for split in SPLITS:
            if split not in splits:
                continue
            x = splits[split]
            lines.append(
                f"{name:<8}  {split:<8}  {'(all)':<14}  {x.pairs:>5}  {x.precision:>9.3f}  {x.recall:>6.3f}"
            )
            for (s, kind), k in sorted(result.by_kind[name].items()):
                if s == split:
                    # per kind, the share decided right: positives matched / negatives kept apart
                    lines.append(
                        f"{'':<8}  {'':<8}  {kind:<14}  {k.pairs:>5}  {'':>9}  {k.accuracy:>6.3f} right"
                    )
    return "\n".join(lines)
