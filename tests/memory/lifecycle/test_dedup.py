"""Pure facts-consolidation math (no database): tokens, Jaccard bands, shortlist ranking."""

from __future__ import annotations

import pytest

from memory.lifecycle import dedup


def pair(shared: int, only_a: int, only_b: int) -> tuple[frozenset[str], frozenset[str]]:
    """Two token sets with exactly `shared` common tokens and the given private ones."""
    common = [f"s{i}" for i in range(shared)]
    a = frozenset(common + [f"a{i}" for i in range(only_a)])
    b = frozenset(common + [f"b{i}" for i in range(only_b)])
    return a, b


def test_tokens_lowercase_dedup_and_keep_stopwords():
    assert dedup.tokens("The user does NOT deploy; the user rests.") == frozenset(
        {"the", "user", "does", "not", "deploy", "rests"}
    )
    assert dedup.tokens("") == frozenset()


def test_jaccard_values():
    a, b = pair(6, 2, 2)
    assert dedup.jaccard(a, b) == pytest.approx(0.6)
    assert dedup.overlap(a, b) == (6, 10)
    assert dedup.jaccard(frozenset(), frozenset()) == 0.0


@pytest.mark.parametrize(
    ("shared", "only_a", "only_b", "expected"),
    [
        (17, 1, 2, "duplicate"),  # 17/20 = 0.85 exactly: duplicate
        (20, 0, 0, "duplicate"),
        (16, 2, 2, "revision"),  # 16/20 = 0.80
        (84, 8, 8, "revision"),  # 84/100 = 0.84, just under the duplicate edge
        (6, 2, 2, "revision"),  # 6/10 = 0.6 exactly: revision
        (59, 20, 21, "new"),  # 59/100 = 0.59, just under the revision edge
        (5, 3, 2, "new"),  # 5/10
        (0, 3, 3, "new"),
    ],
)
def test_band_edges_are_exact(shared, only_a, only_b, expected):
    a, b = pair(shared, only_a, only_b)
    assert dedup.decide(a, b) == expected
    assert dedup.decide(b, a) == expected


def test_decide_overlap_integer_edges():
    assert dedup.decide_overlap(17, 20) == "duplicate"
    assert dedup.decide_overlap(3, 5) == "revision"
    assert dedup.decide_overlap(0, 0) == "new"


def test_best_match_prefers_highest_then_newest():
    new = frozenset("a b c d e f g h i j".split())
    candidates = [
        (1, "a b c d e f g x y z"),  # 7/13
        (2, "a b c d e f g h i z"),  # 9/11: best
        (3, "a b c d e f g h i q"),  # 9/11 too, newer: wins the tie
    ]
    match = dedup.best_match(new, candidates)
    assert match == dedup.Match(chunk_id=3, shared=9, union=11, decision="revision")
    assert match.score == pytest.approx(9 / 11)


def test_best_match_none_below_revision_band():
    assert dedup.best_match(frozenset("a b c".split()), [(1, "a x y z")]) is None
    assert dedup.best_match(frozenset("a b".split()), []) is None


@pytest.mark.parametrize(("n", "missing"), [(1, 0), (2, 0), (3, 1), (5, 2), (8, 3), (10, 4), (20, 8)])
def test_max_missing(n, missing):
    assert dedup.max_missing(n) == missing
    # the bound is tight: lacking `missing` tokens (and adding none) still reaches 0.6
    assert dedup.decide_overlap(n - missing, n) != "new"
    if n - missing - 1 >= 0:
        assert dedup.decide_overlap(n - missing - 1, n) == "new"


def test_shortlist_keeps_rows_that_can_reach_the_band_most_shared_first():
    # a 10-token fact with 6 rare words: a row in reach lacks <= 4 tokens, so holds >= 2 rare ones
    postings = {
        "r1": [10, 11, 12],
        "r2": [10, 11],
        "r3": [10, 13],
        "r4": [10],
        "r5": [14],
        "r6": [],
    }
    short = dedup.shortlist(10, postings, limit=10)
    assert short.ids == (10, 11)  # 10 holds 4, 11 holds 2; 12, 13, 14 hold one: out of reach
    assert short.exact is True
    assert dedup.shortlist(10, postings, limit=1).ids == (10,)


def test_shortlist_with_few_rare_words_is_best_effort():
    short = dedup.shortlist(10, {"r1": [5, 6], "r2": [6]}, limit=10)
    assert short.ids == (6, 5)
    assert short.exact is False
    assert dedup.shortlist(3, {}, limit=10) == dedup.Shortlist((), False)
