"""bench.recall_splits --diagnose: where a miss's first evidence turn sits."""

from bench.recall_splits import _band, _first


def test_first_evidence_rank_skips_left_out_rows_and_other_turns() -> None:
    turn_of = {1: "c:D1:1", 2: "c:D1:2", 3: "c:D1:3"}
    evidence = frozenset({"c:D1:3"})
    assert _first([1, None, 2, 3], evidence, turn_of) == 4
    assert _first([1, 2], evidence, turn_of) is None


def test_bands_split_the_ranks_a_miss_can_have() -> None:
    assert [_band(r) for r in (None, 3, 10, 11, 20, 21, 50, 51)] == [
        "absent",
        "1-10",
        "1-10",
        "11-20",
        "11-20",
        "21-50",
        "21-50",
        ">50",
    ]


def test_only_the_date_variants_fuse_the_named_days_rows() -> None:
    from bench.recall_splits import Pools, rankings, tail_of

    pools = Pools("q", [1, 2], [2, 3], {}, frozenset(), "A", "temporal", None, dated=[4, 3])
    assert rankings("base", pools) == [[1, 2], [2, 3]]
    assert rankings("datelist", pools) == [[1, 2], [2, 3], [4, 3]]
    # datepool: the named days' rows are candidates; the vector ranking keeps their ranks
    pools.deep = [3, 9, 4, 2]
    # (9, outside the pool, is the vector tail: structure.Weights.tail_depth)
    assert rankings("datepool", pools)[1] == [3, 9, 4, 2]
    assert tail_of("datepool", pools) == [9]
