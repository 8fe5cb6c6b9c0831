"""Facts consolidation math: token-set Jaccard and the dedup / supersede decision. Pure, no DB.

Tokens are lowercased word runs (\\w+, Unicode), with no stemming and no stopword removal:
"not" and "never" change what a fact says, so they must count. The decision compares exact
fractions (|A & B| / |A | B| against 17/20 and 3/5 as integers), never floats, so the band
edges are exact: 17 shared of 20 is a duplicate, 6 shared of 10 is a revision.

    j >= 0.85          duplicate  (skip the new fact)
    0.6 <= j < 0.85    revision   (insert the new fact, then supersede the old one)
    j < 0.6            new        (insert)

Token overlap alone merges different facts written from one template ("Search's p99 budget is
200 ms" / "Exports' p99 budget is 250 ms": one word and one number apart), and misses short
revisions whose values changed ("on Mondays at 09:00" -> "on Tuesdays at 10:00"). So the band is
only half of the decision: `judge` (and `best_match` given the new text) asks
memory.lifecycle.facts_subject whether the differing words name another thing (a new fact,
whatever the overlap), change a value (a revision, even below 0.6 or above 0.85) or flip a
negation (a contradiction, handled as a revision that the write path flags).

Candidate selection runs in memory.lifecycle.facts against the FTS index; this module ranks what the
index returned (`shortlist`): given the rows holding each of a fact's rare words, it keeps the
rows that can still reach the revision band, most shared rare words first.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from memory.lifecycle import facts_subject

DUPLICATE_AT = Fraction(85, 100)
REVISION_AT = Fraction(60, 100)

Decision = Literal["duplicate", "revision", "new"]

_WORD = re.compile(r"\w+", re.UNICODE)


def tokens(text: str) -> frozenset[str]:
    """The token set of a text: lowercased \\w+ runs."""
    return frozenset(_WORD.findall((text or "").lower()))


def overlap(a: frozenset[str], b: frozenset[str]) -> tuple[int, int]:
    """(|a & b|, |a | b|)."""
    shared = len(a & b)
    return shared, len(a) + len(b) - shared


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    """|a & b| / |a | b|; 0.0 when both are empty."""
    shared, union = overlap(a, b)
    return shared / union if union else 0.0


def decide_overlap(shared: int, union: int) -> Decision:
    """The band for an overlap of `shared` tokens out of `union` (exact fractions)."""
    if union <= 0:
        return "new"
    if shared * DUPLICATE_AT.denominator >= DUPLICATE_AT.numerator * union:
        return "duplicate"
    if shared * REVISION_AT.denominator >= REVISION_AT.numerator * union:
        return "revision"
    return "new"


def decide(a: frozenset[str], b: frozenset[str]) -> Decision:
    """The band for two token sets."""
    return decide_overlap(*overlap(a, b))


def judge(old_text: str, new_text: str, shared: int, union: int) -> tuple[Decision, facts_subject.Verdict]:
    """The decision for a new fact against one stored fact: the overlap band, corrected by the
    roles of the differing words (facts_subject.classify)."""
    verdict = facts_subject.classify(old_text, new_text)
    band = decide_overlap(shared, union)
    if verdict.kind == "new":
        return "new", verdict
    if verdict.kind == "duplicate":
        return ("duplicate" if band == "duplicate" else "revision"), verdict
    if verdict.rule == "reworded":
        return band, verdict  # only ordinary words differ: the overlap bands decide, as before
    if band == "new" and verdict.rule == "value_changed" and not verdict.only_values:
        return "new", verdict  # below the band, only a change of values alone is a revision
    return "revision", verdict  # a value changed or the fact was turned round


# Below this overlap a stored fact is not worth asking facts_subject about (a value revision of
# a short fact can fall to ~0.4: "on Mondays at 09:00" -> "on Tuesdays at 10:00" is 5/9).
CONSIDER_AT = Fraction(1, 3)


def worth_judging(shared: int, union: int) -> bool:
    return union > 0 and shared * CONSIDER_AT.denominator >= CONSIDER_AT.numerator * union


@dataclass(frozen=True)
class Match:
    """The closest stored fact: its id, the overlap and the band it falls in."""

    chunk_id: int
    shared: int
    union: int
    decision: Decision
    verdict: facts_subject.Verdict | None = None

    @property
    def score(self) -> float:
        return self.shared / self.union if self.union else 0.0


def best_match(
    new: frozenset[str], candidates: Iterable[tuple[int, str]], *, text: str | None = None
) -> Match | None:
    """The candidate (id, text) with the highest Jaccard against `new`; ties go to the newest id.

    None when there are no candidates or none reaches the revision band. Given the new fact's
    `text`, the band is corrected by `judge`: the best-overlapping candidate about the same thing
    wins, and one about another thing is never matched.
    """
    if text is not None:
        return _best_judged(new, candidates, text)
    best: tuple[Fraction, int, int, int] | None = None
    for chunk_id, text in candidates:
        shared, union = overlap(new, tokens(text))
        if not union:
            continue
        key = (Fraction(shared, union), chunk_id, shared, union)
        if best is None or key[:2] > best[:2]:
            best = key
    if best is None:
        return None
    _, chunk_id, shared, union = best
    decision = decide_overlap(shared, union)
    return None if decision == "new" else Match(chunk_id, shared, union, decision)


def _best_judged(new: frozenset[str], candidates: Iterable[tuple[int, str]], text: str) -> Match | None:
    scored = []
    for chunk_id, old_text in candidates:
        shared, union = overlap(new, tokens(old_text))
        if worth_judging(shared, union):
            scored.append((Fraction(shared, union), chunk_id, shared, union, old_text))
    scored.sort(key=lambda row: row[:2], reverse=True)
    for _, chunk_id, shared, union, old_text in scored:
        decision, verdict = judge(old_text, text, shared, union)
        if decision != "new":
            return Match(chunk_id, shared, union, decision, verdict)
    return None


def max_missing(n: int) -> int:
    """How many of a fact's n tokens another fact may lack and still reach the revision band.

    J(A, B) >= 3/5 needs |A & B| >= 3/5 |A | B| >= 3/5 n, so B lacks at most n - ceil(3n/5).
    """
    need = -(-REVISION_AT.numerator * n // REVISION_AT.denominator)  # ceil(3n/5)
    return n - need


@dataclass(frozen=True)
class Shortlist:
    """Stored rows worth comparing, best first, and whether no row in reach can be missing."""

    ids: tuple[int, ...]
    exact: bool


def shortlist(n: int, postings: Mapping[str, Sequence[int]], *, limit: int) -> Shortlist:
    """Rank rows by how many of a fact's rare words they hold, given each rare word's rows.

    `n` is the fact's token count; `postings` maps each of its rare words (ones whose complete
    row list is known) to the rows holding it. A row in reach of the revision band lacks at
    most d = max_missing(n) of the fact's tokens, so it holds at least r - d of the r rare
    words: rows below that are dropped. Order: more shared rare words first, then newest.
    `exact` is True when r - d >= 1, i.e. every row in reach holds a rare word and so is
    ranked here; otherwise a row sharing only common words with the fact can be missed.
    """
    r = len(postings)
    if r == 0:
        return Shortlist((), False)
    need = r - max_missing(n)
    counts = Counter(itertools.chain.from_iterable(set(rows) for rows in postings.values()))
    floor = max(need, 1)
    kept = [(c, row) for row, c in counts.items() if c >= floor]
    kept.sort(reverse=True)
    return Shortlist(tuple(row for _, row in kept[:limit]), need >= 1)
